// List reads: locale, sort and pagination exactly as behaviour.md §3-§4 decide, on real data.
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { SETTLE_MS } from '../../lib/storage/lists/validator.js'
import { articleData, body } from '../support/factories.js'
import { createSeeder, createTestContext, json, type TestContext } from '../support/context.js'
import { countedPeer } from '../support/relations.js'
import { article } from '../support/types.js'
import { INDEX, META, indexedFields, slotIndex } from '../../lib/table.js'

interface Doc { id: number; documentId: string; title: string | null; views: number | null; locale: string }

describe('GET /api/articles', () => {
  let ctx: TestContext
  const titles = ['banana', 'Apple', 'cherry', 'apple', 'Banana', null, 'date', 'Éclair']
  const created: Doc[] = []
  const list = async (search: string) => {
    const response = await ctx.request('GET', `/api/articles?${search}`)
    expect(response.status).toBe(200)
    return json(response) as Promise<{ data: Doc[]; meta: { pagination: Record<string, number> } }>
  }

  beforeAll(async () => {
    ctx = await createTestContext()
    const key = await ctx.token()
    await ctx.addLocales('fr')
    for (const [i, title] of titles.entries()) {
      const response = await ctx.request('POST', '/api/articles', { token: key, body: body(articleData({ title, views: i % 3 })) })
      created.push((await json(response)).data)
    }
    for (const doc of created.slice(0, 3)) {
      await ctx.request('PUT', `/api/articles/${doc.documentId}?locale=fr`, { token: key, body: body({ title: `fr ${doc.title}` }) })
    }
  })

  it('lists the default locale by id ascending with page meta', async () => {
    const { data, meta } = await list('')
    expect(data.map((d) => d.id)).toEqual(created.map((d) => d.id))
    expect(data.every((d) => d.locale === 'en')).toBe(true)
    expect(meta.pagination).toEqual({ page: 1, pageSize: 25, pageCount: 1, total: titles.length })
  })

  it('answers a repeated query string as the first time (its parsed query is kept), and a 400 every time it is invalid', async () => {
    for (let round = 0; round < 2; round++) {
      expect((await list('sort=title&pagination[pageSize]=3')).data.map((d) => d.title)).toEqual([null, 'apple', 'Apple'])
      expect((await list('locale=fr&sort=title')).data.every((d) => d.locale === 'fr')).toBe(true)
      expect((await ctx.request('GET', '/api/articles?pagination[pageSize]=0')).status).toBe(400)
    }
  })

  it('lists only the requested locale', async () => {
    const { data, meta } = await list('locale=fr')
    expect(data.map((d) => d.locale)).toEqual(['fr', 'fr', 'fr'])
    expect(meta.pagination.total).toBe(3)
  })

  it('lists every version with locale=*, total counting versions', async () => {
    const { data, meta } = await list('locale=*')
    expect(meta.pagination.total).toBe(titles.length + 3)
    expect(data.map((d) => d.id)).toEqual([...data.map((d) => d.id)].sort((a, b) => a - b))
  })

  it('sorts strings by collation with nulls first', async () => {
    const { data } = await list('sort=title')
    const expected = [...titles].sort((a, b) => (a === null ? -1 : b === null ? 1 : new Intl.Collator('en').compare(a, b)))
    expect(data.map((d) => d.title)).toEqual(expected)
  })

  it('sorts descending with nulls last', async () => {
    const { data } = await list('sort=title:desc')
    expect(data.at(-1)?.title).toBeNull()
    expect(data[0]?.title).toBe('Éclair')
  })

  it.each([
    'sort[0]=views:desc&sort[1]=title',
    'sort=views:desc,title:asc',
    'sort[0][views]=desc&sort[1][title]=asc',
    'sort[views]=desc&sort[title]=asc',
    'sort=views:DESC,title',
  ])('applies several keys in order: %s', async (search) => {
    const { data } = await list(search)
    const collator = new Intl.Collator('en')
    const expected = [...created].sort((a, b) =>
      (b.views ?? -1) - (a.views ?? -1) || (a.title === null ? -1 : b.title === null ? 1 : collator.compare(a.title, b.title)) || a.id - b.id,
    )
    expect(data.map((d) => d.id)).toEqual(expected.map((d) => d.id))
  })

  it('breaks ties by id ascending', async () => {
    const { data } = await list('sort=views')
    for (let i = 1; i < data.length; i++) {
      const [a, b] = [data[i - 1] as Doc, data[i] as Doc]
      if (a.views === b.views) expect(a.id).toBeLessThan(b.id)
    }
  })

  it('sorts by id descending', async () => {
    const { data } = await list('sort=id:desc')
    expect(data.map((d) => d.id)).toEqual(created.map((d) => d.id).reverse())
  })

  it('pages without repeating or skipping entries', async () => {
    const seen: number[] = []
    for (let page = 1; page <= 3; page++) {
      const { data, meta } = await list(`sort=views&pagination[page]=${page}&pagination[pageSize]=3`)
      expect(meta.pagination).toEqual({ page, pageSize: 3, pageCount: 3, total: titles.length })
      seen.push(...data.map((d) => d.id))
    }
    expect(seen.sort((a, b) => a - b)).toEqual(created.map((d) => d.id))
  })

  it('pages by offset with start, limit and total', async () => {
    const { data, meta } = await list('pagination[start]=2&pagination[limit]=3')
    expect(data.map((d) => d.id)).toEqual(created.slice(2, 5).map((d) => d.id))
    expect(meta.pagination).toEqual({ start: 2, limit: 3, total: titles.length })
  })

  it('answers an empty page past the end with true meta', async () => {
    const { data, meta } = await list('pagination[page]=9&pagination[pageSize]=5')
    expect(data).toEqual([])
    expect(meta.pagination).toEqual({ page: 9, pageSize: 5, pageCount: 2, total: titles.length })
  })

  it('omits total and pageCount with withCount=false', async () => {
    expect((await list('pagination[withCount]=false')).meta.pagination).toEqual({ page: 1, pageSize: 25 })
    expect((await list('pagination[limit]=2&pagination[withCount]=f')).meta.pagination).toEqual({ start: 0, limit: 2 })
  })

  it('answers a PaginationError when methods are mixed', async () => {
    const response = await ctx.request('GET', '/api/articles?pagination[page]=1&pagination[start]=0')
    expect(response.status).toBe(400)
    expect((await json(response)).error).toMatchObject({ name: 'PaginationError', message: 'Cannot use both page & offset pagination in the same query' })
  })

  it.each(['sort=nope', 'sort=body', 'sort=title:up', 'pagination[pageSize]=0', 'pagination[page]=abc', 'foo=bar', 'page=2', 'locale[0]=en', 'locale=xx'])(
    'returns 400 in the envelope for %s',
    async (search) => {
      const response = await ctx.request('GET', `/api/articles?${search}`)
      expect(response.status).toBe(400)
      const { data, error } = await json(response)
      expect(data).toBeNull()
      expect(error.status).toBe(400)
      expect(typeof error.details).toBe('object')
    },
  )
})

describe('list configuration', () => {
  it('uses api.rest.defaultLimit and clamps to api.rest.maxLimit', async () => {
    const ctx = await createTestContext({ rest: { defaultLimit: 2, maxLimit: 3 } })
    const key = await ctx.token()
    for (let i = 0; i < 4; i++) await ctx.request('POST', '/api/articles', { token: key, body: body(articleData()) })
    const byDefault = await json(await ctx.request('GET', '/api/articles'))
    expect(byDefault.data).toHaveLength(2)
    expect(byDefault.meta.pagination).toEqual({ page: 1, pageSize: 2, pageCount: 2, total: 4 })
    const clamped = await json(await ctx.request('GET', '/api/articles?pagination[pageSize]=50'))
    expect(clamped.meta.pagination.pageSize).toBe(3)
    const all = await json(await ctx.request('GET', '/api/articles?pagination[limit]=-1'))
    expect(all.meta.pagination).toEqual({ start: 0, limit: 3, total: 4 })
  })

  it('answers get-one as an object with api.rest.findOneShape=object', async () => {
    const ctx = await createTestContext({ rest: { findOneShape: 'object' } })
    const key = await ctx.token()
    const { data } = await json(await ctx.request('POST', '/api/articles', { token: key, body: body(articleData()) }))
    expect(await json(await ctx.request('GET', `/api/articles/${data.documentId}`))).toEqual({ data, meta: {} })
    expect((await ctx.request('GET', `/api/articles/${data.documentId}?locale=*`)).status).toBe(400)
  })
})

describe('deep pages in id order', () => {
  // Past the first 250 entries a page is read from the nearer end of the index.
  const N = 300
  let ctx: TestContext
  let ids: number[]
  beforeAll(async () => {
    // These tests count the reads a page makes from nothing the process kept: a page an earlier
    // test read, once its list settled (2 s, a slow run), would otherwise come from the page cache
    // (no read) or resume at a list mark (no skipped entries read).
    ctx = await createTestContext({ rest: { pageCache: 0, listMarks: 0 } })
    const key = await ctx.token()
    const seeder = createSeeder(ctx)
    ids = []
    for (let i = 0; i < N; i += 20) {
      const batch = await Promise.all(Array.from({ length: Math.min(20, N - i) }, () =>
        seeder.request('POST', '/api/articles', { token: key, body: body(articleData()) }).then(json)))
      ids.push(...batch.map((response) => response.data.id as number))
    }
    ids.sort((a, b) => a - b)
  }, 120_000)

  it.each([
    ['pagination[start]=260&pagination[limit]=25', (all: number[]) => all.slice(260, 285)],
    ['pagination[start]=290&pagination[limit]=25', (all: number[]) => all.slice(290, 315)],
    ['pagination[page]=12&pagination[pageSize]=25', (all: number[]) => all.slice(275, 300)],
    ['pagination[page]=6&pagination[pageSize]=50', (all: number[]) => all.slice(250, 300)],
    ['sort=id:desc&pagination[start]=270&pagination[limit]=25', (all: number[]) => [...all].reverse().slice(270, 295)],
    ['pagination[start]=400', () => []],
    // Near the start: the skipped ones read as small slot0 entries, the page from byId after them.
    ['pagination[page]=3&pagination[pageSize]=25', (all: number[]) => all.slice(50, 75)],
    ['pagination[start]=1&pagination[limit]=10', (all: number[]) => all.slice(1, 11)],
    ['pagination[start]=75&pagination[limit]=25', (all: number[]) => all.slice(75, 100)],
    ['sort=id:desc&pagination[start]=30&pagination[limit]=20', (all: number[]) => [...all].reverse().slice(30, 50)],
  ])('%s', async (search, expected) => {
    const { data, meta } = await json(await ctx.request('GET', `/api/articles?${search}`))
    expect(data.map((d: { id: number }) => d.id)).toEqual(expected(ids))
    expect(meta.pagination.total).toBe(N)
  })

  it('skips the first entries of a near page as small index entries, reading only the page whole', async () => {
    const reads: string[] = []
    ctx.db.middlewareStack.add((next, context) => async (args) => {
      const input = args.input as { IndexName?: string; Limit?: number }
      if (context.commandName === 'QueryCommand') reads.push(`${input.IndexName} ${input.Limit}`)
      return next(args)
    }, { step: 'initialize', name: 'reads' })
    try {
      const { data } = await json(await ctx.request('GET', '/api/articles?pagination[page]=3&pagination[pageSize]=25'))
      expect(data.map((d: { id: number }) => d.id)).toEqual(ids.slice(50, 75))
    } finally {
      ctx.db.middlewareStack.remove('reads')
    }
    expect(reads).toEqual([`${slotIndex(0)} 50`, `${INDEX.byId} 25`])
  })

  it('reads a sorted page\'s validator in the BatchGet of its documents, and its ETag then validates alone', async () => {
    // Another process that keeps no documents (kept.ts), so every page reads its documents: the shapes from nothing.
    const reader = countedPeer({ ...ctx, config: { ...ctx.config, rest: { ...ctx.config.rest, populate: { ...ctx.config.rest.populate, cacheBytes: 0 } } } })
    const shapes = () => reader.calls
      // Settings lookups (registry, role, index state) come and go with their cache: not counted.
      .filter((call) => call.command !== 'GetItemCommand' || call.input.Key?.documentId === META.count)
      .map((call) => [call.command, call.input.IndexName, Object.values((call.input.RequestItems ?? {}) as Record<string, { Keys: unknown[] }>)[0]?.Keys.length].filter((part) => part !== undefined).join(' '))
    // Past the settling time of the seed's last write, so the list's tags are stable.
    vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true })
    vi.setSystemTime(Date.now() + SETTLE_MS + 100)
    try {
      const path = '/api/articles?sort=id:desc&pagination[start]=130&pagination[limit]=7'
      const page = await reader.request('GET', path)
      const { data, meta } = await json(page)
      expect(data.map((d: { id: number }) => d.id)).toEqual([...ids].reverse().slice(130, 137))
      expect(meta.pagination.total).toBe(N)
      // The slot read from the end (the nearer one) needs the total first: the count is read alone.
      expect(shapes()).toEqual(['GetItemCommand', `QueryCommand ${slotIndex(0)}`, 'BatchGetItemCommand 7'])
      reader.calls.length = 0
      // Near the start, in an order other than id: the slot read, then the documents and the count in one BatchGet.
      const nearPath = '/api/articles?sort=documentId&pagination[start]=10&pagination[limit]=7'
      const near = await reader.request('GET', nearPath)
      const nearBody = await json(near)
      expect(nearBody.data).toHaveLength(7)
      expect(nearBody.meta.pagination.total).toBe(N)
      expect(shapes()).toEqual([`QueryCommand ${slotIndex(indexedFields(article).indexOf('documentId'))}`, 'BatchGetItemCommand 8'])
      reader.calls.length = 0
      const again = await reader.request('GET', nearPath, { headers: { 'If-None-Match': near.headers.get('etag') as string } })
      expect(again.status).toBe(304)
      expect(shapes()).toEqual(['GetItemCommand'])
    } finally {
      vi.useRealTimers()
    }
  })

  it('omits the total of a deep page without count', async () => {
    const { data, meta } = await json(await ctx.request('GET', '/api/articles?pagination[start]=280&pagination[limit]=10&pagination[withCount]=false'))
    expect(data.map((d: { id: number }) => d.id)).toEqual(ids.slice(280, 290))
    expect(meta.pagination).toEqual({ start: 280, limit: 10 })
  })
})
