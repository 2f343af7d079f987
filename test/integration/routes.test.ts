// The envelope for every failure, the locales route, and the default locale.
import { beforeAll, describe, expect, it } from 'vitest'
import { articleData, body } from '../support/factories.js'
import { createTestContext, json, type TestContext } from '../support/context.js'

describe('routes and envelopes', () => {
  let ctx: TestContext
  let key: string
  beforeAll(async () => {
    ctx = await createTestContext()
    key = await ctx.token()
  })

  it.each([
    ['GET', '/nope', 404, 'NotFoundError'],
    ['GET', '/api/nothings', 404, 'NotFoundError'],
    ['DELETE', '/api/articles', 405, 'MethodNotAllowedError'],
    ['POST', '/api/articles/aaaaaaaaaaaaaaaaaaaaaaaa', 405, 'MethodNotAllowedError'],
    ['POST', '/api/i18n/locales', 405, 'MethodNotAllowedError'],
  ])('%s %s answers %i %s in the envelope', async (method, path, status, name) => {
    const response = await ctx.request(method, path, { token: key })
    expect(response.status).toBe(status)
    expect(response.headers.get('content-type')).toMatch(/application\/json/)
    expect(await json(response)).toEqual({ data: null, error: { status, name, message: expect.any(String), details: {} } })
  })

  it("routes the whole server app with Hono's RegExpRouter (no route makes it fall back to a slower router)", async () => {
    await ctx.request('GET', '/api/articles')
    expect(ctx.app.router.name).toBe('SmartRouter + RegExpRouter')
  })

  it('names the allowed methods on a 405', async () => {
    expect((await ctx.request('PATCH', '/api/articles/aaaaaaaaaaaaaaaaaaaaaaaa', { token: key })).headers.get('allow')).toBe('GET, PUT, DELETE')
  })

  it('answers 400 for a body that is not JSON and 415 for another content type', async () => {
    expect((await ctx.request('POST', '/api/articles', { token: key, body: '{nope', headers: { 'Content-Type': 'application/json' } })).status).toBe(400)
    expect((await ctx.request('POST', '/api/articles', { token: key, body: 'a=b', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } })).status).toBe(415)
  })

  it('reads a body without Content-Type as JSON', async () => {
    const response = await ctx.app.request('/api/articles', { method: 'POST', headers: { Authorization: `Bearer ${key}` }, body: JSON.stringify(body(articleData())) })
    expect(response.status).toBe(200)
  })

  it('answers an empty body with the missing data message', async () => {
    const response = await ctx.request('POST', '/api/articles', { token: key, body: '', headers: { 'Content-Type': 'application/json' } })
    expect((await json(response)).error.message).toBe('Missing "data" payload in the request body')
  })
})

describe('locales', () => {
  let ctx: TestContext
  let key: string
  beforeAll(async () => {
    ctx = await createTestContext()
    key = await ctx.token()
  })

  it('starts with the default locale en', async () => {
    const locales = await json(await ctx.request('GET', '/api/i18n/locales'))
    expect(locales).toEqual([{ id: expect.any(Number), name: expect.any(String), code: 'en', isDefault: true, createdAt: expect.any(String), updatedAt: expect.any(String), fallback: null }])
  })

  it('answers locales with their fields in the documented order, named from the code', async () => {
    await ctx.addLocales('de')
    const locales = await json(await ctx.request('GET', '/api/i18n/locales'))
    for (const locale of locales) expect(Object.keys(locale)).toEqual(['id', 'name', 'code', 'isDefault', 'createdAt', 'updatedAt', 'fallback'])
    expect(locales.find((l: { code: string }) => l.code === 'de').name).toBe('German (de)')
  })

  it('uses a changed default locale for requests without locale', async () => {
    await ctx.addLocales('fr')
    expect((await ctx.admin('PUT', '/admin/i18n/locales/fr', { isDefault: true })).status).toBe(200)
    const { data } = await json(await ctx.request('POST', '/api/articles', { token: key, body: body(articleData()) }))
    expect(data.locale).toBe('fr')
    expect((await json(await ctx.request('GET', `/api/articles/${data.documentId}`))).data[0].locale).toBe('fr')
    const locales = await json(await ctx.request('GET', '/api/i18n/locales'))
    expect(locales.filter((l: { isDefault: boolean }) => l.isDefault).map((l: { code: string }) => l.code)).toEqual(['fr'])
  })
})
