// What webhooks cost (issue 36): a write's latency and DynamoDB spend with no webhook against the
// same writes with a webhook subscribed and `npm start`'s stream consumer delivering them in the same
// process (on AWS the consumer is another function: off the request path entirely), in alternating
// blocks so both see the same machine; and the delay from a write's acknowledgement to its delivery
// at a local receiver (p50, p99), which the stream's polling interval dominates.
// `npm run bench:webhooks` runs it on its own DynamoDB Local (or DYNAMODB_ENDPOINT's); `npm run bench` runs it too.
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { parseConfig } from '../lib/config.js'
import { startWebhookStream } from '../lib/local/webhook-stream.js'
import { createServerApp } from '../lib/server-app.js'
import { createServices } from '../lib/services.js'
import { createDocumentClient } from '../lib/storage/client.js'
import { ensureTable } from '../lib/storage/schema.js'
import { CapacityMeter } from './capacity.js'
import { send } from './requests.js'
import { types } from './types.js'

export interface WebhookCost {
  readonly writesPerSide: number
  /** Median and 99th percentile of a create's latency, in ms, without and with webhooks. */
  readonly off: { p50: number; p99: number; calls: number; wcu: number }
  readonly on: { p50: number; p99: number; calls: number; wcu: number }
  /** From the write's answer to the receiver's arrival, in ms. */
  readonly delay: { p50: number; p99: number; delivered: number }
  /** The local consumer's polling interval, in ms. */
  readonly pollMs: number
}

const ADMIN_TOKEN = 'bench-admin-token-0123456789'
const secrets = { adminToken: ADMIN_TOKEN, tokenHashSecret: 'bench-token-hash-key-0123456789abcdefghij' }
/** `npm start`'s polling interval for an idle shard (lib/local/webhook-stream.ts's default). */
const POLL_MS = 200

const percentile = (values: readonly number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return Number((sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0).toFixed(1))
}

/** A receiver that notes when each delivery of a document arrived. */
async function startArrivals(): Promise<{ url: string; arrivals: Map<string, number>; close(): Promise<void> }> {
  const arrivals = new Map<string, number>()
  const server = createServer((request, response) => {
    let body = ''
    request.on('data', (chunk: Buffer) => (body += chunk.toString()))
    request.on('end', () => {
      const at = performance.now()
      arrivals.set(String((JSON.parse(body) as { entry: { documentId: string } }).entry.documentId), at)
      response.writeHead(204).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, arrivals, close: () => new Promise((resolve) => server.close(() => resolve())) }
}

/** Waits (a minute at most) until every acknowledged write has arrived. */
async function delivered(arrivals: ReadonlyMap<string, number>, acknowledged: ReadonlyMap<string, number>): Promise<void> {
  const deadline = performance.now() + 60_000
  while ([...acknowledged.keys()].some((documentId) => !arrivals.has(documentId)) && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50))
}

/** Measures `writes` creates each way (in blocks of 20, alternating) on a table of its own at `endpoint`. */
export async function measureWebhooks(endpoint: string, writes = 200, log: (line: string) => void = console.log): Promise<WebhookCost> {
  const tableName = `bench-webhooks-${Date.now()}`
  const db = createDocumentClient({ region: 'us-east-1', endpoint })
  const meter = new CapacityMeter(db)
  await ensureTable(createDocumentClient({ region: 'us-east-1', endpoint }), tableName)
  const config = parseConfig({ tableName, cacheTtlMs: 5000, rest: {}, webhooks: { allowInsecure: true, allowPrivate: true } } as never)
  const services = createServices(db, config, secrets, types)
  await services.access.ensurePublicRole()
  const app = createServerApp(services, () => undefined)
  const token = (JSON.parse(await send(app, 'POST', '/admin/api-tokens', 201, { token: ADMIN_TOKEN, body: { name: 'bench', type: 'full-access' } })) as { data: { accessKey: string } }).data.accessKey
  const receiver = await startArrivals()
  // The consumer's own client and services, as on AWS (another function): the meter sees the request path only.
  const consumerDb = createDocumentClient({ region: 'us-east-1', endpoint })
  const stream = await startWebhookStream({ db: consumerDb, tableName, types, service: createServices(consumerDb, config, secrets, types).webhooks, idleMs: POLL_MS })
  const side = { off: { ms: [] as number[], calls: 0, wcu: 0 }, on: { ms: [] as number[], calls: 0, wcu: 0 } }
  const acknowledged = new Map<string, number>()
  try {
    let hook: number | undefined
    for (let block = 0; block < (2 * writes) / 20; block++) {
      const on = block % 2 === 1
      if (on && hook === undefined) hook = (JSON.parse(await send(app, 'POST', '/admin/webhooks', 201, { token: ADMIN_TOKEN, body: { name: 'bench', url: receiver.url, events: ['entry.create'] } })) as { data: { id: number } }).data.id
      if (!on && hook !== undefined) {
        await delivered(receiver.arrivals, acknowledged)
        await send(app, 'DELETE', `/admin/webhooks/${hook}`, 204, { token: ADMIN_TOKEN })
        hook = undefined
      }
      const counts = side[on ? 'on' : 'off']
      for (let i = 0; i < 20; i++) {
        meter.take()
        const started = performance.now()
        const text = await send(app, 'POST', '/api/authors', 200, { token, body: { data: { name: `Writer ${block}-${i}` } } })
        const done = performance.now()
        const spent = meter.take()
        counts.ms.push(done - started)
        counts.calls += spent.calls
        counts.wcu += spent.wcu
        if (on) acknowledged.set((JSON.parse(text) as { data: { documentId: string } }).data.documentId, done)
      }
    }
    await delivered(receiver.arrivals, acknowledged)
    const delays = [...acknowledged].flatMap(([documentId, at]) => (receiver.arrivals.has(documentId) ? [receiver.arrivals.get(documentId)! - at] : []))
    const summary = (counts: typeof side.off) => ({ p50: percentile(counts.ms, 50), p99: percentile(counts.ms, 99), calls: counts.calls / counts.ms.length, wcu: Number((counts.wcu / counts.ms.length).toFixed(2)) })
    const result = { writesPerSide: writes, off: summary(side.off), on: summary(side.on), delay: { p50: percentile(delays, 50), p99: percentile(delays, 99), delivered: delays.length }, pollMs: POLL_MS }
    log(`webhooks: create p50 ${result.off.p50} ms off, ${result.on.p50} ms on (${(result.on.p50 / result.off.p50).toFixed(2)}x); ${result.on.calls} calls, ${result.on.wcu} WCU on vs ${result.off.calls}, ${result.off.wcu} off; delay to delivery p50 ${result.delay.p50} ms, p99 ${result.delay.p99} ms (${delays.length}/${acknowledged.size} delivered)`)
    return result
  } finally {
    await stream.stop()
    await receiver.close()
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { startDynamoLocal } = await import('../lib/local/dynamodb-local.js')
  const given = process.env.DYNAMODB_ENDPOINT
  const local = given === undefined ? await startDynamoLocal({ startTimeoutMs: 300_000 }) : undefined
  try {
    await measureWebhooks(given ?? local!.endpoint, Number(process.env.BENCH_WEBHOOK_WRITES ?? 200))
  } finally {
    await local?.stop()
  }
}
