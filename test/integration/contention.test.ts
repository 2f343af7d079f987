// Contention (issue 20): forty PUTs without If-Match on one document with five locales, mixing
// localized and non-localized fields, through two processes on one table, round after round. A
// barrier holds each process's first transaction of a round until the other's has arrived, so the
// two processes certainly race. Every answer is 200, fast, and no acknowledged write is lost.
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { ContentType } from '../../lib/content-types.js'
import { loadContentTypes } from '../../lib/schema/load.js'
import { createPeer, createTestContext, expectStorageInvariants, holdWrites, json, type TestContext } from '../support/context.js'
import { hangGuard, rounds } from '../support/rounds.js'

type Doc = Record<string, any>

const LOCALES = ['en', 'fr', 'de', 'es', 'it']
const WRITERS = 40
const ROUNDS = rounds(8)

/** The revision in an ETag `"<id>.<rev>"`. */
const revOf = (etag: string | null) => Number(/^"\d+\.(\d+)"$/.exec(etag ?? '')?.[1])

interface Answer {
  readonly locale: string
  readonly title: string
  /** The non-localized value sent, when the write sent one. */
  readonly views: number | undefined
  readonly status: number
  readonly rev: number
  readonly ms: number
}

describe('contention on one document', () => {
  let ctx: TestContext
  let processes: Pick<TestContext, 'request'>[]
  let key: string

  beforeAll(async () => {
    // The default cache of the registry and tokens (5 s), as a deployment runs: requests read the document, not the settings.
    ctx = await createTestContext({ cacheTtlMs: 5000 })
    key = await ctx.token()
    await ctx.addLocales(...LOCALES.slice(1))
    processes = [ctx, createPeer(ctx)]
  })
  afterEach(() => {
    ctx.db.middlewareStack.remove('barrier')
  })

  /** Each version as stored, with its revision (from its ETag). */
  async function revisions(documentId: string): Promise<Map<string, Doc>> {
    return new Map(await Promise.all(LOCALES.map(async (locale) => {
      const response = await ctx.request('GET', `/api/articles/${documentId}?locale=${locale}`)
      expect(response.status).toBe(200)
      const [version] = (await json(response)).data
      return [locale, { ...version, rev: revOf(response.headers.get('etag')) }] as const
    })))
  }

  /** Writer `i` of `round`: a new title in its locale, and every third one a new non-localized `views`. */
  async function write(documentId: string, round: number, i: number): Promise<Answer> {
    const locale = LOCALES[i % LOCALES.length]!
    const title = `r${round} w${i}`
    const views = i % 3 === 0 ? round * 1000 + i + 1 : undefined // never the value before (0): every one changes it
    const started = performance.now()
    const response = await processes[i % processes.length]!.request('PUT', `/api/articles/${documentId}?locale=${locale}`, {
      token: key,
      body: { data: views === undefined ? { title } : { title, views } },
    })
    const ms = performance.now() - started
    return { locale, title, views, status: response.status, rev: revOf(response.headers.get('etag')), ms }
  }

  it('answers 200 to 40 parallel PUTs from two processes, round after round, and loses no acknowledged write', async () => {
    const created = await ctx.request('POST', '/api/articles?locale=en', { token: key, body: { data: { title: 'en', views: 0, category: 'c' } } })
    const { documentId } = (await json(created)).data
    for (const locale of LOCALES.slice(1)) {
      expect((await ctx.request('PUT', `/api/articles/${documentId}?locale=${locale}`, { token: key, body: { data: { title: locale } } })).status).toBe(200)
    }
    // The machine's speed while the rounds run: uncontended PUTs, one at a time, before each round
    // (the baseline of the latency bar below; other test files share the machine).
    const single: number[] = []
    const latencies: number[] = []
    for (let round = 0; round < ROUNDS; round++) {
      for (let i = 0; i < 3; i++) {
        const started = performance.now()
        expect((await ctx.request('PUT', `/api/articles/${documentId}?locale=fr`, { token: key, body: { data: { title: `alone ${round}.${i}` } } })).status).toBe(200)
        single.push(performance.now() - started)
      }
      const before = await revisions(documentId)
      holdWrites(ctx, documentId, 2, 2000)
      const answers = await Promise.all(Array.from({ length: WRITERS }, (_, i) => write(documentId, round, i)))
      ctx.db.middlewareStack.remove('barrier')
      latencies.push(...answers.map((answer) => answer.ms))
      expect({ round, statuses: answers.map((answer) => answer.status) }).toEqual({ round, statuses: Array(WRITERS).fill(200) })
      const after = await revisions(documentId)
      const sharedWrites = answers.filter((answer) => answer.views !== undefined)
      for (const locale of LOCALES) {
        const mine = answers.filter((answer) => answer.locale === locale)
        // Every 200 is one committed change of its version, and every non-localized one changed every version.
        const expected = before.get(locale)!.rev + mine.length + sharedWrites.filter((answer) => answer.locale !== locale).length
        expect({ round, locale, rev: after.get(locale)!.rev }).toEqual({ round, locale, rev: expected })
        expect(new Set(mine.map((answer) => answer.rev)).size).toBe(mine.length)
        // The last acknowledged title of the locale (highest revision answered) is the one stored.
        const last = mine.reduce((a, b) => (b.rev > a.rev ? b : a))
        expect({ round, locale, title: after.get(locale)!.title }).toEqual({ round, locale, title: last.title })
      }
      // The stored views is that of the last acknowledged non-localized write: the one after which its
      // own version moved only by title-only writes to that locale.
      const lastShared = sharedWrites.filter((answer) => {
        const later = answers.filter((other) => other.locale === answer.locale && other.views === undefined && other.rev > answer.rev)
        return after.get(answer.locale)!.rev - answer.rev === later.length
      })
      expect(lastShared).toHaveLength(1)
      for (const version of after.values()) expect({ round, locale: version.locale, views: version.views }).toEqual({ round, locale: version.locale, views: lastShared[0]!.views })
    }
    const sorted = [...latencies].sort((a, b) => a - b)
    const p99 = sorted[Math.ceil(sorted.length * 0.99) - 1]!
    const baseline = single.sort((a, b) => a - b)[Math.floor(single.length * 0.75)]!
    console.error(`contention: ${latencies.length} PUTs, p50 ${sorted[Math.floor(sorted.length / 2)]!.toFixed(0)} ms, p99 ${p99.toFixed(0)} ms, max ${sorted.at(-1)!.toFixed(0)} ms; one PUT alone ${baseline.toFixed(0)} ms`)
    // Printed, not asserted: latency is the benchmark's to judge (npm run bench:writes measures
    // parallel writes against Strapi's in one run); a bar here only measured how loaded the machine was.
    await expectStorageInvariants(ctx)
  }, hangGuard(180_000)) // rounds of 40 writers held at a 2 s barrier: 30 s is too little on a loaded machine (its latency bar is relative)

  it('settles each change of a batch on its own: stale If-Match writes get 412, the others 200, in one process', async () => {
    const created = await ctx.request('POST', '/api/articles?locale=en', { token: key, body: { data: { title: 'base', views: 1 } } })
    const { documentId } = (await json(created)).data
    const stale = created.headers.get('etag')!
    expect((await ctx.request('PUT', `/api/articles/${documentId}?locale=en`, { token: key, body: { data: { title: 'moved' } } })).status).toBe(200)
    const responses = await Promise.all(Array.from({ length: 10 }, (_, i) => ctx.request('PUT', `/api/articles/${documentId}?locale=en`, {
      token: key,
      body: { data: { title: `t${i}`, views: 100 + i } },
      headers: i % 2 === 0 ? { 'If-Match': stale } : {},
    })))
    expect(responses.map((response) => response.status)).toEqual(Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? 412 : 200)))
    const [stored] = (await json(await ctx.request('GET', `/api/articles/${documentId}?locale=en`))).data
    // The accepted changes were applied one after another: the last of them (highest revision) is stored.
    const accepted = await Promise.all(responses.filter((response) => response.status === 200).map(async (response) => ({ rev: revOf(response.headers.get('etag')), data: (await json(response)).data })))
    expect(accepted.map((answer) => answer.rev).sort()).toEqual([1, 2, 3, 4, 5].map((n) => revOf(stale) + 1 + n))
    const last = accepted.reduce((a, b) => (b.rev > a.rev ? b : a))
    expect(stored).toMatchObject({ title: last.data.title, views: last.data.views })
  })

  it('commits parallel creates together: 40 POSTs in three locales, fewer transactions than documents, unique ids, exact totals', async () => {
    const locales = ['en', 'fr', 'de']
    const totals = async () => Promise.all(locales.map(async (locale) => (await json(await ctx.request('GET', `/api/articles?locale=${locale}&pagination[pageSize]=1`))).meta.pagination.total))
    const before = await totals()
    let transactions = 0
    ctx.db.middlewareStack.add((next: any, context: any) => async (args: any) => {
      if (context.commandName === 'TransactWriteItemsCommand') transactions += 1
      return next(args)
    }, { step: 'initialize', name: 'barrier', override: true })
    const responses = await Promise.all(Array.from({ length: 40 }, (_, i) =>
      ctx.request('POST', `/api/articles?locale=${locales[i % 3]}`, { token: key, body: { data: { title: `new ${i}`, views: i } } })))
    expect(responses.map((response) => response.status)).toEqual(Array(40).fill(200))
    const created: Doc[] = await Promise.all(responses.map(async (response) => (await json(response)).data))
    expect(new Set(created.map((doc) => doc.id)).size).toBe(40)
    expect(transactions).toBeLessThan(40)
    for (const doc of created) {
      const [stored] = (await json(await ctx.request('GET', `/api/articles/${doc.documentId}?locale=${doc.locale}`))).data
      expect(stored).toMatchObject({ id: doc.id, title: doc.title, views: doc.views })
    }
    expect(await totals()).toEqual(before.map((total, i) => total + created.filter((doc) => doc.locale === locales[i]).length))
    await expectStorageInvariants(ctx)
  })

  it('answers 200 to 12 writers on one document in 12 processes at once (Lambda instances serve one request each)', async () => {
    const created = await ctx.request('POST', '/api/articles?locale=en', { token: key, body: { data: { title: 'many', views: 0 } } })
    const { documentId } = (await json(created)).data
    const instances = [ctx, ...Array.from({ length: 11 }, () => createPeer(ctx))]
    for (let round = 0; round < 2; round++) {
      holdWrites(ctx, documentId, instances.length, 3000)
      const responses = await Promise.all(instances.map((instance, i) => instance.request('PUT', `/api/articles/${documentId}?locale=en`, { token: key, body: { data: { views: round * 100 + i + 1 } } })))
      ctx.db.middlewareStack.remove('barrier')
      expect({ round, statuses: responses.map((response) => response.status) }).toEqual({ round, statuses: instances.map(() => 200) })
    }
    // Each of the 24 writes moved the version once.
    expect(revOf((await ctx.request('GET', `/api/articles/${documentId}?locale=en`)).headers.get('etag'))).toBe(1 + 24)
  }, hangGuard(60_000))
})

describe('parallel creates of one unique value in one process', () => {
  const types: readonly ContentType[] = loadContentTypes(new URL('../fixtures/strapi-project/src/api/', import.meta.url).pathname)

  it('answers one 200 and 400s, never a 5xx, when the creates share a batch', async () => {
    const ctx = await createTestContext({}, {}, types)
    const key = await ctx.token()
    // The first create's transaction waits until the others have passed their checks and queued behind it.
    let held = false
    ctx.db.middlewareStack.add((next: any, context: any) => async (args: any) => {
      if (context.commandName === 'TransactWriteItemsCommand' && !held) {
        held = true
        await new Promise((resolve) => setTimeout(resolve, 1000))
      }
      return next(args)
    }, { step: 'initialize', name: 'barrier', override: true })
    const responses = await Promise.all(Array.from({ length: 8 }, (_, i) =>
      ctx.request('POST', '/api/products?locale=en', { token: key, body: { data: { name: `Twin ${i}`, sku: 'TWN-001' } } })))
    const statuses = responses.map((response) => response.status).sort()
    expect(statuses).toEqual([200, 400, 400, 400, 400, 400, 400, 400])
    for (const response of responses.filter((entry) => entry.status === 400)) {
      expect((await json(response)).error.details.errors).toEqual([{ path: ['sku'], message: 'This attribute must be unique', name: 'ValidationError' }])
    }
  })
})
