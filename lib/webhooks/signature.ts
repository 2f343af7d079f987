// Standard Webhooks signatures (https://www.standardwebhooks.com): the secret is `whsec_` and the
// base64 of random bytes; a message is signed as `v1,<base64 HMAC-SHA256 of id.timestamp.body>`
// with the decoded secret, so any Standard Webhooks library verifies it.
import { createHmac, randomBytes } from 'node:crypto'

const PREFIX = 'whsec_'

/** A new signing secret (24 random bytes, as the spec recommends 24 to 64). */
export function newSecret(): string {
  return `${PREFIX}${randomBytes(24).toString('base64')}`
}

/** The `webhook-signature` value of a message. */
export function sign(secret: string, messageId: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64')
  return `v1,${createHmac('sha256', key).update(`${messageId}.${timestamp}.${body}`).digest('base64')}`
}
