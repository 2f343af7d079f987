// HTTP limits through a real server: a chunked body past the limit (413, memory bounded), a long
// query string (the app's 414, not Node's 431), OPTIONS and CORS preflights, and response size.
import { request as httpRequest } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestContext, json, type TestContext } from '../support/context.js'
import { startServer, type TestServer } from '../support/server.js'

let ctx: TestContext
let server: TestServer

beforeAll(async () => {
  ctx = await createTestContext()
  server = await startServer(ctx.app)
})
afterAll(async () => {
  await server.close()
  ctx.db.destroy()
})

/**
 * POSTs a chunked body of up to `totalBytes` (64 KiB chunks, respecting backpressure), stopping
 * as soon as the answer arrives; returns its status and the largest RSS growth seen meanwhile.
 */
function chunkedPost(url: string, token: string, totalBytes: number): Promise<{ status: number; sent: number; rssGrowth: number }> {
  const chunk = Buffer.alloc(64 * 1024, 0x20) // spaces: valid JSON whitespace, however long
  const startRss = process.memoryUsage().rss
  let peak = startRss
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10)
  return new Promise((resolve, reject) => {
    let sent = 0
    let answered = false
    const req = httpRequest(url, { method: 'POST', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' } }, (res) => {
      answered = true
      res.resume()
      res.on('end', () => {
        clearInterval(sampler)
        req.destroy()
        resolve({ status: res.statusCode ?? 0, sent, rssGrowth: peak - startRss })
      })
    })
    req.on('error', (error) => (answered ? undefined : reject(error)))
    const pump = () => {
      while (!answered && sent < totalBytes) {
        sent += chunk.length
        if (!req.write(chunk)) return void req.once('drain', pump)
      }
      if (!answered) req.end()
    }
    pump()
  })
}

describe('request body', () => {
  it('answers 413 to a chunked body far past the limit without buffering it', async () => {
    const result = await chunkedPost(`${server.url}/api/articles`, await ctx.token(), 400 * 1024 * 1024)
    expect(result.status).toBe(413)
    expect(result.sent).toBeLessThan(400 * 1024 * 1024) // answered before the upload ended
    expect(result.rssGrowth).toBeLessThan(120 * 1024 * 1024)
  }, 60_000)
})

describe('query string', () => {
  it.each([20_000, 100_000])('answers a %d-character query with the 414 envelope', async (length) => {
    const response = await fetch(`${server.url}/api/articles?filters=${'x'.repeat(length)}`)
    expect(response.status).toBe(414)
    expect((await json(response)).error.name).toBe('URITooLongError')
  })
})

describe('OPTIONS', () => {
  const preflight = (path: string) =>
    fetch(`${server.url}${path}`, { method: 'OPTIONS', headers: { Origin: 'https://example.com', 'Access-Control-Request-Method': 'PUT' } })

  it.each(['/nope', '/api/nope', '/api/articles/x/y', '/admin/nope'])('answers 404 in the envelope on the unknown path %s', async (path) => {
    const response = await preflight(path)
    expect(response.status).toBe(404)
    expect((await json(response)).error).toMatchObject({ status: 404, name: 'NotFoundError' })
  })

  it.each([
    ['/api/articles', 'GET,POST'],
    ['/api/articles/abc', 'GET,PUT,DELETE'],
    ['/api/homepage', 'GET,PUT,DELETE'],
    ['/api/i18n/locales', 'GET'],
    ['/admin/api-tokens/3', 'DELETE'],
  ])('lists only the methods of %s in a preflight', async (path, methods) => {
    const response = await preflight(path)
    expect(response.status).toBe(204)
    expect(response.headers.get('access-control-allow-methods')).toBe(methods)
    expect(response.headers.get('access-control-allow-origin')).toBe('*')
  })
})

describe('CORS', () => {
  it('sends the CORS headers of origin * on every answer but a preflight: 200, 304, 401, 404, 405 and 413 alike', async () => {
    const key = await ctx.token()
    const created = await ctx.request('POST', '/api/articles', { token: key, body: { data: { title: 'CORS' } } })
    const path = `/api/articles/${(await json(created)).data.documentId}`
    const answers = [
      created,
      await ctx.request('GET', path, { headers: { 'If-None-Match': created.headers.get('etag') ?? '' } }),
      await ctx.request('GET', '/api/articles', { token: 'not-a-token-0123456789' }),
      await ctx.request('GET', '/nope'),
      await ctx.request('PATCH', '/api/articles'),
      await ctx.request('POST', '/api/articles', { token: key, headers: { 'Content-Length': String(ctx.config.maxBodyBytes + 1) } }),
    ]
    expect(answers.map((answer) => answer.status)).toEqual([200, 304, 401, 404, 405, 413])
    for (const answer of answers) {
      expect(answer.headers.get('access-control-allow-origin')).toBe('*')
      expect(answer.headers.get('access-control-expose-headers')).toBe('ETag,Content-Language')
    }
  })
})

describe('response size', () => {
  it('answers 400 naming the limit when a page would pass maxResponseBytes, and serves a smaller page', async () => {
    const small = await createTestContext({ rest: { maxResponseBytes: 1_000_000 } })
    const key = await small.token()
    const text = 'x'.repeat(300_000)
    for (let i = 0; i < 4; i++) {
      const created = await small.request('POST', '/api/articles', { token: key, body: { data: { title: `t${i}`, body: [{ type: 'paragraph', children: [{ type: 'text', text }] }] } } })
      expect(created.status).toBe(200)
    }
    const tooLarge = await small.request('GET', '/api/articles', { token: key })
    expect(tooLarge.status).toBe(400)
    const { error } = await json(tooLarge)
    expect(error).toMatchObject({ status: 400, name: 'ValidationError', details: { limit: 1_000_000 } })
    expect(error.message).toContain('1000000')
    expect(error.message).toContain('pagination[pageSize]')
    const fewer = await small.request('GET', '/api/articles?pagination[pageSize]=2', { token: key })
    expect(fewer.status).toBe(200)
    expect((await json(fewer)).data).toHaveLength(2)
    small.db.destroy()
  })

  it('caps the default at 5,000,000 bytes through the real server', async () => {
    const key = await ctx.token()
    const text = 'y'.repeat(350_000)
    const created = await Promise.all(Array.from({ length: 15 }, (_, i) =>
      fetch(`${server.url}/api/articles`, { method: 'POST', headers: { Authorization: `Bearer ${key}` }, body: JSON.stringify({ data: { title: `big${i}`, body: [{ type: 'paragraph', children: [{ type: 'text', text }] }] } }) })))
    expect(created.map((response) => response.status)).toEqual(created.map(() => 200))
    const response = await fetch(`${server.url}/api/articles?pagination[pageSize]=100`, { headers: { Authorization: `Bearer ${key}` } })
    expect(response.status).toBe(400)
    expect(response.headers.get('etag')).toBeNull()
    expect((await json(response)).error.details).toEqual({ limit: 5_000_000 })
  }, 60_000)
})
