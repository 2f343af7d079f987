// Writes wider than one DynamoDB transaction (issue 20, behaviour.md §7-8): a deployment of 100
// locales, a document whose versions pass 1 MB, a non-localized change that every version and
// served copy takes, and DELETE locale=*. Each is checked as a reader sees it at every step of
// the write (held behind a barrier), with a write failing at each step, and in storage after.
import { randomBytes } from 'node:crypto'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { itemBytes } from '../../lib/storage/item-size.js'
import { ATTR, HEAD } from '../../lib/table.js'
import { SETTLE_MS } from '../../lib/storage/lists/validator.js'
import { createPeer, createSeeder, createTestContext, documentItems, expectStorageInvariants, holdWrites, json, type TestContext } from '../support/context.js'
import { hangGuard, rounds } from '../support/rounds.js'

/** 100 locales: en, 79 of their own, and 20 that fall back to en (each a served copy of both statuses). */
const OWN = Array.from({ length: 79 }, (_, i) => `x${String.fromCharCode(97 + Math.floor(i / 26))}${String.fromCharCode(97 + (i % 26))}`)
const FALLING = Array.from({ length: 20 }, (_, i) => `y${String.fromCharCode(97 + Math.floor(i / 26))}${String.fromCharCode(97 + (i % 26))}`)
/**
 * The locales of most documents here: 30 of their own, so a change of a non-localized value writes
 * 60 versions, 40 copies and their counts, past one transaction (a smaller document is quicker to make).
 */
const SOME = OWN.slice(0, 29)
/** Blocks of about 10 KB, so that the 160 versions and 40 copies of a document in every locale pass 1 MB. */
// Text that compression barely shrinks (blocks from 1 KB on are stored compressed): 10,000 characters.
const largeBody = (text: string) => [{ type: 'paragraph', children: [{ type: 'text', text: `${text} ${randomBytes(7_500).toString('base64')}` }] }]
const WRITES = ['TransactWriteItemsCommand', 'PutItemCommand', 'UpdateItemCommand', 'DeleteItemCommand', 'BatchWriteItemCommand']

type Doc = Record<string, any>

describe('a document in 100 locales, past 1 MB', () => {
  let ctx: TestContext
  let key: string
  /** Seeds the documents' localizations (the locales are all registered before it is made). */
  let seeder: Pick<TestContext, 'request'>

  beforeAll(async () => {
    ctx = await createTestContext()
    key = await ctx.token()
    for (let i = 0; i < OWN.length; i += 20) await ctx.addLocales(...OWN.slice(i, i + 20))
    for (const code of FALLING) expect((await ctx.admin('POST', '/admin/i18n/locales', { code, fallback: 'en' })).status).toBe(201)
    seeder = createSeeder(ctx)
  }, hangGuard(120_000))

  afterEach(() => {
    ctx.db.middlewareStack.remove('barrier')
    ctx.db.middlewareStack.remove('failWrite')
  })

  /** A new article with a version in en and each of `locales` (published, so a draft too); `large`: past 1 MB. */
  async function document(views = 1, locales = SOME, large = false): Promise<string> {
    const body = (text: string) => (large ? largeBody(text) : [{ type: 'paragraph', children: [{ type: 'text', text }] }])
    const created = await ctx.request('POST', '/api/articles?locale=en', { token: key, body: { data: { title: 'en', body: body('en'), views, category: 'c0' } } })
    expect(created.status).toBe(200)
    const { documentId } = (await json(created)).data
    for (let i = 0; i < locales.length; i += 10) {
      await Promise.all(locales.slice(i, i + 10).map(async (locale) => {
        const response = await seeder.request('PUT', `/api/articles/${documentId}?locale=${locale}`, { token: key, body: { data: { title: locale, body: body(locale) } } })
        expect(response.status).toBe(200)
      }))
    }
    return documentId
  }

  /** Every version of the document of `status`, through the API (get one, locale=*). */
  async function versions(documentId: string, status: 'published' | 'draft' = 'published'): Promise<Doc[]> {
    const response = await ctx.request('GET', `/api/articles/${documentId}?locale=*&status=${status}`, { token: key })
    if (response.status === 404) return []
    expect(response.status).toBe(200)
    return (await json(response)).data
  }

  /** What a reader sees of the non-localized values, every way it can read them: one value each, or a mix. */
  async function seen(documentId: string): Promise<Set<string>> {
    const values = new Set<string>()
    const add = (doc: Doc | undefined) => values.add(doc === undefined ? 'absent' : `${doc.views}/${doc.category}`)
    for (const status of ['published', 'draft'] as const) for (const doc of await versions(documentId, status)) add(doc)
    // One version by key, and what a fallback locale serves (its copy).
    for (const locale of ['en', SOME[20] as string, FALLING[0] as string, FALLING[19] as string]) {
      const response = await ctx.request('GET', `/api/articles/${documentId}?locale=${locale}`, { token: key })
      add(response.status === 404 ? undefined : (await json(response)).data[0])
    }
    // A list page that holds it, and populate's localizations (read by key in a batch).
    const listed = await json(await ctx.request('GET', `/api/articles?locale=${FALLING[5]}&filters[documentId][$eq]=${documentId}&populate=localizations`, { token: key }))
    add(listed.data[0])
    for (const other of listed.data[0]?.localizations ?? []) add(other)
    return values
  }

  /** Storage after a write: nothing marked, no change open on the head, every count exact. */
  async function expectSettled(documentId: string): Promise<void> {
    const items = await documentItems(ctx, documentId)
    expect(items.filter((item) => item[ATTR.pending] !== undefined || item[ATTR.placeholder] !== undefined).map((item) => item.locale)).toEqual([])
    const head = items.find((item) => item.locale === HEAD)
    expect(head?.[ATTR.change] === undefined || head[ATTR.change].done === true).toBe(true)
    await expectStorageInvariants(ctx)
  }

  /** Holds the first write call that `matches` until `release()`; `reached` settles when it is held. */
  function barrier(matches: (command: string, input: any) => boolean) {
    let release!: () => void
    let reached!: () => void
    const released = new Promise<void>((resolve) => (release = resolve))
    const arrived = new Promise<void>((resolve) => (reached = resolve))
    let held = false
    ctx.db.middlewareStack.add((next: any, context: any) => async (args: any) => {
      if (!held && matches(String(context.commandName), args.input)) {
        held = true
        reached()
        await released
      }
      return next(args)
    }, { step: 'initialize', name: 'barrier', override: true })
    return { release, arrived }
  }

  const isCommit = (command: string, input: any) => command === 'TransactWriteItemsCommand' && JSON.stringify(input).includes(`"${ATTR.change}"`)
  const isApply = (command: string, input: any) => command === 'TransactWriteItemsCommand' && JSON.stringify(input).includes('contains(#pend')

  it('reads the whole document past 1 MB; a non-localized PUT reaches all 160 versions and 40 copies; the reindex writes it again whole', async () => {
    const documentId = await document(1, OWN, true)
    const raw = await documentItems(ctx, documentId)
    expect(raw.reduce((size, item) => size + itemBytes(item), 0)).toBeGreaterThan(1024 * 1024)
    const put = await ctx.request('PUT', `/api/articles/${documentId}?locale=${OWN[3]}`, { token: key, body: { data: { views: 42, category: 'wide', title: 'changed' } } })
    expect(put.status).toBe(200)
    expect((await json(put)).data).toMatchObject({ views: 42, category: 'wide', title: 'changed', locale: OWN[3] })
    for (const status of ['published', 'draft'] as const) {
      const all = await versions(documentId, status)
      expect(all).toHaveLength(1 + OWN.length)
      expect(new Set(all.map((doc) => `${doc.views}/${doc.category}`))).toEqual(new Set(['42/wide']))
      // Their timestamps moved with it (behaviour.md §7), and each kept its localized values.
      expect(new Set(all.map((doc) => doc.updatedAt)).size).toBe(1)
      expect(all.filter((doc) => doc.locale !== OWN[3]).every((doc) => doc.title === doc.locale)).toBe(true)
    }
    expect(await seen(documentId)).toEqual(new Set(['42/wide']))
    // A list sorted and filtered on the shared value finds it in every locale (its index entries moved too).
    for (const locale of ['en', OWN[78], FALLING[17]]) {
      const listed = await json(await ctx.request('GET', `/api/articles?locale=${locale}&filters[views][$eq]=42&filters[category][$eq]=wide`, { token: key }))
      expect(listed.data.map((doc: Doc) => doc.documentId)).toEqual([documentId])
    }
    await expectSettled(documentId)
    // The reindex rewrites every item of the document (past 200): one wide write.
    for (let cursor: string | undefined, done = false; !done;) {
      const response = await ctx.admin('POST', '/admin/reindex', cursor === undefined ? {} : { cursor })
      expect(response.status).toBe(200)
      ;({ cursor, done } = (await json(response)).data)
    }
    expect(await seen(documentId)).toEqual(new Set(['42/wide']))
    await expectSettled(documentId)
  }, hangGuard(420_000))

  it('shows readers none of the change before it commits and all of it after, while it is applied', async () => {
    const documentId = await document(5)
    const before = barrier(isCommit)
    const writing = ctx.request('PUT', `/api/articles/${documentId}?locale=en`, { token: key, body: { data: { views: 6 } } })
    await before.arrived
    // Every item it will rewrite is marked by now: nothing reads differently.
    expect((await documentItems(ctx, documentId)).filter((item) => item[ATTR.pending] !== undefined).length).toBeGreaterThan(90)
    expect(await seen(documentId)).toEqual(new Set(['5/c0']))
    ctx.db.middlewareStack.remove('barrier')
    const during = barrier(isApply)
    before.release()
    await during.arrived
    // Committed, and not one marked item rewritten yet: readers see all of it.
    expect(await seen(documentId)).toEqual(new Set(['6/c0']))
    during.release()
    expect((await writing).status).toBe(200)
    expect(await seen(documentId)).toEqual(new Set(['6/c0']))
    await expectSettled(documentId)
  }, hangGuard(120_000))

  it('a process that keeps documents shows a committed change to the localizations and the pages it kept, before it is applied', async () => {
    // The page cache off, documents kept (as by default); its lists settle before it reads.
    const reader = createPeer(ctx, { rest: { ...ctx.config.rest, pageCache: 0 } })
    const documentId = await document(7)
    const page = `/api/articles?locale=${SOME[3]}&filters[documentId][$eq]=${documentId}&populate=localizations`
    const read = async (path: string) => (await json(await reader.request('GET', path, { token: key }))).data as Doc[]
    // What it shows: the other locales (populated), and the document on a sorted page and on a page naming it (read by key).
    const localizations = async () => {
      const shown = new Set(((await read(page))[0]?.localizations ?? []).map((doc: Doc) => `${doc.views}/${doc.category}`))
      for (const path of [`/api/articles?locale=${SOME[3]}&sort=views:desc&pagination[pageSize]=100`, `/api/articles?locale=${SOME[3]}&filters[documentId][$in][0]=${documentId}&sort=title`]) {
        for (const doc of (await read(path)).filter((one) => one.documentId === documentId)) shown.add(`${doc.views}/${doc.category}`)
      }
      return shown
    }
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS + 200))
    expect(await localizations()).toEqual(new Set(['7/c0']))
    expect(await localizations()).toEqual(new Set(['7/c0']))
    const during = barrier(isApply)
    const writing = ctx.request('PUT', `/api/articles/${documentId}?locale=en`, { token: key, body: { data: { views: 8 } } })
    await during.arrived
    // Committed, no marked item rewritten yet (their lists have not moved): the kept versions are not served.
    expect(await localizations()).toEqual(new Set(['8/c0']))
    during.release()
    expect((await writing).status).toBe(200)
    expect(await localizations()).toEqual(new Set(['8/c0']))
    await expectSettled(documentId)
  }, hangGuard(120_000))

  it('either all of it or none of it, whatever write of it fails, and the next write converges', async () => {
    // Write k of the PUT fails (a process dying there): among the marks, at the commit, in the application.
    for (const k of [50, 'commit', 'apply'] as const) {
      const documentId = await document(10)
      let seenWrites = 0
      ctx.db.middlewareStack.add((next: any, context: any) => async (args: any) => {
        const command = String(context.commandName)
        if (WRITES.includes(command) && JSON.stringify(args.input).includes(documentId)) {
          seenWrites += 1
          const fail = typeof k === 'number' ? seenWrites === k : k === 'commit' ? isCommit(command, args.input) : isApply(command, args.input)
          if (fail) throw new Error('injected: the process died before this write')
        }
        return next(args)
      }, { step: 'initialize', name: 'failWrite', override: true })
      const response = await ctx.request('PUT', `/api/articles/${documentId}?locale=${OWN[1]}`, { token: key, body: { data: { views: 11 } } })
      ctx.db.middlewareStack.remove('failWrite')
      const values = await seen(documentId)
      expect({ k, values: values.size }).toEqual({ k, values: 1 })
      if (response.status === 200) expect({ k, values: [...values] }).toEqual({ k, values: ['11/c0'] })
      // The next write (through another locale) finishes or clears what was left, and applies its own.
      expect((await ctx.request('PUT', `/api/articles/${documentId}?locale=${OWN[2]}`, { token: key, body: { data: { category: `after ${k}` } } })).status).toBe(200)
      const after = [...(await seen(documentId))]
      expect({ k, after }).toEqual({ k, after: [`${response.status === 200 || values.has('11/c0') ? 11 : 10}/after ${k}`] })
      await expectSettled(documentId)
    }
  }, hangGuard(300_000))

  it('lets two processes write one wide document at once, with narrow writes between: every write 200, one value everywhere', async () => {
    const other = createPeer(ctx)
    for (let round = 0; round < rounds(3); round++) {
      const documentId = await document(100)
      // Both mark the same items before either commits: marks of both on one item, the loser's removed.
      holdWrites(ctx, documentId, 2)
      const answers = await Promise.all([
        ctx.request('PUT', `/api/articles/${documentId}?locale=${SOME[1]}`, { token: key, body: { data: { views: 101 + round } } }),
        other.request('PUT', `/api/articles/${documentId}?locale=${SOME[2]}`, { token: key, body: { data: { views: 201 + round } } }),
        other.request('PUT', `/api/articles/${documentId}?locale=${SOME[3]}`, { token: key, body: { data: { title: `narrow ${round}` } } }),
      ])
      ctx.db.middlewareStack.remove('barrier')
      expect({ round, statuses: answers.map((answer) => answer.status) }).toEqual({ round, statuses: [200, 200, 200] })
      const values = [...(await seen(documentId))]
      expect({ round, one: values.length }).toEqual({ round, one: 1 })
      expect([`${101 + round}/c0`, `${201 + round}/c0`]).toContain(values[0])
      expect((await versions(documentId)).find((doc) => doc.locale === SOME[3])?.title).toBe(`narrow ${round}`)
      await expectSettled(documentId)
    }
  }, hangGuard(420_000))

  it('publishes and discards with the shared values of 30 locales', async () => {
    const documentId = await document(20)
    expect((await ctx.request('PUT', `/api/articles/${documentId}?locale=${OWN[7]}&status=draft`, { token: key, body: { data: { views: 21 } } })).status).toBe(200)
    expect(new Set((await versions(documentId, 'draft')).map((doc) => doc.views))).toEqual(new Set([21]))
    expect(new Set((await versions(documentId, 'published')).map((doc) => doc.views))).toEqual(new Set([20]))
    const modified = await json(await ctx.request('GET', `/api/articles?locale=${SOME[25]}&status=draft&publicationFilter=modified&filters[documentId][$eq]=${documentId}`, { token: key }))
    expect(modified.data.map((doc: Doc) => doc.documentId)).toEqual([documentId])
    await expectSettled(documentId)
    expect((await ctx.request('POST', `/api/articles/${documentId}/actions/publish?locale=${OWN[7]}`, { token: key })).status).toBe(200)
    expect(new Set((await versions(documentId, 'published')).map((doc) => doc.views))).toEqual(new Set([21]))
    await expectSettled(documentId)
    expect((await ctx.request('PUT', `/api/articles/${documentId}?locale=en&status=draft`, { token: key, body: { data: { views: 22 } } })).status).toBe(200)
    expect((await ctx.request('POST', `/api/articles/${documentId}/actions/discard-draft?locale=en`, { token: key })).status).toBe(200)
    expect(new Set((await versions(documentId, 'draft')).map((doc) => doc.views))).toEqual(new Set([21]))
    await expectSettled(documentId)
  }, hangGuard(420_000))

  it('DELETE locale=* removes every version and copy at once', async () => {
    const documentId = await document(30)
    const total = async (locale: string) => (await json(await ctx.request('GET', `/api/articles?locale=${locale}&pagination[pageSize]=1`, { token: key }))).meta.pagination.total
    const totals = await Promise.all(['en', SOME[9] as string, FALLING[9] as string].map(total))
    const during = barrier(isApply)
    const deleting = ctx.request('DELETE', `/api/articles/${documentId}?locale=*`, { token: key })
    await during.arrived
    expect(await seen(documentId)).toEqual(new Set(['absent']))
    during.release()
    expect((await deleting).status).toBe(204)
    expect((await ctx.request('GET', `/api/articles/${documentId}?locale=en`, { token: key })).status).toBe(404)
    expect(await Promise.all(['en', SOME[9] as string, FALLING[9] as string].map(total))).toEqual(totals.map((n) => n - 1))
    await expectSettled(documentId)
  }, hangGuard(120_000))
})
