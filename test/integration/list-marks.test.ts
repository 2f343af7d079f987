// List marks (lib/storage/list-marks.ts) through HTTP on DynamoDB Local: a page read from a mark
// is exactly the page read without marks (a second process on the same table with
// api.rest.listMarks 0 is the reference), a later page costs the entries from the mark on, and no
// mark outlives the revision it was read at, whatever write comes between its read and its use.
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { SETTLE_MS } from '../../lib/storage/lists/validator.js'
import { MARK_STRIDE } from '../../lib/storage/lists/marks.js'
import { articleData, body } from '../support/factories.js'
import { createPeer, createSeeder, createTestContext, json, type TestContext } from '../support/context.js'
import { hangGuard, rounds } from '../support/rounds.js'

const N = 320
/** Few distinct views, so sorted lists have long runs of ties; titles in mixed case and accents. */
const WORDS = ['apple', 'Banana', 'cherry', 'Éclair', 'delta', 'echo', 'Zebra', 'éte']
const SORTS = ['views:desc,title', 'title', 'title:desc', 'views', 'publishedAt:desc', 'id:desc', 'slug']

describe('list marks', () => {
  let ctx: TestContext
  let reference: Pick<TestContext, 'request'>
  let key: string
  /** Index entries (and documents read from `byId`) that list Queries returned, summed. */
  let read = 0

  const page = async (target: Pick<TestContext, 'request'>, search: string) => {
    const response = await target.request('GET', `/api/articles?${search}`)
    expect(response.status, search).toBe(200)
    const { data, meta } = await json(response)
    return { ids: data.map((d: { id: number }) => d.id) as number[], meta }
  }
  /** The page from the process with marks, and the same page from the reference. */
  const both = async (search: string) => ({ marked: await page(ctx, search), expected: await page(reference, search) })
  /**
   * Lets the list settle (its last write SETTLE_MS ago), as every kept mark requires. The fake
   * clock never goes back across tests (each starts from the real one), so that writes an earlier
   * test stamped later than the real clock have settled too.
   */
  let clock = 0
  const settle = () => vi.setSystemTime((clock = Math.max(clock, Date.now()) + SETTLE_MS + 100))

  beforeAll(async () => {
    // The page cache off in both processes, so every answer is read.
    ctx = await createTestContext({ rest: { pageCache: 0 } })
    reference = createPeer(ctx, { rest: { ...ctx.config.rest, listMarks: 0 } })
    key = await ctx.token()
    const seeder = createSeeder(ctx)
    for (let i = 0; i < N; i += 20) {
      await Promise.all(Array.from({ length: Math.min(20, N - i) }, (_, j) => {
        const n = i + j
        const title = `${WORDS[(n * 7) % WORDS.length]} ${WORDS[(n * 3) % WORDS.length]} ${n % 13}`
        return seeder.request('POST', '/api/articles', { token: key, body: body(articleData({ title, slug: `s-${(n * 37) % N}`, views: n % 5 })) })
      }))
    }
    ctx.db.middlewareStack.add((next) => async (args) => {
      const result = await next(args)
      const output = result.output as { Items?: unknown[] }
      if ((args.input as { IndexName?: string }).IndexName !== undefined) read += output.Items?.length ?? 0
      return result
    }, { step: 'initialize', name: 'entries-read' })
  }, hangGuard(120_000))

  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true })
    settle()
  })
  afterEach(() => vi.useRealTimers())

  it.each(SORTS)('walks every page of sort=%s exactly as without marks; a page then reads from the mark before it', async (sort) => {
    const walk = async (target: Pick<TestContext, 'request'>) => {
      const pages: number[][] = []
      for (let start = 0; start < N + 10; start += 25) pages.push((await page(target, `sort=${sort}&pagination[start]=${start}&pagination[limit]=25`)).ids)
      return pages
    }
    const expected = await walk(reference)
    expect(await walk(ctx)).toEqual(expected)
    expect(new Set(expected.flat()).size).toBe(N)
    // A deep page of the walked order, in either half: the entries from the mark at most
    // MARK_STRIDE before it, plus a continuation read (at least 25) when a run of ties straddles
    // the page's end; for views, whose runs are N / 5 long, fewer than without marks.
    for (const start of [110, 190]) {
      const search = `sort=${sort}&pagination[start]=${start}&pagination[limit]=10`
      const counted = async (target: Pick<TestContext, 'request'>) => {
        const before = read
        return { page: await page(target, search), entries: read - before }
      }
      const marked = await counted(ctx)
      const unmarked = await counted(reference)
      expect(marked.page, search).toEqual(unmarked.page)
      expect(unmarked.entries, search).toBeGreaterThanOrEqual(Math.min(start, N - start))
      if (sort.startsWith('views')) expect(marked.entries, search).toBeLessThan(unmarked.entries)
      else expect(marked.entries, search).toBeLessThanOrEqual(MARK_STRIDE + 10 + 2 + 25)
    }
  })

  it('answers pages in any order, any size, exactly as without marks', async () => {
    let seed = 7
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31
    for (let i = 0; i < 60; i++) {
      const sort = SORTS[Math.floor(next() * SORTS.length)] as string
      const limit = 1 + Math.floor(next() * 60)
      const start = Math.floor(next() * (N + 5))
      const search = `sort=${sort}&pagination[start]=${start}&pagination[limit]=${limit}`
      const { marked, expected } = await both(search)
      expect(marked, search).toEqual(expected)
    }
  })

  it('never uses a mark after the list changed: a deep sorted page after a create in front of it', async () => {
    const search = 'sort=title&pagination[start]=150&pagination[limit]=20'
    expect((await both(search)).marked.ids).toHaveLength(20)
    // Sorts first: every mark of the old revision is one position off now.
    const created = await json(await ctx.request('POST', '/api/articles', { token: key, body: body(articleData({ title: 'Aaa first', views: 9 })) }))
    settle()
    const { marked, expected } = await both(search)
    expect(marked).toEqual(expected)
    await ctx.request('DELETE', `/api/articles/${created.data.documentId}`, { token: key })
  })

  it('reads an id page again without its guessed mark when the list moved since the mark', async () => {
    const search = 'pagination[page]=3&pagination[pageSize]=25'
    await both(search)
    await both(search)
    // Delete one of the first documents: the guessed mark at 50 now stands one entry late.
    const first = (await page(reference, 'pagination[start]=3&pagination[limit]=1&fields[0]=title')).ids[0]
    const documentId = (await json(await ctx.request('GET', `/api/articles?filters[id][$eq]=${first}`))).data[0].documentId
    expect((await ctx.request('DELETE', `/api/articles/${documentId}`, { token: key })).status).toBe(204)
    settle()
    const { marked, expected } = await both(search)
    expect(marked).toEqual(expected)
    expect(marked.ids).not.toContain(first)
  })

  it('reads a near sorted page from a guessed mark, and again without it when the list moved since the mark', async () => {
    const search = 'sort=title&pagination[page]=3&pagination[pageSize]=25'
    const counted = async (target: Pick<TestContext, 'request'>) => {
      const before = read
      return { page: await page(target, search), entries: read - before }
    }
    await both(search)
    const marked = await counted(ctx)
    const unmarked = await counted(reference)
    expect(marked.page).toEqual(unmarked.page)
    expect(unmarked.entries).toBeGreaterThanOrEqual(75)
    expect(marked.entries).toBeLessThanOrEqual(MARK_STRIDE + 25 + 2 + 25)
    // A create that sorts first: every kept mark of this order is one position off now, whether
    // or not the list has settled since.
    const created = await json(await ctx.request('POST', '/api/articles', { token: key, body: body(articleData({ title: 'Aaa near', views: 9 })) }))
    const moved = await both(search)
    expect(moved.marked).toEqual(moved.expected)
    // (The create moved the page: a stale mark would read it one entry off.)
    expect(moved.expected.ids).not.toEqual(unmarked.page.ids)
    settle()
    const settled = await both(search)
    expect(settled.marked).toEqual(settled.expected)
    await ctx.request('DELETE', `/api/articles/${created.data.documentId}`, { token: key })
  })

  it('stays exact through rounds of writes, with pages read while they commit and after they settle', async () => {
    let seed = 11
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31
    const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)] as T
    const ids = async () => (await json(await reference.request('GET', '/api/articles?pagination[limit]=100&fields[0]=title&sort=id'))).data.map((d: { documentId: string }) => d.documentId) as string[]
    const pages = () => Array.from({ length: 4 }, () => `sort=${pick(SORTS)}&pagination[start]=${Math.floor(next() * (N - 20))}&pagination[limit]=${1 + Math.floor(next() * 30)}`)
    const created: string[] = []
    for (let round = 0; round < rounds(15); round++) {
      // Deep pages of every order first, so the process holds marks of this revision.
      for (const search of pages()) await both(search)
      const documentIds = await ids()
      const write = pick(['create', 'title', 'views', 'delete'] as const)
      const target = pick(documentIds)
      const writing = write === 'create' || created.length === 0 && write === 'delete'
        ? ctx.request('POST', '/api/articles', { token: key, body: body(articleData({ title: `${pick(WORDS)} ${round}`, views: round % 5 })) })
            .then(async (response) => void created.push((await json(response)).data.documentId))
        : write === 'delete'
          ? ctx.request('DELETE', `/api/articles/${created.pop()}`, { token: key }).then(() => undefined)
          : ctx.request('PUT', `/api/articles/${target}`, { token: key, body: body(write === 'title' ? { title: `${pick(WORDS)} r${round}` } : { views: Math.floor(next() * 7) }) }).then(() => undefined)
      // Pages read while the write commits: whatever they see, nothing they keep may serve later.
      await Promise.all([writing, ...pages().map((search) => ctx.request('GET', `/api/articles?${search}`))])
      settle()
      for (const search of pages()) {
        const { marked, expected } = await both(search)
        expect(marked, `round ${round}, after ${write}: ${search}`).toEqual(expected)
      }
    }
  }, hangGuard(120_000))

  it('keeps and uses marks on pages that also read other types\' lists (populate), which move without moving the marks', async () => {
    const measured = async (target: Pick<TestContext, 'request'>, search: string) => {
      const before = read
      const response = await target.request('GET', `/api/articles?${search}`, { token: key })
      expect(response.status, search).toBe(200)
      const { data, meta } = await json(response)
      return { answer: { ids: data.map((d: { id: number }) => d.id), authors: data.map((d: { author: unknown }) => d.author), meta }, entries: read - before }
    }
    const idPage = 'populate=author&pagination[page]=3&pagination[pageSize]=25'
    const deep = 'populate=author&sort=title&pagination[start]=150&pagination[limit]=20'
    for (const search of [idPage, deep]) await measured(ctx, search)
    // From the marks the walk above kept: page 3 reads its own 25 entries, not the 50 before it too.
    const check = async () => {
      const id = await measured(ctx, idPage)
      expect(id.answer).toEqual((await measured(reference, idPage)).answer)
      expect(id.entries).toBe(25)
      const sorted = await measured(ctx, deep)
      expect(sorted.answer).toEqual((await measured(reference, deep)).answer)
      expect(sorted.entries).toBeLessThanOrEqual(MARK_STRIDE + 20 + 2 + 25)
    }
    await check()
    // An author written just now (the populated type's list moves, the articles' does not): the
    // marks still hold, and the pages are still exact.
    const author = await ctx.request('POST', '/api/authors', { token: key, body: body({ name: 'Marked' }) })
    expect(author.status).toBe(200)
    await check()
    await ctx.request('DELETE', `/api/authors/${(await json(author)).data.documentId}`, { token: key })
  })

  it('keeps no mark from a page read while a write was committing', async () => {
    // A near page whose count item comes with its documents, after its index read: a create that
    // sorts first commits between the two, so what the index read is the revision before it.
    const near = 'sort=title:desc&pagination[start]=50&pagination[limit]=25'
    let written!: () => void
    const gate = new Promise<void>((resolve) => (written = resolve))
    let held = 0
    ctx.db.middlewareStack.add((next, context) => async (args) => {
      if (context.commandName === 'BatchGetItemCommand' && held++ === 0) await gate
      return next(args)
    }, { step: 'initialize', name: 'hold-batch' })
    try {
      const inFlight = ctx.request('GET', `/api/articles?${near}`)
      // The index read goes out first; the create commits while the page waits for its documents.
      for (let i = 0; i < 100 && held === 0; i++) await new Promise((resolve) => setTimeout(resolve, 5))
      expect(held).toBe(1)
      const created = await ctx.request('POST', '/api/articles', { token: key, body: body(articleData({ title: 'zzz last', views: 9 })) })
      expect(created.status).toBe(200)
      written()
      expect((await inFlight).status).toBe(200)
    } finally {
      written()
      ctx.db.middlewareStack.remove('hold-batch')
    }
    settle()
    // Deeper in the same order: a mark kept from the read before the create would put it one off.
    const { marked, expected } = await both('sort=title:desc&pagination[start]=101&pagination[limit]=25')
    expect(marked).toEqual(expected)
  })
})
