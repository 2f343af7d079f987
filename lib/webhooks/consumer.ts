// The stream consumer's core, the same on AWS (functions/webhook-stream.ts) and in `npm start`
// (lib/local/webhook-stream.ts): a batch of stream records in, the messages to deliver out, one
// per event and enabled webhook that subscribes to it. A message's id is derived from the record
// and the webhook, so a batch read twice (a retry, a restart) makes the same `webhook-id`s.
import { createHash } from 'node:crypto'
import { FILE_UID, type ContentType } from '../content-types.js'
import type { StoredWebhook } from '../storage/webhooks.js'
import { entryEventOf, versionChangeOf, type Neighbours, type StreamChange, type VersionChange } from './events.js'
import type { Message } from './messages.js'

type Item = Record<string, unknown>

export interface ConsumerRecord extends StreamChange {
  /** When the change was committed (the record's approximate creation time), ISO 8601. */
  readonly createdAt?: string
}

/** The id of the message of `record` for `webhookId`: stable across reads of the stream. */
export function messageIdOf(sequenceNumber: string, webhookId: number): string {
  return `msg_${createHash('sha256').update(`${sequenceNumber}:${webhookId}`).digest('base64url').slice(0, 32)}`
}

/**
 * The messages of `records` (in stream order) for `webhooks`; `current` reads an item of the table
 * when the batch does not show how the same commit left it.
 */
export async function messagesOf(records: readonly ConsumerRecord[], types: readonly ContentType[], webhooks: readonly StoredWebhook[], current: (documentId: string, list: string) => Promise<Item | null>): Promise<Message[]> {
  const enabled = webhooks.filter((webhook) => webhook.isEnabled && webhook.events.length > 0)
  if (enabled.length === 0) return []
  const messages: Message[] = []
  for (const [position, record] of records.entries()) {
    const change = versionChangeOf(record, types)
    if (change === undefined) continue
    // Naming an event may read the table: only when some webhook takes events of its family.
    const family = change.type.uid === FILE_UID ? 'media.' : 'entry.'
    const targets = enabled.filter((webhook) => webhook.events.some((event) => event.startsWith(family)))
    if (targets.length === 0) continue
    const event = await entryEventOf(change, neighboursIn(records, position, current), record.createdAt ?? new Date().toISOString())
    const body = JSON.stringify(event.body)
    for (const webhook of targets.filter((candidate) => candidate.events.includes(event.event))) {
      messages.push({ messageId: messageIdOf(record.sequenceNumber, webhook.id), webhookId: webhook.id, group: `${webhook.id}#${event.documentId}`, event: event.event, body })
    }
  }
  return messages
}

/**
 * How the commit of `records[position]` left other items of its document: the nearest record of
 * the batch on that item (the items of one transaction sit together in the shard), else the table.
 */
function neighboursIn(records: readonly ConsumerRecord[], position: number, current: (documentId: string, list: string) => Promise<Item | null>): Neighbours {
  return {
    async itemAfter(change: VersionChange, list: string) {
      for (let distance = 1; distance < records.length; distance++) {
        for (const at of [position + distance, position - distance]) {
          const image = records[at]?.newImage ?? records[at]?.oldImage
          if (image?.documentId === change.documentId && image.locale === list) return records[at]!.newImage ?? null
        }
      }
      return current(change.documentId, list)
    },
  }
}
