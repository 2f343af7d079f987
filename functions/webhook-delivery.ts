// Deliveries from the FIFO queue (integration.md §20): one attempt per message received. A failure
// hides the message for the next delay of the retry schedule (ChangeMessageVisibility: a FIFO
// group waits behind its first message, so a document's later events never overtake it) and is
// reported as a batch item failure, with every later message of its group in the batch; after
// `webhooks.retryForMs` (24 h) since it was queued, the message is kept as failed in the log and deleted.
import { ChangeMessageVisibilityCommand } from '@aws-sdk/client-sqs'
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda'
import type { Message } from '../lib/webhooks/messages.js'
import { retryDelay } from '../lib/webhooks/schedule.js'
import { config, sqs, WEBHOOK_QUEUE_URL, webhooks } from './webhook-runtime.js'

export const handler = async (event: SQSEvent): Promise<SQSBatchResponse> => {
  const failed = new Set<string>()
  const batchItemFailures: { itemIdentifier: string }[] = []
  for (const record of event.Records) {
    const message = JSON.parse(record.body) as Message
    if (failed.has(message.group)) {
      batchItemFailures.push({ itemIdentifier: record.messageId })
      continue
    }
    const webhook = await webhooks.storedOrGone(message.webhookId)
    if (webhook === undefined || !webhook.isEnabled) continue
    const attempt = Number(record.attributes.ApproximateReceiveCount)
    const delay = retryDelay(config.webhooks, attempt, Number(record.attributes.SentTimestamp), Date.now())
    const result = await webhooks.attempt(webhook, message, delay !== undefined)
    if (result.error === null || delay === undefined) continue
    await sqs.send(new ChangeMessageVisibilityCommand({ QueueUrl: WEBHOOK_QUEUE_URL, ReceiptHandle: record.receiptHandle, VisibilityTimeout: Math.ceil(delay / 1000) }))
    failed.add(message.group)
    batchItemFailures.push({ itemIdentifier: record.messageId })
  }
  return { batchItemFailures }
}
