// A stand-in for one SQS FIFO queue on loopback (no AWS is reachable from tests), for the webhook
// functions: the two calls they make (SendMessageBatch, ChangeMessageVisibility) in SQS's JSON 1.0
// protocol, checked as SQS checks them (signature, target, content type, the queue's URL, a FIFO
// queue's group and deduplication ids), answered as SQS answers (each entry's MD5, which the SDK
// verifies). What the event source mapping does with the queue is `receive` and `remove`: it
// hands messages to the delivery function as an SQS event, and deletes those it did not report failed.
import { createHash, randomUUID } from 'node:crypto'
import { createServer, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { SQSEvent, SQSRecord } from 'aws-lambda'
import { checkSignature, headerOf, type FakeCredentials } from './sigv4.js'

interface Stored {
  readonly messageId: string
  readonly body: string
  readonly group: string
  readonly deduplicationId: string
  readonly sentAt: number
  receiveCount: number
  receiptHandle: string
}

export interface FakeSqs {
  readonly endpoint: string
  readonly queueUrl: string
  /** Every call as received: its operation and input. */
  readonly calls: { operation: string; input: Record<string, unknown> }[]
  /** The messages in the queue, in the order sent. */
  readonly messages: readonly Stored[]
  /** Fails the next `count` calls with a 500 (InternalError). */
  failNext(count: number): void
  /** Every message in the queue as one SQS event, each received once more. */
  receive(): SQSEvent
  /** Deletes the messages of `event` but those `failures` names (what the event source mapping does). */
  remove(event: SQSEvent, failures: readonly { itemIdentifier: string }[]): void
  close(): Promise<void>
}

/** An operation's answer: its result, or the error type and message SQS answers with. */
type Outcome = { result: object; error?: undefined } | { error: [type: string, message: string] }

const DEDUPLICATION_MS = 5 * 60_000
const md5 = (text: string) => createHash('md5').update(text, 'utf8').digest('hex')

function answer(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'Content-Type': 'application/x-amz-json-1.0' })
  res.end(JSON.stringify(body))
}

/** The queue itself: FIFO deduplication, receipt handles, and what the event source mapping sees. */
class FifoQueue {
  readonly messages: Stored[] = []
  private readonly deduplicated = new Map<string, number>()

  constructor(private readonly region: string) {}

  sendBatch(input: { Entries?: { Id: string; MessageBody: string; MessageGroupId?: string; MessageDeduplicationId?: string }[] }): Outcome {
    const entries = input.Entries ?? []
    if (entries.length === 0) return { error: ['EmptyBatchRequest', 'There should be at least one SendMessageBatchRequestEntry in the request.'] }
    if (entries.length > 10) return { error: ['TooManyEntriesInBatchRequest', `Maximum number of entries per request are 10. You have sent ${entries.length}.`] }
    const Successful = []
    for (const entry of entries) {
      if (entry.MessageGroupId === undefined) return { error: ['MissingParameter', 'The request must contain the parameter MessageGroupId.'] }
      if (entry.MessageDeduplicationId === undefined) return { error: ['InvalidParameterValue', 'The queue should either have ContentBasedDeduplication enabled or MessageDeduplicationId provided explicitly'] }
      const messageId = randomUUID()
      const seen = this.deduplicated.get(entry.MessageDeduplicationId)
      // A FIFO queue accepts a duplicate within 5 minutes and queues nothing.
      if (seen === undefined || Date.now() - seen > DEDUPLICATION_MS) {
        this.deduplicated.set(entry.MessageDeduplicationId, Date.now())
        this.messages.push({ messageId, body: entry.MessageBody, group: entry.MessageGroupId, deduplicationId: entry.MessageDeduplicationId, sentAt: Date.now(), receiveCount: 0, receiptHandle: '' })
      }
      Successful.push({ Id: entry.Id, MessageId: messageId, MD5OfMessageBody: md5(entry.MessageBody), SequenceNumber: String(this.messages.length).padStart(20, '0') })
    }
    return { result: { Successful, Failed: [] } }
  }

  changeVisibility(input: { ReceiptHandle?: string; VisibilityTimeout?: number }): Outcome {
    const message = this.messages.find((candidate) => candidate.receiptHandle === input.ReceiptHandle)
    if (message === undefined) return { error: ['ReceiptHandleIsInvalid', `The input receipt handle "${input.ReceiptHandle}" is not a valid receipt handle.`] }
    if (typeof input.VisibilityTimeout !== 'number' || input.VisibilityTimeout < 0 || input.VisibilityTimeout > 43_200) return { error: ['InvalidParameterValue', 'Value for parameter VisibilityTimeout is invalid.'] }
    return { result: {} }
  }

  receive(): SQSEvent {
    return {
      Records: this.messages.map((message) => {
        message.receiveCount += 1
        message.receiptHandle = randomUUID()
        return this.record(message)
      }),
    }
  }

  remove(event: SQSEvent, failed: readonly { itemIdentifier: string }[]): void {
    const kept = new Set(failed.map((failure) => failure.itemIdentifier))
    for (const received of event.Records) {
      const index = this.messages.findIndex((message) => message.messageId === received.messageId)
      if (index >= 0 && !kept.has(received.messageId)) this.messages.splice(index, 1)
    }
  }

  private record(message: Stored): SQSRecord {
    return {
      messageId: message.messageId,
      receiptHandle: message.receiptHandle,
      body: message.body,
      attributes: {
        ApproximateReceiveCount: String(message.receiveCount),
        SentTimestamp: String(message.sentAt),
        SenderId: 'AROAEXAMPLE',
        ApproximateFirstReceiveTimestamp: String(Date.now()),
        MessageGroupId: message.group,
        MessageDeduplicationId: message.deduplicationId,
      },
      messageAttributes: {},
      md5OfBody: md5(message.body),
      eventSource: 'aws:sqs',
      eventSourceARN: `arn:aws:sqs:${this.region}:123456789012:webhook-deliveries.fifo`,
      awsRegion: this.region,
    }
  }
}

export async function fakeSqs(options: { credentials: FakeCredentials; region: string }): Promise<FakeSqs> {
  const calls: FakeSqs['calls'] = []
  const queue = new FifoQueue(options.region)
  let failures = 0
  let queueUrl = ''
  const fault = (res: ServerResponse, type: string, message: string, status = 400) => answer(res, status, { __type: `com.amazonaws.sqs#${type}`, message })
  const server = createServer((req, res) => {
    let body = ''
    req.on('data', (chunk: Buffer) => (body += chunk.toString()))
    req.on('end', () => void (async () => {
      const signature = await checkSignature(req, body, options.credentials, options.region, 'sqs')
      if (signature.signature === 'missing') return fault(res, 'MissingAuthenticationToken', 'Missing Authentication Token')
      if (signature.signature === 'wrong' || !signature.credential?.startsWith(`${options.credentials.accessKeyId}/`)) return fault(res, 'InvalidClientTokenId', 'The security token included in the request is invalid.', 403)
      if (headerOf(req, 'content-type') !== 'application/x-amz-json-1.0') return fault(res, 'InvalidParameterValue', 'Unsupported content type')
      const operation = (headerOf(req, 'x-amz-target') ?? '').replace(/^AmazonSQS\./, '')
      const input = JSON.parse(body) as Record<string, unknown>
      calls.push({ operation, input })
      if (failures > 0) {
        failures -= 1
        return fault(res, 'InternalError', 'We encountered an internal error. Please try again.', 500)
      }
      if (input.QueueUrl !== queueUrl) return fault(res, 'QueueDoesNotExist', 'The specified queue does not exist.')
      const outcome: Outcome = operation === 'SendMessageBatch' ? queue.sendBatch(input) : operation === 'ChangeMessageVisibility' ? queue.changeVisibility(input) : { error: ['UnknownOperationException', ''] }
      if (outcome.error !== undefined) return fault(res, ...outcome.error)
      answer(res, 200, outcome.result)
    })())
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  queueUrl = `${endpoint}/123456789012/webhook-deliveries.fifo`
  return {
    endpoint,
    queueUrl,
    calls,
    messages: queue.messages,
    failNext: (count) => void (failures = count),
    receive: () => queue.receive(),
    remove: (event, failed) => queue.remove(event, failed),
    close: () => {
      server.closeAllConnections()
      return new Promise((resolve) => server.close(() => resolve()))
    },
  }
}
