// Draft & publish races (content-model.md §15, issue 22 "Attack it"), made certain with barriers:
// the writes of each race are held until every request of it has read the document, so each one
// decides on the same state, and they commit in whatever order DynamoDB takes them. Requests go to
// different processes (a process queues its own writes to a document). After every round: counts
// per status equal a brute-force count, lists show versions of their own status only, no
// published version is left without its draft, published and draft locales agree on
// non-localized values, and no acknowledged write is lost.
import { afterEach, describe, expect, it } from 'vitest'
import { createPeer, createTestContext, expectStorageInvariants, holdWrites, json, type TestContext } from '../support/context.js'
import {
  STATUSES, dataOf, draftClient, expectListsMatchBruteForce, isolatedPeer, listAll, versionsOf,
  type Doc, type DraftClient, type Requester, type Status,
} from '../support/drafts.js'
import { hangGuard, rounds } from '../support/rounds.js'

const ROUNDS = rounds(6)
/** Documents raced at once in one round, each behind a barrier of its own. */
const PER_ROUND = 3

interface Arena {
  readonly ctx: TestContext
  readonly api: DraftClient
  /** The next of six processes on the table, round robin. */
  next(): Requester
  /** The documents of this round (the brute force reads them after it), or every document when `rereadAll`. */
  readonly documentIds: Set<string>
  /** The versions of the documents of earlier rounds, which no later round touches (read once, after their round). */
  known: Record<Status, Doc[]>
  readonly rereadAll: boolean
}

let current: TestContext | undefined
afterEach(() => {
  current?.db.middlewareStack.remove('barrier')
})

async function arena(rereadAll = false): Promise<Arena> {
  const ctx = await createTestContext()
  current = ctx
  const key = await ctx.token()
  await ctx.addLocales('fr')
  const processes: Requester[] = [ctx, ...Array.from({ length: 5 }, () => createPeer(ctx))]
  let turn = 0
  return { ctx, api: draftClient(ctx, key), next: () => processes[turn++ % processes.length]!, documentIds: new Set(), known: { published: [], draft: [] }, rereadAll }
}

/** The checks every round ends with, on every document of the arena. */
async function expectConsistent(arena: Arena, label: unknown): Promise<void> {
  arena.ctx.db.middlewareStack.remove('barrier')
  const truth = await expectListsMatchBruteForce(arena.api, arena.documentIds, ['en', 'fr'], label, arena.known)
  for (const documentId of arena.documentIds) {
    for (const status of STATUSES) {
      const shared = truth[status].filter((doc) => doc.documentId === documentId).map((doc) => `${doc.views}/${doc.category}`)
      expect({ label, documentId, status, agree: new Set(shared).size <= 1 }).toEqual({ label, documentId, status, agree: true })
    }
  }
  if (!arena.rereadAll) {
    arena.known = truth
    arena.documentIds.clear()
  }
}

/** The published and draft version of one locale of a document. */
async function pairOf(api: DraftClient, documentId: string, locale = 'en'): Promise<{ published?: Doc; draft?: Doc }> {
  const [published, draft] = await Promise.all(STATUSES.map(async (status) => (await versionsOf(api, documentId, status))[locale]))
  return { published, draft }
}

/** Whether the pair is listed by `publicationFilter=<filter>` (draft status). */
async function inCohort(api: DraftClient, documentId: string, filter: string, locale = 'en'): Promise<boolean> {
  const { data } = await listAll(api, `status=draft&locale=${locale}&publicationFilter=${filter}&filters[documentId][$eq]=${documentId}`)
  return data.length > 0
}

const statuses = (responses: Response[]) => responses.map((response) => response.status)

describe('draft & publish races', () => {
  it('publish vs PUT status=draft of the same locale: the draft keeps the acknowledged write, the published version is one of the two states', async () => {
    const a = await arena()
    for (let round = 0; round < ROUNDS; round++) {
      const docs = await Promise.all(Array.from({ length: PER_ROUND }, async (_, i) => {
        const doc = await dataOf(await a.api.post({ title: `r${round}.${i} published`, views: round }))
        a.documentIds.add(doc.documentId)
        const draft = await dataOf(await a.api.put(doc.documentId, { title: `r${round}.${i} before` }, { status: 'draft' }))
        return { doc, draft, written: `r${round}.${i} written` }
      }))
      holdWrites(a.ctx, docs.map(({ doc }) => doc.documentId), 2)
      const outcomes = await Promise.all(docs.map(async ({ doc, written }) => Promise.all([
        a.api.action(doc.documentId, 'publish', {}, {}, a.next()),
        a.api.put(doc.documentId, { title: written }, { status: 'draft' }, {}, a.next()),
      ])))
      a.ctx.db.middlewareStack.remove('barrier')
      for (const [i, [publish, put]] of outcomes.entries()) {
        const { doc, draft, written } = docs[i]!
        const label = { round, i }
        expect({ label, statuses: statuses([publish, put]) }).toEqual({ label, statuses: [200, 200] })
        const published = await dataOf(publish)
        const putAnswer = await dataOf(put)
        const now = await pairOf(a.api, doc.documentId)
        // No acknowledged write lost: the draft holds the PUT's value, as its answer said.
        expect({ label, draft: now.draft?.title, answer: putAnswer.title }).toEqual({ label, draft: written, answer: written })
        expect({ label, ids: [now.draft?.id, now.published?.id] }).toEqual({ label, ids: [draft.id, doc.id] })
        // The published version is the draft as the publication read it: before or after the PUT, never a mix.
        expect({ label, published: now.published }).toEqual({ label, published })
        expect([`r${round}.${i} before`, written]).toContain(published.title)
        expect({ label, modified: await inCohort(a.api, doc.documentId, 'modified') }).toEqual({ label, modified: published.title !== written })
      }
      await expectConsistent(a, { round })
    }
    await expectStorageInvariants(a.ctx)
  }, hangGuard(60_000))

  it('publish of two locales at once with a non-localized draft change in between: published locales agree, the change is published exactly when a publication saw it', async () => {
    const a = await arena()
    for (let round = 0; round < ROUNDS; round++) {
      const docs = await Promise.all(Array.from({ length: PER_ROUND }, async (_, i) => {
        const { documentId } = await dataOf(await a.api.post({ title: 'en', views: 1, category: 'old' }))
        a.documentIds.add(documentId)
        await dataOf(await a.api.put(documentId, { title: 'fr' }, { locale: 'fr' }))
        await dataOf(await a.api.put(documentId, { title: `en r${round}` }, { status: 'draft' }))
        await dataOf(await a.api.put(documentId, { title: `fr r${round}` }, { locale: 'fr', status: 'draft' }))
        return { documentId, views: 100 * round + i, through: i % 2 === 0 ? 'en' : 'fr' }
      }))
      holdWrites(a.ctx, docs.map(({ documentId }) => documentId), 3)
      const outcomes = await Promise.all(docs.map(async ({ documentId, views, through }) => Promise.all([
        a.api.action(documentId, 'publish', { locale: 'en' }, {}, a.next()),
        a.api.put(documentId, { views, category: `c${views}` }, { locale: through, status: 'draft' }, {}, a.next()),
        a.api.action(documentId, 'publish', { locale: 'fr' }, {}, a.next()),
      ])))
      a.ctx.db.middlewareStack.remove('barrier')
      for (const [i, [en, change, fr]] of outcomes.entries()) {
        const { documentId, views } = docs[i]!
        const label = { round, i }
        expect({ label, statuses: statuses([en, change, fr]) }).toEqual({ label, statuses: [200, 200, 200] })
        const answers = [await dataOf(en), await dataOf(fr)]
        await dataOf(change)
        const published = await versionsOf(a.api, documentId, 'published')
        const drafts = await versionsOf(a.api, documentId, 'draft')
        expect({ label, titles: [published.en?.title, published.fr?.title] }).toEqual({ label, titles: [`en r${round}`, `fr r${round}`] })
        // Drafts hold the acknowledged change in every locale.
        expect({ label, drafts: [drafts.en?.views, drafts.fr?.views, drafts.fr?.category] }).toEqual({ label, drafts: [views, views, `c${views}`] })
        // Published locales agree, on the values of the last publication.
        expect({ label, agree: [published.en?.views, published.en?.category] }).toEqual({ label, agree: [published.fr?.views, published.fr?.category] })
        expect([1, views]).toContain(published.en?.views)
        const sawChange = answers.some((answer) => answer.views === views)
        expect({ label, changePublished: published.en?.views === views }).toEqual({ label, changePublished: sawChange })
      }
      await expectConsistent(a, { round })
    }
    await expectStorageInvariants(a.ctx)
  }, hangGuard(60_000))

  it('unpublish vs a published list read at the page boundary: the page is one of the two states, never a draft, never a hole', async () => {
    const a = await arena(true)
    const titles = ['t0', 't1', 't2', 't3', 't4']
    const docs: Doc[] = []
    for (const title of titles) {
      const doc = await dataOf(await a.api.post({ title }))
      await dataOf(await a.api.put(doc.documentId, { title: `${title} draft` }, { status: 'draft' }))
      a.documentIds.add(doc.documentId)
      docs.push(doc)
    }
    const boundary = docs[1]! // the last of page 1: unpublishing it moves t2 from page 2 to page 1
    const reader = isolatedPeer(a.ctx)
    const key = (await a.ctx.token('read-only'))
    const PAGE = 'status=published&sort=title&pagination[pageSize]=2&pagination[page]=2'
    const before = { total: 5, titles: ['t2', 't3'] }
    const after = { total: 4, titles: ['t3', 't4'] }
    // The read is held at its k-th DynamoDB call until the unpublish has committed, for every k.
    for (let k = 1; k <= 10; k++) {
      let calls = 0
      let reached!: () => void
      const atCall = new Promise<void>((resolve) => (reached = resolve))
      let committed!: () => void
      const unpublished = new Promise<void>((resolve) => (committed = resolve))
      reader.db.middlewareStack.add((next: any) => async (args: any) => {
        calls += 1
        if (calls === k) {
          reached()
          await unpublished
        }
        return next(args)
      }, { step: 'initialize', name: 'gate', override: true })
      const read = reader.request('GET', `/api/articles?${PAGE}`, { token: key })
      const first = await Promise.race([atCall.then(() => 'held' as const), read.then(() => 'done' as const)])
      const response = await a.api.action(boundary.documentId, 'unpublish', {}, {}, a.next())
      committed()
      expect({ k, status: response.status }).toEqual({ k, status: 200 })
      const answer = await read
      reader.db.middlewareStack.remove('gate')
      expect({ k, status: answer.status }).toEqual({ k, status: 200 })
      const body = await json(answer)
      const seen = { total: body.meta.pagination.total, titles: body.data.map((doc: Doc) => doc.title) }
      const label = { k, first, seen }
      for (const doc of body.data) expect({ label, publishedAt: typeof doc.publishedAt }).toEqual({ label, publishedAt: 'string' })
      expect({ label, total: [before.total, after.total].includes(seen.total) }).toEqual({ label, total: true })
      expect({ label, page: [before.titles, after.titles].some((titlesOf) => JSON.stringify(titlesOf) === JSON.stringify(seen.titles)) }).toEqual({ label, page: true })
      if (first === 'done') expect(seen).toEqual(before)
      // Read again, settled: exactly the state after.
      const again = await json(await a.api.list(PAGE))
      expect({ k, total: again.meta.pagination.total, titles: again.data.map((doc: Doc) => doc.title) }).toEqual({ k, ...after })
      await expectConsistent(a, { k })
      expect((await a.api.action(boundary.documentId, 'publish')).status).toBe(200)
    }
    await expectStorageInvariants(a.ctx)
  }, hangGuard(60_000))

  it('DELETE locale=* vs publish: nothing of the document is left, in either status, whatever commits first', async () => {
    const a = await arena()
    for (let round = 0; round < ROUNDS; round++) {
      const docs = await Promise.all(Array.from({ length: PER_ROUND }, async (_, i) => {
        const { documentId } = await dataOf(await a.api.post({ title: `r${round}.${i}`, views: i }))
        a.documentIds.add(documentId)
        await dataOf(await a.api.put(documentId, { title: `r${round}.${i} next` }, { status: 'draft' }))
        await dataOf(await a.api.put(documentId, { title: `fr r${round}.${i}` }, { locale: 'fr', status: 'draft' }))
        return documentId
      }))
      // A document that only publishes, alongside, must come out whole.
      const { documentId: bystander } = await dataOf(await a.api.post({ title: `bystander ${round}` }, { status: 'draft' }))
      a.documentIds.add(bystander)
      holdWrites(a.ctx, docs, 2)
      const [outcomes, alongside] = await Promise.all([
        Promise.all(docs.map(async (documentId, i) => Promise.all([
          a.api.del(documentId, { locale: '*' }, {}, a.next()),
          a.api.action(documentId, 'publish', { locale: i % 2 === 0 ? 'en' : '*' }, {}, a.next()),
        ]))),
        a.api.action(bystander, 'publish', {}, {}, a.next()),
      ])
      expect(alongside.status).toBe(200)
      a.ctx.db.middlewareStack.remove('barrier')
      for (const [i, [removed, published]] of outcomes.entries()) {
        const label = { round, i }
        expect({ label, removed: removed.status }).toEqual({ label, removed: 204 })
        expect({ label, published: [200, 404, 409].includes(published.status) }).toEqual({ label, published: true })
        for (const status of STATUSES) expect({ label, status, left: await versionsOf(a.api, docs[i]!, status) }).toEqual({ label, status, left: {} })
      }
      expect(Object.keys(await versionsOf(a.api, bystander, 'published'))).toEqual(['en'])
      await expectConsistent(a, { round })
    }
    await expectStorageInvariants(a.ctx)
  }, hangGuard(60_000))

  it('discard-draft vs publish: the draft and the published version end equal, as the answers said', async () => {
    const a = await arena()
    for (let round = 0; round < ROUNDS; round++) {
      const docs = await Promise.all(Array.from({ length: PER_ROUND }, async (_, i) => {
        const doc = await dataOf(await a.api.post({ title: `r${round}.${i} published`, views: 1 }))
        a.documentIds.add(doc.documentId)
        await dataOf(await a.api.put(doc.documentId, { title: `r${round}.${i} draft`, views: 2 }, { status: 'draft' }))
        return doc
      }))
      holdWrites(a.ctx, docs.map((doc) => doc.documentId), 2)
      const outcomes = await Promise.all(docs.map(async (doc) => Promise.all([
        a.api.action(doc.documentId, 'discard-draft', {}, {}, a.next()),
        a.api.action(doc.documentId, 'publish', {}, {}, a.next()),
      ])))
      a.ctx.db.middlewareStack.remove('barrier')
      for (const [i, [discarded, published]] of outcomes.entries()) {
        const doc = docs[i]!
        const label = { round, i }
        expect({ label, statuses: statuses([discarded, published]) }).toEqual({ label, statuses: [200, 200] })
        const discardAnswer = await dataOf(discarded)
        const publishAnswer = await dataOf(published)
        const now = await pairOf(a.api, doc.documentId)
        expect({ label, published: now.published }).toEqual({ label, published: publishAnswer })
        expect({ label, draft: now.draft }).toEqual({ label, draft: discardAnswer })
        // Either order ends with the draft equal to the published version.
        const attributes = (version: Doc | undefined) => [version?.title, version?.views]
        expect({ label, draft: attributes(now.draft) }).toEqual({ label, draft: attributes(now.published) })
        expect([[`r${round}.${i} published`, 1], [`r${round}.${i} draft`, 2]]).toContainEqual(attributes(now.published))
        expect({ label, id: now.published?.id }).toEqual({ label, id: doc.id })
      }
      await expectConsistent(a, { round })
    }
    await expectStorageInvariants(a.ctx)
  }, hangGuard(60_000))
})
