// Access control (behaviour.md §8): every content route × every kind of caller, the order of
// checks, the public role, revocation, and the DynamoDB reads that permission lookups cost.
import { randomBytes } from 'node:crypto'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { AccessService } from '../../lib/access.js'
import { ApiError } from '../../lib/errors.js'
import { createServerApp } from '../../lib/server-app.js'
import { createServices } from '../../lib/services.js'
import { SettingsStore } from '../../lib/storage/settings.js'
import { ADMIN_TOKEN, TOKEN_HASH_SECRET, createTestContext, json, scanTable, type TestContext } from '../support/context.js'

const ARTICLE = 'api::article.article'
const HOMEPAGE = 'api::homepage.homepage'
const LIST_LOCALES = 'plugin::i18n.locales.listLocales'
const UNAUTHORIZED = { status: 401, name: 'UnauthorizedError', message: 'Missing or invalid credentials', details: {} }
const FORBIDDEN = { status: 403, name: 'ForbiddenError', message: 'Forbidden', details: {} }


const CALLERS = ['public', 'read-only', 'full-access', 'custom', 'revoked', 'garbage', 'malformed'] as const
type CallerName = (typeof CALLERS)[number]

interface Call {
  readonly method: string
  readonly path: string
  readonly body?: unknown
}

/** Builds the state a route needs (with a full-access key) and returns the call to make. */
type Prepare = (ctx: TestContext, setupKey: string) => Promise<Call>

async function newArticle(ctx: TestContext, setupKey: string): Promise<string> {
  const response = await ctx.request('POST', '/api/articles', { token: setupKey, body: { data: { title: 'Hello', views: 1 } } })
  expect(response.status).toBe(200)
  return (await json(response)).data.documentId
}

/** Leaves the homepage with exactly the given locale versions. */
async function homepageIn(ctx: TestContext, setupKey: string, ...locales: string[]): Promise<void> {
  const cleared = await ctx.request('DELETE', '/api/homepage?locale=*', { token: setupKey })
  expect([204, 404]).toContain(cleared.status)
  for (const locale of locales) {
    const response = await ctx.request('PUT', `/api/homepage?locale=${locale}`, { token: setupKey, body: { data: { title: 'Home' } } })
    expect(response.status).toBe(200)
  }
}

// Expected status per route and caller, from §8: the public role and read-only tokens hold find,
// findOne and listLocales; full-access holds everything; the custom token here holds find,
// findOne, create, update and delete of both types but neither createLocalization nor
// listLocales; a revoked, unknown or malformed credential is 401 everywhere.
const MATRIX: [string, Prepare, Record<CallerName, number>][] = [
  ['GET /api/articles', async () => ({ method: 'GET', path: '/api/articles' }),
    { public: 200, 'read-only': 200, 'full-access': 200, custom: 200, revoked: 401, garbage: 401, malformed: 401 }],
  ['GET /api/articles/:id', async (ctx, key) => ({ method: 'GET', path: `/api/articles/${await newArticle(ctx, key)}` }),
    { public: 200, 'read-only': 200, 'full-access': 200, custom: 200, revoked: 401, garbage: 401, malformed: 401 }],
  ['POST /api/articles', async () => ({ method: 'POST', path: '/api/articles', body: { data: { title: 'New' } } }),
    { public: 403, 'read-only': 403, 'full-access': 200, custom: 200, revoked: 401, garbage: 401, malformed: 401 }],
  ['PUT /api/articles/:id (existing version)', async (ctx, key) =>
    ({ method: 'PUT', path: `/api/articles/${await newArticle(ctx, key)}`, body: { data: { title: 'Changed' } } }),
  { public: 403, 'read-only': 403, 'full-access': 200, custom: 200, revoked: 401, garbage: 401, malformed: 401 }],
  ['PUT /api/articles/:id?locale=fr (new localization)', async (ctx, key) =>
    ({ method: 'PUT', path: `/api/articles/${await newArticle(ctx, key)}?locale=fr`, body: { data: { title: 'Bonjour' } } }),
  { public: 403, 'read-only': 403, 'full-access': 200, custom: 403, revoked: 401, garbage: 401, malformed: 401 }],
  ['DELETE /api/articles/:id', async (ctx, key) => ({ method: 'DELETE', path: `/api/articles/${await newArticle(ctx, key)}` }),
    { public: 403, 'read-only': 403, 'full-access': 204, custom: 204, revoked: 401, garbage: 401, malformed: 401 }],
  ['GET /api/homepage', async (ctx, key) => (await homepageIn(ctx, key, 'en'), { method: 'GET', path: '/api/homepage' }),
    { public: 200, 'read-only': 200, 'full-access': 200, custom: 200, revoked: 401, garbage: 401, malformed: 401 }],
  ['PUT /api/homepage (first version)', async (ctx, key) =>
    (await homepageIn(ctx, key), { method: 'PUT', path: '/api/homepage', body: { data: { title: 'Home' } } }),
  { public: 403, 'read-only': 403, 'full-access': 200, custom: 200, revoked: 401, garbage: 401, malformed: 401 }],
  ['PUT /api/homepage?locale=fr (new localization)', async (ctx, key) =>
    (await homepageIn(ctx, key, 'en'), { method: 'PUT', path: '/api/homepage?locale=fr', body: { data: { title: 'Accueil' } } }),
  { public: 403, 'read-only': 403, 'full-access': 200, custom: 403, revoked: 401, garbage: 401, malformed: 401 }],
  ['DELETE /api/homepage', async (ctx, key) => (await homepageIn(ctx, key, 'en'), { method: 'DELETE', path: '/api/homepage' }),
    { public: 403, 'read-only': 403, 'full-access': 204, custom: 204, revoked: 401, garbage: 401, malformed: 401 }],
  ['GET /api/i18n/locales', async () => ({ method: 'GET', path: '/api/i18n/locales' }),
    { public: 200, 'read-only': 200, 'full-access': 200, custom: 403, revoked: 401, garbage: 401, malformed: 401 }],
]

const CUSTOM_WITHOUT_CREATE_LOCALIZATION = [
  ...['find', 'findOne', 'create', 'update', 'delete'].map((action) => `${ARTICLE}.${action}`),
  ...['find', 'update', 'delete'].map((action) => `${HOMEPAGE}.${action}`),
]

describe('access matrix: every content route × every kind of caller', () => {
  let ctx: TestContext
  let setupKey: string
  const authorization = {} as Record<CallerName, string | undefined>

  beforeAll(async () => {
    ctx = await createTestContext()
    await ctx.addLocales('fr')
    setupKey = await ctx.token('full-access')
    const revoked = await json(await ctx.admin('POST', '/admin/api-tokens', { name: 'soon revoked', type: 'full-access' }))
    expect((await ctx.request('GET', '/api/articles', { token: revoked.data.accessKey })).status).toBe(200)
    expect((await ctx.admin('DELETE', `/admin/api-tokens/${revoked.data.id}`)).status).toBe(204)
    Object.assign(authorization, {
      public: undefined,
      'read-only': `Bearer ${await ctx.token('read-only')}`,
      'full-access': `Bearer ${await ctx.token('full-access')}`,
      custom: `Bearer ${await ctx.token('custom', CUSTOM_WITHOUT_CREATE_LOCALIZATION)}`,
      revoked: `Bearer ${revoked.data.accessKey}`,
      garbage: `Bearer ${randomBytes(48).toString('base64url')}`,
      malformed: 'Basic YWRtaW46YWRtaW4=',
    })
  })

  describe.each(MATRIX)('%s', (_, prepare, expected) => {
    it.each(CALLERS)('as %s', async (callerName) => {
      const call = await prepare(ctx, setupKey)
      const headers: Record<string, string> = {}
      const credentials = authorization[callerName]
      if (credentials !== undefined) headers.Authorization = credentials
      const status = expected[callerName]
      const before = status >= 400 || call.method !== 'GET' ? await scanTable(ctx) : undefined

      const response = await ctx.request(call.method, call.path, { body: call.body, headers })

      expect(response.status).toBe(status)
      if (status === 401) expect((await json(response)).error).toEqual(UNAUTHORIZED)
      if (status === 403) expect((await json(response)).error).toEqual(FORBIDDEN)
      if (status >= 400) expect(await scanTable(ctx)).toEqual(before)
      else if (call.method !== 'GET') expect(await scanTable(ctx)).not.toEqual(before)
    })
  })

  it.each([
    ['an empty header', ''],
    ['the scheme alone', 'Bearer'],
    ['an empty token', 'Bearer '],
    ['a token with a space in it', 'Bearer abcdefghijklmnopqrstuvwxyz 0123456789'],
    ['a token with characters outside base64url', 'Bearer abcdefghijklmnopqrstuvwxyz0123456789+/='],
    ['a short token', 'Bearer abc'],
    ['a 300-character token', `Bearer ${'a'.repeat(300)}`],
    ['the admin token', `Bearer ${ADMIN_TOKEN}`],
  ])('answers 401 for %s', async (_, header) => {
    const response = await ctx.request('GET', '/api/articles', { headers: { Authorization: header } })
    expect(response.status).toBe(401)
    expect((await json(response)).error).toEqual(UNAUTHORIZED)
  })

  it('accepts the Bearer scheme in any case', async () => {
    const key = (authorization['read-only'] as string).slice('Bearer '.length)
    expect((await ctx.request('GET', '/api/articles', { headers: { Authorization: `bEaReR ${key}` } })).status).toBe(200)
  })
})

describe('order of checks', () => {
  let ctx: TestContext
  let full: string
  let custom: string
  let readOnly: string
  const garbage = randomBytes(48).toString('base64url')

  beforeAll(async () => {
    ctx = await createTestContext()
    await ctx.addLocales('fr')
    full = await ctx.token('full-access')
    custom = await ctx.token('custom', CUSTOM_WITHOUT_CREATE_LOCALIZATION)
    readOnly = await ctx.token('read-only')
  })

  type Send = Call & { token?: string; headers?: Record<string, string> }
  const article = (c: TestContext) => newArticle(c, full)
  const TEXT = { 'Content-Type': 'text/plain' }

  // [what is checked first, how to build the request (fixtures made here), expected status]
  const cases: [string, (c: TestContext) => Promise<Send>, number][] = [
    ['an unknown route before credentials', async () => ({ method: 'GET', path: '/api/nothing', token: garbage }), 404],
    ['a wrong method before credentials', async () => ({ method: 'POST', path: '/api/homepage', token: garbage, body: { data: {} } }), 405],
    ['the body size before credentials', async () =>
      ({ method: 'POST', path: '/api/articles', token: garbage, body: { data: {} }, headers: { 'Content-Length': String(2 * 1024 * 1024) } }), 413],
    ['credentials before the query', async () => ({ method: 'GET', path: '/api/articles?nope=1', token: garbage }), 401],
    ['the route permission before the query', async () => ({ method: 'POST', path: '/api/articles?nope=1', token: readOnly, body: { data: { title: 'x' } } }), 403],
    ['the route permission before the locale (PUT holding neither update nor createLocalization)', async (c) =>
      ({ method: 'PUT', path: `/api/articles/${await article(c)}?locale=xx`, token: readOnly, body: { data: { title: 'x' } } }), 403],
    ['the route permission before the locale (public DELETE)', async (c) => ({ method: 'DELETE', path: `/api/articles/${await article(c)}?locale=xx` }), 403],
    ['the route permission before the query on /api/i18n/locales', async () => ({ method: 'GET', path: '/api/i18n/locales?nope=1', token: custom }), 403],
    ['the query once permitted on /api/i18n/locales', async () => ({ method: 'GET', path: '/api/i18n/locales?nope=1' }), 400],
    ['the locale before the document (PUT holding update only)', async () =>
      ({ method: 'PUT', path: `/api/articles/${'a'.repeat(24)}?locale=xx`, token: custom, body: { data: { title: 'x' } } }), 400],
    ['the document before the exact action', async () =>
      ({ method: 'PUT', path: `/api/articles/${'a'.repeat(24)}?locale=fr`, token: custom, body: { data: { title: 'x' } } }), 404],
    ['the exact action before the body', async (c) =>
      ({ method: 'PUT', path: `/api/articles/${await article(c)}?locale=fr`, token: custom, body: { data: { views: 'many' } } }), 403],
    ['the exact action before the media type', async (c) =>
      ({ method: 'PUT', path: `/api/articles/${await article(c)}?locale=fr`, token: custom, body: 'title=x', headers: TEXT }), 403],
    ['the body once the action is held (non-localized field in a new localization)', async (c) =>
      ({ method: 'PUT', path: `/api/articles/${await article(c)}?locale=fr`, token: full, body: { data: { title: 'x', views: 2 } } }), 400],
    ['the media type once the action is held', async (c) =>
      ({ method: 'PUT', path: `/api/articles/${await article(c)}?locale=fr`, token: full, body: 'title=x', headers: TEXT }), 415],
  ]

  it.each(cases)('checks %s', async (_, prepare, status) => {
    const { method, path, ...options } = await prepare(ctx)
    const before = await scanTable(ctx)
    const response = await ctx.request(method, path, options)
    expect(response.status).toBe(status)
    expect(await scanTable(ctx)).toEqual(before)
  })
})

describe('the public role', () => {
  let ctx: TestContext
  beforeAll(async () => {
    ctx = await createTestContext()
  })

  it('takes effect on the next request when changed', async () => {
    expect((await ctx.request('POST', '/api/articles', { body: { data: { title: 'Anonymous' } } })).status).toBe(403)
    expect((await ctx.admin('PUT', '/admin/roles/public', { permissions: [`${ARTICLE}.create`] })).status).toBe(200)

    const created = await ctx.request('POST', '/api/articles', { body: { data: { title: 'Anonymous' } } })
    expect(created.status).toBe(200)
    const { documentId } = (await json(created)).data
    expect((await ctx.request('GET', '/api/articles')).status).toBe(403)
    expect((await ctx.request('GET', `/api/articles/${documentId}`)).status).toBe(403)
    expect((await ctx.request('GET', '/api/homepage')).status).toBe(403)
    expect((await ctx.request('GET', '/api/i18n/locales')).status).toBe(403)

    expect((await ctx.admin('PUT', '/admin/roles/public', { permissions: [LIST_LOCALES, `${ARTICLE}.findOne`] })).status).toBe(200)
    expect((await ctx.request('GET', '/api/i18n/locales')).status).toBe(200)
    expect((await ctx.request('GET', `/api/articles/${documentId}`)).status).toBe(200)
    expect((await ctx.request('POST', '/api/articles', { body: { data: { title: 'Again' } } })).status).toBe(403)
  })

  it('does not affect tokens', async () => {
    await ctx.admin('PUT', '/admin/roles/public', { permissions: [] })
    expect((await ctx.request('GET', '/api/articles')).status).toBe(403)
    expect((await ctx.request('GET', '/api/articles', { token: await ctx.token('read-only') })).status).toBe(200)
  })

  it('rejects a custom token with an unknown action with 400, creating nothing', async () => {
    const before = await scanTable(ctx)
    const response = await ctx.admin('POST', '/admin/api-tokens', { name: 'bad', type: 'custom', permissions: [`${ARTICLE}.find`, `${ARTICLE}.archive`] })
    expect(response.status).toBe(400)
    expect((await json(response)).error.name).toBe('ValidationError')
    expect(await scanTable(ctx)).toEqual(before)
  })
})

describe('revocation and caching (cache TTL 5000 ms)', () => {
  let ctx: TestContext
  let calls: { command: string; key: string }[]

  beforeAll(async () => {
    ctx = await createTestContext({ cacheTtlMs: 5000 })
    calls = []
    ctx.db.middlewareStack.add((next, context) => async (args) => {
      const key = (args.input as { Key?: Record<string, unknown> }).Key
      calls.push({ command: context.commandName ?? '', key: key === undefined ? '' : `${key.documentId}|${key.locale}` })
      return next(args)
    }, { step: 'initialize', name: 'countCalls' })
  })
  afterEach(() => {
    calls.length = 0
  })

  /** Reads of access settings: API tokens and the public role. */
  const accessReads = () => calls.filter((call) => call.key.startsWith('#token|') || call.key === '#config|role#public')
  const commands = () => calls.map((call) => call.command).sort()

  it('costs one GetItem for a token on its first use, then none within the TTL', async () => {
    const key = await ctx.token('read-only')
    const documentId = await newArticle(ctx, await ctx.token('full-access'))
    await ctx.request('GET', `/api/articles/${documentId}`) // warms the locale registry and public role
    calls.length = 0

    expect((await ctx.request('GET', `/api/articles/${documentId}`, { token: key })).status).toBe(200)
    expect(accessReads()).toEqual([{ command: 'GetItemCommand', key: expect.stringMatching(/^#token\|[0-9a-f]{64}$/) }])
    const first = commands()
    calls.length = 0

    expect((await ctx.request('GET', `/api/articles/${documentId}`)).status).toBe(200)
    const publicWarm = commands()
    calls.length = 0

    for (let i = 0; i < 10; i++) expect((await ctx.request('GET', `/api/articles/${documentId}`, { token: key })).status).toBe(200)
    expect(accessReads()).toEqual([])
    // A cached token costs exactly what a public request costs: the document read alone.
    expect(commands()).toEqual(Array.from({ length: 10 }, () => publicWarm).flat().sort())
    // And its first use costs that plus the one token read.
    expect(first).toEqual([...publicWarm, 'GetItemCommand'].sort())
  })

  it('costs at most one read per request for an unknown token', async () => {
    for (let i = 0; i < 3; i++) {
      expect((await ctx.request('GET', '/api/articles', { token: randomBytes(48).toString('base64url') })).status).toBe(401)
    }
    expect(calls.map((call) => call.command)).toEqual(['GetItemCommand', 'GetItemCommand', 'GetItemCommand'])
  })

  it('revokes a token on the very next request of the same process, despite the cache', async () => {
    const { data } = await json(await ctx.admin('POST', '/admin/api-tokens', { name: 'revoke me', type: 'full-access' }))
    expect((await ctx.request('GET', '/api/articles', { token: data.accessKey })).status).toBe(200)
    expect((await ctx.admin('DELETE', `/admin/api-tokens/${data.id}`)).status).toBe(204)
    expect((await ctx.request('GET', '/api/articles', { token: data.accessKey })).status).toBe(401)
  })

  it('applies a public role change on the very next request of the same process, despite the cache', async () => {
    expect((await ctx.request('GET', '/api/articles')).status).toBe(200)
    await ctx.admin('PUT', '/admin/roles/public', { permissions: [] })
    expect((await ctx.request('GET', '/api/articles')).status).toBe(403)
  })

  it('revokes a token in another process once the TTL has passed', async () => {
    // Another process: its own AccessService on the same table, with a clock the test moves.
    let now = Date.parse('2030-01-01T00:00:00Z')
    const other = new AccessService(new SettingsStore(ctx.db, ctx.config.tableName), ctx.services.types, TOKEN_HASH_SECRET, 5000, () => now)
    const { data } = await json(await ctx.admin('POST', '/admin/api-tokens', { name: 'elsewhere', type: 'read-only' }))
    const header = `Bearer ${data.accessKey}`
    await other.identify(header)
    await ctx.admin('DELETE', `/admin/api-tokens/${data.id}`)

    now += 4999
    await expect(other.identify(header)).resolves.toBeDefined() // still cached: the documented bound
    now += 1
    await expect(other.identify(header)).rejects.toSatisfy((error) => error instanceof ApiError && error.status === 401)
  })
})

describe('rotating the token hash key', () => {
  const OLD = `old-hash-key-${randomBytes(16).toString('hex')}`
  const NEW = `new-hash-key-${randomBytes(16).toString('hex')}`
  let ctx: TestContext
  const service = (secret: string) => new AccessService(new SettingsStore(ctx.db, ctx.config.tableName), ctx.services.types, secret, 0)
  const expect401 = (promise: Promise<unknown>) => expect(promise).rejects.toMatchObject({ status: 401 })
  beforeAll(async () => {
    ctx = await createTestContext()
  })

  it('accepts tokens of the previous key during the rotation, hashes new ones under the new key, and refuses the old ones once it is dropped', async () => {
    // Prepare: a token made under the old key.
    const { accessKey: oldKey } = await service(OLD).createToken({ name: 'before', type: 'read-only' })

    // Act: the rotation ("<new> <old>"), then the old key dropped.
    const rotating = service(`${NEW} ${OLD}`)
    const accepted = await rotating.identify(`Bearer ${oldKey}`)
    const { accessKey: newKey } = await rotating.createToken({ name: 'after', type: 'read-only' })
    const rotated = service(NEW)

    // Assess
    expect(accepted.holds(undefined, 'plugin::i18n.locales.listLocales')).toBe(true)
    await expect401(service(OLD).identify(`Bearer ${newKey}`))
    expect((await rotated.identify(`Bearer ${newKey}`)).holds(undefined, 'plugin::i18n.locales.listLocales')).toBe(true)
    await expect401(rotated.identify(`Bearer ${oldKey}`))
  })

  it('revokes a token of the previous key at once during the rotation', async () => {
    const made = await service(OLD).createToken({ name: 'revoked', type: 'read-only' })
    const rotating = service(`${NEW} ${OLD}`)
    await rotating.identify(`Bearer ${made.accessKey}`)
    await rotating.deleteToken(made.id)
    await expect401(rotating.identify(`Bearer ${made.accessKey}`))
  })

  it('is never the admin token: a service with another admin token accepts the same API tokens', async () => {
    const key = await ctx.token('read-only')
    const services = createServices(ctx.db, ctx.config, { adminToken: `another-admin-token-${randomBytes(8).toString('hex')}`, tokenHashSecret: TOKEN_HASH_SECRET }, ctx.services.types)
    expect((await createServerApp(services, () => undefined).request('/api/articles', { headers: { Authorization: `Bearer ${key}` } })).status).toBe(200)
  })
})
