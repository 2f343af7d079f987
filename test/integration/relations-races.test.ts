// Relation races (content-model.md §16), made certain with barriers: the writes of each race are
// held until every request of it has read, so each decides on the same state, and they commit in
// whatever order DynamoDB takes them. Requests go to different processes. Every round ends in a
// state a brute-force reading agrees with (each side of a link read on its own, filters, counts),
// no link to a missing document, and no 5xx.
import { afterEach, describe, expect, it } from 'vitest'
import { createPeer, expectLinksIndexed, holdWrites, json, scanTable, type TestContext } from '../support/context.js'
import { dataOf, type Doc, type Requester } from '../support/drafts.js'
import { getOne, idsOf, messagesOf, notFoundIn, shop, type Shop } from '../support/relations.js'
import { hangGuard, rounds } from '../support/rounds.js'

const ROUNDS = rounds(5)
const HOLD_MS = 3000

let current: TestContext | undefined
afterEach(async () => {
  current?.db.middlewareStack.remove('barrier')
  // After every race: every link a version holds is in the index of links by target.
  if (current !== undefined) expectLinksIndexed(await scanTable(current))
})

/** A shop whose requests may go through six processes on one table, round robin. */
async function arena(): Promise<Shop & { next(): Requester }> {
  const s = await shop({}, [])
  current = s.ctx
  const processes: Requester[] = [s.ctx, ...Array.from({ length: 5 }, () => createPeer(s.ctx))]
  let turn = 0
  return { ...s, next: () => processes[turn++ % processes.length]! }
}

/** Status and body text of a response; a 5xx fails the test with its body. */
async function outcome(response: Response, label: unknown): Promise<{ status: number; body: any }> {
  const text = await response.text()
  expect({ label, serverError: response.status >= 500 ? text : '' }).toEqual({ label, serverError: '' })
  return { status: response.status, body: text === '' ? null : JSON.parse(text) }
}

/** documentIds of articles a list filter answers (every status asked). */
async function filtered(s: Shop, query: string, status = 'published'): Promise<string[]> {
  const body = await json(await s.articles.list(`${query}&status=${status}&pagination[pageSize]=100`))
  expect(body.meta.pagination.total).toBe(body.data.length)
  return idsOf(body.data).sort()
}

describe('relation races', () => {
  it('linking to a tag while it is deleted: the delete succeeds, and no read ever shows a link to it', async () => {
    const a = await arena()
    for (let round = 0; round < ROUNDS; round++) {
      const tag = await a.tag(`doomed ${round}`)
      const keep = await a.tag(`kept ${round}`)
      const x = await a.article({ title: `x${round}`, tags: [keep.documentId] })
      holdWrites(a.ctx, tag.documentId, 2, HOLD_MS)
      const [link, del] = await Promise.all([
        a.articles.put(x.documentId, { tags: { connect: [tag.documentId] } }, {}, {}, a.next()),
        a.tags.del(tag.documentId, {}, {}, a.next()),
      ])
      a.ctx.db.middlewareStack.remove('barrier')
      const label = { round }
      const linked = await outcome(link, label)
      expect({ label, del: (await outcome(del, label)).status }).toEqual({ label, del: 204 })
      expect({ label, link: [200, 400, 409].includes(linked.status) }).toEqual({ label, link: true })
      if (linked.status === 400) expect(messagesOf(linked.body.error).some((message) => notFoundIn(tag.documentId, 'en').test(message))).toBe(true)
      expect((await a.tags.get(tag.documentId)).status).toBe(404)
      for (const status of ['published', 'draft']) {
        expect({ label, status, tags: idsOf((await getOne(a.articles, x.documentId, { populate: 'tags', status })).tags) })
          .toEqual({ label, status, tags: [keep.documentId] })
        expect({ label, status, count: (await getOne(a.articles, x.documentId, { 'populate[tags][count]': 'true', status })).tags })
          .toEqual({ label, status, count: { count: 1 } })
        expect({ label, status, filtered: await filtered(a, `filters[tags][documentId][$eq]=${tag.documentId}`, status) })
          .toEqual({ label, status, filtered: [] })
      }
      expect(idsOf((await getOne(a.tags, keep.documentId, { populate: 'articles' })).articles)).toEqual([x.documentId])
    }
  }, hangGuard(90_000))

  it('two authors claiming one article through author.articles: it ends with exactly one, both sides agreeing', async () => {
    const a = await arena()
    const first = await a.author('First')
    for (let round = 0; round < ROUNDS; round++) {
      const [ann, bob] = [await a.author(`Ann ${round}`), await a.author(`Bob ${round}`)]
      const x = await a.article({ title: `claimed ${round}`, author: first.documentId })
      const other = await a.article({ title: `ann's own ${round}`, author: ann.documentId })
      holdWrites(a.ctx, x.documentId, 2, HOLD_MS)
      const responses = await Promise.all([ann, bob].map((author) =>
        a.authors.put(author.documentId, { articles: { connect: [x.documentId] } }, {}, {}, a.next())))
      a.ctx.db.middlewareStack.remove('barrier')
      const label = { round }
      const statuses = await Promise.all(responses.map(async (response) => (await outcome(response, label)).status))
      expect({ label, allowed: statuses.every((status) => status === 200 || status === 409), someWon: statuses.includes(200) })
        .toEqual({ label, allowed: true, someWon: true })
      const owner = (await getOne(a.articles, x.documentId, { populate: 'author' })).author?.documentId
      const draftOwner = (await getOne(a.articles, x.documentId, { populate: 'author', status: 'draft' })).author?.documentId
      expect({ label, draftOwner }).toEqual({ label, draftOwner: owner })
      const winners = [ann, bob].filter((_, i) => statuses[i] === 200).map((author) => author.documentId)
      expect({ label, ownerIsAWinner: winners.includes(owner) }).toEqual({ label, ownerIsAWinner: true })
      // Brute force: each author's inverse side, and the filter, name the same owner.
      const annArticles = idsOf((await getOne(a.authors, ann.documentId, { populate: 'articles' })).articles)
      const bobArticles = idsOf((await getOne(a.authors, bob.documentId, { populate: 'articles' })).articles)
      expect({ label, ann: annArticles, bob: bobArticles }).toEqual({
        label,
        ann: owner === ann.documentId ? [other.documentId, x.documentId] : [other.documentId],
        bob: owner === bob.documentId ? [x.documentId] : [],
      })
      expect({ label, first: idsOf((await getOne(a.authors, first.documentId, { populate: 'articles' })).articles).includes(x.documentId) })
        .toEqual({ label, first: false })
      expect({ label, filtered: await filtered(a, `filters[author][documentId][$eq]=${owner}&filters[title][$eq]=claimed ${round}`) })
        .toEqual({ label, filtered: [x.documentId] })
    }
  }, hangGuard(90_000))

  it('set against connect on one to-many: the result is one of the serial orders, both sides agreeing', async () => {
    const a = await arena()
    for (let round = 0; round < ROUNDS; round++) {
      const t = [await a.tag(`r${round} t1`), await a.tag(`r${round} t2`), await a.tag(`r${round} t3`), await a.tag(`r${round} t4`)].map((tag) => tag.documentId)
      const x = await a.article({ title: `x${round}`, tags: [t[0]] })
      holdWrites(a.ctx, x.documentId, 2, HOLD_MS)
      const [set, connect] = await Promise.all([
        a.articles.put(x.documentId, { tags: [t[1], t[2]] }, {}, {}, a.next()),
        a.articles.put(x.documentId, { tags: { connect: [t[3]] } }, {}, {}, a.next()),
      ])
      a.ctx.db.middlewareStack.remove('barrier')
      const label = { round }
      const statuses = [(await outcome(set, label)).status, (await outcome(connect, label)).status]
      expect({ label, allowed: statuses.every((status) => status === 200 || status === 409), someWon: statuses.includes(200) })
        .toEqual({ label, allowed: true, someWon: true })
      const possible: string[][] = []
      if (statuses[0] === 200 && statuses[1] === 200) possible.push([t[1]!, t[2]!, t[3]!], [t[1]!, t[2]!])
      else if (statuses[0] === 200) possible.push([t[1]!, t[2]!])
      else possible.push([t[0]!, t[3]!])
      const published = idsOf((await getOne(a.articles, x.documentId, { populate: 'tags' })).tags)
      const draft = idsOf((await getOne(a.articles, x.documentId, { populate: 'tags', status: 'draft' })).tags)
      expect({ label, draft }).toEqual({ label, draft: published })
      expect({ label, possible: possible.some((tags) => JSON.stringify(tags) === JSON.stringify(published)) }).toEqual({ label, possible: true })
      // Brute force: every tag's inverse side and the filter through it agree with the article's side.
      for (const tag of t) {
        const linked = published.includes(tag)
        const inverse = idsOf((await getOne(a.tags, tag, { populate: 'articles' })).articles)
        expect({ label, tag, inverse }).toEqual({ label, tag, inverse: linked ? [x.documentId] : [] })
        expect({ label, tag, filtered: await filtered(a, `filters[tags][documentId][$eq]=${tag}`) }).toEqual({ label, tag, filtered: linked ? [x.documentId] : [] })
      }
      expect((await getOne(a.articles, x.documentId, { 'populate[tags][count]': 'true' })).tags).toEqual({ count: published.length })
    }
  }, hangGuard(90_000))

  it('deep populate on a cycle, to the depth limit, while articles move between authors: always whole answers', async () => {
    const a = await arena()
    const [ann, bob] = [await a.author('Ann'), await a.author('Bob')]
    const xs: Doc[] = []
    for (let i = 0; i < 3; i++) xs.push(await a.article({ title: `cycle ${i}`, author: ann.documentId }))
    const authors = new Set([ann.documentId, bob.documentId])
    const articles = new Set(xs.map((x) => x.documentId))
    const deepFromArticle = 'populate[author][populate][articles][populate][author][populate][articles][populate][author]'
    const deepFromAuthor = 'populate[articles][populate][author][populate][articles][populate][author][populate][articles]'
    /** Checks one level of a populated answer and the levels under it, down to level 5. */
    const walk = (doc: Doc, level: number, label: unknown): void => {
      const relation = doc.author !== undefined ? 'author' : doc.articles !== undefined ? 'articles' : undefined
      if (level === 5 || relation === undefined) {
        // Level 5 shows no relation; every level above it shows the one populated there.
        expect({ label, level, keys: ['author', 'articles'].filter((name) => name in doc) }).toEqual({ label, level, keys: [] })
        expect({ label, level, last: level }).toEqual({ label, level, last: 5 })
        return
      }
      if (relation === 'author') {
        if (doc.author === null) return
        expect({ label, known: authors.has(doc.author.documentId) }).toEqual({ label, known: true })
        walk(doc.author, level + 1, label)
      } else {
        for (const article of doc.articles) {
          expect({ label, known: articles.has(article.documentId) }).toEqual({ label, known: true })
          walk(article, level + 1, label)
        }
      }
    }
    for (let round = 0; round < ROUNDS; round++) {
      holdWrites(a.ctx, xs.map((x) => x.documentId), 2, HOLD_MS)
      const writes = xs.flatMap((x) => [
        a.articles.put(x.documentId, { author: bob.documentId }, {}, {}, a.next()),
        a.authors.put(ann.documentId, { articles: { connect: [x.documentId] } }, {}, {}, a.next()),
      ])
      const reads = Array.from({ length: 4 }, (_, i) => (i % 2 === 0
        ? a.articles.get(xs[i % 3]!.documentId, { [deepFromArticle]: 'true' }, {}, a.next())
        : a.authors.get(ann.documentId, { [deepFromAuthor]: 'true' }, {}, a.next())))
      const tooDeep = a.articles.get(xs[0]!.documentId, { [`${deepFromArticle}[populate][articles]`]: 'true' }, {}, a.next())
      const [written, read, deep] = await Promise.all([Promise.all(writes), Promise.all(reads), tooDeep])
      a.ctx.db.middlewareStack.remove('barrier')
      const label = { round }
      for (const response of written) expect({ label, status: [200, 409].includes((await outcome(response, label)).status) }).toEqual({ label, status: true })
      for (const response of read) {
        const { status, body } = await outcome(response, label)
        expect({ label, status }).toEqual({ label, status: 200 })
        walk(body.data[0], 0, label)
      }
      expect({ label, deep: (await outcome(deep, label)).status }).toEqual({ label, deep: 400 })
      // Brute force after the round: each article's author, read alone, against both deep readings.
      const owners = new Map<string, string | null>()
      for (const x of xs) owners.set(x.documentId, (await getOne(a.articles, x.documentId, { populate: 'author' })).author?.documentId ?? null)
      const fromAuthor = await getOne(a.authors, ann.documentId, { [deepFromAuthor]: 'true' })
      expect({ label, ann: idsOf(fromAuthor.articles).sort() }).toEqual({ label, ann: xs.map((x) => x.documentId).filter((id) => owners.get(id) === ann.documentId).sort() })
      for (const article of fromAuthor.articles) {
        expect({ label, back: article.author.documentId }).toEqual({ label, back: ann.documentId })
        expect(idsOf(article.author.articles).sort()).toEqual(idsOf(fromAuthor.articles).sort())
      }
      const fromArticle = await getOne(a.articles, xs[0]!.documentId, { [deepFromArticle]: 'true' })
      const owner = owners.get(xs[0]!.documentId)
      expect({ label, owner: fromArticle.author?.documentId ?? null }).toEqual({ label, owner })
      if (owner !== null && owner !== undefined) {
        expect(idsOf(fromArticle.author.articles).sort()).toEqual(xs.map((x) => x.documentId).filter((id) => owners.get(id) === owner).sort())
      }
      const bobArticles = idsOf((await getOne(a.authors, bob.documentId, { populate: 'articles' })).articles).sort()
      expect({ label, bob: bobArticles }).toEqual({ label, bob: xs.map((x) => x.documentId).filter((id) => owners.get(id) === bob.documentId).sort() })
    }
  }, hangGuard(120_000))
})

// A delete racing a write that names the deleted document as its own target must leave no trace either.
describe('relation races, the document deleted being the source', () => {
  it('deleting an article while an author connects it: no author lists a missing article', async () => {
    const a = await arena()
    const ann = await a.author('Ann')
    for (let round = 0; round < ROUNDS; round++) {
      const x = await a.article({ title: `gone ${round}` })
      holdWrites(a.ctx, x.documentId, 2, HOLD_MS)
      const [link, del] = await Promise.all([
        a.authors.put(ann.documentId, { articles: { connect: [x.documentId] } }, {}, {}, a.next()),
        a.articles.del(x.documentId, {}, {}, a.next()),
      ])
      a.ctx.db.middlewareStack.remove('barrier')
      const label = { round }
      expect({ label, link: [200, 400, 409].includes((await outcome(link, label)).status) }).toEqual({ label, link: true })
      expect({ label, del: (await outcome(del, label)).status }).toEqual({ label, del: 204 })
      expect({ label, articles: idsOf((await getOne(a.authors, ann.documentId, { populate: 'articles' })).articles) }).toEqual({ label, articles: [] })
      const authors = await dataOf(await a.authors.list(`filters[articles][documentId][$eq]=${x.documentId}`))
      expect({ label, authors }).toEqual({ label, authors: [] })
    }
  }, hangGuard(90_000))
})
