// The single type `homepage` at /api/homepage.
import { beforeAll, describe, expect, it } from 'vitest'
import { body } from '../support/factories.js'
import { createTestContext, json, type TestContext } from '../support/context.js'

describe('single type /api/homepage', () => {
  let ctx: TestContext
  let key: string
  const put = (locale: string | undefined, data: Record<string, unknown>) =>
    ctx.request('PUT', `/api/homepage${locale === undefined ? '' : `?locale=${locale}`}`, { token: key, body: body(data) })

  beforeAll(async () => {
    ctx = await createTestContext()
    key = await ctx.token()
    await ctx.addLocales('fr', 'de')
  })

  it('returns 404 before the first PUT', async () => {
    expect((await ctx.request('GET', '/api/homepage')).status).toBe(404)
  })

  it('creates its document on the first PUT and reads it as an object with empty meta', async () => {
    const response = await put(undefined, { title: 'Welcome', tagline: 'Hi' })
    expect(response.status).toBe(200)
    const { data, meta } = await json(response)
    expect(meta).toEqual({})
    expect(Object.keys(data)).toEqual(['id', 'documentId', 'title', 'tagline', 'createdAt', 'updatedAt', 'publishedAt', 'locale'])
    expect(data).toMatchObject({ title: 'Welcome', tagline: 'Hi', locale: 'en' })
    expect(await json(await ctx.request('GET', '/api/homepage'))).toEqual({ data, meta: {} })
  })

  it('creates a localization with the same documentId and updates it on the next PUT', async () => {
    const en = (await json(await ctx.request('GET', '/api/homepage?locale=en'))).data
    const created = (await json(await put('fr', { title: 'Bienvenue' }))).data
    expect(created).toMatchObject({ documentId: en.documentId, locale: 'fr', title: 'Bienvenue', tagline: null })
    const updated = (await json(await put('fr', { tagline: 'Salut' }))).data
    expect(updated).toMatchObject({ id: created.id, title: 'Bienvenue', tagline: 'Salut' })
    expect((await json(await ctx.request('GET', '/api/homepage?locale=FR'))).data).toEqual(updated)
  })

  it('answers 405 with Allow for POST', async () => {
    const response = await ctx.request('POST', '/api/homepage', { token: key, body: body({ title: 'x' }) })
    expect(response.status).toBe(405)
    expect(response.headers.get('allow')).toBe('GET, PUT, DELETE')
    expect((await json(response)).error.name).toBe('MethodNotAllowedError')
  })

  it('returns 400 for locale=* on GET and PUT', async () => {
    expect((await ctx.request('GET', '/api/homepage?locale=*')).status).toBe(400)
    expect((await put('*', { title: 'x' })).status).toBe(400)
  })

  it('deletes one locale version with 204, then 404', async () => {
    await put('de', { title: 'Willkommen' })
    expect((await ctx.request('DELETE', '/api/homepage?locale=de', { token: key })).status).toBe(204)
    expect((await ctx.request('GET', '/api/homepage?locale=de')).status).toBe(404)
    expect((await ctx.request('DELETE', '/api/homepage?locale=de', { token: key })).status).toBe(404)
    expect((await ctx.request('GET', '/api/homepage?locale=fr')).status).toBe(200)
  })

  it('starts over after every version is deleted', async () => {
    expect((await ctx.request('DELETE', '/api/homepage?locale=*', { token: key })).status).toBe(204)
    expect((await ctx.request('GET', '/api/homepage')).status).toBe(404)
    const again = await put('fr', { title: 'Encore', tagline: 't' })
    expect(again.status).toBe(200)
    expect((await json(again)).data).toMatchObject({ locale: 'fr', title: 'Encore' })
  })
})
