// No stale refusals: two processes on one table, each with its own caches kept for ten minutes. A
// locale, an API token or a public-role grant made through one holds on the other at once: what
// the other's cache does not know is read afresh once before a 400 or 403. What the cache knows
// costs no DynamoDB call.
import { beforeEach, describe, expect, it } from 'vitest'
import { typeByUid } from '../../lib/content-types.js'
import { countingUsage, emptyUsage } from '../../lib/observability/dynamo-usage.js'
import { createServerApp } from '../../lib/server-app.js'
import { createServices, type Services } from '../../lib/services.js'
import { ADMIN_TOKEN, TOKEN_HASH_SECRET, createTestContext, json, type TestContext } from '../support/context.js'

const TEN_MINUTES = 600_000
const FIND = 'api::article.article.find'
const LIST_LOCALES = 'plugin::i18n.locales.listLocales'

let ctx: TestContext
let other: { services: Services; request: (method: string, path: string, token?: string, body?: unknown) => Promise<Response> }

/** DynamoDB calls `work` makes. */
async function callsOf(work: () => Promise<unknown>): Promise<number> {
  const usage = emptyUsage()
  await countingUsage(usage, work)
  return usage.calls
}

beforeEach(async () => {
  ctx = await createTestContext({ cacheTtlMs: TEN_MINUTES })
  const services = createServices(ctx.db, ctx.config, { adminToken: ADMIN_TOKEN, tokenHashSecret: TOKEN_HASH_SECRET }, ctx.services.types)
  const app = createServerApp(services, () => undefined)
  other = {
    services,
    request: async (method, path, token, body) => app.request(path, {
      method,
      headers: { ...(token === undefined ? {} : { Authorization: `Bearer ${token}` }), ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
  }
})

describe('a locale added through one process', () => {
  it('is accepted at once by another whose cache predates it, for writes and reads', async () => {
    // Prepare: the other process has read the registry (en only) and would trust it for ten minutes.
    const token = await ctx.token('full-access')
    expect((await other.request('GET', '/api/articles?locale=en')).status).toBe(200)
    await ctx.addLocales('fr')

    // Act
    const created = await other.request('POST', '/api/articles?locale=fr', token, { data: { title: 'Bonjour' } })
    const listed = await other.request('GET', '/api/articles?locale=FR')

    // Assess
    expect(created.status).toBe(200)
    expect((await json(created)).data.locale).toBe('fr')
    expect(listed.status).toBe(200)
    expect((await json(listed)).meta.pagination.total).toBe(1)
  })

  it('is listed at once by the other\'s admin API (GET /admin/i18n/locales reads the registry afresh)', async () => {
    expect((await other.request('GET', '/api/articles')).status).toBe(200)
    await ctx.addLocales('it')
    const listed = await other.request('GET', '/admin/i18n/locales', ADMIN_TOKEN)
    expect(listed.status).toBe(200)
    expect((await json(listed)).data.map((locale: { code: string }) => locale.code)).toContain('it')
  })

  it('still refuses a code registered nowhere, listing the locales read afresh', async () => {
    expect((await other.request('GET', '/api/articles')).status).toBe(200)
    await ctx.addLocales('de')
    const refused = await other.request('GET', '/api/articles?locale=xx')
    expect(refused.status).toBe(400)
    expect((await json(refused)).error.message).toBe("Invalid locale 'xx'. Available locales: en, de")
  })

  it('costs no read for a code the cache knows, and one read for one it does not', async () => {
    await ctx.addLocales('fr')
    await other.services.locales.resolve('fr')
    expect(await callsOf(() => other.services.locales.resolve('fr'))).toBe(0)
    expect(await callsOf(() => other.services.locales.resolve(undefined))).toBe(0)
    expect(await callsOf(() => other.services.locales.resolve('xx').catch(() => undefined))).toBe(1)
  })
})

describe('a public-role grant made through one process', () => {
  it('holds at once on another whose cached role refused it', async () => {
    // Prepare: the other process caches a public role without article reads.
    await ctx.admin('PUT', '/admin/roles/public', { permissions: [LIST_LOCALES] })
    expect((await other.request('GET', '/api/articles')).status).toBe(403)

    // Act
    await ctx.admin('PUT', '/admin/roles/public', { permissions: [FIND, LIST_LOCALES] })
    const after = await other.request('GET', '/api/articles')

    // Assess
    expect(after.status).toBe(200)
  })

  it('still refuses what the role read afresh does not grant, and allows from the cache without a read', async () => {
    await ctx.admin('PUT', '/admin/roles/public', { permissions: [FIND] })
    expect((await other.request('GET', '/api/articles')).status).toBe(200)
    expect((await other.request('POST', '/api/articles', undefined, { data: { title: 'x' } })).status).toBe(403)
    const article = typeByUid(ctx.services.types, 'api::article.article')!
    expect(await callsOf(() => other.services.access.authorize(undefined, article, 'find'))).toBe(0)
    expect(await callsOf(() => other.services.access.authorize(undefined, article, 'create').catch(() => undefined))).toBe(1)
  })
})

describe('an API token created through one process', () => {
  it('is accepted at once by another, then served from its cache without a read', async () => {
    expect((await other.request('GET', '/api/articles')).status).toBe(200)
    const token = await ctx.token('read-only')
    expect((await other.request('GET', '/api/articles', token)).status).toBe(200)
    expect(await callsOf(() => other.services.access.identify(`Bearer ${token}`))).toBe(0)
  })
})
