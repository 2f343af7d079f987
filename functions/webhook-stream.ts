// The table's stream into the delivery queue (integration.md §20): the event source mapping hands
// over a batch of records in shard order; each becomes its messages (lib/webhooks/consumer.ts),
// sent to the FIFO queue under their group (webhook and document: delivered in order) with their
// id as deduplication id (a batch retried within 5 minutes is not queued twice). A failure
// reports the batch from its first record on; the mapping retries, bisects, and at last sends it
// to the on-failure queue.
import { SendMessageBatchCommand } from '@aws-sdk/client-sqs'
import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda'
import { toConsumerRecord } from '../lib/storage/stream-reader.js'
import { messagesOf } from '../lib/webhooks/consumer.js'
import { sqs, types, WEBHOOK_QUEUE_URL, webhooks } from './webhook-runtime.js'

export const handler = async (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> => {
  const records = event.Records.map((record) => toConsumerRecord({ ...record, dynamodb: { ...record.dynamodb, ApproximateCreationDateTime: record.dynamodb?.ApproximateCreationDateTime === undefined ? undefined : new Date(record.dynamodb.ApproximateCreationDateTime * 1000) } } as never))
  try {
    const messages = await messagesOf(records, types, await webhooks.listStored(), (documentId, list) => webhooks.storage.currentItem(documentId, list))
    for (let i = 0; i < messages.length; i += 10) {
      const entries = messages.slice(i, i + 10).map((message, n) => ({ Id: String(n), MessageBody: JSON.stringify(message), MessageGroupId: message.group, MessageDeduplicationId: message.messageId }))
      const { Failed = [] } = await sqs.send(new SendMessageBatchCommand({ QueueUrl: WEBHOOK_QUEUE_URL, Entries: entries }))
      if (Failed.length > 0) throw new Error(`SQS refused ${Failed.length} messages: ${Failed[0]?.Message ?? Failed[0]?.Code}`)
    }
    return { batchItemFailures: [] }
  } catch (error) {
    console.error('webhook stream batch failed', error)
    const first = event.Records[0]?.dynamodb?.SequenceNumber
    return { batchItemFailures: first === undefined ? [] : [{ itemIdentifier: first }] }
  }
}
