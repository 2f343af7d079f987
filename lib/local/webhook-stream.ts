// Webhooks in `npm start` (integration.md §20): the same consumer as on AWS, fed from DynamoDB
// Local's stream by polling its shards (a parent shard before its children), and a delivery queue
// in the process. A shard's cursor is stored in the table only once every message of the records
// before it is finished, so a process killed at any moment reads again, after a restart, every
// record whose messages were not all delivered (at least once; the same `webhook-id`s).
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb'
import type { ContentType } from '../content-types.js'
import { StreamReader } from '../storage/stream-reader.js'
import { WebhookStore } from '../storage/webhooks.js'
import { messagesOf } from '../webhooks/consumer.js'
import type { WebhookService } from '../webhooks/service.js'
import { DeliveryQueue } from './webhook-queue.js'

export interface WebhookStreamOptions {
  readonly db: DynamoDBDocumentClient
  readonly tableName: string
  readonly types: readonly ContentType[]
  readonly service: WebhookService
  /** Pause between reads of a shard that had nothing new (ms). */
  readonly idleMs?: number
  /** Called with an error the loop survived (logged by npm start). */
  readonly onError?: (error: unknown) => void
}

export interface WebhookStream {
  stop(): Promise<void>
}

/** Starts reading the table's stream and delivering its events; stop() ends both. */
export async function startWebhookStream(options: WebhookStreamOptions): Promise<WebhookStream> {
  const reader = await StreamReader.open(options.db, options.tableName)
  const queue = new DeliveryQueue(options.service, options.service.settings)
  const store = options.service.storage
  const idleMs = options.idleMs ?? 200
  let stopped = false
  const finished = new Set<string>()
  const running = new Map<string, Promise<void>>()
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

  const readShard = async (shardId: string) => {
    let lastRead = await store.cursor(shardId)
    let iterator = await reader.iterator(shardId, lastRead)
    let saved = Promise.resolve() // cursors are stored in stream order
    while (!stopped && iterator !== undefined) {
      const page = await reader.read(iterator)
      if (page === undefined) {
        iterator = await reader.iterator(shardId, lastRead)
        continue
      }
      iterator = page.next
      const last = page.records.at(-1)?.sequenceNumber
      if (last === undefined) {
        if (iterator !== undefined) await pause(idleMs)
        continue
      }
      lastRead = last
      // The records of this consumer's own cursor writes alone: nothing to deliver, and storing the
      // cursor again would make one more such record, and so on, five writes a second while idle.
      if (page.records.every((record) => WebhookStore.isCursor(record.newImage ?? record.oldImage))) continue
      const messages = await messagesOf(page.records, options.types, await options.service.listStored(), (documentId, list) => store.currentItem(documentId, list))
      const delivered = queue.enqueue(messages)
      saved = Promise.all([saved, delivered]).then(() => (stopped ? undefined : store.putCursor(shardId, last)))
    }
    await saved
    if (!stopped) finished.add(shardId)
  }

  const loop = async () => {
    while (!stopped) {
      try {
        const shards = await reader.shards()
        const listed = new Set(shards.map((shard) => shard.id))
        for (const shard of shards) {
          // A child shard holds later changes of the parent's keys: it waits until the parent is read to its end.
          const ready = shard.parentId === undefined || finished.has(shard.parentId) || !listed.has(shard.parentId)
          if (running.has(shard.id) || finished.has(shard.id) || !ready) continue
          running.set(shard.id, readShard(shard.id).catch((error) => {
            options.onError?.(error)
            running.delete(shard.id) // read again from its cursor on the next look
          }))
        }
      } catch (error) {
        options.onError?.(error)
      }
      await pause(1000)
    }
  }
  const looping = loop()
  return {
    async stop() {
      stopped = true
      queue.stop()
      await looping
      reader.close()
    },
  }
}
