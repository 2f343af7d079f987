// The two webhook functions as Lambda runs them (integration.md §20): the stream function handed
// the table's change records exactly as DynamoDB Streams serves them to an event source mapping
// (read from DynamoDB Local's stream over its wire protocol, binary values base64 as in a Lambda
// event), sending to an SQS FIFO queue (a loopback stand-in that checks and answers as SQS does,
// test/support/fake-sqs.ts), and the delivery function handed that queue's messages as an SQS
// event, delivering to a real receiver; failures reported as the event source mappings expect.
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DescribeTableCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb'
import type { DynamoDBBatchResponse, DynamoDBStreamEvent, SQSBatchResponse, SQSEvent } from 'aws-lambda'
import { Webhook } from 'standardwebhooks'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createTestContext, withStream, type TestContext } from '../support/context.js'
import { fakeSqs, type FakeSqs } from '../support/fake-sqs.js'
import { startReceiver, type Receiver } from '../support/receiver.js'
import { shippedTypes } from '../support/types.js'

const REGION = 'eu-west-1'
const credentials = { accessKeyId: 'AKIAWEBHOOKTEST', secretAccessKey: 'webhook-test-secret-key' }
const ENV = ['AWS_REGION', 'TABLE_NAME', 'DYNAMODB_ENDPOINT', 'WEBHOOK_QUEUE_URL', 'AWS_ENDPOINT_URL_SQS', 'AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_SESSION_TOKEN', 'AWS_PROFILE',
  'CONTENT_TYPES_REGISTRY', 'WEBHOOKS_ALLOW_INSECURE', 'WEBHOOKS_ALLOW_PRIVATE', 'WEBHOOKS_FIRST_RETRY_MS', 'WEBHOOKS_MAX_RETRY_DELAY_MS']
const savedEnv = Object.fromEntries(ENV.map((key) => [key, process.env[key]]))

let ctx: TestContext
let sqs: FakeSqs
let receiver: Receiver
let registryDir: string
let streamFunction: (event: DynamoDBStreamEvent) => Promise<DynamoDBBatchResponse>
let deliveryFunction: (event: SQSEvent) => Promise<SQSBatchResponse>
let streamArn: string
let shardIterator: string | undefined

/** One call of DynamoDB Local's Streams API, answered as the wire carries it (no SDK decoding). */
async function streamsCall(operation: string, input: Record<string, unknown>): Promise<any> {
  const response = await fetch(ctx.endpoint, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-amz-json-1.0',
      'x-amz-target': `DynamoDBStreams_20120810.${operation}`,
      authorization: `AWS4-HMAC-SHA256 Credential=local/20260101/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=${'0'.repeat(64)}`,
    },
    body: JSON.stringify(input),
  })
  const body = await response.json()
  if (!response.ok) throw new Error(`${operation}: ${response.status} ${JSON.stringify(body)}`)
  return body
}

/** The stream records written since the last call, as the event source mapping hands them over. */
async function streamEvent(): Promise<DynamoDBStreamEvent> {
  if (shardIterator === undefined) {
    const { StreamDescription } = await streamsCall('DescribeStream', { StreamArn: streamArn })
    const shard = StreamDescription.Shards[0].ShardId as string
    shardIterator = (await streamsCall('GetShardIterator', { StreamArn: streamArn, ShardId: shard, ShardIteratorType: 'TRIM_HORIZON' })).ShardIterator
  }
  const { Records, NextShardIterator } = await streamsCall('GetRecords', { ShardIterator: shardIterator })
  shardIterator = NextShardIterator
  return { Records: Records.map((record: object) => ({ ...record, eventSourceARN: streamArn })) }
}

/** What the SQS event source mapping does once: the queue's messages to the delivery function, then deletes those not failed. */
async function deliverQueue(): Promise<SQSBatchResponse> {
  const event = sqs.receive()
  const result = await deliveryFunction(event)
  sqs.remove(event, result.batchItemFailures)
  return result
}

beforeAll(async () => {
  ctx = await withStream(await createTestContext({ webhooks: { allowInsecure: true, allowPrivate: true } } as never))
  sqs = await fakeSqs({ credentials, region: REGION })
  receiver = await startReceiver()
  registryDir = mkdtempSync(join(tmpdir(), 'registry-'))
  writeFileSync(join(registryDir, 'types.json'), JSON.stringify(shippedTypes))
  for (const key of ENV) delete process.env[key]
  // What the stack sets (infra/webhooks.ts), with DynamoDB Local, the queue stand-in, and a
  // receiver on loopback over http (allowed here as in the other webhook tests).
  Object.assign(process.env, {
    AWS_REGION: REGION,
    TABLE_NAME: ctx.config.tableName,
    DYNAMODB_ENDPOINT: ctx.endpoint,
    WEBHOOK_QUEUE_URL: sqs.queueUrl,
    // The SDK's own variable for a service's endpoint: on AWS the queue URL is on the regional endpoint.
    AWS_ENDPOINT_URL_SQS: sqs.endpoint,
    AWS_ACCESS_KEY_ID: credentials.accessKeyId,
    AWS_SECRET_ACCESS_KEY: credentials.secretAccessKey,
    CONTENT_TYPES_REGISTRY: join(registryDir, 'types.json'),
    WEBHOOKS_ALLOW_INSECURE: 'true',
    WEBHOOKS_ALLOW_PRIVATE: 'true',
    WEBHOOKS_FIRST_RETRY_MS: '2000',
    WEBHOOKS_MAX_RETRY_DELAY_MS: '8000',
  })
  vi.resetModules()
  streamFunction = (await import('../../functions/webhook-stream.js')).handler
  deliveryFunction = (await import('../../functions/webhook-delivery.js')).handler
  const { Table } = await (ctx.db as unknown as DynamoDBClient).send(new DescribeTableCommand({ TableName: ctx.config.tableName }))
  streamArn = Table!.LatestStreamArn!
  await streamEvent() // past what creating the context wrote
})

afterAll(async () => {
  for (const [key, value] of Object.entries(savedEnv)) {
    if (value === undefined) delete process.env[key]
    else process.env[key] = value
  }
  rmSync(registryDir, { recursive: true, force: true })
  await Promise.all([sqs.close(), receiver.close()])
})

describe('the webhook functions on Lambda events', { timeout: 60_000 }, () => {
  let secret: string
  let documentId: string
  // A body past 4 KB of text: a large value as the stream carries it.
  const body = Array.from({ length: 40 }, (_, i) => ({ type: 'paragraph', children: [{ type: 'text', text: `Paragraph ${i}: ${randomBytes(48).toString('hex')}` }] }))

  it('queues a change from its stream record, in its document group with a stable deduplication id, and a second hand-over of the same records queues nothing', async () => {
    const created = await ctx.admin('POST', '/admin/webhooks', { name: 'lambda', url: receiver.url, events: ['entry.create', 'entry.update'] })
    expect(created.status).toBe(201)
    secret = ((await created.json()) as { data: { secret: string } }).data.secret
    await streamEvent() // the webhook's own item
    const written = await ctx.request('POST', '/api/articles', { token: await ctx.token(), body: { data: { title: 'On Lambda', slug: 'on-lambda', body } } })
    expect(written.status).toBe(200)
    documentId = ((await written.json()) as { data: { documentId: string } }).data.documentId

    const event = await streamEvent()
    expect(event.Records.length).toBeGreaterThan(0)
    expect(await streamFunction(event)).toEqual({ batchItemFailures: [] })
    const sends = sqs.calls.filter((call) => call.operation === 'SendMessageBatch')
    expect(sends.length).toBeGreaterThan(0)
    expect(sqs.messages).toHaveLength(1)
    expect(sqs.messages[0]).toMatchObject({ group: expect.stringContaining(documentId) })

    // The event source mapping retries a batch it is unsure of: the same ids, nothing queued twice.
    expect(await streamFunction(event)).toEqual({ batchItemFailures: [] })
    const entries = sqs.calls.filter((call) => call.operation === 'SendMessageBatch').map((call) => (call.input.Entries as { MessageDeduplicationId: string }[]).map((entry) => entry.MessageDeduplicationId))
    expect(entries.at(-1)).toEqual(entries[0])
    expect(sqs.messages).toHaveLength(1)
  })

  it('delivers the queued change, signed, with the entry as written', async () => {
    expect(await deliverQueue()).toEqual({ batchItemFailures: [] })
    const [delivered] = await receiver.waitFor(1)
    expect(delivered!.headers['x-strapi-event']).toBe('entry.create')
    const verified = new Webhook(secret).verify(delivered!.body, delivered!.headers as Record<string, string>) as { event: string; uid: string; entry: Record<string, unknown> }
    expect(verified).toMatchObject({ event: 'entry.create', model: 'article', uid: 'api::article.article', entry: { documentId, title: 'On Lambda', slug: 'on-lambda', body } })
    expect(sqs.messages).toHaveLength(0)
  })

  it('hides a failed delivery for the retry delay and reports it failed, then delivers it with the same webhook-id', async () => {
    const updated = await ctx.request('PUT', `/api/articles/${documentId}`, { token: await ctx.token(), body: { data: { title: 'Retried' } } })
    expect(updated.status).toBe(200)
    expect(await streamFunction(await streamEvent())).toEqual({ batchItemFailures: [] })
    expect(sqs.messages).toHaveLength(1)
    const messageId = sqs.messages[0]!.messageId

    receiver.respond = () => 503
    const before = sqs.calls.length
    expect(await deliverQueue()).toEqual({ batchItemFailures: [{ itemIdentifier: messageId }] })
    expect(sqs.calls.slice(before)).toEqual([{ operation: 'ChangeMessageVisibility', input: expect.objectContaining({ QueueUrl: sqs.queueUrl, VisibilityTimeout: 2 }) }])
    expect(receiver.failures).toHaveLength(1)

    receiver.respond = () => 200
    expect(await deliverQueue()).toEqual({ batchItemFailures: [] })
    const received = await receiver.waitFor(2)
    expect(received[1]!.headers['x-strapi-event']).toBe('entry.update')
    expect(received[1]!.headers['webhook-id']).toBe(receiver.failures[0]!.headers['webhook-id'])
    expect(JSON.parse(received[1]!.body).entry.title).toBe('Retried')
    expect(sqs.messages).toHaveLength(0)
  })

  it('reports the batch from its first record when SQS refuses it, so the mapping retries it whole', async () => {
    const updated = await ctx.request('PUT', `/api/articles/${documentId}`, { token: await ctx.token(), body: { data: { title: 'Queued later' } } })
    expect(updated.status).toBe(200)
    const event = await streamEvent()
    sqs.failNext(5) // past the SDK's own retries
    const result = await streamFunction(event)
    expect(result).toEqual({ batchItemFailures: [{ itemIdentifier: event.Records[0]!.dynamodb!.SequenceNumber }] })
    expect(sqs.messages).toHaveLength(0)
    expect(await streamFunction(event)).toEqual({ batchItemFailures: [] })
    expect(sqs.messages).toHaveLength(1)
    await deliverQueue()
    expect(JSON.parse((await receiver.waitFor(3))[2]!.body).entry.title).toBe('Queued later')
  })
})
