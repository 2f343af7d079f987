// What a delivery sends: Strapi's `X-Strapi-Event`, the webhook's own headers, and the Standard
// Webhooks `webhook-id` (the message's, the same on every retry), `webhook-timestamp` and
// `webhook-signature`.
import type { StoredWebhook } from '../storage/webhooks.js'
import { sign } from './signature.js'

/** Strapi's event names (integration.md §20); media events fire once media is stored here. */
export const WEBHOOK_EVENTS = [
  'entry.create', 'entry.update', 'entry.delete', 'entry.publish', 'entry.unpublish', 'entry.draft-discard',
  'media.create', 'media.update', 'media.delete',
] as const

export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number]

/** The event of the `test` action (Strapi's name for it). */
export const TEST_EVENT = 'trigger-test'

/** Header names a webhook may not set: the ones a delivery itself sends. */
export const RESERVED_HEADERS = new Set(['content-type', 'content-length', 'host', 'x-strapi-event', 'webhook-id', 'webhook-timestamp', 'webhook-signature', 'connection', 'transfer-encoding'])

/** One message for one webhook: sent, and retried unchanged but for its timestamp and signature. */
export interface Message {
  readonly messageId: string
  readonly webhookId: number
  /** Messages of one group are delivered in order: `<webhook>#<documentId>`. */
  readonly group: string
  readonly event: string
  readonly body: string
}

/** The headers of one attempt of `message` at `nowMs`. */
export function deliveryHeaders(webhook: Pick<StoredWebhook, 'headers' | 'secret'>, message: Pick<Message, 'messageId' | 'event' | 'body'>, nowMs: number): Record<string, string> {
  const timestamp = Math.floor(nowMs / 1000)
  return {
    ...webhook.headers,
    'x-strapi-event': message.event,
    'webhook-id': message.messageId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': sign(webhook.secret, message.messageId, timestamp, message.body),
  }
}
