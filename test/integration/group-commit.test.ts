// Group commit across documents (issue 20, write throughput): the writes one process makes to
// different documents of a type while a transaction is in flight share the next one, each settled
// on its own; the ids of parallel creates are drawn with their transaction, ahead under load, and
// stay unique and increasing in the order the process commits them.
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createServices } from '../../lib/services.js'
import { META } from '../../lib/table.js'
import { ADMIN_TOKEN, TOKEN_HASH_SECRET, createTestContext, expectStorageInvariants, json, type TestContext } from '../support/context.js'

type Doc = Record<string, any>

/** Counts the transactions and id-counter updates sent, holding the first transaction `holdMs` so that the writes after it queue. */
function countCalls(ctx: TestContext, holdMs: number) {
  const counted = { transactions: 0, counterUpdates: 0 }
  let held = false
  ctx.db.middlewareStack.add((next: any, context: any) => async (args: any) => {
    if (context.commandName === 'TransactWriteItemsCommand') {
      counted.transactions += 1
      if (!held) {
        held = true
        await new Promise((resolve) => setTimeout(resolve, holdMs))
      }
    }
    if (context.commandName === 'UpdateItemCommand' && args.input.Key?.documentId === META.sequence) counted.counterUpdates += 1
    return next(args)
  }, { step: 'initialize', name: 'counting', override: true })
  return counted
}

describe('group commit across documents, one process', () => {
  let ctx: TestContext
  let key: string

  beforeAll(async () => {
    ctx = await createTestContext()
    key = await ctx.token()
    await ctx.addLocales('fr')
  })
  afterEach(() => {
    ctx.db.middlewareStack.remove('counting')
  })

  const create = async (data: Doc) => (await json(await ctx.request('POST', '/api/articles', { token: key, body: { data } }))).data
  const total = async () => (await json(await ctx.request('GET', '/api/articles?pagination[pageSize]=1'))).meta.pagination.total

  it('commits parallel updates of 20 documents in fewer transactions than writes, each stored, totals unchanged', async () => {
    const documents: Doc[] = []
    for (let i = 0; i < 20; i++) documents.push(await create({ title: `doc ${i}`, views: i }))
    const before = await total()
    const counted = countCalls(ctx, 300)
    const responses = await Promise.all(documents.map((doc, i) => ctx.request('PUT', `/api/articles/${doc.documentId}`, { token: key, body: { data: { views: 100 + i } } })))
    expect(responses.map((response) => response.status)).toEqual(Array(20).fill(200))
    expect(counted.transactions).toBeLessThan(5)
    for (const [i, doc] of documents.entries()) {
      const [stored] = (await json(await ctx.request('GET', `/api/articles/${doc.documentId}`))).data
      expect(stored).toMatchObject({ id: doc.id, title: `doc ${i}`, views: 100 + i })
    }
    expect(await total()).toBe(before)
    await expectStorageInvariants(ctx)
  })

  it('settles each document of a shared transaction on its own: a stale If-Match is a 412, a missing locale a 404, the others 200', async () => {
    const [a, b, c] = [await create({ title: 'a', views: 1 }), await create({ title: 'b', views: 1 }), await create({ title: 'c', views: 1 })]
    const stale = (await ctx.request('GET', `/api/articles/${a.documentId}`)).headers.get('etag')!
    expect((await ctx.request('PUT', `/api/articles/${a.documentId}`, { token: key, body: { data: { title: 'a moved' } } })).status).toBe(200)
    countCalls(ctx, 300)
    const [first, staleWrite, other, gone] = await Promise.all([
      ctx.request('PUT', `/api/articles/${c.documentId}`, { token: key, body: { data: { title: 'c first' } } }),
      ctx.request('PUT', `/api/articles/${a.documentId}`, { token: key, body: { data: { title: 'a stale' } }, headers: { 'If-Match': stale } }),
      ctx.request('PUT', `/api/articles/${b.documentId}`, { token: key, body: { data: { title: 'b new', views: 7 } } }),
      ctx.request('DELETE', `/api/articles/${c.documentId}?locale=fr`, { token: key }),
    ])
    expect([first!.status, staleWrite!.status, other!.status, gone!.status]).toEqual([200, 412, 200, 404])
    const read = async (doc: Doc) => (await json(await ctx.request('GET', `/api/articles/${doc.documentId}`))).data[0]
    expect(await read(a)).toMatchObject({ title: 'a moved' })
    expect(await read(b)).toMatchObject({ title: 'b new', views: 7 })
    expect(await read(c)).toMatchObject({ title: 'c first' })
    await expectStorageInvariants(ctx)
  })

  it('draws the ids of parallel creates with their transactions, ahead under load: fewer counter updates than transactions, ids unique and increasing in commit order', async () => {
    const before = await total()
    const counted = countCalls(ctx, 300)
    const responses = await Promise.all(Array.from({ length: 40 }, (_, i) => ctx.request('POST', '/api/articles', { token: key, body: { data: { title: `new ${i}`, views: i } } })))
    expect(responses.map((response) => response.status)).toEqual(Array(40).fill(200))
    const created: Doc[] = await Promise.all(responses.map(async (response) => (await json(response)).data))
    expect(new Set(created.map((doc) => doc.id)).size).toBe(40)
    // Ids are drawn with the transactions, several at a time: never more counter updates than
    // transactions, and far fewer than creates (under heavy load one transaction holds many creates).
    expect(counted.counterUpdates).toBeLessThanOrEqual(counted.transactions)
    expect(counted.counterUpdates).toBeLessThan(40)
    // A later transaction commits later: ordered by id, the creation times never go back.
    const byId = [...created].sort((x, y) => x.id - y.id)
    expect(byId.map((doc) => doc.createdAt)).toEqual([...byId.map((doc) => doc.createdAt)].sort())
    // Each published version has its own id, after its draft's.
    for (const doc of created) {
      const [draft] = (await json(await ctx.request('GET', `/api/articles/${doc.documentId}?status=draft`, { token: key }))).data
      expect(draft.id).toBeLessThan(doc.id)
    }
    expect(await total()).toBe(before + 40)
    await expectStorageInvariants(ctx)
  })
})

describe('ids drawn ahead', () => {
  it('hands them out without a counter update, then skips them once kept past a second, so a later id exceeds another process\'s', async () => {
    const ctx = await createTestContext()
    const type = ctx.services.types.find((candidate) => candidate.singularName === 'article')!
    const other = createServices(ctx.db, ctx.config, { adminToken: ADMIN_TOKEN, tokenHashSecret: TOKEN_HASH_SECRET }, ctx.services.types).documents
    const mine = ctx.services.documents
    const [first] = await mine.nextIds(type, 1, 5)
    const counted = countCalls(ctx, 0)
    expect(await mine.nextIds(type, 2)).toEqual([first! + 1, first! + 2])
    expect(counted.counterUpdates).toBe(0)
    // Another process draws from the counter: past every id drawn here, the spare ones included.
    expect(await other.nextIds(type, 1)).toEqual([first! + 6])
    // Within the second, the spare ids still go first (this process's own order)...
    expect(await mine.nextIds(type, 1)).toEqual([first! + 3])
    await new Promise((resolve) => setTimeout(resolve, 1100))
    // ...past it, they are skipped: a new id is above the other process's.
    expect(await mine.nextIds(type, 1)).toEqual([first! + 7])
    expect(counted.counterUpdates).toBe(2)
    ctx.db.middlewareStack.remove('counting')
  })
})
