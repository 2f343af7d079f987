// Lists read through relations (populate, relation filters, relation sort) validated and cached as
// plain lists are (delivery.md §13): their ETag names the revisions of every list they read, the
// targets' included, so a repeated request is answered by one small read (a 304, or the page
// cache), and any change to a target moves it. Through HTTP on DynamoDB Local, the DynamoDB calls
// counted; a fake clock (Date only) moves past SETTLE_MS instead of sleeping.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { SETTLE_MS } from '../../lib/storage/lists/validator.js'
import { META } from '../../lib/table.js'
import { json } from '../support/context.js'
import { countedPeer as counted, keysOf, shop, type Call, type Shop } from '../support/relations.js'

beforeAll(() => {
  vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true })
})
afterAll(() => {
  vi.useRealTimers()
})

/** Moves the clock past the settling time of every change made so far. */
const settle = () => vi.setSystemTime(Date.now() + SETTLE_MS + 100)

/** True when every key the call reads is a list's count item (a validator read). */
const countsOnly = (call: Call) => keysOf(call).length > 0 && keysOf(call).every((key) => key.documentId === META.count)

describe('a list read through relations, validated by its lists and its targets\' lists', () => {
  let s: Shop
  let peer: ReturnType<typeof counted>
  let ann: any
  let bob: any
  let tag: any
  let first: any
  beforeAll(async () => {
    s = await shop({}, ['fr'])
    ann = await s.author('Ann')
    bob = await s.author('Bob')
    tag = await s.tag('news')
    first = await s.article({ title: 'first', author: ann.documentId, tags: [tag.documentId] })
    await s.article({ title: 'second', author: bob.documentId })
    peer = counted(s.ctx)
    settle()
  })
  afterEach(() => settle())
  const get = (path: string, headers: Record<string, string> = {}) => peer.request('GET', path, { token: s.key, headers })
  /** The request's answer, and the DynamoDB calls it made. */
  const measured = async (path: string, headers: Record<string, string> = {}) => {
    peer.calls.length = 0
    const response = await get(path, headers)
    return { response, calls: [...peer.calls] }
  }

  it.each([
    ['populate=*', '/api/articles?populate=*&sort=title'],
    ['a populated relation with fields', '/api/articles?populate[author][fields][0]=name&sort=title'],
    ['a nested populate through an inverse side', '/api/articles?populate[author][populate][articles][fields][0]=title&sort=title'],
    ['a filter through a relation', '/api/articles?filters[author][name][$eq]=Ann'],
    ['a filter through a to-many', '/api/articles?filters[tags][name][$eq]=news'],
    ['a sort through a relation', '/api/articles?sort=author.name:desc'],
  ])('%s: repeated, is answered by one read of count items (page cache), and If-None-Match by the same (304)', async (_name, path) => {
    const read = await measured(path)
    expect(read.response.status).toBe(200)
    const body = await read.response.text()
    const tag = read.response.headers.get('etag') as string
    expect(read.calls.some((call) => !countsOnly(call))).toBe(true)
    const again = await measured(path)
    expect(again.response.status).toBe(200)
    expect(await again.response.text()).toBe(body)
    expect(again.response.headers.get('etag')).toBe(tag)
    expect(again.calls.length).toBe(1)
    expect(countsOnly(again.calls[0]!)).toBe(true)
    const revalidated = await measured(path, { 'If-None-Match': tag })
    expect(revalidated.response.status).toBe(304)
    expect(revalidated.calls.length).toBe(1)
    expect(countsOnly(revalidated.calls[0]!)).toBe(true)
  })

  it('shows a target\'s change at once, and validates no earlier answer after it', async () => {
    const path = '/api/articles?populate[author][fields][0]=name&sort=title'
    const before = await get(path)
    expect((await json(before)).data.map((doc: any) => doc.author?.name)).toEqual(['Ann', 'Bob'])
    const tag = before.headers.get('etag') as string
    expect((await s.authors.put(ann.documentId, { name: 'Annie' })).status).toBe(200)
    // Within the settling time, and after it: never the cached page, never a 304 for the old tag.
    for (const when of ['unsettled', 'settled']) {
      if (when === 'settled') settle()
      const after = await get(path, { 'If-None-Match': tag })
      expect({ when, status: after.status }).toEqual({ when, status: 200 })
      expect({ when, names: (await json(after)).data.map((doc: any) => doc.author?.name) }).toEqual({ when, names: ['Annie', 'Bob'] })
    }
    expect((await s.authors.put(ann.documentId, { name: 'Ann' })).status).toBe(200)
  })

  it('shows a change to a target\'s other locale (localizations), to a to-many\'s target, and a deleted target', async () => {
    const path = '/api/articles?populate=*&sort=title'
    const names = async () => {
      const doc = (await json(await get(path))).data[0]
      return { fr: doc.localizations.map((each: any) => each.title), tags: doc.tags.map((each: any) => each.name) }
    }
    expect(await names()).toEqual({ fr: [], tags: ['news'] })
    settle()
    expect(await names()).toEqual({ fr: [], tags: ['news'] })
    expect((await s.articles.put(first.documentId, { title: 'premier' }, { locale: 'fr' })).status).toBe(200)
    expect(await names()).toEqual({ fr: ['premier'], tags: ['news'] })
    settle()
    expect(await names()).toEqual({ fr: ['premier'], tags: ['news'] })
    expect((await s.tags.put(tag.documentId, { name: 'breaking' })).status).toBe(200)
    settle()
    expect(await names()).toEqual({ fr: ['premier'], tags: ['breaking'] })
    const other = await s.tag('other')
    expect((await s.articles.put(first.documentId, { tags: [tag.documentId, other.documentId] })).status).toBe(200)
    settle()
    expect(await names()).toEqual({ fr: ['premier'], tags: ['breaking', 'other'] })
    expect((await s.ctx.request('DELETE', `/api/tags/${other.documentId}`, { token: s.key })).status).toBe(204)
    settle()
    expect(await names()).toEqual({ fr: ['premier'], tags: ['breaking'] })
  })

  it('follows a relation filter\'s targets: a rename moves a document in or out of the answer', async () => {
    const path = '/api/articles?filters[author][name][$eq]=Bob&fields[0]=title'
    const titles = async () => (await json(await get(path))).data.map((doc: any) => doc.title)
    expect(await titles()).toEqual(['second'])
    settle()
    expect(await titles()).toEqual(['second'])
    expect((await s.authors.put(ann.documentId, { name: 'Bob' })).status).toBe(200)
    settle()
    expect((await titles()).sort()).toEqual(['first', 'second'])
    expect((await s.authors.put(ann.documentId, { name: 'Ann' })).status).toBe(200)
    settle()
    expect(await titles()).toEqual(['second'])
  })

  it('keeps the answers of callers who may read different targets apart (populate=* leaves out what one may not read)', async () => {
    expect((await s.ctx.admin('PUT', '/admin/roles/public', { permissions: ['api::article.article.find'] })).status).toBe(200)
    const path = '/api/articles?populate=*&sort=title'
    const anonymous = async () => (await json(await peer.request('GET', path))).data[0]
    const withToken = async () => (await json(await get(path))).data[0]
    for (let round = 0; round < 2; round++) {
      expect(Object.keys(await anonymous())).not.toContain('author')
      expect((await withToken()).author).toMatchObject({ name: 'Ann' })
      settle()
    }
    expect((await s.ctx.admin('PUT', '/admin/roles/public', { permissions: [] })).status).toBe(200)
  })

  it('is 403 through a relation whose target the caller may not read, whatever is cached: populate, filters, a populated level\'s filter, sort', async () => {
    const paths = [
      '/api/articles?populate[author][fields][0]=name&sort=title',
      '/api/articles?filters[author][name][$eq]=Ann',
      '/api/articles?populate[tags][filters][articles][author][name][$eq]=Ann',
      '/api/articles?sort=author.name:desc',
    ]
    for (const path of paths) expect({ path, status: (await get(path)).status }).toEqual({ path, status: 200 })
    settle()
    for (const path of paths) expect({ path, status: (await get(path)).status }).toEqual({ path, status: 200 })
    const reader = await s.ctx.token('custom', ['api::article.article.find', 'api::tag.tag.find'])
    for (const path of paths) expect({ path, status: (await peer.request('GET', path, { token: reader })).status }).toEqual({ path, status: 403 })
  })
})

describe('a populated list page read before a target\'s write commits', () => {
  let s: Shop
  let ann: any
  beforeAll(async () => {
    s = await shop({}, [])
    ann = await s.author('Ann')
    await s.article({ title: 'first', author: ann.documentId })
    settle()
  })

  it('is neither served nor validated once the write has settled', async () => {
    const peer = counted(s.ctx)
    const path = '/api/articles?populate[author][fields][0]=name'
    // The populated level's read (the author by key) happens before the write commits; the answer after.
    const targetRead = (call: Call) => call.command === 'BatchGetItemCommand' && keysOf(call).some((key) => key.documentId === ann.documentId)
    let read!: () => void
    const readDone = new Promise<void>((resolve) => (read = resolve))
    let commit!: () => void
    const committed = new Promise<void>((resolve) => (commit = resolve))
    let holding = true
    peer.db.middlewareStack.add((next: any, context: any) => async (args: any) => {
      if (!holding || !targetRead({ command: context.commandName, input: args.input })) return next(args)
      const result = await next(args)
      read()
      await committed
      return result
    }, { step: 'initialize', name: 'hold' })
    const inFlight = peer.request('GET', path, { token: s.key })
    await readDone
    expect((await s.authors.put(ann.documentId, { name: 'Annie' })).status).toBe(200)
    settle()
    commit()
    const stale = await inFlight
    holding = false
    expect((await json(stale)).data[0].author.name).toBe('Ann')
    const tag = stale.headers.get('etag') as string
    for (let round = 0; round < 2; round++) {
      const again = await peer.request('GET', path, { token: s.key, headers: { 'If-None-Match': tag } })
      expect(again.status).toBe(200)
      expect((await json(again)).data[0].author.name).toBe('Annie')
    }
  })
})
