// Bad input at the HTTP boundary (behaviour.md §1, §5, §6, §8 "order of checks"): every case is a
// 4xx in the error envelope, nothing is written, and malformed documentIds never reach DynamoDB.
import { randomBytes } from 'node:crypto'
import { beforeAll, describe, expect, it } from 'vitest'
import { MAX_QUERY_LENGTH } from '../../lib/query/parse.js'
import { createTestContext, json, tableSnapshot, type TestContext } from '../support/context.js'

const MiB = 1024 * 1024


/** Asserts the behaviour.md §1 envelope with the given status and name. */
async function expectError(response: Response, status: number, name: string): Promise<Record<string, any>> {
  expect(response.status).toBe(status)
  expect(response.headers.get('content-type')).toMatch(/^application\/json/)
  const body = await json(response)
  expect(body.data).toBeNull()
  expect(body.error).toMatchObject({ status, name })
  expect(typeof body.error.message).toBe('string')
  expect(body.error.details).toBeTypeOf('object')
  expect(Array.isArray(body.error.details)).toBe(false)
  expect(body.error.details).not.toBeNull()
  return body.error
}

/** Sends raw bytes (or text) with the given headers straight to the app. */
function raw(ctx: TestContext, method: string, path: string, body: string | Uint8Array | undefined, headers: Record<string, string>) {
  return Promise.resolve(ctx.app.request(path, { method, body, headers }))
}

describe('bad input', () => {
  let ctx: TestContext
  let key: string
  let documentId: string
  let auth: Record<string, string>

  beforeAll(async () => {
    // A long cache TTL: after the first request, the caller and the locales come from memory, so
    // any DynamoDB call counted below is one the route made for the document itself.
    ctx = await createTestContext({ cacheTtlMs: 60_000 })
    key = await ctx.token()
    auth = { Authorization: `Bearer ${key}` }
    await ctx.addLocales('fr')
    const created = await ctx.request('POST', '/api/articles', { token: key, body: { data: { title: 'Kept', views: 1 } } })
    expect(created.status).toBe(200)
    documentId = (await json(created)).data.documentId
  })

  /** Runs `act` and asserts the table is the same afterwards. */
  async function writesNothing(act: () => Promise<void>): Promise<void> {
    const before = await tableSnapshot(ctx)
    await act()
    expect(await tableSnapshot(ctx)).toBe(before)
  }

  describe('body size (413 PayloadTooLargeError, default limit 1 MiB)', () => {
    it('uses 1 MiB as the default maxBodyBytes', () => {
      expect(ctx.config.maxBodyBytes).toBe(MiB)
    })

    it.each([
      ['POST', '/api/articles'],
      ['PUT', '/api/articles/:id?locale=en'],
      ['PUT', '/api/homepage'],
      ['POST', '/admin/i18n/locales'],
    ])('returns 413 for a %s %s body one byte over the limit, and writes nothing', async (method, path) => {
      const title = 'x'.repeat(MiB) // with the JSON around it, more than 1 MiB
      const body = JSON.stringify({ data: { title } })
      expect(Buffer.byteLength(body)).toBeGreaterThan(MiB)
      const headers = path.startsWith('/admin') ? { Authorization: 'Bearer test-admin-token-0123456789' } : auth
      await writesNothing(async () => {
        const response = await raw(ctx, method, path.replace(':id', documentId), body, { ...headers, 'Content-Type': 'application/json' })
        await expectError(response, 413, 'PayloadTooLargeError')
      })
    })

    it('returns 413 from the Content-Length header alone, before credentials are checked', async () => {
      const response = await raw(ctx, 'POST', '/api/articles', '{}', { Authorization: 'Bearer not-a-real-token-at-all-000', 'Content-Length': String(MiB + 1) })
      await expectError(response, 413, 'PayloadTooLargeError')
    })

    it('accepts a body of exactly maxBodyBytes and rejects one byte more', async () => {
      const small = await createTestContext({ maxBodyBytes: 200 })
      const token = await small.token()
      const make = (size: number) => {
        const frame = JSON.stringify({ data: { title: '' } })
        return JSON.stringify({ data: { title: 'a'.repeat(size - frame.length) } })
      }
      expect(Buffer.byteLength(make(200))).toBe(200)
      const exact = await raw(small, 'POST', '/api/articles', make(200), { Authorization: `Bearer ${token}` })
      expect(exact.status).toBe(200)
      const over = await raw(small, 'POST', '/api/articles', make(201), { Authorization: `Bearer ${token}` })
      await expectError(over, 413, 'PayloadTooLargeError')
      const list = await json(await small.request('GET', '/api/articles'))
      expect(list.meta.pagination.total).toBe(1)
    })

    it('counts bytes, not characters: 100 four-byte characters are 400 bytes', async () => {
      const small = await createTestContext({ maxBodyBytes: 300 })
      const token = await small.token()
      const body = JSON.stringify({ data: { title: '😀'.repeat(100) } })
      expect(body.length).toBeLessThan(300)
      await expectError(await raw(small, 'POST', '/api/articles', body, { Authorization: `Bearer ${token}` }), 413, 'PayloadTooLargeError')
    })

    it('returns 413 for a body under the limit whose stored version would exceed the item size, and writes nothing', async () => {
      const paragraph = (text: string) => ({ type: 'paragraph', children: [{ type: 'text', text }] })
      // Text that compression barely shrinks (blocks past 1 KB are stored compressed): 900 KB of it.
      const bytes = randomBytes(9 * 75_000)
      const body = Array.from({ length: 9 }, (_, i) => paragraph(bytes.subarray(i * 75_000, (i + 1) * 75_000).toString('base64')))
      await writesNothing(async () => {
        const created = await ctx.request('POST', '/api/articles', { token: key, body: { data: { title: 'big', body } } })
        await expectError(created, 413, 'PayloadTooLargeError')
        const updated = await ctx.request('PUT', `/api/articles/${documentId}?locale=en`, { token: key, body: { data: { body } } })
        await expectError(updated, 413, 'PayloadTooLargeError')
      })
    })
  })

  describe('deep nesting (400 ValidationError)', () => {
    /** A blocks value whose extra key nests arrays `depth` levels deep. */
    const nested = (depth: number) => `[{"type":"paragraph","children":[{"type":"text","text":"x","extra":${'['.repeat(depth)}${']'.repeat(depth)}}]}]`

    it.each([100, 100_000])('returns 400 for blocks nested %i levels deep, and writes nothing', async (depth) => {
      await writesNothing(async () => {
        const body = `{"data":{"title":"deep","body":${nested(depth)}}}`
        const error = await expectError(await raw(ctx, 'POST', '/api/articles', body, { ...auth, 'Content-Type': 'application/json' }), 400, 'ValidationError')
        expect(error.details.errors[0].path).toEqual(['body'])
      })
    })

    it('accepts blocks nested as deep as a real document gets (a list six levels deep)', async () => {
      let item: unknown = { type: 'text', text: 'leaf' }
      for (let level = 0; level < 6; level++) item = { type: 'list', format: 'unordered', children: [{ type: 'list-item', children: [item] }] }
      const response = await ctx.request('POST', '/api/articles', { token: key, body: { data: { title: 'nested list', body: [item] } } })
      expect(response.status).toBe(200)
      expect((await json(response)).data.body).toEqual([item])
    })
  })

  describe('content type (415 UnsupportedMediaTypeError)', () => {
    it.each(['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/xml', 'application/jsonx'])(
      'returns 415 for a POST with Content-Type %s, and writes nothing',
      async (contentType) => {
        await writesNothing(async () => {
          const response = await raw(ctx, 'POST', '/api/articles', JSON.stringify({ data: { title: 'no' } }), { ...auth, 'Content-Type': contentType })
          await expectError(response, 415, 'UnsupportedMediaTypeError')
        })
      },
    )

    it('returns 415 for a PUT with a non-JSON Content-Type, and writes nothing', async () => {
      await writesNothing(async () => {
        const response = await raw(ctx, 'PUT', `/api/articles/${documentId}`, JSON.stringify({ data: { title: 'no' } }), { ...auth, 'Content-Type': 'text/plain' })
        await expectError(response, 415, 'UnsupportedMediaTypeError')
      })
    })

    it.each(['application/json', 'application/json; charset=utf-8', 'APPLICATION/JSON', 'application/vnd.api+json', undefined])(
      'reads the body as JSON with Content-Type %s',
      async (contentType) => {
        const headers: Record<string, string> = { ...auth, ...(contentType === undefined ? {} : { 'Content-Type': contentType }) }
        const response = await raw(ctx, 'POST', '/api/articles', JSON.stringify({ data: { title: 'typed' } }), headers)
        expect(response.status).toBe(200)
        expect((await json(response)).data.title).toBe('typed')
      },
    )
  })

  describe('invalid JSON and invalid UTF-8 (400 ValidationError)', () => {
    it.each(['{', '{"data":', "{'data':{}}", '{"data":{"title":"a",}}', 'undefined', '{"data":{"title":"\\x41"}}', '\u0000'])(
      'returns 400 Invalid JSON body for %j, and writes nothing',
      async (text) => {
        await writesNothing(async () => {
          const error = await expectError(await raw(ctx, 'POST', '/api/articles', text, { ...auth, 'Content-Type': 'application/json' }), 400, 'ValidationError')
          expect(error.message).toMatch(/^Invalid JSON body/)
        })
      },
    )

    it.each([
      ['a lone 0xff byte', [0xff]],
      ['a truncated two-byte sequence', [0xc3, 0x28]],
      ['an overlong encoding of /', [0xc0, 0xaf]],
      ['a UTF-8 encoded surrogate', [0xed, 0xa0, 0x80]],
    ])('returns 400 for a body with %s inside a string, and writes nothing', async (_, bad) => {
      const bytes = Buffer.concat([Buffer.from('{"data":{"title":"a'), Buffer.from(bad), Buffer.from('"}}')])
      await writesNothing(async () => {
        const response = await raw(ctx, 'POST', '/api/articles', new Uint8Array(bytes), { ...auth, 'Content-Type': 'application/json' })
        const error = await expectError(response, 400, 'ValidationError')
        expect(error.message).toMatch(/UTF-8/)
      })
    })

    it('returns 400 for a JSON-escaped lone surrogate (valid JSON, not valid Unicode), and writes nothing', async () => {
      await writesNothing(async () => {
        const response = await raw(ctx, 'POST', '/api/articles', '{"data":{"title":"a\\ud800b"}}', { ...auth, 'Content-Type': 'application/json' })
        const error = await expectError(response, 400, 'ValidationError')
        expect(error.details.errors[0].path).toEqual(['title'])
      })
    })
  })

  describe(`query string length (414 past ${MAX_QUERY_LENGTH} characters)`, () => {
    // `sort=title,,,,` is a valid sort (empty segments are ignored), so only the length differs.
    const sortOfLength = (length: number) => `sort=title${','.repeat(length - 'sort=title'.length)}`

    it('answers a query string of exactly the limit', async () => {
      const response = await ctx.request('GET', `/api/articles?${sortOfLength(MAX_QUERY_LENGTH)}`)
      expect(response.status).toBe(200)
    })

    it.each([
      ['GET', '/api/articles'],
      ['GET', '/api/articles/:id'],
      ['POST', '/api/articles'],
      ['PUT', '/api/articles/:id'],
      ['DELETE', '/api/articles/:id'],
      ['GET', '/api/homepage'],
      ['GET', '/api/i18n/locales'],
    ])('returns 414 on %s %s one character past the limit, and writes nothing', async (method, path) => {
      await writesNothing(async () => {
        const response = await ctx.request(method, `${path.replace(':id', documentId)}?${sortOfLength(MAX_QUERY_LENGTH + 1)}`, {
          token: key,
          body: method === 'POST' || method === 'PUT' ? { data: { title: 'no' } } : undefined,
        })
        await expectError(response, 414, 'URITooLongError')
      })
    })
  })

  describe('malformed documentIds (404 without a DynamoDB call)', () => {
    const malformed = [
      ['23 characters', 'a'.repeat(23)],
      ['25 characters', 'a'.repeat(25)],
      ['upper case', 'A'.repeat(24)],
      ['a dash', `${'a'.repeat(23)}-`],
      ['an underscore', `${'a'.repeat(23)}_`],
      ['unicode', `${'a'.repeat(22)}é`],
      ['a percent-encoded slash', `${'a'.repeat(12)}%2F${'a'.repeat(11)}`],
      ['a NUL', `${'a'.repeat(23)}%00`],
      ['a marker-item key', '%23head'],
      ['a number', '1'],
    ] as const

    /** Counts every command sent through the test's DynamoDB client while `act` runs. */
    async function dynamoCalls(act: () => Promise<void>): Promise<string[]> {
      const calls: string[] = []
      const name = `count-${Math.random()}`
      ctx.db.middlewareStack.add((next, context) => (args) => {
        calls.push(context.commandName ?? 'unknown')
        return next(args)
      }, { step: 'initialize', name })
      try {
        await act()
      } finally {
        ctx.db.middlewareStack.remove(name)
      }
      return calls
    }

    it('counts calls: a well-formed id does reach DynamoDB', async () => {
      await ctx.request('GET', `/api/articles/${documentId}`, { token: key }) // warms the caches
      const calls = await dynamoCalls(async () => {
        expect((await ctx.request('GET', `/api/articles/${'z'.repeat(24)}`, { token: key })).status).toBe(404)
      })
      expect(calls.length).toBeGreaterThan(0)
    })

    describe.each(malformed)('an id with %s', (_, id) => {
      it.each(['GET', 'PUT', 'DELETE'])('answers %s with 404 and makes no DynamoDB call', async (method) => {
        await ctx.request('GET', `/api/articles/${documentId}?locale=en`, { token: key }) // warms the caches
        const calls = await dynamoCalls(async () => {
          const response = await ctx.request(method, `/api/articles/${id}?locale=en`, {
            token: key,
            body: method === 'PUT' ? { data: { title: 'x' } } : undefined,
          })
          await expectError(response, 404, 'NotFoundError')
        })
        expect(calls).toEqual([])
      })
    })
  })
})
