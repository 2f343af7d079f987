// The request log (Powertools Logger): one JSON line per request with the route pattern, status,
// duration, DynamoDB usage and its EMF metrics; 5xx lines carry the error and its cause; DEBUG
// lines for a sampled share of requests; no line holds a token or key. On Lambda (context, trace
// id): test/integration/lambda-handlers.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Hono } from 'hono'
import { DEFAULT_LOG_SETTINGS, type LogSettings } from '../../lib/observability/request-log.js'
import { createServices } from '../../lib/services.js'
import { freePort } from '../../lib/local/dynamodb-local.js'
import { createServerApp } from '../../lib/server-app.js'
import { ADMIN_TOKEN, TOKEN_HASH_SECRET, createTestContext, type TestContext } from '../support/context.js'

let ctx: TestContext
let app: Hono
let key: string
const lines: string[] = []
const entries = () => lines.map((line) => JSON.parse(line) as Record<string, any>)

/** Sends a request to the logging app and returns its response and the line it logged. */
async function logged(path: string, init: RequestInit = {}, target: Hono = app) {
  const before = lines.length
  const response = await target.request(path, init)
  const text = await response.text()
  expect(lines.length).toBe(before + 1) // exactly one line per request
  return { response, text, entry: JSON.parse(lines[before] as string) as Record<string, any> }
}

beforeAll(async () => {
  ctx = await createTestContext()
  key = await ctx.token()
  app = createServerApp(ctx.services, (line) => lines.push(line))
  app.get('/test/boom', () => {
    throw new Error('kaboom', { cause: new Error('the root cause') })
  })
})
afterAll(() => ctx.db.destroy())

describe('each request', () => {
  it('logs time, request id, method, route pattern, status, duration and DynamoDB usage', async () => {
    const created = await logged('/api/articles', { method: 'POST', headers: { Authorization: `Bearer ${key}` }, body: JSON.stringify({ data: { title: 'T' } }) })
    expect(created.response.status).toBe(200)
    expect(created.entry).toMatchObject({ level: 'INFO', method: 'POST', route: '/api/articles', status: 200, message: 'request', service: 'content-api', sampling_rate: 0 })
    expect(created.entry).toMatchObject({ Requests: 1, ServerErrors: 0, ConsumedWCU: created.entry.dynamodb.wcu, ConsumedRCU: created.entry.dynamodb.rcu })
    expect(created.entry._aws.CloudWatchMetrics[0].Namespace).toBe('LocalizedContentApi')
    expect(created.entry.dynamodb.calls).toBeGreaterThanOrEqual(2)
    expect(created.entry.dynamodb.wcu).toBeGreaterThan(0)
    expect(Date.parse(created.entry.timestamp)).toBeGreaterThan(Date.now() - 60_000)
    expect(created.entry.durationMs).toBeGreaterThanOrEqual(0)
    expect(created.entry.request_id).toMatch(/^[0-9a-f-]{36}$/)

    const documentId = JSON.parse(created.text).data.documentId
    const read = await logged(`/api/articles/${documentId}`, { headers: { Authorization: `Bearer ${key}` } })
    expect(read.entry).toMatchObject({ method: 'GET', route: '/api/articles/:documentId', status: 200 })
    expect(read.entry.dynamodb.rcu).toBeGreaterThan(0)
    expect(JSON.stringify(read.entry)).not.toContain(documentId) // the pattern, not the raw path
  })

  it('runs the per-request middleware once: the apps mounted in the server app write no line of their own', async () => {
    const written: unknown[] = []
    const write = process.stdout.write
    process.stdout.write = ((chunk: unknown) => written.push(chunk) > 0) as typeof process.stdout.write
    try {
      await logged('/api/articles', { headers: { Authorization: `Bearer ${key}` } })
      await logged('/api/i18n/locales')
      await logged('/admin/i18n/locales', { headers: { Authorization: `Bearer ${ADMIN_TOKEN}` } })
    } finally {
      process.stdout.write = write
    }
    expect(written).toEqual([])
  })

  it('logs an unknown path with no route, and a 405 with the route', async () => {
    const unknown = (await logged('/nope/123')).entry
    expect(unknown).toMatchObject({ status: 404 })
    expect(unknown).not.toHaveProperty('route')
    expect((await logged('/api/articles', { method: 'PATCH' })).entry).toMatchObject({ route: '/api/articles', status: 405 })
  })

  it('takes the request id from the Lambda context when there is one', async () => {
    const before = lines.length
    await app.fetch(new Request('http://x/api/articles'), { lambdaContext: { awsRequestId: 'c0ffee-1234' } })
    const entry = JSON.parse(lines[before] as string)
    expect(entry.function_request_id).toBe('c0ffee-1234')
    expect(entry).not.toHaveProperty('request_id')
  })
})

describe('errors', () => {
  it('logs an unexpected error with its stack and cause; the response says nothing of it', async () => {
    const { response, text, entry } = await logged('/test/boom')
    expect(response.status).toBe(500)
    expect(text).not.toMatch(/kaboom|root cause/)
    expect(entry).toMatchObject({ level: 'ERROR', status: 500, route: '/test/boom', error: { name: 'Error', message: 'kaboom', cause: { message: 'the root cause' } }, ServerErrors: 1 })
    expect(entry.error.stack).toContain('kaboom')
  })

  it('logs a 503 with DynamoDB down, with the failed calls and why they failed', async () => {
    const down = await createTestContext({}, { endpoint: `http://127.0.0.1:${await freePort()}`, maxAttempts: 1 })
    const downApp = createServerApp(down.services, (line) => lines.push(line))
    const { response, entry } = await logged('/api/articles', {}, downApp)
    expect(response.status).toBe(503)
    expect(entry).toMatchObject({ level: 'ERROR', status: 503, route: '/api/articles', error: { name: 'ServiceUnavailableError' } })
    expect(entry.dynamodb.calls).toBeGreaterThanOrEqual(1)
    expect(entry.dynamodb.failures.join(' ')).toContain('ECONNREFUSED')
    down.db.destroy()
  })
})

describe('debug lines', () => {
  /** A server app on the same table whose request log has `log` settings; its lines go to `written`. */
  const withSettings = (log: Partial<LogSettings>) => {
    const written: string[] = []
    const services = createServices(ctx.db, { ...ctx.config, log: { ...DEFAULT_LOG_SETTINGS, ...log } }, { adminToken: ADMIN_TOKEN, tokenHashSecret: TOKEN_HASH_SECRET }, ctx.services.types)
    return { written, sampled: createServerApp(services, (line) => written.push(line)) }
  }

  it('are not written at INFO', async () => {
    const { written, sampled } = withSettings({})
    await sampled.request('/api/articles', { headers: { Authorization: `Bearer ${key}` } })
    expect(written.map((line) => JSON.parse(line).level)).not.toContain('DEBUG')
  })

  it('list each DynamoDB call at DEBUG, or for every sampled request (sampling rate 1)', async () => {
    for (const log of [{ logLevel: 'DEBUG' as const }, { debugSampleRate: 1 }]) {
      const { written, sampled } = withSettings(log)
      await sampled.request('/api/articles', { headers: { Authorization: `Bearer ${key}` } })
      const debug = written.map((line) => JSON.parse(line)).find((entry) => entry.level === 'DEBUG' && entry.message === 'dynamodb calls')
      expect(debug?.message).toBe('dynamodb calls')
      expect(debug?.calls.length).toBeGreaterThanOrEqual(1)
      expect(debug?.calls[0]).toEqual({ command: expect.stringMatching(/^(Query|GetItem|BatchGetItem)$/), units: expect.any(Number), ms: expect.any(Number) })
      for (const line of written) expect(line).not.toContain(key)
    }
  })
})

it('never writes the admin token, an access key or an Authorization header value', async () => {
  const authorizations = [`Bearer ${ADMIN_TOKEN}`, `Bearer ${key}`]
  for (const authorization of authorizations) {
    await logged(`/admin/api-tokens?token=${key}`, { headers: { Authorization: authorization } })
    await logged(`/api/articles?${ADMIN_TOKEN}=${key}`, { headers: { Authorization: authorization } })
    await logged(`/admin/api-tokens/${key}`, { method: 'DELETE', headers: { Authorization: authorization } })
    await logged('/admin/api-tokens', { method: 'POST', headers: { Authorization: authorization }, body: JSON.stringify({ name: key, type: ADMIN_TOKEN }) })
    await logged('/test/boom', { headers: { Authorization: authorization } })
  }
  expect(entries().length).toBeGreaterThan(10)
  for (const line of lines) {
    for (const secret of [ADMIN_TOKEN, key, ...authorizations]) expect(line).not.toContain(secret)
  }
})
