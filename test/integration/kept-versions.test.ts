// Populated documents kept in the process (lib/storage/lists/kept.ts; issue 38): with the page
// cache off, a list page is read from nothing but the targets it populates come from memory while
// their lists keep the revision the page's validator read, before the targets. Through HTTP on
// DynamoDB Local, the DynamoDB calls counted; a fake clock (Date only) moves past SETTLE_MS. The
// race holds the target read, before it is sent or after its answer, while the target is written.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { SETTLE_MS } from '../../lib/storage/lists/validator.js'
import { json } from '../support/context.js'
import { countedPeer, keysOf, shop, type Call, type Shop } from '../support/relations.js'
import { rounds } from '../support/rounds.js'

beforeAll(() => {
  vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true })
})
afterAll(() => {
  vi.useRealTimers()
})

const settle = () => vi.setSystemTime(Date.now() + SETTLE_MS + 100)

type Peer = ReturnType<typeof countedPeer>

/** Another process on the shop's table with the page cache off, keeping documents (`cacheBytes` as by default unless given). */
function keepingPeer(s: Shop, cacheBytes?: number): Peer {
  return countedPeer({ ...s.ctx, config: { ...s.ctx.config, rest: { ...s.ctx.config.rest, pageCache: 0, populate: { ...s.ctx.config.rest.populate, ...(cacheBytes === undefined ? {} : { cacheBytes }) } } } })
}

/** The documentIds among the keys the calls read. */
const readIds = (calls: readonly Call[]) => new Set(calls.flatMap((call) => keysOf(call).map((key) => key.documentId)))

/** One 200 answer of `peer` to `path`, with the DynamoDB calls it made. */
async function measure(s: Shop, peer: Peer, path: string) {
  peer.calls.length = 0
  const response = await peer.request('GET', path, { token: s.key })
  expect(response.status).toBe(200)
  const body = await json(response)
  return { body, etag: response.headers.get('etag'), titles: body.data.map((doc: any) => doc.title), total: body.meta.pagination.total, calls: [...peer.calls] }
}

/**
 * Holds the next BatchGetItem of `peer` that reads `documentId`, before it is sent or after its
 * answer, until released: `hold(when)` arms it, `reached` settles when a read is held.
 */
function holdReads(peer: Peer, documentId: string) {
  let gate: { when: 'before' | 'after'; reached: () => void; released: Promise<void> } | undefined
  peer.db.middlewareStack.add((next: any, context: any) => async (args: any) => {
    const held = gate !== undefined && context.commandName === 'BatchGetItemCommand' && keysOf({ command: 'BatchGetItemCommand', input: args.input }).some((key) => key.documentId === documentId) ? gate : undefined
    if (held === undefined) return next(args)
    gate = undefined
    if (held.when === 'before') {
      held.reached()
      await held.released
      return next(args)
    }
    const answer = await next(args)
    held.reached()
    await held.released
    return answer
  }, { step: 'initialize', name: 'hold-read', priority: 'high' })
  return (when: 'before' | 'after') => {
    let reached!: () => void
    let release!: () => void
    const atGate = new Promise<void>((resolve) => (reached = resolve))
    gate = { when, reached, released: new Promise<void>((resolve) => (release = resolve)) }
    return { reached: atGate, release }
  }
}
const PATH = '/api/articles?populate[author][fields][0]=name&sort=title'

describe('populated documents kept in the process, with the page cache off', () => {
  let s: Shop
  let ann: any
  let bob: any
  let tag: any
  const peerOf = (cacheBytes?: number) => keepingPeer(s, cacheBytes)
  beforeAll(async () => {
    s = await shop({}, ['fr'])
    ann = await s.author('Ann')
    bob = await s.author('Bob')
    tag = await s.tag('news')
    await s.article({ title: 'a first', author: ann.documentId, tags: [tag.documentId] })
    await s.article({ title: 'b second', author: bob.documentId, tags: [tag.documentId] })
    await s.article({ title: 'c third', author: ann.documentId })
    settle()
  })
  afterEach(() => settle())

  const measured = (peer: Peer, path: string) => measure(s, peer, path)

  it('reads the page every time, and its targets once while their lists do not move; pages sharing them read none', async () => {
    const peer = peerOf()
    // The default order: the page is one Query of its documents (a sorted page's are kept too, below).
    const populated = '/api/articles?populate=*'
    const first = await measured(peer, populated)
    expect(first.body.data.map((doc: any) => [doc.title, doc.author?.name, doc.tags.map((one: any) => one.name)])).toEqual([['a first', 'Ann', ['news']], ['b second', 'Bob', ['news']], ['c third', 'Ann', []]])
    for (const id of [ann.documentId, bob.documentId, tag.documentId]) expect(readIds(first.calls).has(id)).toBe(true)
    const again = await measured(peer, populated)
    expect(again.body).toEqual(first.body)
    // The page's list is read again (no page cache: its entries, its documents kept since); no target is.
    expect(again.calls.filter((call) => call.command === 'QueryCommand')).toHaveLength(1)
    for (const id of [ann.documentId, bob.documentId, tag.documentId]) expect(readIds(again.calls).has(id)).toBe(false)
    // Another page, sharing Ann: read from memory too.
    const other = await measured(peer, '/api/articles?populate[author][fields][0]=name&sort=title:desc&pagination[pageSize]=1')
    expect(other.body.data.map((doc: any) => doc.author?.name)).toEqual(['Ann'])
    expect(readIds(other.calls).has(ann.documentId)).toBe(false)
  })

  it('with api.rest.populate.cacheBytes 0, reads the targets every time', async () => {
    const peer = peerOf(0)
    await measured(peer, PATH)
    const again = await measured(peer, PATH)
    expect(readIds(again.calls).has(ann.documentId)).toBe(true)
  })

  it('shows a target\'s change at once, keeps nothing read within SETTLE_MS of it, then keeps the new version', async () => {
    const peer = peerOf()
    await measured(peer, PATH)
    expect((await s.authors.put(bob.documentId, { name: 'Bobby' })).status).toBe(200)
    const changed = await measured(peer, PATH)
    expect(changed.body.data.map((doc: any) => doc.author?.name)).toEqual(['Ann', 'Bobby', 'Ann'])
    expect(readIds(changed.calls).has(bob.documentId)).toBe(true)
    // Not settled yet: read again.
    const unsettled = await measured(peer, PATH)
    expect(readIds(unsettled.calls).has(bob.documentId)).toBe(true)
    settle()
    await measured(peer, PATH)
    const kept = await measured(peer, PATH)
    expect(kept.body.data.map((doc: any) => doc.author?.name)).toEqual(['Ann', 'Bobby', 'Ann'])
    expect(readIds(kept.calls).has(bob.documentId)).toBe(false)
  })

  it('a target written while a page that populates it is read: every answer after the write shows it', async () => {
    const peer = peerOf()
    const hold = holdReads(peer, ann.documentId)
    for (let round = 0; round < rounds(6); round += 1) {
      // Ann's list moves, and settles: the page below reads Ann, and may keep what it reads.
      expect((await s.authors.put(ann.documentId, { name: `before ${round}` })).status).toBe(200)
      settle()
      const { reached, release } = hold(round % 2 === 0 ? 'before' : 'after')
      const page = peer.request('GET', PATH, { token: s.key })
      await Promise.race([reached, page.then(() => { throw new Error('the page was answered without reading Ann') })])
      expect((await s.authors.put(ann.documentId, { name: `after ${round}` })).status).toBe(200)
      release()
      const during = await json(await page)
      expect([`before ${round}`, `after ${round}`]).toContain(during.data[0].author.name)
      // Acknowledged: every later answer shows it, settled or not, kept or not.
      for (let i = 0; i < 3; i += 1) {
        const later = await measured(peer, PATH)
        expect(later.body.data.map((doc: any) => doc.author?.name)).toEqual([`after ${round}`, 'Bobby', `after ${round}`])
        settle()
      }
    }
  })
})

describe('documents a filter through a relation reads by key, kept in the process, with the page cache off', () => {
  let s: Shop
  let ann: any
  let bob: any
  const articles: any[] = []
  const peerOf = (cacheBytes?: number) => keepingPeer(s, cacheBytes)
  const FILTER = '/api/articles?filters[author][name][$eq]=Ann&sort=title'
  beforeAll(async () => {
    s = await shop({}, ['fr'])
    ann = await s.author('Ann')
    bob = await s.author('Bob')
    for (const [title, author] of [['a one', ann], ['b two', bob], ['c three', ann], ['d four', ann]]) articles.push(await s.article({ title, author: author.documentId }))
    settle()
  })
  afterEach(() => settle())

  const measured = (peer: Peer, path = FILTER) => measure(s, peer, path)
  const annTitles = () => articles.filter((_, i) => i !== 1).map((doc) => doc.title)

  it('reads the matching sources once; later answers read their lists\' count items in their place, in as many calls', async () => {
    const peer = peerOf()
    const first = await measured(peer)
    expect(first.titles).toEqual(annTitles())
    expect(first.total).toBe(3)
    for (const doc of [articles[0], articles[2], articles[3]]) expect(readIds(first.calls).has(doc.documentId)).toBe(true)
    const again = await measured(peer)
    expect(again.body).toEqual(first.body)
    for (const doc of articles) expect(readIds(again.calls).has(doc.documentId)).toBe(false)
    // With nothing kept, the sources are read every time, in as many calls.
    const off = peerOf(0)
    await measured(off)
    const unkept = await measured(off)
    expect(unkept.body).toEqual(first.body)
    expect(readIds(unkept.calls).has(articles[0].documentId)).toBe(true)
    expect(again.calls.length).toBe(unkept.calls.length)
  })

  it('answers a source\'s change at once: an edited title, a moved author, a new match, a delete', async () => {
    const peer = peerOf()
    await measured(peer)
    await measured(peer)
    expect((await s.articles.put(articles[0].documentId, { title: 'a one, edited' })).status).toBe(200)
    articles[0] = { ...articles[0], title: 'a one, edited' }
    const edited = await measured(peer)
    expect(edited.titles).toEqual(annTitles())
    // The kept sources were guessed, the list had moved: read again in a second call.
    expect(readIds(edited.calls).has(articles[2].documentId)).toBe(true)
    // Within SETTLE_MS of the change, nothing read is kept; once settled, what is read is.
    expect(readIds((await measured(peer)).calls).has(articles[2].documentId)).toBe(true)
    settle()
    await measured(peer)
    expect(readIds((await measured(peer)).calls).has(articles[2].documentId)).toBe(false)
    expect((await s.articles.put(articles[2].documentId, { author: bob.documentId })).status).toBe(200)
    expect((await measured(peer)).titles).toEqual([articles[0].title, articles[3].title])
    const added = await s.article({ title: 'e five', author: ann.documentId })
    expect((await measured(peer)).titles).toEqual([articles[0].title, articles[3].title, 'e five'])
    settle()
    await measured(peer)
    expect((await s.articles.del(added.documentId)).status).toBe(204)
    const after = await measured(peer)
    expect(after.titles).toEqual([articles[0].title, articles[3].title])
    expect(after.total).toBe(2)
    // Back as it was, for the race below.
    expect((await s.articles.put(articles[2].documentId, { author: ann.documentId })).status).toBe(200)
  })

  it('a source written while a filter that reads it is answered: every answer after the write shows it', async () => {
    const peer = peerOf()
    const target = articles[3]
    const hold = holdReads(peer, target.documentId)
    for (let round = 0; round < rounds(6); round += 1) {
      // The list moves and settles: the answer below reads the source, and may keep what it reads.
      expect((await s.articles.put(target.documentId, { title: `d before ${round}` })).status).toBe(200)
      settle()
      const { reached, release } = hold(round % 2 === 0 ? 'before' : 'after')
      const answer = peer.request('GET', FILTER, { token: s.key })
      await Promise.race([reached, answer.then(() => { throw new Error('the answer was made without reading the source') })])
      expect((await s.articles.put(target.documentId, { title: `d after ${round}` })).status).toBe(200)
      release()
      const during = await json(await answer)
      expect(during.data.map((doc: any) => doc.title)).toContainEqual(expect.stringMatching(new RegExp(`^d (before|after) ${round}$`)))
      for (let i = 0; i < 3; i += 1) {
        expect((await measured(peer)).titles).toContain(`d after ${round}`)
        settle()
      }
    }
  })
})

describe('documents a sorted page reads by key, kept in the process, with the page cache off', () => {
  let s: Shop
  const docs: any[] = []
  const peerOf = (cacheBytes?: number) => keepingPeer(s, cacheBytes)
  // A near page (its count items come with its documents) and a far one (the count first).
  const NEAR = '/api/articles?sort=title&pagination[pageSize]=3'
  const FAR = '/api/articles?sort=title:desc&pagination[start]=4&pagination[limit]=2'
  // The default order: the page's documents come whole from one Query of byId, until the process keeps them; then its slot0 entries, and the documents by key.
  const DEFAULT = '/api/articles?pagination[pageSize]=3'
  beforeAll(async () => {
    s = await shop({}, ['fr'])
    for (const title of ['a', 'b', 'c', 'd', 'e', 'f']) docs.push(await s.article({ title }))
    settle()
  })
  afterEach(() => settle())

  const measured = (peer: Peer, path: string) => measure(s, peer, path)

  it('reads a page\'s documents once while its list does not move, near the start and far in; its ETag validates alone', async () => {
    const peer = peerOf()
    const off = peerOf(0)
    for (const [path, titles] of [[NEAR, ['a', 'b', 'c']], [FAR, ['b', 'a']], [DEFAULT, ['a', 'b', 'c']]] as const) {
      const first = await measured(peer, path)
      expect(first.titles).toEqual(titles)
      const again = await measured(peer, path)
      expect(again.body).toEqual(first.body)
      for (const doc of docs) expect(readIds(again.calls).has(doc.documentId)).toBe(false)
      expect(again.calls.filter((call) => call.command === 'QueryCommand' && call.input.IndexName === 'byId')).toEqual([])
      // The count items read alone (without the type's wide commits, which only the documents kept need) validate the same tag.
      expect(again.etag).toBe(first.etag)
      expect((await peer.request('GET', path, { token: s.key, headers: { 'If-None-Match': again.etag as string } })).status).toBe(304)
      await measured(off, path)
      const unkept = await measured(off, path)
      expect(unkept.body).toEqual(first.body)
      // Read by key, or whole from byId (the default order).
      const byId = unkept.calls.some((call) => call.command === 'QueryCommand' && call.input.IndexName === 'byId')
      expect(byId || readIds(unkept.calls).has(docs.find((doc) => doc.title === titles[0]).documentId)).toBe(true)
    }
  })

  it('answers a change at once, keeps nothing read within SETTLE_MS of it, then keeps again', async () => {
    const peer = peerOf()
    await measured(peer, NEAR)
    expect((await s.articles.put(docs[1].documentId, { title: 'b, edited' })).status).toBe(200)
    const changed = await measured(peer, NEAR)
    expect(changed.titles).toEqual(['a', 'b, edited', 'c'])
    expect(readIds(changed.calls).has(docs[0].documentId)).toBe(true)
    expect(readIds((await measured(peer, NEAR)).calls).has(docs[0].documentId)).toBe(true)
    settle()
    await measured(peer, NEAR)
    const kept = await measured(peer, NEAR)
    expect(kept.titles).toEqual(['a', 'b, edited', 'c'])
    expect(readIds(kept.calls).has(docs[0].documentId)).toBe(false)
  })

  it('a document written while a page that reads it is answered: every answer after the write shows it', async () => {
    const peer = peerOf()
    const hold = holdReads(peer, docs[2].documentId)
    for (let round = 0; round < rounds(8); round += 1) {
      // A sorted page, and a default-order one (its documents kept, so read by key once its list moved).
      const path = round % 4 < 2 ? NEAR : DEFAULT
      expect((await s.articles.put(docs[2].documentId, { title: `c ${round}` })).status).toBe(200)
      settle()
      await measured(peer, path)
      await measured(peer, path)
      expect((await s.articles.put(docs[2].documentId, { title: `c ${round}`, views: round })).status).toBe(200)
      settle()
      const { reached, release } = hold(round % 2 === 0 ? 'before' : 'after')
      const answer = peer.request('GET', path, { token: s.key })
      await Promise.race([reached, answer.then(() => { throw new Error('the page was answered without reading the document') })])
      expect((await s.articles.put(docs[2].documentId, { title: `c ${round}, after` })).status).toBe(200)
      release()
      expect([`c ${round}`, `c ${round}, after`]).toContain((await json(await answer)).data[2].title)
      for (let i = 0; i < 3; i += 1) {
        expect((await measured(peer, path)).titles[2]).toBe(`c ${round}, after`)
        settle()
      }
    }
  })
})
