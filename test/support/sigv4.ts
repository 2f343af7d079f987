// What an AWS service checks of a request's SigV4 signature before it looks at the request, for
// the loopback stand-ins of services tests cannot reach (Secrets Manager, SQS): the Authorization
// header's parts, and the signature computed again with the SDK's own signer and SHA-256 from the
// credentials the stand-in knows, the signed headers and the body.
import { Sha256 } from '@smithy/core/checksum'
import { SignatureV4 } from '@smithy/signature-v4'
import type { IncomingMessage } from 'node:http'

export interface FakeCredentials {
  accessKeyId: string
  secretAccessKey: string
  sessionToken?: string
}

/** A request's signature as received and checked. */
export interface SignatureCheck {
  /** The Authorization header's `Credential=` part, e.g. `AKIA…/20260101/eu-west-1/secretsmanager/aws4_request`. */
  credential: string | undefined
  signedHeaders: string[]
  /** The X-Amz-Security-Token header. */
  securityToken: string | undefined
  /** `valid`, `missing` (no SigV4 Authorization or X-Amz-Date), or `wrong`. */
  signature: 'valid' | 'missing' | 'wrong'
}

const AUTHORIZATION = /^AWS4-HMAC-SHA256 Credential=([^,]+), SignedHeaders=([a-z0-9;-]+), Signature=([0-9a-f]{64})$/
/** SigV4's X-Amz-Date, e.g. 20260101T120000Z, as a Date. */
const signingDate = (value: string) => new Date(value.replace(/^(\d{4})(\d\d)(\d\d)T(\d\d)(\d\d)(\d\d)Z$/, '$1-$2-$3T$4:$5:$6Z'))
/** How far from the server's clock a request's date may be, as AWS allows. */
const MAX_SKEW_MS = 5 * 60_000

/** The header `name` of `req`, when sent once. */
export const headerOf = (req: IncomingMessage, name: string) => (typeof req.headers[name] === 'string' ? (req.headers[name] as string) : undefined)

/** Checks `req`'s signature for `service` in `region` against `credentials`. */
export async function checkSignature(req: IncomingMessage, body: string, credentials: FakeCredentials, region: string, service: string): Promise<SignatureCheck> {
  const [, credential, signed] = AUTHORIZATION.exec(headerOf(req, 'authorization') ?? '') ?? []
  const amzDate = headerOf(req, 'x-amz-date')
  const check: SignatureCheck = { credential, signedHeaders: signed?.split(';') ?? [], securityToken: headerOf(req, 'x-amz-security-token'), signature: 'missing' }
  if (signed === undefined || amzDate === undefined) return check
  const date = signingDate(amzDate)
  // Sign the same request again: the headers it signed (the signer adds the date and token itself).
  const headers = Object.fromEntries(check.signedHeaders.filter((name) => name !== 'x-amz-date' && name !== 'x-amz-security-token').map((name) => [name, headerOf(req, name) ?? '']))
  const signer = new SignatureV4({ service, region, credentials, sha256: Sha256 })
  const expected = await signer.sign({ method: req.method!, protocol: 'http:', hostname: '127.0.0.1', path: req.url!, query: {}, headers, body }, { signingDate: date })
  const valid = expected.headers.authorization === headerOf(req, 'authorization') && Math.abs(date.getTime() - Date.now()) < MAX_SKEW_MS
    && check.signedHeaders.includes('host') && check.securityToken === credentials.sessionToken
  return { ...check, signature: valid ? 'valid' : 'wrong' }
}
