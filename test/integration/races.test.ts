// Concurrency (behaviour.md §7 "Races", issue 6): parallel requests through the real app on
// DynamoDB Local. Where a race must be certain, a barrier on the client holds every request's
// write until all of them have done their reads, so each one decides on the same stale state.
// A process queues its own writes to a document and commits them together, so writes race only
// between processes (Lambda instances): each write here goes to the next of six processes on the
// same table, as concurrent requests reach different instances.
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createPeer, createTestContext, holdWrites, expectStorageInvariants, json, type TestContext } from '../support/context.js'
import { hangGuard, rounds } from '../support/rounds.js'

type Doc = Record<string, any>

/** The revision in an ETag `"<id>.<rev>"`. */
const revOf = (etag: string | null) => Number(/^"\d+\.(\d+)"$/.exec(etag ?? '')?.[1])

describe('races', () => {
  let ctx: TestContext
  let key: string
  let processes: Pick<TestContext, 'request'>[]
  let turn = 0

  beforeAll(async () => {
    ctx = await createTestContext()
    key = await ctx.token()
    await ctx.addLocales('fr', 'de')
    processes = [ctx, ...Array.from({ length: 5 }, () => createPeer(ctx))]
  })
  afterEach(() => {
    ctx.db.middlewareStack.remove('barrier')
  })

  /** The next process, round robin: the requests of one Promise.all each reach a different one. */
  const next = () => processes[turn++ % processes.length]!
  const put = (path: string, data: Doc, headers: Record<string, string> = {}) => next().request('PUT', path, { token: key, body: { data }, headers })
  const del = (path: string, headers: Record<string, string> = {}) => next().request('DELETE', path, { token: key, headers })
  const statuses = (responses: Response[]) => responses.map((response) => response.status).sort()

  const barrier = (documentIds: string | string[], count: number) => holdWrites(ctx, documentIds, count)

  async function createArticle(data: Doc, locale = 'en'): Promise<Doc> {
    const response = await ctx.request('POST', `/api/articles?locale=${locale}`, { token: key, body: { data } })
    expect(response.status).toBe(200)
    return (await json(response)).data
  }

  async function localize(documentId: string, locale: string, data: Doc): Promise<Doc> {
    const response = await put(`/api/articles/${documentId}?locale=${locale}`, data)
    expect(response.status).toBe(200)
    return (await json(response)).data
  }

  /** Every version of a document (by id), or [] when it is gone. */
  async function versionsOf(documentId: string): Promise<Doc[]> {
    const response = await ctx.request('GET', `/api/articles/${documentId}?locale=*`)
    if (response.status === 404) return []
    expect(response.status).toBe(200)
    return (await json(response)).data
  }

  async function etagOf(documentId: string, locale: string): Promise<string | null> {
    return (await ctx.request('GET', `/api/articles/${documentId}?locale=${locale}`)).headers.get('etag')
  }

  describe('concurrent creates', () => {
    it('gives 30 parallel creates across en, fr and de unique ids and documentIds, and exact counts', async () => {
      const locales = ['en', 'fr', 'de']
      const before = await Promise.all(locales.map(async (locale) => (await json(await ctx.request('GET', `/api/articles?locale=${locale}`))).meta.pagination.total))
      const responses = await Promise.all(Array.from({ length: 30 }, (_, i) =>
        ctx.request('POST', `/api/articles?locale=${locales[i % 3]}`, { token: key, body: { data: { title: `parallel ${i}` } } })))
      expect(statuses(responses)).toEqual(Array(30).fill(200))
      const created: Doc[] = await Promise.all(responses.map(async (response) => (await json(response)).data))
      expect(new Set(created.map((doc) => doc.id)).size).toBe(30)
      expect(new Set(created.map((doc) => doc.documentId)).size).toBe(30)
      for (const [i, locale] of locales.entries()) {
        const list = await json(await ctx.request('GET', `/api/articles?locale=${locale}&pagination[pageSize]=100`))
        expect(list.meta.pagination.total).toBe((before[i] ?? 0) + 10)
        const listed = new Set(list.data.map((doc: Doc) => doc.documentId))
        for (const doc of created.filter((entry) => entry.locale === locale)) expect(listed.has(doc.documentId)).toBe(true)
      }
      await expectStorageInvariants(ctx)
    })
  })

  describe('concurrent PUTs creating the same localization', () => {
    it('creates it once when all six decide on the same read; the other five apply as updates: six 200s', async () => {
      const { documentId } = await createArticle({ title: 'source', views: 3 })
      const before = (await json(await ctx.request('GET', '/api/articles?locale=fr'))).meta.pagination.total
      barrier(documentId, 6)
      const titles = Array.from({ length: 6 }, (_, i) => `fr ${i}`)
      const responses = await Promise.all(titles.map((title) => put(`/api/articles/${documentId}?locale=fr`, { title })))
      expect(statuses(responses)).toEqual(Array(6).fill(200))
      const answers: Doc[] = await Promise.all(responses.map(async (response) => (await json(response)).data))
      const revs = responses.map((response) => revOf(response.headers.get('etag')))
      // Each answer is a state that existed: one creation (rev 1) then five updates, in some order.
      expect([...revs].sort()).toEqual([1, 2, 3, 4, 5, 6])
      expect(new Set(answers.map((doc) => doc.id)).size).toBe(1)
      const versions = await versionsOf(documentId)
      expect(versions.map((doc) => doc.locale)).toEqual(['en', 'fr'])
      const last = answers[revs.indexOf(6)]!
      expect(versions[1]).toMatchObject({ id: last.id, title: last.title, views: 3 })
      expect(revOf(await etagOf(documentId, 'fr'))).toBe(6)
      expect((await json(await ctx.request('GET', '/api/articles?locale=fr'))).meta.pagination.total).toBe(before + 1)
      await expectStorageInvariants(ctx)
    })

    it('never duplicates it when eight run freely: each 200 or 409, one version, counted once', async () => {
      const { documentId } = await createArticle({ title: 'source' })
      const before = (await json(await ctx.request('GET', '/api/articles?locale=de'))).meta.pagination.total
      const titles = Array.from({ length: 8 }, (_, i) => `de ${i}`)
      const responses = await Promise.all(titles.map((title) => put(`/api/articles/${documentId}?locale=de`, { title })))
      for (const response of responses) expect([200, 409]).toContain(response.status)
      const accepted: Doc[] = await Promise.all(responses.filter((response) => response.status === 200).map(async (response) => (await json(response)).data))
      expect(accepted.length).toBeGreaterThan(0)
      expect(new Set(accepted.map((doc) => doc.id)).size).toBe(1) // every 200 is the same version
      const versions = await versionsOf(documentId)
      expect(versions.map((doc) => doc.locale)).toEqual(['en', 'de'])
      expect(accepted.map((doc) => doc.title)).toContain(versions[1]?.title)
      expect((await json(await ctx.request('GET', '/api/articles?locale=de'))).meta.pagination.total).toBe(before + 1)
      await expectStorageInvariants(ctx)
    })
  })

  describe('concurrent non-localized updates through different locales', () => {
    async function threeVersions(views: number): Promise<string> {
      const { documentId } = await createArticle({ title: 'en', views, category: 'c0' })
      await localize(documentId, 'fr', { title: 'fr' })
      await localize(documentId, 'de', { title: 'de' })
      return documentId
    }

    it('applies all three updates decided on the same read, one after another: three 200s, versions agree', async () => {
      const documentId = await threeVersions(1)
      const revs = await Promise.all(['en', 'fr', 'de'].map(async (locale) => revOf(await etagOf(documentId, locale))))
      barrier(documentId, 3)
      const values = { en: 11, fr: 22, de: 33 }
      const responses = await Promise.all(Object.entries(values).map(([locale, views]) =>
        put(`/api/articles/${documentId}?locale=${locale}`, { views, category: `c${views}` })))
      expect(statuses(responses)).toEqual([200, 200, 200])
      const answers: Doc[] = await Promise.all(responses.map(async (response) => (await json(response)).data))
      const versions = await versionsOf(documentId)
      const final = versions[0]!
      expect(Object.values(values)).toContain(final.views)
      expect(versions.map((doc) => [doc.locale, doc.views, doc.category])).toEqual(
        ['en', 'fr', 'de'].map((locale) => [locale, final.views, `c${final.views}`]))
      // The last to commit is the one whose answer carries the final value and the newest update time.
      expect(answers.find((doc) => doc.views === final.views)).toMatchObject({ updatedAt: final.updatedAt })
      const after = await Promise.all(['en', 'fr', 'de'].map(async (locale) => revOf(await etagOf(documentId, locale))))
      expect(after).toEqual(revs.map((rev) => rev + 3))
      await expectStorageInvariants(ctx)
    })

    it('keeps every version in agreement when twelve run freely, and every 200 is one committed write', async () => {
      const documentId = await threeVersions(0)
      const locales = ['en', 'fr', 'de']
      const revs = await Promise.all(locales.map(async (locale) => revOf(await etagOf(documentId, locale))))
      const responses = await Promise.all(Array.from({ length: 12 }, (_, i) =>
        put(`/api/articles/${documentId}?locale=${locales[i % 3]}`, { views: 100 + i, category: `c${100 + i}` })))
      for (const response of responses) expect([200, 409]).toContain(response.status)
      const accepted: Doc[] = await Promise.all(responses.filter((response) => response.status === 200).map(async (response) => (await json(response)).data))
      expect(accepted.length).toBeGreaterThan(0)
      const versions = await versionsOf(documentId)
      // No torn write: every version holds the same non-localized values and moved at the same time.
      expect(new Set(versions.map((doc) => `${doc.views}/${doc.category}/${doc.updatedAt}`)).size).toBe(1)
      const final = versions[0]!
      // The final value is the one a 200 reported (a 409 wrote nothing), the last to commit.
      const last = accepted.find((doc) => doc.views === final.views)
      expect(last).toMatchObject({ views: final.views, category: final.category, updatedAt: final.updatedAt })
      // Each committed update moves every version's revision once: the number of 200s is exactly
      // the number of commits, so no 200 was silently overwritten and no 409 was half-applied.
      const after = await Promise.all(locales.map(async (locale) => revOf(await etagOf(documentId, locale))))
      expect(after).toEqual(revs.map((rev) => rev + accepted.length))
      await expectStorageInvariants(ctx)
    })

    it('keeps versions in agreement when a non-localized update races the creation of a localization', async () => {
      const { documentId } = await createArticle({ title: 'only en', views: 5 })
      barrier(documentId, 2)
      const [update, localization] = await Promise.all([
        put(`/api/articles/${documentId}?locale=en`, { views: 6 }),
        put(`/api/articles/${documentId}?locale=fr`, { title: 'nouveau' }),
      ])
      expect(statuses([update, localization])).toEqual([200, 200])
      const versions = await versionsOf(documentId)
      expect(versions.map((doc) => [doc.locale, doc.title, doc.views])).toEqual([['en', 'only en', 6], ['fr', 'nouveau', 6]])
      await expectStorageInvariants(ctx)
    })
  })

  it('re-applies a non-localized update to a localization committed after its read', async () => {
    const { documentId } = await createArticle({ title: 'en', views: 1 })
    await localize(documentId, 'fr', { title: 'fr' })
    // Hold the update's first transaction until a localization (any later transaction) has committed.
    let updateHeld!: () => void
    const held = new Promise<void>((resolve) => (updateHeld = resolve))
    let localizationDone!: () => void
    const committed = new Promise<void>((resolve) => (localizationDone = resolve))
    let seen = 0
    ctx.db.middlewareStack.add((next: any, context: any) => async (args: any) => {
      if (context.commandName !== 'TransactWriteItemsCommand' || !JSON.stringify(args.input).includes(documentId)) return next(args)
      seen += 1
      if (seen === 1) {
        updateHeld()
        await committed
        return next(args)
      }
      if (seen === 2) {
        try {
          return await next(args)
        } finally {
          localizationDone()
        }
      }
      return next(args)
    }, { step: 'initialize', name: 'barrier', override: true })
    const update = put(`/api/articles/${documentId}?locale=fr`, { views: 2 })
    await held
    expect((await put(`/api/articles/${documentId}?locale=de`, { title: 'de' })).status).toBe(200)
    expect((await update).status).toBe(200)
    expect(seen).toBe(3) // the update lost its first attempt and retried once
    const versions = await versionsOf(documentId)
    expect(versions.map((doc) => [doc.locale, doc.views])).toEqual([['en', 2], ['fr', 2], ['de', 2]])
    await expectStorageInvariants(ctx)
  })

  it('creates a single type once when its first PUTs race in different locales', async () => {
    // Learn the single type's fixed documentId, then start over with no version at all.
    const probe = (await json(await ctx.request('PUT', '/api/homepage?locale=de', { token: key, body: { data: { title: 'probe' } } }))).data
    expect((await ctx.request('DELETE', '/api/homepage?locale=*', { token: key })).status).toBe(204)
    barrier(probe.documentId, 2)
    const [en, fr] = await Promise.all([
      next().request('PUT', '/api/homepage?locale=en', { token: key, body: { data: { title: 'home' } } }),
      next().request('PUT', '/api/homepage?locale=fr', { token: key, body: { data: { title: 'accueil' } } }),
    ])
    // One creates the document; the other, decided on "no document", may not turn into a localization.
    expect([[200, 200], [200, 409]]).toContainEqual(statuses([en, fr]))
    const stored = await Promise.all(['en', 'fr'].map(async (locale) => (await ctx.request('GET', `/api/homepage?locale=${locale}`)).status))
    expect(stored).toEqual([en.status, fr.status].map((status) => (status === 200 ? 200 : 404)))
    for (const response of [en, fr].filter((entry) => entry.status === 409)) expect((await json(response)).error.name).toBe('ConflictError')
    await expectStorageInvariants(ctx)
  })

  describe('concurrent DELETE and PUT of the same version', () => {
    it.each([1, 2, 3, 4])('never resurrects a half-written version and keeps counts exact (round %i)', async () => {
      const { documentId } = await createArticle({ title: 'en', views: 7 })
      await localize(documentId, 'fr', { title: 'fr' })
      barrier(documentId, 2)
      const [removed, updated] = await Promise.all([
        del(`/api/articles/${documentId}?locale=fr`),
        put(`/api/articles/${documentId}?locale=fr`, { title: 'fr updated' }),
      ])
      expect(removed.status).toBe(204)
      // The update either landed before the delete (200), found the version gone on its read (404),
      // or on its retry (409: turning it into a new localization would change its meaning).
      expect([200, 404, 409]).toContain(updated.status)
      expect((await versionsOf(documentId)).map((doc) => doc.locale)).toEqual(['en'])
      await expectStorageInvariants(ctx)
    })

    it.each([1, 2, 3])('keeps the document whole when its last version is deleted during an update and a new localization (round %i)', async () => {
      const { documentId } = await createArticle({ title: 'last', views: 8 })
      barrier(documentId, 3)
      const [removed, updated, localized] = await Promise.all([
        del(`/api/articles/${documentId}?locale=en`),
        put(`/api/articles/${documentId}?locale=en`, { title: 'still here?' }),
        put(`/api/articles/${documentId}?locale=fr`, { title: 'nouveau' }),
      ])
      expect([204, 409]).toContain(removed.status)
      expect([200, 404, 409]).toContain(updated.status)
      expect([200, 404, 409]).toContain(localized.status)
      const versions = await versionsOf(documentId)
      // Every outcome is some serial order: en is gone exactly when the delete won, fr exists exactly
      // when the localization won (it copied en's shared values before en went), nothing else.
      const expected = [...(removed.status === 204 ? [] : ['en']), ...(localized.status === 200 ? ['fr'] : [])]
      expect(versions.map((doc) => doc.locale)).toEqual(expected)
      for (const version of versions) expect(version.views).toBe(8)
      await expectStorageInvariants(ctx)
    })
  })

  describe('ETag and If-Match', () => {
    it('answers reads and writes with an ETag per version that changes on every write', async () => {
      const created = await ctx.request('POST', '/api/articles', { token: key, body: { data: { title: 'tagged' } } })
      const doc = (await json(created)).data
      const first = created.headers.get('etag')
      expect(first).toMatch(new RegExp(`^"${doc.id}\\.\\d+"$`))
      expect(await etagOf(doc.documentId, 'en')).toBe(first)
      const fr = await put(`/api/articles/${doc.documentId}?locale=fr`, { title: 'étiqueté' })
      expect(fr.headers.get('etag')).not.toBe(first)
      const updated = await put(`/api/articles/${doc.documentId}?locale=en`, { title: 'tagged again' })
      const second = updated.headers.get('etag')
      expect(second).not.toBe(first)
      expect(await etagOf(doc.documentId, 'en')).toBe(second)
    })

    it('answers 412 to a PUT with a stale If-Match and writes nothing; the current one succeeds', async () => {
      const { documentId } = await createArticle({ title: 'v1' })
      const stale = await etagOf(documentId, 'en')
      expect((await put(`/api/articles/${documentId}?locale=en`, { title: 'v2' })).status).toBe(200)
      const current = await etagOf(documentId, 'en')
      const rejected = await put(`/api/articles/${documentId}?locale=en`, { title: 'lost' }, { 'If-Match': stale! })
      expect(rejected.status).toBe(412)
      expect((await json(rejected)).error).toMatchObject({ status: 412, name: 'PreconditionFailedError', details: {} })
      expect((await versionsOf(documentId))[0]?.title).toBe('v2')
      expect(await etagOf(documentId, 'en')).toBe(current)
      const accepted = await put(`/api/articles/${documentId}?locale=en`, { title: 'v3' }, { 'If-Match': current! })
      expect(accepted.status).toBe(200)
      expect(accepted.headers.get('etag')).not.toBe(current)
      expect((await versionsOf(documentId))[0]?.title).toBe('v3')
    })

    it('answers 412 to a DELETE with a stale If-Match and keeps the version; the current one deletes it', async () => {
      const { documentId } = await createArticle({ title: 'keep me' })
      const stale = await etagOf(documentId, 'en')
      await put(`/api/articles/${documentId}?locale=en`, { title: 'changed' })
      expect((await del(`/api/articles/${documentId}?locale=en`, { 'If-Match': stale! })).status).toBe(412)
      expect(await versionsOf(documentId)).toHaveLength(1)
      expect((await del(`/api/articles/${documentId}?locale=en`, { 'If-Match': (await etagOf(documentId, 'en'))! })).status).toBe(204)
      expect(await versionsOf(documentId)).toEqual([])
      await expectStorageInvariants(ctx)
    })

    it('makes a sibling ETag stale when a non-localized value changes through another locale', async () => {
      const { documentId } = await createArticle({ title: 'en', views: 1 })
      await localize(documentId, 'fr', { title: 'fr' })
      const frTag = await etagOf(documentId, 'fr')
      await put(`/api/articles/${documentId}?locale=en`, { views: 2 })
      expect((await put(`/api/articles/${documentId}?locale=fr`, { title: 'stale' }, { 'If-Match': frTag! })).status).toBe(412)
      expect((await versionsOf(documentId)).map((doc) => doc.title)).toEqual(['en', 'fr'])
    })

    it('accepts If-Match: * for an existing version and answers 412 for a version that does not exist', async () => {
      const { documentId } = await createArticle({ title: 'star' })
      expect((await put(`/api/articles/${documentId}?locale=en`, { title: 'starred' }, { 'If-Match': '*' })).status).toBe(200)
      expect((await put(`/api/articles/${documentId}?locale=de`, { title: 'neu' }, { 'If-Match': '*' })).status).toBe(412)
      expect((await versionsOf(documentId)).map((doc) => doc.locale)).toEqual(['en'])
    })

    it('lets one of four PUTs carrying the same If-Match win; the others get 412', async () => {
      const { documentId } = await createArticle({ title: 'base' })
      const tag = (await etagOf(documentId, 'en'))!
      barrier(documentId, 4)
      const responses = await Promise.all([1, 2, 3, 4].map((i) => put(`/api/articles/${documentId}?locale=en`, { title: `edit ${i}` }, { 'If-Match': tag })))
      expect(statuses(responses)).toEqual([200, 412, 412, 412])
      const winner = (await json(responses.find((response) => response.status === 200)!)).data
      expect((await versionsOf(documentId))[0]?.title).toBe(winner.title)
      expect(revOf(await etagOf(documentId, 'en'))).toBe(revOf(tag) + 1)
    })

    it('gives the single type an ETag and honours If-Match on it', async () => {
      const created = await ctx.request('PUT', '/api/homepage', { token: key, body: { data: { title: 'home' } } })
      expect(created.status).toBe(200)
      const tag = created.headers.get('etag')
      expect((await ctx.request('GET', '/api/homepage')).headers.get('etag')).toBe(tag)
      await ctx.request('PUT', '/api/homepage', { token: key, body: { data: { title: 'home 2' } } })
      const stale = await ctx.request('PUT', '/api/homepage', { token: key, body: { data: { title: 'lost' } }, headers: { 'If-Match': tag! } })
      expect(stale.status).toBe(412)
      expect((await json(await ctx.request('GET', '/api/homepage'))).data.title).toBe('home 2')
    })
  })

  describe('hardening: lost races re-apply instead of answering 409', () => {
    const ROUNDS = rounds(30)

    it('never answers 409 to five parallel PUTs creating five localizations of one document', async () => {
      await ctx.addLocales('es', 'it', 'pt')
      const locales = ['fr', 'de', 'es', 'it', 'pt']
      for (let batch = 0; batch < ROUNDS; batch += 10) {
        const rounds = Array.from({ length: 10 }, (_, i) => batch + i)
        const documentIds = await Promise.all(rounds.map(async (round) => (await createArticle({ title: `r${round}`, views: round })).documentId))
        barrier(documentIds, 5)
        await Promise.all(rounds.map(async (round, i) => {
          const responses = await Promise.all(locales.map((locale) => put(`/api/articles/${documentIds[i]}?locale=${locale}`, { title: `${locale} ${round}` })))
          expect(statuses(responses)).toEqual(Array(5).fill(200))
        }))
        ctx.db.middlewareStack.remove('barrier')
        for (const [i, round] of rounds.entries()) {
          const versions = await versionsOf(documentIds[i]!)
          expect(versions.map((doc) => [doc.locale, doc.title, doc.views]).sort()).toEqual(
            [['en', `r${round}`, round], ...locales.map((locale) => [locale, `${locale} ${round}`, round])].sort())
        }
      }
      await expectStorageInvariants(ctx)
    }, hangGuard(90_000)) // rounds of fifty writes through six processes: slow when the machine is shared

    it('never answers 409 to non-localized PUTs through five locales at once; versions agree', async () => {
      const locales = ['en', 'fr', 'de', 'es', 'it']
      const documentIds = await Promise.all(Array.from({ length: 10 }, async () => {
        const { documentId } = await createArticle({ title: 'shared', views: 0 })
        for (const locale of locales.slice(1)) await localize(documentId, locale, { title: locale })
        return documentId
      }))
      for (let round = 0; round < Math.ceil(ROUNDS / 10); round++) {
        barrier(documentIds, 5)
        await Promise.all(documentIds.map(async (documentId, d) => {
          const responses = await Promise.all(locales.map((locale, i) => put(`/api/articles/${documentId}?locale=${locale}`, { views: round * 100 + d * 10 + i })))
          expect(statuses(responses)).toEqual(Array(5).fill(200))
        }))
        ctx.db.middlewareStack.remove('barrier')
        for (const [d, documentId] of documentIds.entries()) {
          const values = new Set((await versionsOf(documentId)).map((doc) => doc.views))
          expect(values.size).toBe(1)
          expect(locales.map((_, i) => round * 100 + d * 10 + i)).toContain([...values][0])
        }
      }
      await expectStorageInvariants(ctx)
    }, hangGuard(90_000)) // rounds of fifty writes through six processes: slow when the machine is shared

    async function postsRacingLocaleDeletion(poster: (path: string, data: Doc) => Promise<Response>) {
      for (let round = 0; round < ROUNDS; round++) {
        expect((await ctx.admin('POST', '/admin/i18n/locales', { code: 'sv' })).status).toBe(201)
        const [removed, ...posts] = await Promise.all([
          ctx.admin('DELETE', '/admin/i18n/locales/sv'),
          ...[1, 2, 3].map((i) => poster('/api/articles?locale=sv', { title: `sv ${round}.${i}` })),
        ])
        const locales = (await json(await ctx.admin('GET', '/admin/i18n/locales'))).data.map((locale: Doc) => locale.code)
        const created: Doc[] = await Promise.all(posts.filter((response) => response.status === 200).map(async (response) => (await json(response)).data))
        for (const response of posts) expect([200, 400]).toContain(response.status)
        if (locales.includes('sv')) {
          // The deletion lost (409: the locale has content) and every 200 is stored.
          expect(removed.status).toBe(409)
          expect(created.length).toBeGreaterThan(0)
          for (const doc of created) expect((await versionsOf(doc.documentId)).map((version) => version.locale)).toEqual(['sv'])
          for (const doc of created) expect((await ctx.request('DELETE', `/api/articles/${doc.documentId}?locale=*`, { token: key })).status).toBe(204)
          expect((await ctx.admin('DELETE', '/admin/i18n/locales/sv')).status).toBe(204)
        } else {
          expect({ round, removed: removed.status, posts: statuses(posts) }).toEqual({ round, removed: 204, posts: [400, 400, 400] })
        }
        await expectStorageInvariants(ctx)
      }
    }

    it('never stores versions in a locale deleted while POSTs to it run (one process)', async () => {
      await postsRacingLocaleDeletion((path, data) => ctx.request('POST', path, { token: key, body: { data } }))
    })

    it('never stores versions in a locale deleted while POSTs to it run (a second process with a stale cache)', async () => {
      const peer = createPeer(ctx, { cacheTtlMs: 600_000 })
      await postsRacingLocaleDeletion((path, data) => peer.request('POST', path, { token: key, body: { data } }))
    })

    it('leaves nothing after a 204 for DELETE ?locale=* unless the racing localization committed after it', async () => {
      for (let round = 0; round < ROUNDS; round++) {
        const { documentId } = await createArticle({ title: `gone ${round}`, views: round })
        barrier(documentId, 2)
        const [removed, localized] = await Promise.all([
          del(`/api/articles/${documentId}?locale=*`),
          put(`/api/articles/${documentId}?locale=fr`, { title: `fr ${round}` }),
        ])
        ctx.db.middlewareStack.remove('barrier')
        expect([200, 404, 409]).toContain(localized.status)
        const left = (await versionsOf(documentId)).map((doc) => doc.locale)
        if (removed.status === 204) {
          // Either the localization came first and was deleted too, or it found no document (404).
          expect({ round, left }).toEqual({ round, left: [] })
        } else {
          expect({ round, removed: removed.status }).toEqual({ round, removed: 404 })
        }
        await expectStorageInvariants(ctx)
      }
    })

    it('posts without a locale to the stored default after parallel default switches', async () => {
      for (let round = 0; round < rounds(10); round++) {
        const responses = await Promise.all(['fr', 'de', 'en'].map((code) => ctx.admin('PUT', `/admin/i18n/locales/${code}`, { isDefault: true })))
        // A registry write that lost the race is re-read and re-applied: every switch succeeds.
        expect(responses.map((response) => response.status)).toEqual([200, 200, 200])
        const stored = (await json(await ctx.admin('GET', '/admin/i18n/locales'))).data.find((locale: Doc) => locale.isDefault).code
        const created = (await json(await ctx.request('POST', '/api/articles', { token: key, body: { data: { title: 'default' } } }))).data
        expect({ round, locale: created.locale }).toEqual({ round, locale: stored })
      }
      expect((await ctx.admin('PUT', '/admin/i18n/locales/en', { isDefault: true })).status).toBe(200)
    })
  })
})
