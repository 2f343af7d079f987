// Property-based bad input (behaviour.md §1, §5, §6; issue 6): generated query strings, paths and
// bodies thrown at every route. Whatever comes in: never a 5xx, every non-2xx is the error envelope
// with error.status equal to the HTTP status, and a rejected request (or any read) leaves the
// test's table exactly as it was (a full Scan compared before and after).
import fc from 'fast-check'
import { beforeAll, describe, expect, it } from 'vitest'
import { ADMIN_TOKEN, createTestContext, json, tableSnapshot, type TestContext } from '../support/context.js'

// Bounded so the file stays well under 30 s; a failure prints the seed to replay it.
const RUNS = 40
const MiB = 1024 * 1024

// ---- query strings ------------------------------------------------------------------------

const specialKeys = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf', 'length', '']
const keyBase = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('locale', 'sort', 'pagination') },
  { weight: 2, arbitrary: fc.constantFrom('filters', 'populate', 'fields', 'page', 'pageSize', 'start', 'limit', 'a', ...specialKeys) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 8 }) },
)
const segment = fc.oneof(
  fc.constantFrom('', '0', '1', '99', '100', '101', '1000', '99999999999999999999', '-1', 'page', 'pageSize', 'start', 'limit', 'withCount', 'title', '$eq', ...specialKeys),
  fc.string({ unit: 'grapheme', maxLength: 6 }),
)
const bracketJunk = fc.constantFrom('[', ']', '[[', ']]', '[]]', '[[]', '%5B', '%5D', '%5B0%5D', '.', '..')
const key = fc.tuple(keyBase, fc.array(fc.oneof({ weight: 4, arbitrary: segment.map((s) => `[${s}]`) }, { weight: 1, arbitrary: bracketJunk }), { maxLength: 9 }))
  .map(([base, brackets]) => base + brackets.join(''))
const value = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('', 'en', 'fr', 'DE', '*', 'xx', 'en-US', 'title', 'title:desc', 'title:asc:x', ':desc', 'views:DESC,id', 'id', 'documentId:desc',
    'body', '1', '0', '-1', '25', '100', '101', '1.5', '2e0', '1e999', '99999999999999999999', '9007199254740993', 'NaN', 'Infinity', 'true', 'f', 'null', '__proto__') },
  fc.string({ unit: 'grapheme', maxLength: 12 }),
  fc.bigInt().map(String),
)
/** Raw, percent-encoded, or with only the brackets encoded. */
const encoded = (text: fc.Arbitrary<string>) => fc.tuple(text, fc.constantFrom('raw', 'component', 'brackets')).map(([s, how]) =>
  how === 'raw' ? s : how === 'component' ? encodeURIComponent(s) : s.replace(/\[/g, '%5B').replace(/\]/g, '%5D'))
const parameter = fc.tuple(encoded(key), fc.option(encoded(value), { nil: undefined }))
  .map(([k, v]) => (v === undefined ? k : `${k}=${v}`))
const queryString = fc.oneof(
  { weight: 6, arbitrary: fc.array(parameter, { maxLength: 4 }).map((params) => params.join('&')) },
  // repeated keys, and arrays past the qs limits (arrayLimit 100, parameterLimit 1000)
  { weight: 2, arbitrary: fc.tuple(parameter, fc.integer({ min: 2, max: 1200 })).map(([param, times]) => Array(times).fill(param).join('&')) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom('sort', 'locale', 'pagination[page]'), fc.integer({ min: 0, max: 10_000 })).map(([k, i]) => `${k}[${i}]=title`) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 60 }).map((depth) => `pagination${'[a]'.repeat(depth)}=1&sort${'[0]'.repeat(depth)}=title`) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
)
/** Well-formed keys of a list read, with generated values: reaches the sort and pagination rules. */
const listParameter = fc.tuple(
  fc.constantFrom('locale', 'sort', 'sort[]', 'sort[0]', 'sort[1]', 'sort[title]', 'sort[0][views]', 'sort[100]', 'sort[101]', 'pagination[page]',
    'pagination[pageSize]', 'pagination[start]', 'pagination[limit]', 'pagination[withCount]', 'pagination[page][]', 'pagination'),
  encoded(value),
).map(([k, v]) => `${k}=${v}`)
const listQuery = fc.array(listParameter, { minLength: 1, maxLength: 5 }).map((params) => params.join('&'))

// ---- bodies -------------------------------------------------------------------------------

// Values are generated as JSON text: nesting too deep for JSON.stringify must still reach the API.
const asText = (arbitrary: fc.Arbitrary<unknown>) => arbitrary.map((value) => JSON.stringify(value) ?? 'null')
const hugeNumber = fc.constantFrom('1e308', '-1e308', '1e999', '9007199254740993', '-0', '1e-320', '2147483648', '-2147483649', '9.9e125', '1e126', '123456789012345678901234567890')
/** Around the 255-character string limit, or bulky enough to pass the item size limit (380 KB). */
const bigString = fc.oneof(fc.integer({ min: 250, max: 260 }), fc.integer({ min: 300_000, max: 700_000 })).map((length) => `"${'x'.repeat(length)}"`)
/** Shallow (around the 32-level limit) or far too deep for a recursive walk. */
const depth = fc.oneof(fc.integer({ min: 1, max: 40 }), fc.constantFrom(10_000, 100_000))
const deepArray = depth.map((levels) => `${'['.repeat(levels)}${']'.repeat(levels)}`)
const deepObject = depth.map((levels) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`)
const attributeValue = fc.oneof(
  asText(fc.jsonValue({ maxDepth: 3 })),
  hugeNumber,
  bigString,
  deepArray,
  deepObject,
  asText(fc.string({ unit: 'grapheme', maxLength: 300 })),
  fc.constantFrom('"\\ud800"', '"a\\udfffb"', '"\\u0000"', `"${'😀'.repeat(256)}"`, '"2024-13-45"', '"12:61"', 'null', 'true', '"42"', '42.5'),
  // blocks-shaped values with the wrong inner types, or hiding deep nesting and bulk in extra keys
  { weight: 3, arbitrary: fc.tuple(asText(fc.jsonValue({ maxDepth: 2 })), fc.oneof(deepArray, deepObject, bigString)).map(([children, hidden]) =>
    `[{"type":"paragraph","children":[{"type":"text","text":"x","hidden":${hidden}}],"extra":${children}}]`) },
  asText(fc.jsonValue({ maxDepth: 2 })).map((children) => `[{"type":"paragraph","children":${children}}]`),
  { weight: 2, arbitrary: bigString.map((text) => `[{"type":"paragraph","children":[{"type":"text","text":${text}}]}]`) },
)
const attributeName = fc.oneof(
  fc.constantFrom('title', 'body', 'slug', 'views', 'category', 'tagline', 'locale', 'id', 'documentId', 'createdAt', 'updatedAt',
    'publishedAt', 'rev', 'listKey', 'contentType', 'code', 'name', 'isDefault', 'type', 'permissions', ...specialKeys),
  fc.string({ unit: 'grapheme', maxLength: 10 }),
)
/** A JSON object text; names may repeat (the last one wins in JSON.parse). */
const dataObject = fc.array(fc.tuple(attributeName, attributeValue), { maxLength: 5 })
  .map((entries) => `{${entries.map(([name, text]) => `${JSON.stringify(name)}:${text}`).join(',')}}`)
interface RawBody {
  readonly body: string | Uint8Array
  readonly contentType: string | undefined
}
/** A valid article or homepage body with one generated attribute: the rest cannot hide it. */
const oneBadField = fc.tuple(fc.constantFrom('title', 'body', 'body', 'slug', 'views', 'category', 'tagline'), attributeValue)
  .map(([name, text]) => `{"title":"ok",${JSON.stringify(name)}:${text}}`)
const bodyText = fc.oneof(
  { weight: 4, arbitrary: dataObject.map((data) => `{"data":${data}}`) },
  { weight: 4, arbitrary: oneBadField.map((data) => `{"data":${data}}`) },
  { weight: 2, arbitrary: dataObject }, // admin-shaped, or missing `data`
  { weight: 1, arbitrary: fc.oneof(attributeValue, asText(fc.jsonValue({ maxDepth: 4 }))).map((data) => `{"data":${data}}`) }, // non-object data
  { weight: 1, arbitrary: asText(fc.jsonValue({ maxDepth: 4 })) },
  { weight: 1, arbitrary: fc.constantFrom('{"data":{"__proto__":{"title":"x"}}}', '{"__proto__":{"data":{"title":"x"}}}', '{"data":{"constructor":{"prototype":{"title":"x"}}}}', '{"data":{"title":"a","title":"b"}}', '{"code":"fr","__proto__":{"isDefault":true}}', '{"name":"t","type":"custom","permissions":{"__proto__":[]}}', '', ' ', 'null', '[]', '{"data":[]}', '{"data":{}}') },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 60 }) },
)
const rawBody: fc.Arbitrary<RawBody> = fc.record({
  body: fc.oneof({ weight: 8, arbitrary: bodyText }, { weight: 1, arbitrary: fc.uint8Array({ maxLength: 64 }) }),
  contentType: fc.constantFrom(undefined, 'application/json', 'application/json', 'application/json; charset=utf-8', 'text/plain', '', 'application/x-www-form-urlencoded', 'APPLICATION/JSON', 'application/json;;;', 'application/vnd.api+json'),
})

// ---- the harness --------------------------------------------------------------------------

type Caller = 'public' | 'full' | 'admin'

describe('fuzz', () => {
  let ctx: TestContext
  let key: string
  let snapshot: string
  /** The seeded article (en + fr); a generated DELETE that succeeds makes the next one. */
  let article: string
  const prototypeKeys = Object.getOwnPropertyNames(Object.prototype).sort()

  beforeAll(async () => {
    ctx = await createTestContext()
    key = await ctx.token()
    await ctx.addLocales('fr', 'de')
    article = await seedArticle()
    expect((await ctx.request('PUT', '/api/homepage', { token: key, body: { data: { title: 'home' } } })).status).toBe(200)
    snapshot = await tableSnapshot(ctx)
  })

  async function seedArticle(): Promise<string> {
    const created = await ctx.request('POST', '/api/articles', { token: key, body: { data: { title: 'seed', views: 1 } } })
    const { documentId } = (await json(created)).data
    expect((await ctx.request('PUT', `/api/articles/${documentId}?locale=fr`, { token: key, body: { data: { title: 'graine' } } })).status).toBe(200)
    return documentId
  }


  /**
   * Sends one request and checks the properties: < 500; the envelope on every non-2xx; the table
   * unchanged when the request was rejected or only read.
   */
  async function check(method: string, path: string, caller: Caller, body?: RawBody): Promise<Response> {
    const headers: Record<string, string> = {}
    if (caller === 'full') headers.Authorization = `Bearer ${key}`
    if (caller === 'admin') headers.Authorization = `Bearer ${ADMIN_TOKEN}`
    if (body?.contentType !== undefined) headers['Content-Type'] = body.contentType
    const response = await ctx.app.request(path, { method, headers, body: body?.body })
    const text = await response.text()
    const where = `${method} ${path.slice(0, 300)} -> ${response.status} ${text.slice(0, 300)}`
    expect(response.status, where).toBeLessThan(500)
    if (method === 'HEAD') {
      expect(text, where).toBe('') // a HEAD answer has no body to hold the envelope
    } else if (response.status >= 300) {
      const envelope = JSON.parse(text)
      expect(Object.keys(envelope).sort(), where).toEqual(['data', 'error'])
      expect(envelope.data, where).toBeNull()
      expect(Object.keys(envelope.error).sort(), where).toEqual(['details', 'message', 'name', 'status'])
      expect(envelope.error.status, where).toBe(response.status)
      expect(envelope.error.name, where).toMatch(/^[A-Z][A-Za-z]+Error$/)
      expect(typeof envelope.error.message, where).toBe('string')
      expect(Object.prototype.toString.call(envelope.error.details), where).toBe('[object Object]')
    } else if (response.status !== 204) {
      expect(() => JSON.parse(text), where).not.toThrow()
    }
    const after = await tableSnapshot(ctx)
    if (response.status >= 300 || method === 'GET') expect(after === snapshot, `table changed: ${where}`).toBe(true)
    snapshot = after
    if (method === 'DELETE' && response.status === 204 && path.startsWith(`/api/articles/${article}`)) {
      article = await seedArticle()
      snapshot = await tableSnapshot(ctx)
    }
    return response
  }

  /** Every route and who calls it; `:id` is the seeded article. */
  const routes: [method: string, path: string, caller: Caller][] = [
    ['GET', '/api/articles', 'public'],
    ['GET', '/api/articles/:id', 'public'],
    ['POST', '/api/articles', 'full'],
    ['PUT', '/api/articles/:id', 'full'],
    ['DELETE', '/api/articles/:id', 'full'],
    ['GET', '/api/homepage', 'public'],
    ['PUT', '/api/homepage', 'full'],
    ['DELETE', '/api/homepage', 'full'],
    ['GET', '/api/i18n/locales', 'public'],
    ['GET', '/admin/i18n/locales', 'admin'],
    ['POST', '/admin/i18n/locales', 'admin'],
    ['PUT', '/admin/i18n/locales/fr', 'admin'],
    ['GET', '/admin/api-tokens', 'admin'],
    ['POST', '/admin/api-tokens', 'admin'],
    ['GET', '/admin/roles/public', 'admin'],
    ['PUT', '/admin/roles/public', 'admin'],
  ]
  const route = fc.constantFrom(...routes)
  const pathOf = (path: string) => path.replace(':id', article)
  const validBody = (method: string, path: string): RawBody | undefined => {
    if (method === 'GET' || method === 'DELETE') return undefined
    if (path.startsWith('/admin/i18n/locales/')) return { body: JSON.stringify({ name: 'Français' }), contentType: 'application/json' }
    if (path === '/admin/i18n/locales') return { body: JSON.stringify({ code: 'it' }), contentType: 'application/json' }
    if (path === '/admin/api-tokens') return { body: JSON.stringify({ name: 'fuzz', type: 'read-only' }), contentType: 'application/json' }
    if (path === '/admin/roles/public') return { body: JSON.stringify({ permissions: ['plugin::i18n.locales.listLocales', 'api::article.article.find', 'api::article.article.findOne', 'api::homepage.homepage.find'] }), contentType: 'application/json' }
    return { body: JSON.stringify({ data: { title: 'fuzzed query' } }), contentType: 'application/json' }
  }

  it('answers generated query strings on every route with < 500, the envelope, and no stray write', async () => {
    await fc.assert(
      fc.asyncProperty(route, queryString, async ([method, path, caller], query) => {
        await check(method, `${pathOf(path)}?${query}`, caller, validBody(method, path))
      }),
      { numRuns: RUNS * 4 },
    )
  })

  it('answers generated sort, pagination and locale values on list reads with < 500 and the envelope', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('/api/articles', '/api/articles/:id'), listQuery, async (path, query) => {
        await check('GET', `${pathOf(path)}?${query}`, 'public')
      }),
      { numRuns: RUNS * 2 },
    )
  })

  it('answers generated bodies on every content write with < 500, the envelope, and no write when rejected', async () => {
    const writes = routes.filter(([method, path]) => (method === 'POST' || method === 'PUT') && path.startsWith('/api/'))
    const locale = fc.constantFrom('', '?locale=en', '?locale=fr', '?locale=de')
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...writes), locale, rawBody, async ([method, path, caller], suffix, body) => {
        await check(method, `${pathOf(path)}${suffix}`, caller, body)
      }),
      { numRuns: RUNS * 4 },
    )
  })

  it('answers generated bodies on every admin write with < 500, the envelope, and no write when rejected', async () => {
    const writes = routes.filter(([method, path]) => (method === 'POST' || method === 'PUT') && path.startsWith('/admin/'))
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...writes), rawBody, async ([method, path, caller], body) => {
        await check(method, path, caller, body)
      }),
      { numRuns: RUNS * 2 },
    )
  })

  it('answers generated path segments with < 500 and the envelope', async () => {
    const id = fc.oneof(
      fc.string({ unit: 'grapheme', maxLength: 30 }).map(encodeURIComponent),
      fc.stringMatching(/^[a-zA-Z0-9_-]{22,26}$/),
      fc.constantFrom('%', '%ZZ', '%00', '..', '%2e%2e', '%2F', '#head', '%23head', '%23count', 'a'.repeat(10_000)),
    )
    const paths = fc.constantFrom('/api/articles/:x', '/api/articles/:x/extra', '/api/:x', '/admin/i18n/locales/:x', '/admin/api-tokens/:x', '/api/homepage/:x')
    const method = fc.constantFrom('GET', 'PUT', 'DELETE', 'POST', 'PATCH', 'OPTIONS', 'HEAD')
    await fc.assert(
      fc.asyncProperty(paths, id, method, async (path, segment, verb) => {
        const caller: Caller = path.startsWith('/admin') ? 'admin' : 'full'
        const body = verb === 'PUT' || verb === 'POST' || verb === 'PATCH' ? { body: '{"data":{"title":"x"}}', contentType: 'application/json' } : undefined
        await check(verb, path.replace(':x', segment), caller, body)
      }),
      { numRuns: RUNS * 2 },
    )
  })

  it('rejects generated bodies larger than the limit with 413 and writes nothing', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...routes.filter(([method]) => method === 'POST' || method === 'PUT')), fc.integer({ min: 1, max: 64 * 1024 }), async ([method, path, caller], extra) => {
        const body = JSON.stringify({ data: { title: 'y'.repeat(MiB + extra) } })
        const response = await check(method, pathOf(path), caller, { body, contentType: 'application/json' })
        expect(response.status).toBe(413)
      }),
      { numRuns: 8 },
    )
  })

  it('never lets a prototype key through to Object.prototype', () => {
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(prototypeKeys)
    expect(({} as Record<string, unknown>).title).toBeUndefined()
    expect(({} as Record<string, unknown>).isDefault).toBeUndefined()
  })
})
