// Webhook delivery of integration.md §20 with real receivers: retries on the configured schedule
// with the same webhook-id, per-document order through an outage, no loss and no duplicate under
// concurrent writers, no redirect followed, and a server killed with SIGKILL after a commit still
// delivering it after a restart.
import { QueryCommand } from '@aws-sdk/lib-dynamodb'
import { Webhook } from 'standardwebhooks'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { ADMIN_TOKEN, createPeer, createTestContext, withStream, type TestContext } from '../support/context.js'
import { startLocal } from '../support/local-process.js'
import { startReceiver } from '../support/receiver.js'
import { hangGuard, rounds } from '../support/rounds.js'
import { META } from '../../lib/table.js'
import { createWebhookContext, type WebhookContext } from '../support/webhooks.js'

let ctx: WebhookContext
let token: string

beforeAll(async () => {
  ctx = await createWebhookContext({ firstRetryMs: 100, maxRetryDelayMs: 400 })
  token = await ctx.token()
})
afterAll(() => ctx.stream.stop())
// A test's webhooks are deleted after it: a closed receiver's webhook would retry every later write.
const hooks: number[] = []
afterEach(async () => {
  for (const id of hooks.splice(0)) await ctx.admin('DELETE', `/admin/webhooks/${id}`)
})

const create = async (name: string, through: Pick<TestContext, 'request'> = ctx) => {
  const response = await through.request('POST', '/api/authors', { token, body: { data: { name } } })
  expect(response.status).toBe(200)
  return ((await response.json()) as { data: { documentId: string } }).data.documentId
}

describe('webhook delivery', { timeout: hangGuard(600_000) }, () => {
  it('retries a receiver that is down, then delivers every change of a document in commit order, each with one webhook-id throughout', async () => {
    const receiver = await startReceiver()
    try {
      const { id, secret } = await ctx.hook(receiver.url, ['entry.create', 'entry.update'])
      hooks.push(id)
      receiver.respond = () => 503
      const documentId = await create('v0')
      for (let i = 1; i <= 4; i++) {
        const response = await ctx.request('PUT', `/api/authors/${documentId}`, { token, body: { data: { name: `v${i}` } } })
        expect(response.status).toBe(200)
      }
      await new Promise((resolve) => setTimeout(resolve, 1500)) // down for a while: several retries of the first
      expect(receiver.failures.length).toBeGreaterThan(2)
      expect(new Set(receiver.failures.map((request) => request.json.entry.name))).toEqual(new Set(['v0'])) // nothing overtakes it
      receiver.respond = () => 200
      const received = await receiver.waitFor(5)
      expect(received.map((request) => request.json.entry.name)).toEqual(['v0', 'v1', 'v2', 'v3', 'v4'])
      const firstId = received[0]!.headers['webhook-id']
      expect(receiver.failures.every((request) => request.headers['webhook-id'] === firstId)).toBe(true)
      expect(new Set(received.map((request) => request.headers['webhook-id'])).size).toBe(5)
      for (const request of [...received, ...receiver.failures]) new Webhook(secret).verify(request.body, request.headers as Record<string, string>)
      const log = await ctx.deliveries<{ outcome: string }>(id, (attempts) => attempts.filter((attempt) => attempt.outcome !== 'retrying').length >= 5)
      expect(log.filter((attempt) => attempt.outcome === 'retrying').length).toBe(receiver.failures.length)
    } finally {
      await receiver.close()
    }
  })

  it(`delivers ${rounds(1000)} creates from 10 concurrent writers: each once, none lost, no webhook-id twice`, async () => {
    const receiver = await startReceiver()
    try {
      hooks.push((await ctx.hook(receiver.url, ['entry.create'])).id)
      const total = rounds(1000)
      const created: string[] = []
      // Another process writes them, its settings cached as a deployment's are (the context reads
      // them again on every request): the writes come three times as fast, the deliveries keep up.
      const writing = createPeer(ctx, { cacheTtlMs: 60_000 })
      await Promise.all(Array.from({ length: 10 }, async (_, writer) => {
        for (let i = writer; i < total; i += 10) created.push(await create(`w${writer}-${i}`, writing))
      }))
      const received = await receiver.waitFor(total, hangGuard(480_000))
      await new Promise((resolve) => setTimeout(resolve, 500))
      expect(received).toHaveLength(total)
      expect(new Set(received.map((request) => request.headers['webhook-id'])).size).toBe(total)
      expect(new Set(received.map((request) => request.json.entry.documentId))).toEqual(new Set(created))
    } finally {
      await receiver.close()
    }
  })

  it('does not follow a redirect: the attempt fails and is retried, the redirect target gets nothing', async () => {
    const target = await startReceiver()
    const redirecting = await startReceiver()
    try {
      const { id } = await ctx.hook(redirecting.url, ['entry.create'])
      hooks.push(id)
      let redirects = 0
      redirecting.respond = () => (redirects++ < 2 ? 307 : 200)
      const documentId = await create('redirected')
      const [delivered] = await redirecting.waitFor(1)
      expect(delivered!.json.entry.documentId).toBe(documentId)
      expect(redirecting.failures).toHaveLength(2)
      expect(target.received).toHaveLength(0)
      const log = await ctx.deliveries<{ error: string | null; statusCode: number }>(id, (attempts) => attempts.length >= 3)
      expect(log.slice(1).map((attempt) => [attempt.statusCode, attempt.error])).toEqual([[307, 'HTTP 307: redirects are not followed'], [307, 'HTTP 307: redirects are not followed']])
    } finally {
      await Promise.all([target.close(), redirecting.close()])
    }
  })

  it('stores its cursor after a change and then leaves the table alone while idle (its own cursor writes are not read as news)', async () => {
    const receiver = await startReceiver()
    try {
      const { id } = await ctx.hook(receiver.url, ['entry.create'])
      hooks.push(id)
      await create('idle')
      await receiver.waitFor(1)
      const cursors = async () => {
        const { Items = [] } = await ctx.db.send(new QueryCommand({ TableName: ctx.config.tableName, KeyConditionExpression: 'documentId = :w AND begins_with(locale, :c)', ExpressionAttributeValues: { ':w': META.webhook, ':c': 'cursor#' }, ConsistentRead: true }))
        return Items.map((item) => `${item.locale}=${item.sequenceNumber}`).sort()
      }
      await new Promise((resolve) => setTimeout(resolve, 1000)) // the delivery's log write, its cursor, and 20 idle reads of 50 ms
      const settled = await cursors()
      expect(settled.length).toBeGreaterThan(0)
      await new Promise((resolve) => setTimeout(resolve, 1000))
      expect(await cursors()).toEqual(settled)
    } finally {
      await receiver.close()
    }
  })

  it('refuses at delivery a name that resolves to a loopback address where private addresses are not allowed', async () => {
    const strict = await withStream(await createTestContext({ webhooks: { allowInsecure: true, allowPrivate: false, firstRetryMs: 100, maxRetryDelayMs: 100, retryForMs: 300 } } as never))
    const { startWebhookStream } = await import('../../lib/local/webhook-stream.js')
    const stream = await startWebhookStream({ db: strict.db, tableName: strict.config.tableName, types: strict.services.types, service: strict.services.webhooks, idleMs: 50 })
    const receiver = await startReceiver()
    try {
      const created = await strict.admin('POST', '/admin/webhooks', { name: 'ssrf', url: receiver.url.replace('127.0.0.1', 'localhost'), events: ['entry.create'] })
      const { id } = ((await created.json()) as { data: { id: number } }).data
      await strict.request('POST', '/api/authors', { token: await strict.token(), body: { data: { name: 'x' } } })
      const deadline = Date.now() + 15_000
      let log: { outcome: string; error: string }[] = []
      while (!log.some((attempt) => attempt.outcome === 'failed') && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 200))
        log = ((await (await strict.admin('GET', `/admin/webhooks/${id}/deliveries`)).json()) as { data: typeof log }).data
      }
      expect(log[0]).toMatchObject({ outcome: 'failed' })
      expect(log.every((attempt) => /refused: localhost resolves to (127\.0\.0\.1|::1)/.test(attempt.error))).toBe(true)
      expect(receiver.received.length + receiver.failures.length).toBe(0)
    } finally {
      await stream.stop()
      await receiver.close()
    }
  })
})


describe('a crash right after a commit', () => {
  it('delivers the committed write after npm start is killed with SIGKILL and started again', async () => {
    const table = await withStream(await createTestContext())
    const receiver = await startReceiver()
    receiver.respond = () => 503 // the first process cannot deliver it before it dies
    const env = { DYNAMODB_ENDPOINT: table.endpoint, TABLE_NAME: table.config.tableName, ADMIN_TOKEN, TOKEN_HASH_SECRET: 'test-token-hash-key-0123456789abcdefghij', WEBHOOKS_FIRST_RETRY_MS: '100', WEBHOOKS_MAX_RETRY_DELAY_MS: '200' }
    const first = await startLocal(env)
    try {
      const hook = await fetch(`${first.url}/admin/webhooks`, { method: 'POST', headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ name: 'crash', url: receiver.url, events: ['entry.create'] }) })
      expect(hook.status).toBe(201)
      const key = await table.token()
      const written = await fetch(`${first.url}/api/authors`, { method: 'POST', headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ data: { name: 'survivor' } }) })
      expect(written.status).toBe(200)
      const { documentId } = ((await written.json()) as { data: { documentId: string } }).data
      await first.kill()
      // Gone, not orphaned: nothing answers on its port any more.
      await expect(fetch(`${first.url}/api/i18n/locales`)).rejects.toThrow()
      receiver.respond = () => 200
      const second = await startLocal(env)
      try {
        const [delivered] = await receiver.waitFor(1, 30_000)
        expect(delivered!.json).toMatchObject({ event: 'entry.create', entry: { documentId, name: 'survivor' } })
      } finally {
        await second.stop()
      }
    } finally {
      await first.kill().catch(() => undefined)
      await receiver.close()
    }
  }, hangGuard(120_000))
})
