// Field selection (delivery.md §11) through HTTP on every route that takes it: list, get one, the
// single-type GET, and the answers of POST and PUT. Expected documents are the full answers
// (without `fields`) cut down to id, documentId and the selected fields in the order of §6.
import { beforeAll, describe, expect, it } from 'vitest'
import { articleData, body, paragraph } from '../support/factories.js'
import { createTestContext, json, tableSnapshot, type TestContext } from '../support/context.js'

type Doc = Record<string, unknown> & { id: number; documentId: string }

/** behaviour.md §6: id, documentId, attributes in schema order, timestamps, locale. */
const ARTICLE_ORDER = ['id', 'documentId', 'title', 'body', 'slug', 'views', 'category', 'createdAt', 'updatedAt', 'publishedAt', 'locale']
const HOMEPAGE_ORDER = ['id', 'documentId', 'title', 'tagline', 'createdAt', 'updatedAt', 'publishedAt', 'locale']

/** The document holding id, documentId and `selected`, in the order of §6 (every field for undefined). */
function project(doc: Doc, selected: readonly string[] | undefined, order = ARTICLE_ORDER): Doc {
  const keep = order.filter((field) => field === 'id' || field === 'documentId' || selected === undefined || selected.includes(field))
  return Object.fromEntries(keep.map((field) => [field, doc[field]])) as Doc
}

/** Each form of `fields`, with the fields it selects (undefined: every field). */
const FORMS: [string, string[] | undefined][] = [
  ['fields[0]=title&fields[1]=slug', ['title', 'slug']],
  ['fields=title,slug', ['title', 'slug']],
  ['fields=%20slug%20,%20title', ['title', 'slug']],
  ['fields=title', ['title']],
  ['fields[0]=locale&fields[1]=views&fields[2]=createdAt', ['locale', 'views', 'createdAt']],
  ['fields=publishedAt,updatedAt,category,body', ['publishedAt', 'updatedAt', 'category', 'body']],
  ['fields=id,documentId', []],
  ['fields=documentId,slug,id', ['slug']],
  ['fields=title,title', ['title']],
  ['fields=*', undefined],
]

describe('fields', () => {
  let ctx: TestContext
  let key: string
  const docs: Doc[] = []

  beforeAll(async () => {
    ctx = await createTestContext()
    key = await ctx.token()
    await ctx.addLocales('fr')
    for (const [i, title] of ['Zeta', 'alpha', null, 'Beta', 'gamma', 'Delta'].entries()) {
      const response = await ctx.request('POST', '/api/articles', { token: key, body: body(articleData({ title, slug: `s-${i}`, views: (i * 7) % 5, category: i % 2 ? 'news' : null })) })
      docs.push((await json(response)).data)
    }
    await ctx.request('PUT', `/api/articles/${docs[1]?.documentId}?locale=fr`, { token: key, body: body({ title: 'alpha fr' }) })
    await ctx.request('PUT', '/api/homepage', { token: key, body: body({ title: 'Welcome', tagline: 'Hi' }) })
  })

  const get = async (path: string) => {
    const response = await ctx.request('GET', path)
    const answer = await json(response)
    expect({ status: response.status, error: answer.error }).toEqual({ status: 200, error: undefined })
    return { answer, etag: response.headers.get('etag') }
  }
  const keysOf = (items: Doc[]) => items.map((item) => Object.keys(item))

  describe.each(FORMS)('%s', (search, selected) => {
    const fieldsOf = (order: string[]) => order.filter((field) => field === 'id' || field === 'documentId' || selected === undefined || selected.includes(field))

    it('cuts each listed document, keeping order, filters, sort and pagination', async () => {
      const query = 'filters[views][$gte]=1&sort=views:desc&pagination[page]=2&pagination[pageSize]=2&locale=*'
      const full = (await get(`/api/articles?${query}`)).answer
      const { answer } = await get(`/api/articles?${query}&${search}`)
      expect(full.data.length).toBe(2)
      expect(answer.meta).toEqual(full.meta)
      expect(answer.data).toEqual(full.data.map((doc: Doc) => project(doc, selected)))
      expect(keysOf(answer.data)).toEqual(full.data.map(() => fieldsOf(ARTICLE_ORDER)))
    })

    it('cuts get one (array and locale=*) and keeps its ETag', async () => {
      const doc = docs[1] as Doc
      const full = await get(`/api/articles/${doc.documentId}`)
      const cut = await get(`/api/articles/${doc.documentId}?${search}`)
      expect(cut.answer).toEqual({ data: [project(full.answer.data[0], selected)], meta: full.answer.meta })
      expect(keysOf(cut.answer.data)).toEqual([fieldsOf(ARTICLE_ORDER)])
      expect(cut.etag).toBe(full.etag)
      const notModified = await ctx.request('GET', `/api/articles/${doc.documentId}?${search}`, { headers: { 'If-None-Match': String(full.etag) } })
      expect(notModified.status).toBe(304)
      const every = await get(`/api/articles/${doc.documentId}?locale=*&${search}`)
      const everyFull = await get(`/api/articles/${doc.documentId}?locale=*`)
      expect(every.answer.data).toEqual(everyFull.answer.data.map((version: Doc) => project(version, selected)))
      expect(every.answer.data.map((version: Doc) => version.id)).toHaveLength(2)
    })

    it('cuts the answers of POST and PUT, and stores every field all the same', async () => {
      const sent = articleData({ title: `Posted ${search}`, slug: 'posted', views: 12, category: 'tech', body: paragraph('kept') })
      const posted = await ctx.request('POST', `/api/articles?${search}`, { token: key, body: body(sent) })
      expect(posted.status).toBe(200)
      const created = (await json(posted)).data as Doc
      const stored = await get(`/api/articles/${created.documentId}`)
      expect(stored.answer.data[0]).toMatchObject(sent)
      expect(created).toEqual(project(stored.answer.data[0], selected))
      expect(Object.keys(created)).toEqual(fieldsOf(ARTICLE_ORDER))
      expect(posted.headers.get('etag')).toBe(stored.etag)

      const put = await ctx.request('PUT', `/api/articles/${created.documentId}?${search}`, { token: key, body: body({ views: 13, title: 'Put' }) })
      expect(put.status).toBe(200)
      const updated = (await json(put)).data as Doc
      const after = await get(`/api/articles/${created.documentId}`)
      expect(after.answer.data[0]).toMatchObject({ ...sent, views: 13, title: 'Put' })
      expect(updated).toEqual(project(after.answer.data[0], selected))
      expect(put.headers.get('etag')).toBe(after.etag)
    })

    it('cuts the single-type GET and PUT answers and keeps the ETag', async () => {
      // Article-only names (slug, views…) are 400s here: such a form is tried with title and its homepage names.
      const valid = selected === undefined || selected.every((field) => HOMEPAGE_ORDER.includes(field))
      const homepageSelected = valid ? selected : ['title', ...(selected ?? []).filter((field) => HOMEPAGE_ORDER.includes(field))]
      const homepageSearch = valid ? search : `fields=${homepageSelected?.join(',')}`
      const full = await get('/api/homepage')
      const cut = await get(`/api/homepage?${homepageSearch}`)
      expect(cut.answer).toEqual({ data: project(full.answer.data, homepageSelected, HOMEPAGE_ORDER), meta: {} })
      expect(cut.etag).toBe(full.etag)
      const put = await ctx.request('PUT', `/api/homepage?${homepageSearch}`, { token: key, body: body({ tagline: `Hi ${search}` }) })
      const after = await get('/api/homepage')
      expect((await json(put)).data).toEqual(project(after.answer.data, homepageSelected, HOMEPAGE_ORDER))
      expect(after.answer.data.tagline).toBe(`Hi ${search}`)
    })
  })

  describe.each([
    ['fields=nope', 'Invalid key nope'],
    ['fields[0]=title&fields[1]=nope', 'Invalid key nope'],
    ['fields=title,Title', 'Invalid key Title'],
    ['fields=rev', 'Invalid key rev'],
    ['fields=', undefined],
    ['fields', undefined],
    ['fields=%20,%20', undefined],
  ])('refuses %s', (search, message) => {
    const expectRefused = async (response: Response) => {
      expect(response.status).toBe(400)
      const { error } = await json(response)
      expect(error).toMatchObject({ name: 'ValidationError', details: { source: 'query', param: 'fields' } })
      if (message !== undefined) expect(error.message).toBe(message)
    }

    it.each(['/api/articles', '/api/articles/DOC', '/api/articles/DOC?locale=*', '/api/homepage'])('on GET %s', async (route) => {
      const path = route.replace('DOC', (docs[0] as Doc).documentId)
      await expectRefused(await ctx.request('GET', `${path}${path.includes('?') ? '&' : '?'}${search}`))
    })

    it.each([
      ['POST', '/api/articles'],
      ['PUT', '/api/articles/DOC'],
      ['PUT', '/api/articles/DOC?locale=fr'],
      ['PUT', '/api/homepage'],
    ])('on %s %s, writing nothing', async (method, route) => {
      const path = route.replace('DOC', (docs[2] as Doc).documentId)
      const before = await tableSnapshot(ctx)
      await expectRefused(await ctx.request(method, `${path}${path.includes('?') ? '&' : '?'}${search}`, { token: key, body: body({ title: 'never stored' }) }))
      expect(await tableSnapshot(ctx)).toBe(before)
    })
  })

  it('refuses a field of another type on the single type (homepage has no slug)', async () => {
    const response = await ctx.request('GET', '/api/homepage?fields=slug')
    expect(response.status).toBe(400)
    expect((await json(response)).error).toMatchObject({ message: 'Invalid key slug', details: { param: 'fields' } })
  })
})
