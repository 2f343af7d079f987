// Filters (delivery.md §10) through HTTP on real data: every answer is compared with a plain JS
// reference (filter + sort over the documents created here), whichever way the storage plans it
// (slot index ranges, $and driven by one member, $or merged, or a scan within api.rest.maxScan).
import fc from 'fast-check'
import { beforeAll, describe, expect, it } from 'vitest'
import { articleData, body } from '../support/factories.js'
import { createTestContext, json, tableSnapshot, type TestContext } from '../support/context.js'
import { META } from '../../lib/table.js'
import { hangGuard, rounds } from '../support/rounds.js'

interface Doc {
  id: number; documentId: string; locale: string; title: string | null; slug: string | null
  views: number | null; category: string | null; createdAt: string; updatedAt: string; publishedAt: string
}

const TITLES = [
  'apple', 'Apple', 'APPLE pie', 'banana', 'Banana split', 'cherry', 'Éclair', 'eclair', 'éclair au café', null,
  'Äpfel', 'äpfel', 'ÄPFEL', 'Zebra', 'zoo', 'Ödla', 'Ålborg', '100% pure_cotton', '100 percent', 'under_score',
  'a', 'A', '', null, 'Mañana', 'manana', 'naïve', 'Naive', 'résumé', 'resume', 'Straße', 'strasse', 'Ω omega',
  'ørn', 'delta', 'Delta', 'δέλτα', '北京', 'emoji 😀', 'x', null, 'z', 'Z', 'hello world', 'Hello World', 'HELLO',
  'cote', 'côte', 'coté', 'côté', 'chapter 10', 'chapter 2', 'b', 'B', 'Bb', null, 'ä', 'aa', 'Aa', 'apple',
]
const SV_TITLES = ['äpple', 'Öl', null, 'zebra', 'Ål', 'ost', 'Ärlig', 'Äpfel', 'vatten', 'a_b', '', 'Zon', 'öga', null, 'Banan']
const VIEWS = [0, 1, -1, null, 42, 2147483647, -2147483648, 100, 7, 7, -250, 1000000, null]
const CATEGORIES = ['news', 'tech', null, 'News', 'sport', 'été', 'Tech']
type Predicate = (doc: Doc, collator: Intl.Collator) => boolean

/** The reference comparison of two values of a field; null sorts first (smallest). */
function compareField(field: string, collator: Intl.Collator) {
  return (x: unknown, y: unknown): number => {
    if (x === null || y === null || x === undefined || y === undefined) return x === y ? 0 : x === null ? -1 : 1
    if (typeof x === 'number' && typeof y === 'number') return x - y
    if (field === 'documentId' || field.endsWith('At')) return x < y ? -1 : x > y ? 1 : 0
    return collator.compare(String(x), String(y))
  }
}

const collatorOf = (locale: string) => new Intl.Collator(locale === '*' ? 'und' : locale)

/** Reference sort: `title`, `views:desc`, `views:desc,title`; ties by id ascending. */
function sortDocs(docs: Doc[], sort: string, locale: string): Doc[] {
  const keys = sort === '' ? [] : sort.split(',').map((part) => part.split(':') as [keyof Doc, string?])
  const collator = collatorOf(locale)
  return [...docs].sort((a, b) => {
    for (const [field, dir] of keys) {
      const order = compareField(field, collator)(a[field], b[field])
      if (order !== 0) return dir === 'desc' ? -order : order
    }
    return a.id - b.id
  })
}

describe('filters on GET /api/articles', () => {
  let ctx: TestContext
  let key: string
  const docs: Doc[] = []
  const versionsOf = (locale: string) => docs.filter((doc) => locale === '*' || doc.locale === locale)

  beforeAll(async () => {
    ctx = await createTestContext()
    key = await ctx.token()
    await ctx.addLocales('sv')
    for (const [i, title] of TITLES.entries()) {
      const slug = i % 9 === 4 ? null : `${i % 3 === 0 ? 'Slug' : 'slug'}-${String(i).padStart(2, '0')}`
      const data = articleData({ title, slug, views: VIEWS[i % VIEWS.length], category: CATEGORIES[i % CATEGORIES.length] })
      const response = await ctx.request('POST', '/api/articles', { token: key, body: body(data) })
      expect(response.status).toBe(200)
      docs.push((await json(response)).data)
    }
    for (const [i, en] of docs.slice(0, 30).entries()) {
      if (i % 2 === 1) continue
      const data = { title: SV_TITLES[(i / 2) % SV_TITLES.length], slug: i % 4 === 0 ? `sv-${i}` : null }
      const response = await ctx.request('PUT', `/api/articles/${en.documentId}?locale=sv`, { token: key, body: body(data) })
      expect(response.status).toBe(200)
      docs.push((await json(response)).data)
    }
  })

  /** The API's answer to `search` (ids in order and meta), and the reference answer. */
  const compare = async (search: string, predicate: Predicate, options: { locale?: string; sort?: string } = {}) => {
    const locale = options.locale ?? 'en'
    const response = await ctx.request('GET', `/api/articles?${search}&pagination[pageSize]=100${options.locale ? `&locale=${locale}` : ''}${options.sort ? `&sort=${options.sort}` : ''}`)
    const answer = await json(response)
    expect({ status: response.status, error: answer.error }).toEqual({ status: 200, error: undefined })
    const expected = sortDocs(versionsOf(locale).filter((doc) => predicate(doc, collatorOf(locale))), options.sort ?? '', locale)
    expect(answer.data.map((doc: Doc) => doc.id)).toEqual(expected.map((doc) => doc.id))
    expect(answer.meta.pagination.total).toBe(expected.length)
    return expected
  }

  it('starts from the documents the writes answered (the reference data)', async () => {
    expect(await ctx.services.locales.indexTrusted()).toBe(true) // so lists read the slot indexes, not a scan
    await compare('', () => true, { locale: '*' })
    expect(versionsOf('sv').length).toBe(15)
  })

  const str = (field: 'title' | 'slug' | 'category') => (test: (value: string, collator: Intl.Collator) => boolean): Predicate =>
    (doc, collator) => doc[field] !== null && test(doc[field] as string, collator)
  const title = str('title')
  const en = collatorOf('en')
  const views = (test: (value: number) => boolean) => (doc: Doc) => doc.views !== null && test(doc.views)

  describe.each([
    ['filters[title]=apple', title((t) => t === 'apple')],
    ['filters[title][$eq]=Apple', title((t) => t === 'Apple')],
    ['filters[title]', title((t) => t === '')],
    ['filters[title][$ne]=apple', title((t) => t !== 'apple')],
    ['filters[title][$eqi]=%C3%A4pfel', title((t) => t.toLowerCase() === 'äpfel')],
    ['filters[title][$nei]=APPLE', title((t) => t.toLowerCase() !== 'apple')],
    ['filters[title][$lt]=b', title((t, c) => c.compare(t, 'b') < 0)],
    ['filters[title][$lte]=B', title((t, c) => c.compare(t, 'B') <= 0)],
    ['filters[title][$gt]=Zebra', title((t, c) => c.compare(t, 'Zebra') > 0)],
    ['filters[title][$gte]=eclair', title((t, c) => c.compare(t, 'eclair') >= 0)],
    ['filters[title][$in][0]=apple&filters[title][$in][1]=Delta&filters[title][$in][2]=nope', title((t) => ['apple', 'Delta', 'nope'].includes(t))],
    ['filters[title][$in]=apple', title((t) => t === 'apple')],
    ['filters[title][0]=apple&filters[title][1]=B', title((t) => ['apple', 'B'].includes(t))],
    ['filters[title][$eq][0]=apple&filters[title][$eq][1]=B', title((t) => ['apple', 'B'].includes(t))],
    ['filters[title][$notIn][0]=apple&filters[title][$notIn][1]=B', title((t) => !['apple', 'B'].includes(t))],
    ['filters[title][$ne][0]=apple&filters[title][$ne][1]=B', title((t) => !['apple', 'B'].includes(t))],
    ['filters[title][$between][0]=b&filters[title][$between][1]=d', title((t, c) => c.compare(t, 'b') >= 0 && c.compare(t, 'd') <= 0)],
    ['filters[title][$between][0]=d&filters[title][$between][1]=b', () => false],
    ['filters[title][$contains]=%25', title((t) => t.includes('%'))],
    ['filters[title][$contains]=_', title((t) => t.includes('_'))],
    ['filters[title][$contains]=pple', title((t) => t.includes('pple'))],
    ['filters[title][$notContains]=e', title((t) => !t.includes('e'))],
    ['filters[title][$containsi]=%C3%84P', title((t) => t.toLowerCase().includes('äp'))],
    ['filters[title][$notContainsi]=E', title((t) => !t.toLowerCase().includes('e'))],
    ['filters[title][$startsWith]=A', title((t) => t.startsWith('A'))],
    ['filters[title][$startsWithi]=a', title((t) => t.toLowerCase().startsWith('a'))],
    ['filters[title][$endsWith]=e', title((t) => t.endsWith('e'))],
    ['filters[title][$endsWithi]=E', title((t) => t.toLowerCase().endsWith('e'))],
    ['filters[title][$null]=true', (doc: Doc) => doc.title === null],
    ['filters[title][$null]=1', (doc: Doc) => doc.title === null],
    ['filters[title][$null]=false', (doc: Doc) => doc.title !== null],
    ['filters[title][$null]=f', (doc: Doc) => doc.title !== null],
    ['filters[title][$null]=', (doc: Doc) => doc.title !== null],
    ['filters[title][$notNull]=true', (doc: Doc) => doc.title !== null],
    ['filters[title][$notNull]=0', (doc: Doc) => doc.title === null],
    ['filters[slug][$startsWith]=Slug', str('slug')((s) => s.startsWith('Slug'))],
    ['filters[category][$in][0]=news&filters[category][$in][1]=tech', str('category')((c) => ['news', 'tech'].includes(c))],
    ['filters[category][$nei]=news', str('category')((c) => c.toLowerCase() !== 'news')],
    ['filters[views]=7', views((n) => n === 7)],
    ['filters[views][$ne]=7', views((n) => n !== 7)],
    ['filters[views][$lt]=0', views((n) => n < 0)],
    ['filters[views][$lte]=-1', views((n) => n <= -1)],
    ['filters[views][$gt]=100', views((n) => n > 100)],
    ['filters[views][$gte]=2147483647', views((n) => n >= 2147483647)],
    ['filters[views][$lt]=3000000000', views(() => true)],
    ['filters[views][$gt]=-3000000000', views(() => true)],
    ['filters[views][$gt]=3000000000', () => false],
    ['filters[views][$in][0]=0&filters[views][$in][1]=-2147483648&filters[views][$in][2]=42', views((n) => [0, -2147483648, 42].includes(n))],
    ['filters[views][$notIn][0]=0&filters[views][$notIn][1]=7', views((n) => ![0, 7].includes(n))],
    ['filters[views][$between][0]=-1&filters[views][$between][1]=100', views((n) => n >= -1 && n <= 100)],
    ['filters[views][$null]=true', (doc: Doc) => doc.views === null],
    ['filters[views][$notNull]=true', (doc: Doc) => doc.views !== null],
    ['filters[views][$gt]=1&filters[views][$lt]=1000', views((n) => n > 1 && n < 1000)],
    ['filters[views][$not][$gt]=0', (doc: Doc) => !(doc.views !== null && doc.views > 0)],
    ['filters[title][$not][$eq]=apple', (doc: Doc) => doc.title !== 'apple'],
    ['filters[title][$not]=apple', (doc: Doc) => doc.title !== 'apple'],
    ['filters[$not][title][$eq]=apple', (doc: Doc) => doc.title !== 'apple'],
    ['filters[$not][title][$contains]=e', (doc: Doc) => !(doc.title !== null && doc.title.includes('e'))],
    ['filters[$not][views][$lt]=0', (doc: Doc) => !(doc.views !== null && doc.views < 0)],
    ['filters[title][$containsi]=e&filters[views][$gte]=0', (doc: Doc) => title((t) => t.toLowerCase().includes('e'))(doc, en) && views((n) => n >= 0)(doc)],
    ['filters[$and][0][views][$gte]=0&filters[$and][1][category]=news&filters[$and][2][title][$containsi]=a',
      (doc: Doc) => views((n) => n >= 0)(doc) && doc.category === 'news' && title((t) => t.toLowerCase().includes('a'))(doc, en)],
    ['filters[$or][0][views]=7&filters[$or][1][title][$startsWith]=A&filters[$or][2][category][$null]=true',
      (doc: Doc) => doc.views === 7 || title((t) => t.startsWith('A'))(doc, en) || doc.category === null],
    ['filters[$or][0][views]=7&filters[$or][1][title]=apple', (doc: Doc) => doc.views === 7 || doc.title === 'apple'],
    ['filters[$or][0][0][views][$gt]=0&filters[$or][0][1][category]=tech&filters[$or][1][title][$null]=true',
      (doc: Doc) => (views((n) => n > 0)(doc) && doc.category === 'tech') || doc.title === null],
    ['filters[$and][0][$or][0][views]=1&filters[$and][0][$or][1][views]=-1&filters[$and][1][$not][category]=news',
      (doc: Doc) => (doc.views === 1 || doc.views === -1) && doc.category !== 'news'],
    ['filters[$or][0][$and][0][title][$gte]=b&filters[$or][0][$and][1][title][$lt]=d&filters[$or][1][$not][$or][0][views][$notNull]=true&filters[$or][1][$not][$or][1][title][$notNull]=true',
      (doc: Doc, c: Intl.Collator) => title((t) => c.compare(t, 'b') >= 0 && c.compare(t, 'd') < 0)(doc, c) || (doc.views === null && doc.title === null)],
  ] as [string, Predicate][])('%s', (search, predicate) => {
    it('lists exactly the matching versions by id', async () => {
      await compare(search, predicate)
    })
    it('with sort=title:desc', async () => {
      await compare(search, predicate, { sort: 'title:desc' })
    })
    it('with sort=views:desc,title in sv', async () => {
      await compare(search, predicate, { sort: 'views:desc,title', locale: 'sv' })
    })
  })

  it('never matches null with a comparison, positive or negative', async () => {
    expect(versionsOf('en').filter((doc) => doc.title === null).length).toBeGreaterThan(2)
    for (const operator of ['$ne', '$nei', '$notContains', '$notContainsi', '$lt', '$gt', '$notIn']) {
      await compare(`filters[title][${operator}]=zzzz`, (doc) => doc.title !== null && eval1(operator, doc.title, 'zzzz'))
    }
  })

  it('compares string ranges with the collation of the requested locale', async () => {
    const sv = collatorOf('sv')
    const inSv = await compare('filters[title][$gt]=z', title((t) => sv.compare(t, 'z') > 0), { locale: 'sv', sort: 'title' })
    expect(inSv.map((doc) => doc.title)).toEqual(expect.arrayContaining(['Öl', 'Ål', 'äpple']))
    const inEn = await compare('filters[title][$gt]=z', title((t) => en.compare(t, 'z') > 0), { sort: 'title' })
    expect(inEn.map((doc) => doc.title)).not.toContain('Äpfel')
  })

  it('filters on timestamps, id, documentId and locale', async () => {
    const pivot = docs[20] as Doc
    const at = (doc: Doc) => Date.parse(doc.createdAt)
    await compare(`filters[createdAt][$lt]=${pivot.createdAt}`, (doc) => at(doc) < at(pivot))
    await compare(`filters[createdAt][$gte]=${pivot.createdAt}`, (doc) => at(doc) >= at(pivot), { locale: '*', sort: 'createdAt:desc' })
    await compare(`filters[createdAt][$eq]=${pivot.createdAt}`, (doc) => at(doc) === at(pivot))
    const shifted = new Date(at(pivot) + 3_600_000).toISOString().replace('Z', '+01:00')
    await compare(`filters[createdAt][$lte]=${encodeURIComponent(shifted)}`, (doc) => at(doc) <= at(pivot))
    const [low, high] = [docs[5] as Doc, docs[40] as Doc]
    await compare(`filters[updatedAt][$between][0]=${low.updatedAt}&filters[updatedAt][$between][1]=${high.updatedAt}`,
      (doc) => Date.parse(doc.updatedAt) >= Date.parse(low.updatedAt) && Date.parse(doc.updatedAt) <= Date.parse(high.updatedAt), { locale: '*' })
    await compare(`filters[publishedAt][$gt]=2000-01-01&filters[publishedAt][$lt]=2999-12-31`, () => true)
    await compare(`filters[id][$gt]=${pivot.id}&filters[id][$ne]=${pivot.id + 3}`, (doc) => doc.id > pivot.id && doc.id !== pivot.id + 3, { locale: '*' })
    await compare(`filters[documentId][$in][0]=${pivot.documentId}&filters[documentId][$in][1]=${low.documentId}`,
      (doc) => [pivot.documentId, low.documentId].includes(doc.documentId), { locale: '*' })
  })

  it('reads the documents a documentId $in names by key: one BatchGet for the page, whatever the number of ids', async () => {
    const named = docs.filter((doc) => doc.locale === 'en').slice(0, 30)
    const ids = [...named.map((doc) => doc.documentId), 'not-a-document-id', '']
    const query = ids.map((id, i) => `filters[$and][0][documentId][$in][${i}]=${encodeURIComponent(id)}`).join('&')
    const calls: string[] = []
    ctx.db.middlewareStack.add((next, context) => async (args) => {
      const input = args.input as { Key?: { documentId?: string } }
      calls.push(`${String(context.commandName)}${input.Key?.documentId === META.count ? ' count' : ''}`)
      return next(args)
    }, { step: 'initialize', name: 'calls' })
    try {
      await compare(`${query}&filters[$and][1][views][$gte]=0`, (doc) => named.some((one) => one.documentId === doc.documentId) && doc.views !== null && doc.views >= 0, { sort: 'title' })
    } finally {
      ctx.db.middlewareStack.remove('calls')
    }
    // The versions by key in one BatchGetItem, which carries the count item too: no Query per id.
    expect(calls.filter((name) => name === 'QueryCommand')).toEqual([])
    expect(calls.filter((name) => name === 'BatchGetItemCommand')).toHaveLength(1)
    expect(calls.filter((name) => name === 'GetItemCommand count')).toEqual([])
  })

  it('filters[locale] filters the versions locale=* selected and never replaces locale', async () => {
    await compare('filters[locale]=sv', (doc) => doc.locale === 'sv', { locale: '*', sort: 'title' })
    await compare('filters[locale][$ne]=sv&filters[views][$gt]=0', (doc) => doc.locale !== 'sv' && views((n) => n > 0)(doc), { locale: '*' })
    await compare('filters[locale]=sv', () => false)
    await compare('filters[title][$gt]=m', title((t) => collatorOf('und').compare(t, 'm') > 0), { locale: '*', sort: 'title:desc' })
  })

  describe('pagination and count apply to the filtered set', () => {
    const matching = () => sortDocs(versionsOf('en').filter(views((n) => n >= 0)), 'title', 'en')
    const list = async (search: string) => json(await ctx.request('GET', `/api/articles?filters[views][$gte]=0&sort=title&${search}`))

    it.each([[1, 10], [2, 10], [3, 7], [9, 10]])('page %i of size %i', async (page, pageSize) => {
      const answer = await list(`pagination[page]=${page}&pagination[pageSize]=${pageSize}`)
      const all = matching()
      expect(answer.data.map((doc: Doc) => doc.id)).toEqual(all.slice((page - 1) * pageSize, page * pageSize).map((doc) => doc.id))
      expect(answer.meta.pagination).toEqual({ page, pageSize, pageCount: Math.ceil(all.length / pageSize), total: all.length })
    })

    it.each([[0, 5], [13, 8], [500, 3]])('start %i limit %i', async (start, limit) => {
      const answer = await list(`pagination[start]=${start}&pagination[limit]=${limit}`)
      expect(answer.data.map((doc: Doc) => doc.id)).toEqual(matching().slice(start, start + limit).map((doc) => doc.id))
      expect(answer.meta.pagination).toEqual({ start, limit, total: matching().length })
    })

    it('omits the count with withCount=false', async () => {
      const answer = await list('pagination[page]=2&pagination[pageSize]=4&pagination[withCount]=false')
      expect(answer.data.map((doc: Doc) => doc.id)).toEqual(matching().slice(4, 8).map((doc) => doc.id))
      expect(answer.meta.pagination).toEqual({ page: 2, pageSize: 4 })
    })
  })

  it('answers a random filter exactly as the reference does (property)', async () => {
    await fc.assert(fc.asyncProperty(queryArbitrary(docs), async (query) => {
      const response = await ctx.request('GET', `/api/articles?${query.search}`)
      const answer = await json(response)
      expect({ status: response.status, error: answer.error }).toEqual({ status: 200, error: undefined })
      const all = sortDocs(versionsOf(query.locale).filter((doc) => evaluate(query.filter, doc, collatorOf(query.locale))), query.sort, query.locale)
      expect(answer.data.map((doc: Doc) => doc.id)).toEqual(all.slice(query.offset, query.offset + query.limit).map((doc) => doc.id))
      expect(answer.meta.pagination.total).toBe(all.length)
    }), { numRuns: rounds(500) })
  }, hangGuard(120_000))

  describe.each(([
    ['filters[nope]=1', 'Invalid key nope', 'filters.nope'],
    ['filters[body][$contains]=x', 'Invalid key body', 'filters.body'],
    ['filters[title][$foo]=x', 'Invalid key $foo', 'filters.title.$foo'],
    ['filters[$foo][title]=x', 'Invalid key $foo', 'filters.$foo'],
    ['filters[views][$eq]=abc', /views.*integer/, undefined],
    ['filters[views][$gt]=1.5', /views.*integer/, undefined],
    ['filters[createdAt][$gt]=yesterday', /createdAt.*ISO 8601/, undefined],
    ['filters[views][$between][0]=1', /\$between/, undefined],
    ['filters[views][$between][0]=1&filters[views][$between][1]=2&filters[views][$between][2]=3', /\$between/, undefined],
    ['filters[$and][title]=x', /\$and/, undefined],
    ['filters[$or]=x', /\$or/, undefined],
    [Array.from({ length: 51 }, (_, i) => `filters[$or][${i}][views]=${i}`).join('&'), /50/, undefined],
    [Array.from({ length: 101 }, (_, i) => `filters[views][$in][${i}]=${i}`).join('&'), /100/, undefined],
    ['filters[$not][$not][$not][$not][$not][$not][title]=x', /5/, undefined],
  ] as [string, string | RegExp, string | undefined][]).map(([search, message, path]): [string, string, string | RegExp, string | undefined] =>
    [search.length > 90 ? `${search.slice(0, 60)}… (${search.split('&').length} parameters)` : search, search, message, path]),
  )('rejects %s', (_, search, message, path) => {
    // The homepage has no views or body: those rows run on the article routes.
    const routes = /views|body/.test(search) ? ['/api/articles', '/api/articles/DOC'] : ['/api/articles', '/api/articles/DOC', '/api/homepage']
    it.each(routes)('on %s with a 400 naming it', async (route) => {
      const target = route.replace('DOC', (docs[0] as Doc).documentId)
      const answer = await json(await ctx.request('GET', `${target}?${search}`))
      expect(answer.error).toMatchObject({ status: 400, name: 'ValidationError', message: typeof message === 'string' ? message : expect.stringMatching(message), details: { source: 'query', param: 'filters' } })
      if (path !== undefined) expect(answer.error.details.path).toBe(path)
    })
  })

  it('applies filters to get one: 404 when the version does not match, 200 when it does', async () => {
    const doc = docs.find((candidate) => candidate.locale === 'sv' && candidate.title === 'Öl') as Doc
    const get = (search: string) => ctx.request('GET', `/api/articles/${doc.documentId}?${search}`)
    expect((await get('locale=sv&filters[title][$eq]=%C3%96l')).status).toBe(200)
    expect((await get('locale=sv&filters[title][$gt]=z')).status).toBe(200) // Ö after z in Swedish
    expect((await get('filters[title][$gt]=z&filters[title][$eq]=%C3%96l')).status).toBe(404) // en version differs
    expect((await get('locale=sv&filters[views][$null]=true')).status).toBe(doc.views === null ? 200 : 404)
    expect((await get('locale=sv&filters[$not][title][$eqi]=%C3%B6L')).status).toBe(404)
    const all = await json(await get('locale=*&filters[locale]=sv'))
    expect(all.data.map((version: Doc) => version.id)).toEqual([doc.id])
    expect((await get('locale=*&filters[views][$eq]=123456')).status).toBe(404)
  })

  it('applies filters to the single-type GET', async () => {
    expect((await ctx.request('PUT', '/api/homepage', { token: key, body: body({ title: 'Welcome', tagline: null }) })).status).toBe(200)
    expect((await ctx.request('GET', '/api/homepage?filters[title][$startsWithi]=wel')).status).toBe(200)
    expect((await ctx.request('GET', '/api/homepage?filters[tagline][$null]=true')).status).toBe(200)
    expect((await ctx.request('GET', '/api/homepage?filters[tagline][$ne]=x')).status).toBe(404)
    expect((await ctx.request('GET', '/api/homepage?filters[$not][tagline][$eq]=x')).status).toBe(200)
    expect((await ctx.request('GET', '/api/homepage?filters[title][$eq]=welcome')).status).toBe(404)
  })

  it.each([
    ['POST', '/api/articles'],
    ['PUT', '/api/articles/DOC'],
    ['DELETE', '/api/articles/DOC'],
    ['PUT', '/api/homepage'],
    ['DELETE', '/api/homepage'],
  ])('refuses filters on %s %s with 400 Invalid key filters, writing nothing', async (method, route) => {
    const before = await tableSnapshot(ctx)
    const path = `${route.replace('DOC', (docs[1] as Doc).documentId)}?filters[title][$eq]=apple`
    const response = await ctx.request(method, path, { token: key, body: method === 'DELETE' ? undefined : body({ title: 'changed' }) })
    expect(response.status).toBe(400)
    expect((await json(response)).error).toMatchObject({ message: 'Invalid key filters', details: { param: 'filters' } })
    expect(await tableSnapshot(ctx)).toBe(before)
  })
})

// A fresh table whose first request is a write, and one read before its first write: the slot
// indexes are complete in both (every write stores its keys), so indexed conditions must work in both.
describe.each([['written first', false], ['read first', true]])('the scan budget (api.rest.maxScan), table %s', (_, readFirst) => {
  let ctx: TestContext
  const ids: { id: number; title: string }[] = []

  beforeAll(async () => {
    ctx = await createTestContext({ rest: { maxScan: 20 } })
    const key = await ctx.token()
    if (readFirst) expect((await ctx.request('GET', '/api/articles')).status).toBe(200)
    for (let i = 0; i < 24; i++) {
      const response = await ctx.request('POST', '/api/articles', { token: key, body: body(articleData({ title: `Item ${i}`, views: i % 5 })) })
      ids.push((await json(response)).data)
    }
  })

  it('refuses a condition no index answers over a list past the budget, naming it, writing nothing', async () => {
    const before = await tableSnapshot(ctx)
    const response = await ctx.request('GET', '/api/articles?filters[title][$containsi]=item%201')
    expect(response.status).toBe(400)
    const { error } = await json(response)
    expect(error.message).toContain('api.rest.maxScan')
    expect(error.message).toContain('20')
    expect(error.details).toMatchObject({ source: 'query', param: 'filters' })
    expect(await tableSnapshot(ctx)).toBe(before)
  })

  it('still answers an indexed $eq, and an $and driven by one', async () => {
    const eq = await json(await ctx.request('GET', '/api/articles?filters[views][$eq]=3'))
    expect(eq.error).toBeUndefined()
    expect(eq.data.map((doc: Doc) => doc.id)).toEqual(ids.filter((_, i) => i % 5 === 3).map((doc) => doc.id))
    const and = await json(await ctx.request('GET', '/api/articles?filters[title][$eq]=Item%2012&filters[title][$containsi]=item'))
    expect(and.data.map((doc: Doc) => doc.id)).toEqual([ids[12]?.id])
    const or = await json(await ctx.request('GET', '/api/articles?filters[$or][0][views]=1&filters[$or][1][title]=Item%200&sort=id:desc'))
    expect(or.data.map((doc: Doc) => doc.id)).toEqual(ids.filter((_, i) => i % 5 === 1 || i === 0).map((doc) => doc.id).reverse())
  })
})

/** Reference semantics of one operator on a non-null string (for the null test above). */
function eval1(operator: string, value: string, x: string): boolean {
  return evaluate({ k: 'leaf', field: 'title', parts: [{ op: operator, values: [x], short: false }], not: false }, { title: value } as Doc, collatorOf('en'))
}

// ---- The property test's grammar: a filter tree, its query string, and its reference meaning.

type Part = { op: string; values: string[]; short: boolean }
type Node =
  | { k: 'leaf'; field: string; parts: Part[]; not: boolean }
  | { k: 'and' | 'or'; items: (Node | Node[])[] }
  | { k: 'not'; f: Node }
interface Root { leaves: Node[]; logical: Node[] }

const STRING_FIELDS = ['title', 'slug', 'category', 'locale', 'documentId']
const ORDERED_FIELDS = ['views', 'id', 'createdAt', 'updatedAt']
const COMMON = ['$eq', '$ne', '$lt', '$lte', '$gt', '$gte', '$in', '$notIn', '$between', '$null', '$notNull']
const TEXT = ['$eqi', '$nei', '$contains', '$notContains', '$containsi', '$notContainsi', '$startsWith', '$startsWithi', '$endsWith', '$endsWithi']
const FALSE_FLAGS = ['false', '0', 'f', '']

/** The meaning of a condition part on a document, straight from §10. */
function holds(field: string, part: Part, doc: Doc, collator: Intl.Collator): boolean {
  const value = doc[field as keyof Doc] ?? null
  const flag = !FALSE_FLAGS.includes(part.values[0] ?? '')
  if (part.op === '$null') return (value === null) === flag
  if (part.op === '$notNull') return (value !== null) === flag
  if (value === null) return false
  const timed = field.endsWith('At')
  const read = (raw: string): string | number => (typeof value === 'number' ? Number(raw) : timed ? Date.parse(raw) : raw)
  const stored = timed ? Date.parse(String(value)) : value
  const cmp = (raw: string) => (typeof stored === 'number' ? stored - (read(raw) as number) : field === 'documentId'
    ? (stored < raw ? -1 : stored > raw ? 1 : 0) : collator.compare(stored, raw))
  const [a = '', b = ''] = part.values
  const s = String(value)
  const lower = s.toLowerCase()
  const many = part.values.length > 1
  switch (part.op) {
    case '$eq': return many ? part.values.some((raw) => read(raw) === stored) : read(a) === stored
    case '$ne': return many ? part.values.every((raw) => read(raw) !== stored) : read(a) !== stored
    case '$in': return part.values.some((raw) => read(raw) === stored)
    case '$notIn': return part.values.every((raw) => read(raw) !== stored)
    case '$lt': return cmp(a) < 0
    case '$lte': return cmp(a) <= 0
    case '$gt': return cmp(a) > 0
    case '$gte': return cmp(a) >= 0
    case '$between': return cmp(a) >= 0 && cmp(b) <= 0
    case '$eqi': return lower === a.toLowerCase()
    case '$nei': return lower !== a.toLowerCase()
    case '$contains': return s.includes(a)
    case '$notContains': return !s.includes(a)
    case '$containsi': return lower.includes(a.toLowerCase())
    case '$notContainsi': return !lower.includes(a.toLowerCase())
    case '$startsWith': return s.startsWith(a)
    case '$startsWithi': return lower.startsWith(a.toLowerCase())
    case '$endsWith': return s.endsWith(a)
    case '$endsWithi': return lower.endsWith(a.toLowerCase())
    default: throw new Error(`no reference for ${part.op}`)
  }
}

function evaluate(node: Node | Node[] | Root, doc: Doc, collator: Intl.Collator): boolean {
  if (Array.isArray(node)) return node.every((item) => evaluate(item, doc, collator))
  if ('leaves' in node) return [...node.leaves, ...node.logical].every((item) => evaluate(item, doc, collator))
  if (node.k === 'leaf') return node.not !== node.parts.every((part) => holds(node.field, part, doc, collator))
  if (node.k === 'not') return !evaluate(node.f, doc, collator)
  return node.k === 'and' ? node.items.every((item) => evaluate(item, doc, collator)) : node.items.some((item) => evaluate(item, doc, collator))
}

/** `[path]=value` pairs of a node under `prefix`. */
function pairs(node: Node | Node[], prefix: string[]): [string[], string][] {
  if (Array.isArray(node)) return node.flatMap((item, i) => pairs(item, [...prefix, String(i)]))
  if (node.k === 'not') return pairs(node.f, [...prefix, '$not'])
  if (node.k !== 'leaf') return node.items.flatMap((item, i) => pairs(item, [...prefix, `$${node.k}`, String(i)]))
  const base = [...prefix, node.field, ...(node.not ? ['$not'] : [])]
  return node.parts.flatMap((part) => {
    const at = part.short ? base : [...base, part.op]
    const listed = part.values.length > 1 || ['$in', '$notIn', '$between'].includes(part.op)
    if (part.values.length === 1 && !listed) return [[at, part.values[0] as string]]
    return part.values.map((value, i): [string[], string] => [[...at, String(i)], value])
  })
}

const searchOf = (entries: [string[], string][]) =>
  entries.map(([path, value]) => `${path[0]}${path.slice(1).map((segment) => `[${encodeURIComponent(segment)}]`).join('')}=${encodeURIComponent(value)}`).join('&')

/** Random queries over the created documents: filter, locale, sort and pagination. */
function queryArbitrary(docs: readonly Doc[]) {
  const strings = [...new Set(docs.flatMap((doc) => [doc.title, doc.slug, doc.category]).filter((s): s is string => s !== null))]
  const stringPool = [...strings, ...strings.map((s) => s.toUpperCase()), ...strings.map((s) => s.slice(0, 2)), ...strings.map((s) => s.slice(-2)),
    '', 'a', 'É', 'é', 'z', 'Z', '%', '_', 'ä', 'ö', 'ß', 'SS', 'e', 'pple']
  const times = docs.map((doc) => Date.parse(doc.createdAt))
  const pools: Record<string, string[]> = {
    title: stringPool, slug: stringPool, category: stringPool,
    locale: ['en', 'sv', 'EN', 's', 'f', 'z', 'e'],
    documentId: [...docs.map((doc) => doc.documentId), 'm', '0', 'z'],
    views: [...VIEWS.filter((n) => n !== null).flatMap((n) => [n, n + 1, n - 1]), 3000000000, -3000000000, 9007199254740991].map(String),
    id: [...docs.map((doc) => doc.id), 0, 10_000].map(String),
    createdAt: [...times.flatMap((t) => [t, t + 1, t - 1]).map((t) => new Date(t).toISOString()), '2000-01-01', '2999-01-01',
      new Date((times[30] as number) + 7_200_000).toISOString().replace('Z', '+02:00')],
  }
  pools.updatedAt = pools.createdAt as string[]
  const part = (field: string) => {
    const ops = STRING_FIELDS.includes(field) ? [...COMMON, ...TEXT] : COMMON
    const value = fc.constantFrom(...(pools[field] as string[]))
    return fc.constantFrom(...ops).chain((op): fc.Arbitrary<Part> => {
      if (op === '$null' || op === '$notNull') return fc.record({ op: fc.constant(op), values: fc.tuple(fc.constantFrom('true', 'false', '0', '1', 'f', 't', '', 'yes')), short: fc.constant(false) })
      if (op === '$between') return fc.record({ op: fc.constant(op), values: fc.tuple(value, value), short: fc.constant(false) })
      if (op === '$in' || op === '$notIn') return fc.record({ op: fc.constant(op), values: fc.array(value, { minLength: 1, maxLength: 4 }), short: fc.constant(false) })
      if (op === '$eq' || op === '$ne') return fc.record({ op: fc.constant(op), values: fc.array(value, { minLength: 1, maxLength: 3 }), short: fc.constant(false) })
      return fc.record({ op: fc.constant(op), values: fc.tuple(value), short: fc.constant(false) })
    })
  }
  const leafOf = (field: string): fc.Arbitrary<Node> => fc.record({
    k: fc.constant('leaf' as const), field: fc.constant(field), not: fc.boolean(),
    parts: fc.oneof(
      fc.uniqueArray(part(field), { minLength: 1, maxLength: 2, selector: (p) => p.op }),
      fc.array(fc.constantFrom(...(pools[field] as string[])), { minLength: 1, maxLength: 2 }).map((values) => [{ op: '$eq', values, short: true }]),
    ),
  })
  const leaf = fc.constantFrom(...STRING_FIELDS, ...ORDERED_FIELDS).chain(leafOf)
  const { node } = fc.letrec<{ node: Node }>((tie) => ({
    node: fc.oneof({ maxDepth: 3, depthIdentifier: 'filter' },
      { arbitrary: leaf, weight: 3 },
      { arbitrary: fc.record({ k: fc.constantFrom('and' as const, 'or' as const), items: fc.array(fc.oneof(tie('node'), fc.array(tie('node'), { minLength: 1, maxLength: 2 })), { minLength: 1, maxLength: 3 }) }), weight: 2 },
      { arbitrary: fc.record({ k: fc.constant('not' as const), f: tie('node') }), weight: 1 }),
  }))
  const root = fc.record({
    leaves: fc.uniqueArray(leaf, { maxLength: 1, selector: (n) => (n as { field: string }).field }),
    logical: fc.option(node, { nil: undefined }).map((n) => (n === undefined ? [] : [n])),
  }).filter((r: Root) => r.leaves.length + r.logical.length > 0 && countParts(r) <= 50 && !collides(r))
  const pagination = fc.oneof(
    fc.record({ page: fc.integer({ min: 1, max: 4 }), size: fc.integer({ min: 1, max: 30 }) }).map(({ page, size }) => ({ q: `pagination[page]=${page}&pagination[pageSize]=${size}`, offset: (page - 1) * size, limit: size })),
    fc.record({ start: fc.integer({ min: 0, max: 70 }), limit: fc.integer({ min: 1, max: 40 }) }).map(({ start, limit }) => ({ q: `pagination[start]=${start}&pagination[limit]=${limit}`, offset: start, limit })),
    fc.constant({ q: 'pagination[pageSize]=100', offset: 0, limit: 100 }),
  )
  return fc.record({
    filter: root,
    locale: fc.constantFrom('en', 'sv', '*'),
    sort: fc.constantFrom('', 'title', 'title:desc', 'views', 'views:desc', 'views:desc,title', 'slug:desc', 'createdAt:desc', 'category,title'),
    pagination,
  }).map(({ filter, locale, sort, pagination: page }) => ({
    filter, locale, sort, offset: page.offset, limit: page.limit,
    search: [searchOf([...filter.leaves, ...filter.logical].flatMap((n) => pairs(n, ['filters']))), `locale=${locale === '*' ? '*' : locale}`, sort ? `sort=${sort}` : '', page.q].filter(Boolean).join('&'),
  }))
}

function countParts(node: Node | Node[] | Root): number {
  if (Array.isArray(node)) return node.reduce((sum, item) => sum + countParts(item), 0)
  if ('leaves' in node) return countParts([...node.leaves, ...node.logical])
  if (node.k === 'leaf') return node.parts.length
  if (node.k === 'not') return countParts(node.f)
  return node.items.reduce((sum: number, item) => sum + countParts(item), 0)
}

/** The root's leaves and its logical node must not write the same key (`$not` twice, one field twice). */
function collides(root: Root): boolean {
  const first = root.logical[0]
  return first?.k === 'leaf' && root.leaves.some((leaf) => (leaf as { field: string }).field === first.field)
}
