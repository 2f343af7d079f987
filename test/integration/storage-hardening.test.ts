// Defects found by attacking the API (the hardening issue), storage side: each test failed before
// its fix.
import { beforeAll, describe, expect, it } from 'vitest'
import { createTestContext, expectStorageInvariants, json, type TestContext } from '../support/context.js'

const LOCALES = ['fr', 'de', 'it', 'es']

describe('storage hardening', () => {
  let ctx: TestContext
  let key: string
  beforeAll(async () => {
    ctx = await createTestContext({ rest: { defaultLimit: 3 } })
    key = await ctx.token()
    await ctx.addLocales(...LOCALES)
  })

  /** A rich-text body of about `kb` kilobytes. */
  const bigBody = (kb: number) => [{ type: 'paragraph', children: [{ type: 'text', text: 'x'.repeat(kb * 1024) }] }]

  it('reads, updates and deletes every version of a document whose versions exceed 1 MB together', async () => {
    const created = await ctx.request('POST', '/api/articles', { token: key, body: { data: { title: 'big', views: 1, body: bigBody(300) } } })
    expect(created.status).toBe(200)
    const { documentId } = (await json(created)).data
    for (const locale of LOCALES) {
      const response = await ctx.request('PUT', `/api/articles/${documentId}?locale=${locale}`, { token: key, body: { data: { title: locale, body: bigBody(300) } } })
      expect(response.status).toBe(200)
    }
    // Five versions of 300 KB: a Query of the document's partition takes more than one page.
    const all = await json(await ctx.request('GET', `/api/articles/${documentId}?locale=*`))
    expect(all.data.map((doc: { locale: string }) => doc.locale).sort()).toEqual(['de', 'en', 'es', 'fr', 'it'])
    // A non-localized update reaches every version...
    expect((await ctx.request('PUT', `/api/articles/${documentId}?locale=it`, { token: key, body: { data: { views: 7 } } })).status).toBe(200)
    const updated = await json(await ctx.request('GET', `/api/articles/${documentId}?locale=*`))
    expect(updated.data.map((doc: { views: number }) => doc.views)).toEqual([7, 7, 7, 7, 7])
    // ...a PUT in the last locale is an update, not a 409...
    expect((await ctx.request('PUT', `/api/articles/${documentId}?locale=es`, { token: key, body: { data: { title: 'es2' } } })).status).toBe(200)
    // ...and DELETE locale=* leaves nothing.
    expect((await ctx.request('DELETE', `/api/articles/${documentId}?locale=*`, { token: key })).status).toBe(204)
    expect((await ctx.request('GET', `/api/articles/${documentId}?locale=*`)).status).toBe(404)
    await expectStorageInvariants(ctx)
  })

  it.each([
    'locale=*&pagination[start]=2147483647',
    'pagination[start]=9007199254740991',
    'pagination[page]=1000000000000000',
    'locale=*&pagination[page]=1000000000000000&sort=title',
    'sort=views:desc&pagination[start]=2147483648&pagination[limit]=-1',
  ])('answers a page past the end with 200 and no data, never a 5xx: %s', async (query) => {
    await ctx.request('POST', '/api/articles', { token: key, body: { data: { title: 'one' } } })
    const response = await ctx.request('GET', `/api/articles?${query}`)
    expect(response.status).toBe(200)
    expect((await json(response)).data).toEqual([])
  })

  it('answers get one with locale=* with truthful pagination meta, however many versions', async () => {
    const { documentId } = (await json(await ctx.request('POST', '/api/articles', { token: key, body: { data: { title: 'many' } } }))).data
    for (const locale of LOCALES) await ctx.request('PUT', `/api/articles/${documentId}?locale=${locale}`, { token: key, body: { data: { title: locale } } })
    const { data, meta } = await json(await ctx.request('GET', `/api/articles/${documentId}?locale=*`))
    expect(data).toHaveLength(5)
    // defaultLimit is 3 here: every version is on the one page, so the page holds 5.
    expect(meta.pagination).toEqual({ page: 1, pageSize: 5, pageCount: 1, total: 5 })
  })

  it('never reuses a locale id after a delete', async () => {
    const added = (await json(await ctx.admin('POST', '/admin/i18n/locales', { code: 'nl' }))).data
    expect((await ctx.admin('DELETE', '/admin/i18n/locales/nl')).status).toBe(204)
    const again = (await json(await ctx.admin('POST', '/admin/i18n/locales', { code: 'pt' }))).data
    expect(again.id).toBeGreaterThan(added.id)
    await ctx.admin('DELETE', '/admin/i18n/locales/pt')
  })

  it('stores nothing and answers the version unchanged for an update that changes nothing', async () => {
    const created = (await json(await ctx.request('POST', '/api/articles', { token: key, body: { data: { title: 'same', views: 3 } } }))).data
    const response = await ctx.request('PUT', `/api/articles/${created.documentId}`, { token: key, body: { data: { title: 'same', views: 3 } } })
    expect(response.status).toBe(200)
    expect((await json(response)).data).toEqual(created)
    expect(response.headers.get('etag')).toBe(`"${created.id}.1"`)
  })
})
