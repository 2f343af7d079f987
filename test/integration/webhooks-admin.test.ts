// The webhook settings of integration.md §20 through the admin API (app.request(), DynamoDB Local):
// header values write-only, the secret shown once, URL rules, the test action to a real receiver
// with a signature a Standard Webhooks library verifies, the delivery log and redeliver.
import { Webhook } from 'standardwebhooks'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { WebhookStore } from '../../lib/storage/webhooks.js'
import { createTestContext, type TestContext } from '../support/context.js'
import { startReceiver, type Receiver } from '../support/receiver.js'

let ctx: TestContext
let strict: TestContext
let receiver: Receiver

const body = async (response: Response) => (await response.json()) as any
const hook = (overrides: Record<string, unknown> = {}) => ({ name: 'Build', url: receiver.url, events: ['entry.publish'], headers: { Authorization: 'Bearer build-secret' }, ...overrides })

beforeAll(async () => {
  receiver = await startReceiver()
  ctx = await createTestContext({ webhooks: { allowInsecure: true, allowPrivate: true } } as never)
  strict = await createTestContext()
})
afterAll(() => receiver.close())

describe('webhook settings', () => {
  it('creates a webhook, shows its signing secret once, and never shows header values', async () => {
    const created = await ctx.admin('POST', '/admin/webhooks', hook())
    expect(created.status).toBe(201)
    const { data } = await body(created)
    expect(data).toMatchObject({ name: 'Build', url: receiver.url, events: ['entry.publish'], isEnabled: true, headers: { Authorization: null } })
    expect(data.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/)
    const listed = (await body(await ctx.admin('GET', '/admin/webhooks'))).data
    const again = listed.find((entry: any) => entry.id === data.id)
    expect(again.headers).toEqual({ Authorization: null })
    expect(JSON.stringify(listed)).not.toContain('build-secret')
    expect(JSON.stringify(listed)).not.toContain(data.secret)
    expect(JSON.stringify(await body(await ctx.admin('GET', `/admin/webhooks/${data.id}`)))).not.toContain('whsec_')
  })

  it('keeps a header given as null, replaces one given a value, and removes one left out', async () => {
    const { data } = await body(await ctx.admin('POST', '/admin/webhooks', hook({ headers: { A: 'a-value', B: 'b-value' } })))
    const updated = await ctx.admin('PUT', `/admin/webhooks/${data.id}`, { headers: { A: null, C: 'c-value' }, isEnabled: false })
    expect(updated.status).toBe(200)
    expect((await body(updated)).data).toMatchObject({ headers: { A: null, C: null }, isEnabled: false })
    receiver.received.length = 0
    expect((await body(await ctx.admin('POST', `/admin/webhooks/${data.id}/test`))).data).toMatchObject({ statusCode: 200, error: null })
    const [sent] = await receiver.waitFor(1)
    expect(sent!.headers).toMatchObject({ a: 'a-value', c: 'c-value', 'x-strapi-event': 'trigger-test' })
    expect(sent!.headers.b).toBeUndefined()
  })

  it('refuses a null header with no stored value to keep', async () => {
    const { data } = await body(await ctx.admin('POST', '/admin/webhooks', hook({ headers: {} })))
    const response = await ctx.admin('PUT', `/admin/webhooks/${data.id}`, { headers: { Missing: null } })
    expect(response.status).toBe(400)
  })

  it.each([
    ['an unknown event', { events: ['entry.explode'] }],
    ['a reserved header', { headers: { 'Webhook-Signature': 'x' } }],
    ['a header with a line break', { headers: { X: 'a\r\nInjected: 1' } }],
    ['a relative URL', { url: '/hook' }],
    ['credentials in the URL', { url: 'https://user:pass@example.com/hook' }],
    ['an unknown key', { secret: 'whsec_mine' }],
  ])('answers 400 for %s and stores nothing', async (_, overrides) => {
    const before = (await body(await ctx.admin('GET', '/admin/webhooks'))).data.length
    const response = await ctx.admin('POST', '/admin/webhooks', hook(overrides))
    expect(response.status).toBe(400)
    expect((await body(response)).error.name).toBe('ValidationError')
    expect((await body(await ctx.admin('GET', '/admin/webhooks'))).data.length).toBe(before)
  })

  it.each([
    ['plain http', 'http://example.com/hook'],
    ['a loopback address', 'https://127.0.0.1/hook'],
    ['a private address', 'https://10.1.2.3/hook'],
    ['the metadata address', 'https://169.254.169.254/latest/meta-data'],
    ['an IPv6 loopback', 'https://[::1]/hook'],
    ['an IPv4-mapped IPv6 private address', 'https://[::ffff:192.168.0.1]/hook'],
  ])('refuses %s unless the deployment allows it', async (_, url) => {
    const response = await strict.admin('POST', '/admin/webhooks', hook({ url }))
    expect(response.status).toBe(400)
    expect((await body(response)).error.details.errors[0].path).toEqual(['url'])
  })

  it('accepts an https URL on a public name', async () => {
    expect((await strict.admin('POST', '/admin/webhooks', hook({ url: 'https://hooks.example.com/build' }))).status).toBe(201)
  })

  it('needs the admin token on every webhook route', async () => {
    const { data } = await body(await ctx.admin('POST', '/admin/webhooks', hook()))
    for (const [method, path] of [['GET', '/admin/webhooks'], ['POST', '/admin/webhooks'], ['GET', `/admin/webhooks/${data.id}`], ['PUT', `/admin/webhooks/${data.id}`], ['DELETE', `/admin/webhooks/${data.id}`], ['POST', `/admin/webhooks/${data.id}/test`], ['GET', `/admin/webhooks/${data.id}/deliveries`], ['POST', `/admin/webhooks/${data.id}/deliveries/1/redeliver`]] as const) {
      expect((await ctx.request(method, path, { body: method === 'POST' || method === 'PUT' ? hook() : undefined, token: await ctx.token() })).status, `${method} ${path}`).toBe(401)
    }
  })

  it('deletes a webhook: 404 afterwards', async () => {
    const { data } = await body(await ctx.admin('POST', '/admin/webhooks', hook()))
    expect((await ctx.admin('DELETE', `/admin/webhooks/${data.id}`)).status).toBe(204)
    expect((await ctx.admin('GET', `/admin/webhooks/${data.id}`)).status).toBe(404)
    expect((await ctx.admin('DELETE', `/admin/webhooks/${data.id}`)).status).toBe(404)
    expect((await ctx.admin('POST', `/admin/webhooks/${data.id}/test`)).status).toBe(404)
  })
})

describe('the test action, the delivery log and redeliver', () => {
  it('signs the test message so a Standard Webhooks library verifies it, and logs the attempt', async () => {
    const { data } = await body(await ctx.admin('POST', '/admin/webhooks', hook()))
    receiver.received.length = 0
    await ctx.admin('POST', `/admin/webhooks/${data.id}/test`)
    const [sent] = await receiver.waitFor(1)
    const verified = new Webhook(data.secret).verify(sent!.body, sent!.headers as Record<string, string>)
    expect(verified).toMatchObject({ event: 'trigger-test' })
    expect(() => new Webhook('whsec_' + Buffer.alloc(24, 1).toString('base64')).verify(sent!.body, sent!.headers as Record<string, string>)).toThrow()
    expect(sent!.headers.authorization).toBe('Bearer build-secret')
    const log = (await body(await ctx.admin('GET', `/admin/webhooks/${data.id}/deliveries`))).data
    expect(log).toEqual([expect.objectContaining({ seq: 1, event: 'trigger-test', statusCode: 200, error: null, outcome: 'delivered', messageId: sent!.headers['webhook-id'] })])
  })

  it('logs a failing receiver\'s status, and redelivers with the same webhook-id', async () => {
    const { data } = await body(await ctx.admin('POST', '/admin/webhooks', hook()))
    receiver.respond = () => 503
    const failed = (await body(await ctx.admin('POST', `/admin/webhooks/${data.id}/test`))).data
    expect(failed).toMatchObject({ statusCode: 503, error: 'HTTP 503' })
    receiver.respond = () => 200
    receiver.received.length = 0
    const [attempt] = (await body(await ctx.admin('GET', `/admin/webhooks/${data.id}/deliveries`))).data
    expect(attempt).toMatchObject({ statusCode: 503, outcome: 'failed' })
    const again = await ctx.admin('POST', `/admin/webhooks/${data.id}/deliveries/${attempt.seq}/redeliver`)
    expect((await body(again)).data).toMatchObject({ statusCode: 200, error: null })
    const [sent] = await receiver.waitFor(1)
    expect(sent!.headers['webhook-id']).toBe(attempt.messageId)
    const log = (await body(await ctx.admin('GET', `/admin/webhooks/${data.id}/deliveries`))).data
    expect(log.map((entry: any) => entry.outcome)).toEqual(['delivered', 'failed'])
    expect((await ctx.admin('POST', `/admin/webhooks/${data.id}/deliveries/99/redeliver`)).status).toBe(404)
  })

  it('keeps the last 100 attempts only', async () => {
    const { data } = await body(await ctx.admin('POST', '/admin/webhooks', hook()))
    // Attempts logged as a delivery logs them (an HTTP send each would only make this slower).
    const store = new WebhookStore(ctx.db, ctx.config.tableName)
    for (let round = 0; round < 7; round++) {
      await Promise.all(Array.from({ length: 15 }, () => store.logAttempt(data.id, { messageId: 'msg_x', event: 'entry.create', at: new Date().toISOString(), statusCode: 200, durationMs: 1, error: null, outcome: 'delivered' })))
    }
    const log = (await body(await ctx.admin('GET', `/admin/webhooks/${data.id}/deliveries`))).data
    expect(log).toHaveLength(100)
    expect(log[0].seq).toBe(105)
    expect(log[99].seq).toBe(6)
  })

  it('refuses to send a test to a loopback receiver where private addresses are not allowed, named or literal', async () => {
    const secure = await createTestContext({ webhooks: { allowInsecure: true } } as never)
    for (const url of [receiver.url, receiver.url.replace('127.0.0.1', 'localhost')]) {
      const created = await secure.admin('POST', '/admin/webhooks', hook({ url }))
      if (created.status === 400) continue // a literal address is refused when saved already
      const { data } = await body(created)
      receiver.received.length = 0
      const result = (await body(await secure.admin('POST', `/admin/webhooks/${data.id}/test`))).data
      expect(result).toMatchObject({ statusCode: null })
      expect(result.error).toMatch(/refused/)
      expect(receiver.received).toHaveLength(0)
    }
  })
})
