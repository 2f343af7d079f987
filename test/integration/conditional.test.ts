// Conditional requests and caching (delivery.md §13) through HTTP on DynamoDB Local: ETags, 304s,
// Cache-Control and Vary, and the in-process page cache. A list's tag is unique per answer within
// SETTLE_MS of its last change (indexes are eventually consistent), so the tests move a fake clock
// (Date only; timers run for real) past it instead of sleeping.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { SETTLE_MS } from '../../lib/storage/lists/validator.js'
import { createServerApp } from '../../lib/server-app.js'
import { createServices } from '../../lib/services.js'
import { INDEX, META, slotIndex } from '../../lib/table.js'
import { isCountRead, isPageRead } from '../support/list-reads.js'
import { ADMIN_TOKEN, TOKEN_HASH_SECRET, createPeer, createTestContext, json, type TestContext } from '../support/context.js'

const PUBLIC_DEFAULT = 'public, max-age=0, s-maxage=0, stale-while-revalidate=0'

beforeAll(() => {
  vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true })
})
afterAll(() => {
  vi.useRealTimers()
})

/** Moves the clock past the settling time of every change made so far. */
const settle = () => vi.setSystemTime(Date.now() + SETTLE_MS + 100)

async function createArticle(ctx: TestContext, key: string, title: string, locale = 'en'): Promise<{ id: number; documentId: string }> {
  const response = await ctx.request('POST', `/api/articles?locale=${locale}`, { token: key, body: { data: { title } } })
  expect(response.status).toBe(200)
  return (await json(response)).data
}

const varies = (response: Response) => (response.headers.get('vary') ?? '').split(',').map((name) => name.trim().toLowerCase())

describe('ETags and If-None-Match', () => {
  let ctx: TestContext
  let key: string
  let doc: { id: number; documentId: string }
  beforeAll(async () => {
    ctx = await createTestContext()
    key = await ctx.token()
    await ctx.addLocales('fr')
    doc = await createArticle(ctx, key, 'first')
    await createArticle(ctx, key, 'second')
    expect((await ctx.request('PUT', '/api/homepage', { token: key, body: { data: { title: 'Home' } } })).status).toBe(200)
    settle()
  })
  const routes = () => [
    ['a list', '/api/articles?sort=title'],
    ['a list of every locale', '/api/articles?locale=*'],
    ['get one', `/api/articles/${doc.documentId}`],
    ['get one of every locale', `/api/articles/${doc.documentId}?locale=*`],
    ['the single type', '/api/homepage'],
    ['the locales', '/api/i18n/locales'],
  ] as const

  it('answers every 200 GET on a content route and on /api/i18n/locales with an ETag', async () => {
    for (const [name, path] of routes()) {
      const response = await ctx.request('GET', path)
      expect({ name, status: response.status }).toEqual({ name, status: 200 })
      expect({ name, etag: response.headers.get('etag') }).toEqual({ name, etag: expect.stringMatching(/^"[^"]+"$/) })
    }
  })

  it('tags one version "<id>.<revision>", the tag If-Match accepts, and moves it on every write', async () => {
    const first = await ctx.request('GET', `/api/articles/${doc.documentId}`)
    const tag = first.headers.get('etag') as string
    const [, id, revision] = /^"(\d+)\.(\d+)"$/.exec(tag) ?? []
    expect(Number(id)).toBe(doc.id)
    const updated = await ctx.request('PUT', `/api/articles/${doc.documentId}`, { token: key, body: { data: { title: 'first, edited' } }, headers: { 'If-Match': tag } })
    expect(updated.status).toBe(200)
    const next = updated.headers.get('etag')
    expect(next).toBe(`"${doc.id}.${Number(revision) + 1}"`)
    expect((await ctx.request('GET', `/api/articles/${doc.documentId}`)).headers.get('etag')).toBe(next)
    const stale = await ctx.request('PUT', `/api/articles/${doc.documentId}`, { token: key, body: { data: { title: 'lost' } }, headers: { 'If-Match': tag } })
    expect(stale.status).toBe(412)
    settle()
  })

  describe.each([
    ['the current tag', (tag: string) => tag],
    ['*', () => '*'],
    ['a list containing the current tag', (tag: string) => `"0.0", ${tag}, "l-nothing"`],
  ])('If-None-Match holding %s', (_name, header) => {
    it('answers 304 with no body and the same ETag and Cache-Control, on every GET route', async () => {
      for (const [name, path] of routes()) {
        const fresh = await ctx.request('GET', path)
        const tag = fresh.headers.get('etag') as string
        const response = await ctx.request('GET', path, { headers: { 'If-None-Match': header(tag) } })
        expect({ name, status: response.status }).toEqual({ name, status: 304 })
        expect({ name, body: await response.text() }).toEqual({ name, body: '' })
        expect({ name, etag: response.headers.get('etag') }).toEqual({ name, etag: tag })
        expect({ name, cacheControl: response.headers.get('cache-control') }).toEqual({ name, cacheControl: fresh.headers.get('cache-control') })
        expect({ name, cacheControl: response.headers.get('cache-control') }).toEqual({ name, cacheControl: PUBLIC_DEFAULT })
      }
    })
  })

  it('answers 200 with the body to a stale tag', async () => {
    for (const [name, path] of routes()) {
      const response = await ctx.request('GET', path, { headers: { 'If-None-Match': '"1.999", "l-stale"' } })
      expect({ name, status: response.status }).toEqual({ name, status: 200 })
      expect({ name, empty: (await response.text()) === '' }).toEqual({ name, empty: false })
    }
  })

  it('answers 200 to the tag of a version that has moved on since', async () => {
    const before = (await ctx.request('GET', `/api/articles/${doc.documentId}`)).headers.get('etag') as string
    expect((await ctx.request('PUT', `/api/articles/${doc.documentId}`, { token: key, body: { data: { title: 'again' } } })).status).toBe(200)
    const response = await ctx.request('GET', `/api/articles/${doc.documentId}`, { headers: { 'If-None-Match': before } })
    expect(response.status).toBe(200)
    expect((await json(response)).data[0].title).toBe('again')
    settle()
  })

  it('answers a changed /api/i18n/locales with 200 and a new tag', async () => {
    const before = (await ctx.request('GET', '/api/i18n/locales')).headers.get('etag') as string
    await ctx.addLocales('de')
    const response = await ctx.request('GET', '/api/i18n/locales', { headers: { 'If-None-Match': before } })
    expect(response.status).toBe(200)
    expect(response.headers.get('etag')).not.toBe(before)
    expect((await json(response)).map((locale: { code: string }) => locale.code)).toContain('de')
  })
})

describe('list tags', () => {
  let ctx: TestContext
  let key: string
  let doc: { id: number; documentId: string }
  const PATH = '/api/articles?sort=title'
  const tagOf = async (path = PATH, app = ctx) => {
    const response = await app.request('GET', path)
    expect(response.status).toBe(200)
    return response.headers.get('etag') as string
  }
  beforeAll(async () => {
    ctx = await createTestContext()
    key = await ctx.token()
    await ctx.addLocales('fr')
    doc = await createArticle(ctx, key, 'b')
    await createArticle(ctx, key, 'a')
    settle()
  })

  it('stays the same when nothing changed', async () => {
    const first = await tagOf()
    expect(await tagOf()).toBe(first)
    expect(await tagOf('/api/articles?sort=views')).not.toBe(first)
  })

  it('is unique per answer within the settling time after the list changed', async () => {
    expect((await ctx.request('PUT', `/api/articles/${doc.documentId}`, { token: key, body: { data: { title: 'c' } } })).status).toBe(200)
    const [first, second] = [await tagOf(), await tagOf()]
    expect(first).not.toBe(second)
    const response = await ctx.request('GET', PATH, { headers: { 'If-None-Match': second } })
    expect(response.status).toBe(200)
    settle()
    expect(await tagOf()).toBe(await tagOf())
  })

  const FR = '/api/articles?locale=fr&sort=title'
  const edit = async (title: string) => {
    expect((await ctx.request('PUT', `/api/articles/${doc.documentId}`, { token: key, body: { data: { title } } })).status).toBe(200)
  }
  describe.each([
    ['a write to a listed version', PATH, () => edit('d')],
    ['a create in the list', PATH, () => createArticle(ctx, key, 'e')],
    ['a delete in the list', PATH, async () => {
      const doomed = await createArticle(ctx, key, 'f')
      settle()
      await tagOf() // the tag with the document listed
      expect((await ctx.request('DELETE', `/api/articles/${doomed.documentId}`, { token: key })).status).toBe(204)
    }],
    ['a locale registry change', PATH, async () => {
      expect((await ctx.admin('PUT', '/admin/i18n/locales/fr', { name: 'Français' })).status).toBe(200)
    }],
    ['a fallback change of the listed locale', FR, async () => {
      expect((await ctx.admin('PUT', '/admin/i18n/locales/fr', { fallback: 'en' })).status).toBe(200)
    }],
    ['a write to an en version the fr list serves through its fallback', FR, () => edit('g')],
    ['the fr served list marked ready', FR, async () => {
      expect(await ctx.services.locales.markServedReady((await ctx.services.locales.current()).epoch)).toBe(true)
    }],
    ['a write to an en version the fr served list serves', FR, () => edit('h')],
  ])('after %s', (_name, path, change) => {
    it('changes, and then stays the same', async () => {
      const before = await tagOf(path)
      expect(await tagOf(path)).toBe(before)
      await change()
      settle()
      const after = await tagOf(path)
      expect(after).not.toBe(before)
      expect(await tagOf(path)).toBe(after)
      const revalidated = await ctx.request('GET', path, { headers: { 'If-None-Match': before } })
      expect(revalidated.status).toBe(200)
    })
  })

  it('differs for an app with another configuration on the same table', async () => {
    const config = { ...ctx.config, rest: { ...ctx.config.rest, maxLimit: 50 } }
    const services = createServices(ctx.db, config, { adminToken: ADMIN_TOKEN, tokenHashSecret: TOKEN_HASH_SECRET }, ctx.services.types)
    const other = createServerApp(services, () => undefined)
    const mine = await tagOf()
    const response = await other.request(PATH)
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual(await json(await ctx.request('GET', PATH)))
    expect(response.headers.get('etag')).not.toBe(mine)
    expect((await other.request(PATH, { headers: { 'If-None-Match': mine } })).status).toBe(200)
  })
})

describe('permission checks run before If-None-Match', () => {
  let ctx: TestContext
  let documentId: string
  beforeAll(async () => {
    ctx = await createTestContext()
    const key = await ctx.token()
    documentId = (await createArticle(ctx, key, 'secret')).documentId
    expect((await ctx.request('PUT', '/api/homepage', { token: key, body: { data: { title: 'Home' } } })).status).toBe(200)
    expect((await ctx.admin('PUT', '/admin/roles/public', { permissions: [] })).status).toBe(200)
    settle()
  })
  const paths = () => ['/api/articles', `/api/articles/${documentId}`, '/api/homepage', '/api/i18n/locales']

  it('answers 403, not 304, to a caller without the permission', async () => {
    for (const path of paths()) {
      const response = await ctx.request('GET', path, { headers: { 'If-None-Match': '*' } })
      expect({ path, status: response.status }).toEqual({ path, status: 403 })
      expect({ path, cacheControl: response.headers.get('cache-control') }).toEqual({ path, cacheControl: 'no-store' })
    }
  })

  it('answers 401, not 304, to an unknown token', async () => {
    for (const path of paths()) {
      const response = await ctx.request('GET', path, { token: 'not-a-token', headers: { 'If-None-Match': '*' } })
      expect({ path, status: response.status }).toEqual({ path, status: 401 })
    }
  })
})

describe('Cache-Control and Vary', () => {
  let ctx: TestContext
  let key: string
  let documentId: string
  const PUBLIC = 'public, max-age=60, s-maxage=120, stale-while-revalidate=30'
  beforeAll(async () => {
    ctx = await createTestContext({ rest: { cache: { maxAge: 60, sMaxAge: 120, staleWhileRevalidate: 30 } } })
    key = await ctx.token()
    documentId = (await createArticle(ctx, key, 'cached')).documentId
    expect((await ctx.request('PUT', '/api/homepage', { token: key, body: { data: { title: 'Home' } } })).status).toBe(200)
    settle()
  })
  const reads = () => ['/api/articles', '/api/articles?locale=*', `/api/articles/${documentId}`, '/api/homepage', '/api/i18n/locales']

  it('answers anonymous reads public, with the configured ages', async () => {
    for (const path of reads()) {
      const response = await ctx.request('GET', path)
      expect({ path, status: response.status, cacheControl: response.headers.get('cache-control') }).toEqual({ path, status: 200, cacheControl: PUBLIC })
    }
  })

  it('answers reads with a token private, no-cache', async () => {
    for (const path of reads()) {
      const response = await ctx.request('GET', path, { token: key })
      expect({ path, status: response.status, cacheControl: response.headers.get('cache-control') }).toEqual({ path, status: 200, cacheControl: 'private, no-cache' })
    }
  })

  it('answers a 304 with the Cache-Control of the 200', async () => {
    for (const token of [undefined, key]) {
      const fresh = await ctx.request('GET', '/api/articles', { token })
      const response = await ctx.request('GET', '/api/articles', { token, headers: { 'If-None-Match': fresh.headers.get('etag') as string } })
      expect(response.status).toBe(304)
      expect(response.headers.get('cache-control')).toBe(token === undefined ? PUBLIC : 'private, no-cache')
    }
  })

  it('answers writes no-store', async () => {
    const created = await ctx.request('POST', '/api/articles', { token: key, body: { data: { title: 'new' } } })
    const id = (await json(created)).data.documentId
    const updated = await ctx.request('PUT', `/api/articles/${id}`, { token: key, body: { data: { title: 'newer' } } })
    const single = await ctx.request('PUT', '/api/homepage', { token: key, body: { data: { title: 'Home 2' } } })
    const deleted = await ctx.request('DELETE', `/api/articles/${id}`, { token: key })
    for (const [name, response, status] of [['POST', created, 200], ['PUT', updated, 200], ['PUT single', single, 200], ['DELETE', deleted, 204]] as const) {
      expect({ name, status: response.status, cacheControl: response.headers.get('cache-control') }).toEqual({ name, status, cacheControl: 'no-store' })
    }
    settle()
  })

  it('answers admin routes no-store', async () => {
    const answers = [
      ['GET locales', await ctx.admin('GET', '/admin/i18n/locales'), 200],
      ['POST locale', await ctx.admin('POST', '/admin/i18n/locales', { code: 'it' }), 201],
      ['GET role', await ctx.admin('GET', '/admin/roles/public'), 200],
      ['without the admin token', await ctx.request('GET', '/admin/i18n/locales'), 401],
    ] as const
    for (const [name, response, status] of answers) {
      expect({ name, status: response.status, cacheControl: response.headers.get('cache-control') }).toEqual({ name, status, cacheControl: 'no-store' })
    }
  })

  it('answers every error no-store, and every content GET answer carries Vary: Authorization', async () => {
    const answers = [
      ['404 unknown document', await ctx.request('GET', '/api/articles/abcdefghijklmnopqrstuvwx'), 404],
      ['400 bad query', await ctx.request('GET', '/api/articles?sort=nope'), 400],
      ['400 unknown locale', await ctx.request('GET', '/api/homepage?locale=xx'), 400],
      ['400 bad query on the locales', await ctx.request('GET', '/api/i18n/locales?nope=1'), 400],
      ['401 unknown token', await ctx.request('GET', '/api/articles', { token: 'nope' }), 401],
      ['405 POST on a single type', await ctx.request('POST', '/api/homepage', { token: key, body: { data: {} } }), 405],
      ['404 unknown route', await ctx.request('GET', '/api/nothing-here'), 404],
      ['400 bad body', await ctx.request('POST', '/api/articles', { token: key, body: { data: { nope: 1 } } }), 400],
    ] as const
    for (const [name, response, status] of answers) {
      expect({ name, status: response.status, cacheControl: response.headers.get('cache-control') }).toEqual({ name, status, cacheControl: 'no-store' })
    }
    for (const [name, response] of answers.slice(0, 3)) expect({ name, vary: varies(response) }).toEqual({ name, vary: expect.arrayContaining(['authorization']) })
    for (const path of reads()) {
      for (const token of [undefined, key]) {
        const response = await ctx.request('GET', path, { token })
        expect({ path, vary: varies(response) }).toEqual({ path, vary: expect.arrayContaining(['authorization']) })
        const revalidated = await ctx.request('GET', path, { token, headers: { 'If-None-Match': response.headers.get('etag') as string } })
        expect({ path, status: revalidated.status, vary: varies(revalidated) }).toEqual({ path, status: 304, vary: expect.arrayContaining(['authorization']) })
      }
    }
  })

  it('answers public, max-age=0, s-maxage=0, stale-while-revalidate=0 by default', async () => {
    const plain = await createTestContext()
    expect((await plain.request('GET', '/api/articles')).headers.get('cache-control')).toBe(PUBLIC_DEFAULT)
  })
})

describe('the page cache', () => {
  /** DynamoDB calls made since the last reset, as `<command> <key>`. */
  const calls: string[] = []
  const countCalls = (ctx: TestContext) => {
    ctx.db.middlewareStack.add((next, context) => async (args) => {
      const input = args.input as { Key?: Record<string, unknown>; IndexName?: string }
      const key = input.Key === undefined ? '' : ` ${JSON.stringify(input.Key)}`
      calls.push(`${context.commandName}${input.IndexName === undefined ? '' : ` ${input.IndexName}`}${key}`)
      return next(args)
    }, { step: 'initialize', name: 'countCalls' })
  }
  afterEach(() => {
    calls.length = 0
  })

  describe('on (the default), with the registry and role cached (CACHE_TTL_MS 5000)', () => {
    let ctx: TestContext
    let key: string
    let doc: { id: number; documentId: string }
    beforeAll(async () => {
      ctx = await createTestContext({ cacheTtlMs: 5000 })
      key = await ctx.token()
      doc = await createArticle(ctx, key, 'one')
      await createArticle(ctx, key, 'two')
      settle()
      countCalls(ctx)
    })
    const titles = async (path = '/api/articles?sort=title') => {
      const response = await ctx.request('GET', path)
      expect(response.status).toBe(200)
      return (await json(response)).data.map((article: { title: string }) => article.title)
    }

    it('serves a repeated list from the cache for one GetItem of the list\'s count item', async () => {
      const first = await titles()
      calls.length = 0
      expect(await titles()).toEqual(first)
      expect(calls).toEqual([`GetItemCommand ${JSON.stringify({ documentId: META.count, locale: 'api::article.article#en' })}`])
    })

    it('answers fresh after a write, not the cached page', async () => {
      expect(await titles()).toEqual(['one', 'two'])
      expect((await ctx.request('PUT', `/api/articles/${doc.documentId}`, { token: key, body: { data: { title: 'zero' } } })).status).toBe(200)
      expect(await titles()).toEqual(['two', 'zero'])
      settle()
      expect(await titles()).toEqual(['two', 'zero'])
      expect(await titles()).toEqual(['two', 'zero'])
    })

    it('serves the cached page byte for byte as read afresh, text beyond ASCII included', async () => {
      const path = '/api/articles?filters[title][$eq]=Ünïcödé 日本 😀'
      await createArticle(ctx, key, 'Ünïcödé 日本 😀')
      settle()
      const read = await ctx.request('GET', path)
      calls.length = 0
      const cached = await ctx.request('GET', path)
      // No Query or BatchGet: the page came from the cache (a cached registry or role may be read again).
      expect(calls.filter((call) => !call.startsWith('GetItemCommand'))).toEqual([])
      expect(cached.headers.get('content-type')).toBe(read.headers.get('content-type'))
      const [readBytes, cachedBytes] = [new Uint8Array(await read.arrayBuffer()), new Uint8Array(await cached.arrayBuffer())]
      expect(cachedBytes).toEqual(readBytes)
      expect(JSON.parse(new TextDecoder().decode(cachedBytes)).data.map((article: { title: string }) => article.title)).toEqual(['Ünïcödé 日本 😀'])
    })
  })

  describe('off (rest.pageCache: 0)', () => {
    it('reads the page again on a repeated list', async () => {
      const ctx = await createTestContext({ cacheTtlMs: 5000, rest: { pageCache: 0 } })
      const key = await ctx.token()
      await createArticle(ctx, key, 'one')
      settle()
      countCalls(ctx)
      await ctx.request('GET', '/api/articles')
      calls.length = 0
      const response = await ctx.request('GET', '/api/articles')
      expect((await json(response)).data.map((article: { title: string }) => article.title)).toEqual(['one'])
      // The list is read again: its documents whole from byId, or its entries from slot0 (its documents kept in the process).
      expect(calls.filter((call) => call === `QueryCommand ${INDEX.byId}` || call === `QueryCommand ${slotIndex(0)}`)).toHaveLength(1)
    })
  })

  describe('bounded in bytes (rest.pageCacheBytes), one budget for every type of the process', () => {
    it('keeps two types\' pages when both fit, and only the last one read when one fits', async () => {
      const ctx = await createTestContext({ cacheTtlMs: 5000 })
      const key = await ctx.token()
      await createArticle(ctx, key, 'a'.repeat(200))
      expect((await ctx.request('POST', '/api/authors', { token: key, body: { data: { name: 'b'.repeat(200) } } })).status).toBe(200)
      settle()
      const [articles, authors] = ['/api/articles', '/api/authors'] as const
      const paths = [articles, authors]
      const [articleBytes, authorBytes] = await Promise.all(paths.map(async (path) => (await (await ctx.request('GET', path)).arrayBuffer()).byteLength)) as [number, number]
      expect(Math.min(articleBytes, authorBytes)).toBeGreaterThan(200)
      countCalls(ctx)
      const rereads: boolean[] = []
      // Two processes on the table: one with room for both answers, one with room for the larger alone.
      for (const budget of [articleBytes + authorBytes, Math.max(articleBytes, authorBytes) + 10]) {
        const peer = createPeer(ctx, { cacheTtlMs: 5000, rest: { ...ctx.config.rest, pageCacheBytes: budget } })
        for (const path of paths) expect((await peer.request('GET', path)).status).toBe(200)
        calls.length = 0
        // The articles again: from the cache only if the authors' answer left room for them.
        expect((await json(await peer.request('GET', articles))).data.map((article: { title: string }) => article.title)).toEqual(['a'.repeat(200)])
        rereads.push(calls.some((call) => call === `QueryCommand ${INDEX.byId}` || call === `QueryCommand ${slotIndex(0)}`))
      }
      expect(rereads).toEqual([false, true])
    })
  })

  describe('a list read in flight during a write', () => {
    let ctx: TestContext
    let key: string
    beforeAll(async () => {
      ctx = await createTestContext()
      key = await ctx.token()
      await createArticle(ctx, key, 'old')
      settle()
    })
    afterEach(() => {
      ctx.db.middlewareStack.remove('hold')
    })
    const list = (headers: Record<string, string> = {}, path = '/api/articles') => ctx.request('GET', path, { headers })
    /** The default list's page read: one Query (of byId, or of slot0 once the process keeps the list's documents). */
    const pageRead = isPageRead
    const titles = async (response: Response) => (await json(response)).data.map((article: { title: string }) => article.title)

    it('never serves or validates the page it read before the write, once settled', async () => {
      // The list's page read happens before the write commits; its answer is delivered after.
      let paged!: () => void
      const pageDone = new Promise<void>((resolve) => (paged = resolve))
      let commit!: () => void
      const committed = new Promise<void>((resolve) => (commit = resolve))
      ctx.db.middlewareStack.add((next, context) => async (args) => {
        if (!pageRead(context.commandName, args.input)) return next(args)
        const result = await next(args)
        paged()
        await committed
        return result
      }, { step: 'initialize', name: 'hold' })
      const inFlight = list()
      await pageDone
      await createArticle(ctx, key, 'new')
      commit()
      const stale = await inFlight
      expect(await titles(stale)).toEqual(['old'])
      settle()
      const fresh = await list()
      expect(await titles(fresh)).toEqual(['old', 'new'])
      const revalidated = await list({ 'If-None-Match': stale.headers.get('etag') as string })
      expect(revalidated.status).toBe(200)
      expect(await titles(revalidated)).toEqual(['old', 'new'])
    })

    it('never caches or validates a page read before a write whose validator, read alongside, ends after it, however long the request took', async () => {
      // The page and the validator (the count item) are read at once. Here the page is read before
      // the write, and the validator after it, more than SETTLE_MS after the request began: the
      // tag names the new revision, the body the old one.
      const headRead = isCountRead
      let paged!: () => void
      const pageDone = new Promise<void>((resolve) => (paged = resolve))
      let commit!: () => void
      const committed = new Promise<void>((resolve) => (commit = resolve))
      const before = await titles(await list({}, '/api/articles?pagination[pageSize]=21'))
      // A query not asked before, so no cached page makes the request wait for the validator first.
      const path = '/api/articles?pagination[pageSize]=22'
      let holding = true
      ctx.db.middlewareStack.add((next, context) => async (args) => {
        if (holding && pageRead(context.commandName, args.input)) {
          const result = await next(args)
          paged()
          return result
        }
        if (holding && headRead(context.commandName, args.input)) {
          await committed
          return next(args)
        }
        return next(args)
      }, { step: 'initialize', name: 'hold' })
      const inFlight = list({}, path)
      await pageDone
      await createArticle(ctx, key, 'later')
      settle()
      commit()
      const stale = await inFlight
      holding = false
      expect(await titles(stale)).toEqual(before)
      const again = await list({}, path)
      expect(await titles(again)).toEqual([...before, 'later'])
      const revalidated = await list({ 'If-None-Match': stale.headers.get('etag') as string }, path)
      expect(revalidated.status).toBe(200)
      expect(await titles(revalidated)).toEqual([...before, 'later'])
    })

    it('never caches or validates a page an index that lags behind the write answered', async () => {
      // An eventually consistent index: the first page read after the write answers what it held before.
      let before: { output: unknown; response: unknown } | undefined
      let replay = false
      ctx.db.middlewareStack.add((next, context) => async (args) => {
        if (!pageRead(context.commandName, args.input)) return next(args)
        if (replay && before !== undefined) {
          replay = false
          return { output: structuredClone(before.output), response: before.response } as Awaited<ReturnType<typeof next>>
        }
        const result = await next(args)
        before = { output: structuredClone(result.output), response: result.response }
        return result
      }, { step: 'initialize', name: 'hold' })
      // A query no earlier test asked, so its first answer is read, not served from the page cache.
      const path = '/api/articles?pagination[pageSize]=20'
      const known = await titles(await list({}, path))
      await createArticle(ctx, key, 'newest')
      replay = true
      const lagging = await list({}, path)
      expect(replay).toBe(false)
      expect(await titles(lagging)).toEqual(known)
      settle()
      const revalidated = await list({ 'If-None-Match': lagging.headers.get('etag') as string }, path)
      expect(revalidated.status).toBe(200)
      expect(await titles(revalidated)).toEqual([...known, 'newest'])
      expect(await titles(await list({}, path))).toEqual([...known, 'newest'])
    })
  })
})
