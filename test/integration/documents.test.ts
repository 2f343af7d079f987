// The collection-type endpoints of the spec, one rule at a time, against DynamoDB Local.
import { beforeAll, describe, expect, it } from 'vitest'
import { articleData, body, paragraph } from '../support/factories.js'
import { createTestContext, json, type TestContext } from '../support/context.js'

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/

describe('collection type documents', () => {
  let ctx: TestContext
  let key: string
  const create = async (data: Record<string, unknown>, locale?: string) => {
    const response = await ctx.request('POST', `/api/articles${locale === undefined ? '' : `?locale=${locale}`}`, { token: key, body: body(data) })
    expect(response.status).toBe(200)
    return (await json(response)).data
  }
  const put = (documentId: string, locale: string, data: Record<string, unknown>) =>
    ctx.request('PUT', `/api/articles/${documentId}?locale=${locale}`, { token: key, body: body(data) })

  beforeAll(async () => {
    ctx = await createTestContext()
    key = await ctx.token()
    await ctx.addLocales('fr', 'de')
  })

  describe('POST /api/articles', () => {
    it('creates a document in the default locale with every field in order', async () => {
      const response = await ctx.request('POST', '/api/articles', { token: key, body: body({ title: 'Hello', views: 3 }) })
      expect(response.status).toBe(200)
      const { data, meta } = await json(response)
      expect(meta).toEqual({})
      expect(Object.keys(data)).toEqual(['id', 'documentId', 'title', 'body', 'slug', 'views', 'category', 'createdAt', 'updatedAt', 'publishedAt', 'locale'])
      expect(data).toMatchObject({ title: 'Hello', views: 3, body: null, slug: null, category: null, locale: 'en' })
      expect(data.documentId).toMatch(/^[a-z0-9]{24}$/)
      expect(Number.isInteger(data.id) && data.id > 0).toBe(true)
      for (const field of ['createdAt', 'updatedAt', 'publishedAt']) expect(data[field]).toMatch(ISO)
    })

    it('creates a document in the requested locale', async () => {
      const data = await create(articleData({ title: 'Bonjour' }), 'fr')
      expect(data.locale).toBe('fr')
    })

    it('gives every document a new documentId and an increasing id', async () => {
      const first = await create(articleData())
      const second = await create(articleData())
      expect(second.documentId).not.toBe(first.documentId)
      expect(second.id).toBeGreaterThan(first.id)
    })

    it('matches the locale case-insensitively and answers with the registered code', async () => {
      expect((await create(articleData(), 'FR')).locale).toBe('fr')
    })

    it('returns 400 for an unregistered locale and writes nothing', async () => {
      const before = await json(await ctx.request('GET', '/api/articles?locale=*&pagination[withCount]=true'))
      const response = await ctx.request('POST', '/api/articles?locale=xx', { token: key, body: body(articleData()) })
      expect(response.status).toBe(400)
      const { data, error } = await json(response)
      expect(data).toBeNull()
      expect(error.message).toBe("Invalid locale 'xx'. Available locales: en, fr, de")
      expect(error.details).toEqual({ key: 'locale', path: null, source: 'query', param: 'locale', value: 'xx', available: ['en', 'fr', 'de'] })
      const after = await json(await ctx.request('GET', '/api/articles?locale=*'))
      expect(after.meta.pagination.total).toBe(before.meta.pagination.total)
    })

    it('returns 400 for locale=* on create', async () => {
      expect((await ctx.request('POST', '/api/articles?locale=*', { token: key, body: body(articleData()) })).status).toBe(400)
    })
  })

  describe('GET /api/articles/:documentId', () => {
    it('answers an array holding the version with pagination meta', async () => {
      const created = await create(articleData({ title: 'One' }))
      const response = await ctx.request('GET', `/api/articles/${created.documentId}`)
      expect(response.status).toBe(200)
      expect(await json(response)).toEqual({ data: [created], meta: { pagination: { page: 1, pageSize: 25, pageCount: 1, total: 1 } } })
    })

    it('behaves the same with locale set to the default', async () => {
      const created = await create(articleData())
      const implicit = await json(await ctx.request('GET', `/api/articles/${created.documentId}`))
      const explicit = await json(await ctx.request('GET', `/api/articles/${created.documentId}?locale=en`))
      expect(explicit).toEqual(implicit)
    })

    it('returns 404 for a missing locale version, an unknown or a malformed documentId', async () => {
      const created = await create(articleData())
      for (const path of [`/api/articles/${created.documentId}?locale=fr`, '/api/articles/aaaaaaaaaaaaaaaaaaaaaaaa', '/api/articles/NOT-AN-ID']) {
        const response = await ctx.request('GET', path)
        expect(response.status).toBe(404)
        expect((await json(response)).error).toEqual({ status: 404, name: 'NotFoundError', message: 'Not Found', details: {} })
      }
    })

    it('returns every version by id with locale=*', async () => {
      const created = await create(articleData({ title: 'EN' }))
      await put(created.documentId, 'de', { title: 'DE' })
      await put(created.documentId, 'fr', { title: 'FR' })
      const { data, meta } = await json(await ctx.request('GET', `/api/articles/${created.documentId}?locale=*`))
      expect(data.map((d: { locale: string }) => d.locale)).toEqual(['en', 'de', 'fr'])
      expect(meta.pagination).toMatchObject({ total: 3, pageCount: 1 })
    })
  })

  describe('PUT /api/articles/:documentId', () => {
    it('creates a new localization with the same documentId, its own id, and copied non-localized fields', async () => {
      const created = await create(articleData({ title: 'Hello', views: 7, category: 'tech' }))
      const response = await put(created.documentId, 'fr', { title: 'Bonjour' })
      expect(response.status).toBe(200)
      const { data, meta } = await json(response)
      expect(meta).toEqual({})
      expect(data).toMatchObject({ documentId: created.documentId, locale: 'fr', title: 'Bonjour', views: 7, category: 'tech', slug: null, body: null })
      expect(data.id).not.toBe(created.id)
    })

    it('updates an existing version partially, keeping fields not sent', async () => {
      const created = await create(articleData({ title: 'Old', slug: 'old' }))
      const { data } = await json(await put(created.documentId, 'en', { title: 'New' }))
      expect(data).toMatchObject({ id: created.id, title: 'New', slug: 'old', locale: 'en', createdAt: created.createdAt })
      expect(data.updatedAt >= created.updatedAt).toBe(true)
      expect(data.publishedAt).toBe(data.updatedAt)
    })

    it('clears an attribute sent as null', async () => {
      const created = await create(articleData({ slug: 'gone' }))
      expect((await json(await put(created.documentId, 'en', { slug: null }))).data.slug).toBeNull()
    })

    it('ignores a locale in the body: the query decides, and a locale cannot change', async () => {
      const created = await create(articleData())
      const { data } = await json(await put(created.documentId, 'en', { title: 'Still English', locale: 'fr' }))
      expect(data.locale).toBe('en')
      expect((await ctx.request('GET', `/api/articles/${created.documentId}?locale=fr`)).status).toBe(404)
    })

    it('returns 400 naming a non-localized field sent in a new localization, and writes nothing', async () => {
      const created = await create(articleData())
      const response = await put(created.documentId, 'de', { title: 'Hallo', views: 9 })
      expect(response.status).toBe(400)
      expect((await json(response)).error.details.errors[0].path).toEqual(['views'])
      expect((await ctx.request('GET', `/api/articles/${created.documentId}?locale=de`)).status).toBe(404)
    })

    it('writes a non-localized field to every version, moving their timestamps', async () => {
      const created = await create(articleData({ views: 1 }))
      await put(created.documentId, 'fr', { title: 'FR' })
      const updated = (await json(await put(created.documentId, 'fr', { views: 42, title: 'FR 2' }))).data
      const { data } = await json(await ctx.request('GET', `/api/articles/${created.documentId}?locale=*`))
      expect(data.map((d: { views: number }) => d.views)).toEqual([42, 42])
      expect(data.map((d: { updatedAt: string }) => d.updatedAt)).toEqual([updated.updatedAt, updated.updatedAt])
      expect(data.find((d: { locale: string }) => d.locale === 'en').title).toBe(created.title)
    })

    it('returns 404 for a documentId with no version at all', async () => {
      expect((await put('bbbbbbbbbbbbbbbbbbbbbbbb', 'en', { title: 'x' })).status).toBe(404)
    })

    it('returns 400 for locale=* and for an unknown locale', async () => {
      const created = await create(articleData())
      expect((await put(created.documentId, '*', { title: 'x' })).status).toBe(400)
      expect((await put(created.documentId, 'xx', { title: 'x' })).status).toBe(400)
    })

    it('carries an ETag that changes with every write', async () => {
      const created = await create(articleData())
      const first = await put(created.documentId, 'en', { title: 'a' })
      const second = await put(created.documentId, 'en', { title: 'b' })
      expect(first.headers.get('etag')).toMatch(/^".+"$/)
      expect(second.headers.get('etag')).not.toBe(first.headers.get('etag'))
    })
  })

  describe('DELETE /api/articles/:documentId', () => {
    it('deletes only the named locale version with 204 and an empty body', async () => {
      const created = await create(articleData())
      await put(created.documentId, 'fr', { title: 'FR' })
      const response = await ctx.request('DELETE', `/api/articles/${created.documentId}?locale=fr`, { token: key })
      expect(response.status).toBe(204)
      expect(await response.text()).toBe('')
      expect((await ctx.request('GET', `/api/articles/${created.documentId}?locale=fr`)).status).toBe(404)
      expect((await ctx.request('GET', `/api/articles/${created.documentId}`)).status).toBe(200)
    })

    it('deletes the default-locale version without locale, and 404s the second time', async () => {
      const created = await create(articleData())
      expect((await ctx.request('DELETE', `/api/articles/${created.documentId}`, { token: key })).status).toBe(204)
      expect((await ctx.request('DELETE', `/api/articles/${created.documentId}`, { token: key })).status).toBe(404)
    })

    it('removes the document with its last version: a later PUT is 404', async () => {
      const created = await create(articleData())
      await ctx.request('DELETE', `/api/articles/${created.documentId}`, { token: key })
      expect((await put(created.documentId, 'fr', { title: 'x' })).status).toBe(404)
    })

    it('deletes every version with locale=* and keeps counts exact', async () => {
      const created = await create(articleData())
      await put(created.documentId, 'fr', { title: 'FR' })
      const before = (await json(await ctx.request('GET', '/api/articles?locale=*'))).meta.pagination.total
      expect((await ctx.request('DELETE', `/api/articles/${created.documentId}?locale=*`, { token: key })).status).toBe(204)
      expect((await ctx.request('GET', `/api/articles/${created.documentId}?locale=*`)).status).toBe(404)
      expect((await json(await ctx.request('GET', '/api/articles?locale=*'))).meta.pagination.total).toBe(before - 2)
    })
  })

  describe('DELETE with If-Match', () => {
    it('deletes when any listed ETag is the current one', async () => {
      const created = await create(articleData())
      const current = (await ctx.request('GET', `/api/articles/${created.documentId}`)).headers.get('etag') ?? ''
      const response = await ctx.request('DELETE', `/api/articles/${created.documentId}`, { token: key, headers: { 'If-Match': `"999.9", ${current}` } })
      expect(response.status).toBe(204)
    })

    it('answers 412 for an unparseable ETag on an existing version, 404 on a missing one', async () => {
      const created = await create(articleData())
      const headers = { 'If-Match': 'nonsense' }
      expect((await ctx.request('DELETE', `/api/articles/${created.documentId}`, { token: key, headers })).status).toBe(412)
      expect((await ctx.request('DELETE', `/api/articles/${created.documentId}?locale=fr`, { token: key, headers })).status).toBe(404)
    })

    it('answers 400 to an If-Match listing more than 20 ETags', async () => {
      const created = await create(articleData())
      const headers = { 'If-Match': Array.from({ length: 21 }, (_, i) => `"${i}.1"`).join(', ') }
      expect((await ctx.request('DELETE', `/api/articles/${created.documentId}`, { token: key, headers })).status).toBe(400)
    })

    it('answers 412 to If-Match with locale=*, which names many versions', async () => {
      const created = await create(articleData())
      const response = await ctx.request('DELETE', `/api/articles/${created.documentId}?locale=*`, { token: key, headers: { 'If-Match': '*' } })
      expect(response.status).toBe(412)
      expect((await ctx.request('GET', `/api/articles/${created.documentId}`)).status).toBe(200)
    })

    it('does not delete a single type through a collection path', async () => {
      await ctx.request('PUT', '/api/homepage', { token: key, body: body({ title: 'Home' }) })
      const home = (await json(await ctx.request('GET', '/api/homepage'))).data
      expect((await ctx.request('DELETE', `/api/articles/${home.documentId}`, { token: key })).status).toBe(404)
      expect((await ctx.request('GET', '/api/homepage')).status).toBe(200)
    })
  })

  describe('rich text', () => {
    it('stores blocks as sent', async () => {
      const blocks = [...paragraph('a'), { type: 'heading', level: 2, children: [{ type: 'text', text: 'b', bold: true }] }]
      const created = await create(articleData({ body: blocks }))
      expect((await json(await ctx.request('GET', `/api/articles/${created.documentId}`))).data[0].body).toEqual(blocks)
    })
  })
})
