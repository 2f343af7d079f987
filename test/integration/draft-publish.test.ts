// Draft & publish per locale (content-model.md §15, §17; issue 22), sentence by sentence, through
// HTTP against DynamoDB Local: writes with and without `status`, reads per status and who may read
// drafts, the publish / unpublish / discard-draft actions and their permission, If-Match per status,
// non-localized values per status, `publicationFilter`, and status combined with fields, filters,
// sort, `_q`, `locale=*`, fallback and conditional requests. Lists and counts are compared with a
// brute-force reading of every version (get one with locale=*) and with what the test created.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { SETTLE_MS } from '../../lib/storage/lists/validator.js'
import { createTestContext, json, tableSnapshot, type TestContext } from '../support/context.js'
import {
  STATUSES, bruteForce, dataOf, draftClient, expectListsMatchBruteForce, idOfTag, keysOf, listAll, oneOf, versionsOf,
  type ActionName, type Doc, type DraftClient, type Status,
} from '../support/drafts.js'
import { countedPeer, shop } from '../support/relations.js'

const ARTICLE = 'api::article.article'
const HOMEPAGE = 'api::homepage.homepage'
const FORBIDDEN = { status: 403, name: 'ForbiddenError', message: 'Forbidden', details: {} }
const PRIVATE = 'private, no-cache'
const ACTIONS: readonly ActionName[] = ['publish', 'unpublish', 'discard-draft']
const PUBLICATION_FILTERS = [
  'never-published', 'has-published-version', 'never-published-document', 'has-published-version-document',
  'modified', 'unmodified', 'published-without-draft', 'published-with-draft',
] as const
type PublicationFilter = (typeof PUBLICATION_FILTERS)[number]
/** The attributes a version holds (what a copy carries), without its system fields. */
const ATTRIBUTES = ['title', 'body', 'slug', 'views', 'category'] as const
const attributesOf = (doc: Doc) => Object.fromEntries(ATTRIBUTES.map((name) => [name, doc[name]]))
const statusMessage = (value: string) => `Invalid parameter at 'status'. Expected 'published' or 'draft', received: ${value}`
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** A fresh table with a full-access key, the locales asked for, and a client of articles and of the homepage. */
async function setup(locales: string[] = ['fr', 'de'], overrides: Parameters<typeof createTestContext>[0] = {}) {
  const ctx = await createTestContext(overrides)
  const key = await ctx.token()
  if (locales.length > 0) await ctx.addLocales(...locales)
  return { ctx, key, api: draftClient(ctx, key), home: draftClient(ctx, key, '/api/homepage') }
}

/** The published and the draft version of one locale (undefined when it has none). */
async function bothOf(api: DraftClient, documentId: string | undefined, locale = 'en'): Promise<Record<Status, Doc | undefined>> {
  const read = async (status: Status) => {
    const response = await api.get(documentId, { locale, status, fallback: 'false' })
    if (response.status === 404) return undefined
    return oneOf(response)
  }
  return { published: await read('published'), draft: await read('draft') }
}

/** The ETag a read of one version in `status` answers. */
async function tagOf(api: DraftClient, documentId: string | undefined, status: Status, locale = 'en'): Promise<string> {
  const response = await api.get(documentId, { locale, status })
  expect(response.status).toBe(200)
  return response.headers.get('etag') as string
}

/** Expects a 400 ValidationError naming `param` in its query details, and that nothing was written. */
async function expectQueryError(ctx: TestContext, send: () => Promise<Response>, param: string, message?: string | RegExp): Promise<any> {
  const before = await tableSnapshot(ctx)
  const response = await send()
  expect(response.status).toBe(400)
  const { error } = await json(response)
  expect(error).toMatchObject({ status: 400, name: 'ValidationError' })
  expect(error.details).toMatchObject({ source: 'query', param })
  if (typeof message === 'string') expect(error.message).toBe(message)
  else if (message !== undefined) expect(error.message).toMatch(message)
  expect(await tableSnapshot(ctx)).toBe(before)
  return error
}

describe('writes: a draft and a published version per locale', () => {
  let ctx: TestContext
  let api: DraftClient

  beforeAll(async () => {
    ({ ctx, api } = await setup())
  })

  it('POST without status writes the draft and publishes it: two versions with their own ids, the draft\'s publishedAt null', async () => {
    const response = await api.post({ title: 'both', views: 1, category: 'news' })
    const answer = await dataOf(response)
    const { published, draft } = await bothOf(api, answer.documentId)
    expect(published).toEqual(answer)
    expect(typeof published?.publishedAt).toBe('string')
    expect(Number.isNaN(Date.parse(published?.publishedAt))).toBe(false)
    expect(draft).toMatchObject({ documentId: answer.documentId, locale: 'en', title: 'both', views: 1, category: 'news', publishedAt: null })
    expect(draft?.id).toEqual(expect.any(Number))
    expect(draft?.id).not.toBe(published?.id)
    expect(Object.keys(draft ?? {})).toEqual(Object.keys(answer)) // today's shape, for drafts too
    expect(attributesOf(draft ?? {})).toEqual(attributesOf(answer))
  })

  it('POST with status=published is the same as without status', async () => {
    const answer = await dataOf(await api.post({ title: 'explicit' }, { status: 'published' }))
    expect(typeof answer.publishedAt).toBe('string')
    const { published, draft } = await bothOf(api, answer.documentId)
    expect(published).toEqual(answer)
    expect(draft).toMatchObject({ title: 'explicit', publishedAt: null })
  })

  it('POST with status=draft writes the draft only: answers the draft, no published version (404), absent from published lists', async () => {
    const before = await listAll(api, 'status=published&locale=en')
    const draftsBefore = await listAll(api, 'status=draft&locale=en')
    const response = await api.post({ title: 'only a draft' }, { status: 'draft' })
    const answer = await dataOf(response)
    expect(answer).toMatchObject({ title: 'only a draft', publishedAt: null, locale: 'en' })
    expect(idOfTag(response.headers.get('etag'))).toBe(answer.id)
    expect((await api.get(answer.documentId)).status).toBe(404)
    expect((await api.get(answer.documentId, { status: 'published' })).status).toBe(404)
    expect(await oneOf(await api.get(answer.documentId, { status: 'draft' }))).toEqual(answer)
    const after = await listAll(api, 'status=published&locale=en')
    expect(after.total).toBe(before.total)
    expect(after.data.map((doc) => doc.documentId)).not.toContain(answer.documentId)
    const drafts = await listAll(api, 'status=draft&locale=en')
    expect(drafts.total).toBe(draftsBefore.total + 1)
    expect(drafts.data.map((doc) => doc.documentId)).toContain(answer.documentId)
  })

  it('PUT without status updates the draft and publishes it; the published version keeps its id, publishedAt moves', async () => {
    const created = await dataOf(await api.post({ title: 'v1', views: 1 }))
    const first = await bothOf(api, created.documentId)
    await pause(5)
    const response = await api.put(created.documentId, { title: 'v2', views: 2 })
    const answer = await dataOf(response)
    const second = await bothOf(api, created.documentId)
    expect(answer).toEqual(second.published)
    expect(idOfTag(response.headers.get('etag'))).toBe(first.published?.id)
    expect(second.published).toMatchObject({ id: first.published?.id, title: 'v2', views: 2 })
    expect(second.draft).toMatchObject({ id: first.draft?.id, title: 'v2', views: 2, publishedAt: null })
    expect(Date.parse(second.published?.publishedAt)).toBeGreaterThan(Date.parse(first.published?.publishedAt))
    expect(attributesOf(second.draft ?? {})).toEqual(attributesOf(second.published ?? {}))
  })

  it('PUT with status=draft writes the draft only: the published version is unchanged, body and ETag', async () => {
    const created = await dataOf(await api.post({ title: 'live', views: 1, category: 'a' }))
    const publishedTag = await tagOf(api, created.documentId, 'published')
    const draftTag = await tagOf(api, created.documentId, 'draft')
    const response = await api.put(created.documentId, { title: 'work in progress', views: 5 }, { status: 'draft' })
    const answer = await dataOf(response)
    const { published, draft } = await bothOf(api, created.documentId)
    expect(answer).toEqual(draft)
    expect(answer).toMatchObject({ title: 'work in progress', views: 5, category: 'a', publishedAt: null })
    expect(idOfTag(response.headers.get('etag'))).toBe(draft?.id)
    expect(published).toEqual(created)
    expect(await tagOf(api, created.documentId, 'published')).toBe(publishedTag)
    expect(await tagOf(api, created.documentId, 'draft')).not.toBe(draftTag)
  })

  it('PUT with status=published is the same as without status', async () => {
    const created = await dataOf(await api.post({ title: 'one' }))
    await api.put(created.documentId, { title: 'draft only' }, { status: 'draft' })
    const answer = await dataOf(await api.put(created.documentId, { slug: 'sl' }, { status: 'published' }))
    expect(answer).toMatchObject({ id: created.id, title: 'draft only', slug: 'sl' })
    expect(typeof answer.publishedAt).toBe('string')
    expect((await bothOf(api, created.documentId)).published).toEqual(answer)
  })

  it('PUT with status=draft in a new locale creates its draft only; other locales are unchanged', async () => {
    const created = await dataOf(await api.post({ title: 'en', views: 3 }))
    const answer = await dataOf(await api.put(created.documentId, { title: 'fr brouillon' }, { locale: 'fr', status: 'draft' }))
    expect(answer).toMatchObject({ documentId: created.documentId, locale: 'fr', title: 'fr brouillon', views: 3, publishedAt: null })
    const fr = await bothOf(api, created.documentId, 'fr')
    expect(fr.published).toBeUndefined()
    expect(fr.draft).toEqual(answer)
    expect((await bothOf(api, created.documentId, 'en')).published).toEqual(created)
  })

  it('PUT without status in a new locale creates both its versions', async () => {
    const created = await dataOf(await api.post({ title: 'en', views: 4 }))
    const answer = await dataOf(await api.put(created.documentId, { title: 'de' }, { locale: 'de' }))
    const de = await bothOf(api, created.documentId, 'de')
    expect(de.published).toEqual(answer)
    expect(de.draft).toMatchObject({ title: 'de', views: 4, publishedAt: null })
    expect(new Set([created.id, answer.id, de.draft?.id]).size).toBe(3)
  })

  it('gives every version its own id: no two versions of the type share one', async () => {
    const documentIds = (await listAll(api, 'status=draft&locale=*')).data.map((doc) => doc.documentId)
    const all = await bruteForce(api, new Set(documentIds))
    const ids = [...all.published, ...all.draft].map((doc) => doc.id)
    expect(new Set(ids).size).toBe(ids.length)
  })

  // Amended (content-model.md §15, behaviour.md §6; issue 33): publishedAt in a body is accepted and
  // ignored as Strapi 5 does, so a version read can be written back; only `publishedAt: null` on a
  // write that publishes is refused (Strapi 4's way to ask for a draft, which Strapi 5 publishes).
  it('accepts and ignores publishedAt in a body: a version read is written back as it is', async () => {
    const created = await dataOf(await api.post({ title: 'x', publishedAt: '2030-01-01T00:00:00.000Z' }))
    expect(created.publishedAt).not.toBe('2030-01-01T00:00:00.000Z')
    expect(Date.parse(created.publishedAt)).toBeLessThanOrEqual(Date.now())
    const { id: _id, documentId, createdAt: _c, updatedAt: _u, locale: _l, ...read } = created
    const written = await dataOf(await api.put(documentId, { ...read, title: 'x, again' }))
    expect(written).toMatchObject({ title: 'x, again', id: created.id })
    expect(written.publishedAt).not.toBe(created.publishedAt)
    const draft = await dataOf(await api.put(documentId, { ...read, title: 'draft', publishedAt: '2030-01-01T00:00:00.000Z' }, { status: 'draft' }))
    expect(draft).toMatchObject({ title: 'draft', publishedAt: null })
    expect(await dataOf(await api.post({ title: 'y', publishedAt: null }, { status: 'draft' }))).toMatchObject({ title: 'y', publishedAt: null })
    expect((await bothOf(api, documentId)).published).toMatchObject({ title: 'x, again' })
  })

  it('answers 400 pointing to status=draft to publishedAt: null on a write that publishes, and writes nothing', async () => {
    const created = await dataOf(await api.post({ title: 'x' }))
    const cases: [string, () => Promise<Response>][] = [
      ['POST', () => api.post({ title: 'y', publishedAt: null })],
      ['POST status=published', () => api.post({ title: 'y', publishedAt: null }, { status: 'published' })],
      ['PUT', () => api.put(created.documentId, { title: 'z', publishedAt: null })],
    ]
    for (const [name, send] of cases) {
      const before = await tableSnapshot(ctx)
      const response = await send()
      expect({ name, status: response.status }).toEqual({ name, status: 400 })
      const { error } = await json(response)
      expect({ name, message: error.message }).toEqual({ name, message: expect.stringContaining('status=draft') })
      expect(error.details.errors).toEqual([{ path: ['publishedAt'], message: error.message, name: 'ValidationError' }])
      expect(await tableSnapshot(ctx)).toBe(before)
    }
  })

  it.each(['draft', 'published', 'DRAFT'])('answers 400 to status=%s on DELETE and deletes nothing', async (value) => {
    const created = await dataOf(await api.post({ title: 'kept' }))
    await expectQueryError(ctx, () => api.del(created.documentId, { status: value }), 'status')
    await expectQueryError(ctx, () => api.del(created.documentId, { status: value, locale: '*' }), 'status')
    expect((await bothOf(api, created.documentId)).published).toEqual(created)
  })

  it.each(['DRAFT', 'preview', 'live'])('answers 400 to status=%s on POST and PUT and writes nothing', async (value) => {
    const created = await dataOf(await api.post({ title: 'kept' }))
    await expectQueryError(ctx, () => api.post({ title: 'no' }, { status: value }), 'status', /^Invalid parameter at 'status'/)
    await expectQueryError(ctx, () => api.put(created.documentId, { title: 'no' }, { status: value }), 'status', /^Invalid parameter at 'status'/)
  })

  it('DELETE removes both versions of the locale and keeps the other locales', async () => {
    const created = await dataOf(await api.post({ title: 'en' }))
    await dataOf(await api.put(created.documentId, { title: 'fr' }, { locale: 'fr' }))
    await dataOf(await api.put(created.documentId, { title: 'fr draft' }, { locale: 'fr', status: 'draft' }))
    expect((await api.del(created.documentId, { locale: 'fr' })).status).toBe(204)
    expect(await bothOf(api, created.documentId, 'fr')).toEqual({ published: undefined, draft: undefined })
    expect((await bothOf(api, created.documentId, 'en')).published).toEqual(created)
    expect(Object.keys(await versionsOf(api, created.documentId, 'draft'))).toEqual(['en'])
  })

  it('DELETE removes the draft of a locale never published', async () => {
    const created = await dataOf(await api.post({ title: 'never' }, { status: 'draft' }))
    expect((await api.del(created.documentId)).status).toBe(204)
    expect(await bothOf(api, created.documentId)).toEqual({ published: undefined, draft: undefined })
    expect((await api.del(created.documentId)).status).toBe(404)
  })

  it('DELETE with locale=* removes every version of both statuses, and the counts follow', async () => {
    const created = await dataOf(await api.post({ title: 'en' }))
    await dataOf(await api.put(created.documentId, { title: 'fr' }, { locale: 'fr', status: 'draft' }))
    await dataOf(await api.put(created.documentId, { title: 'de' }, { locale: 'de' }))
    const before = { published: (await listAll(api, 'status=published&locale=*')).total, draft: (await listAll(api, 'status=draft&locale=*')).total }
    expect((await api.del(created.documentId, { locale: '*' })).status).toBe(204)
    for (const status of STATUSES) expect(await versionsOf(api, created.documentId, status)).toEqual({})
    expect((await listAll(api, 'status=published&locale=*')).total).toBe(before.published - 2)
    expect((await listAll(api, 'status=draft&locale=*')).total).toBe(before.draft - 3)
  })

  it('gives the single type the same two versions: PUT status=draft leaves it unpublished, PUT without status publishes', async () => {
    const home = draftClient(ctx, (await ctx.token()), '/api/homepage')
    const draft = await dataOf(await home.put(undefined, { title: 'Home draft' }, { status: 'draft' }))
    expect(draft).toMatchObject({ title: 'Home draft', publishedAt: null })
    expect((await home.get(undefined)).status).toBe(404)
    expect(await dataOf(await home.get(undefined, { status: 'draft' }))).toEqual(draft)
    const published = await dataOf(await home.put(undefined, { tagline: 'Hi' }))
    expect(published).toMatchObject({ title: 'Home draft', tagline: 'Hi' })
    expect(typeof published.publishedAt).toBe('string')
    expect(published.id).not.toBe(draft.id)
    expect(await dataOf(await home.get(undefined))).toEqual(published)
    expect(await dataOf(await home.get(undefined, { status: 'draft' }))).toMatchObject({ id: draft.id, title: 'Home draft', tagline: 'Hi', publishedAt: null })
  })
})

describe('reads per status', () => {
  let ctx: TestContext
  let key: string
  let api: DraftClient
  /** Every (documentId, locale) the test created, and whether it was published. */
  const created: { documentId: string; locale: string; published: boolean; title: string }[] = []
  const documentIds = () => new Set(created.map((entry) => entry.documentId))
  let neverPublished: Doc
  let modified: Doc

  beforeAll(async () => {
    ({ ctx, key, api } = await setup(['fr']))
    for (const [i, title] of ['alpha', 'Bravo', 'charlie'].entries()) {
      const doc = await dataOf(await api.post({ title, views: i, category: i % 2 === 0 ? 'even' : 'odd' }))
      created.push({ documentId: doc.documentId, locale: 'en', published: true, title })
      if (i === 0) {
        await dataOf(await api.put(doc.documentId, { title: 'alpha fr' }, { locale: 'fr' }))
        created.push({ documentId: doc.documentId, locale: 'fr', published: true, title: 'alpha fr' })
      }
    }
    neverPublished = await dataOf(await api.post({ title: 'delta', views: 9, category: 'even' }, { status: 'draft' }))
    created.push({ documentId: neverPublished.documentId, locale: 'en', published: false, title: 'delta' })
    await dataOf(await api.put(neverPublished.documentId, { title: 'delta fr' }, { locale: 'fr', status: 'draft' }))
    created.push({ documentId: neverPublished.documentId, locale: 'fr', published: false, title: 'delta fr' })
    modified = await dataOf(await api.post({ title: 'echo', views: 4, category: 'odd' }))
    await dataOf(await api.put(modified.documentId, { title: 'echo edited' }, { status: 'draft' }))
    created.push({ documentId: modified.documentId, locale: 'en', published: true, title: 'echo' })
  })

  it('counts each status exactly as created: every version has a draft, published versions only where published', async () => {
    for (const locale of ['en', 'fr', '*']) {
      const mine = created.filter((entry) => locale === '*' || entry.locale === locale)
      expect({ locale, total: (await listAll(api, `status=draft&locale=${locale}`)).total }).toEqual({ locale, total: mine.length })
      expect({ locale, total: (await listAll(api, `status=published&locale=${locale}`)).total }).toEqual({ locale, total: mine.filter((entry) => entry.published).length })
    }
    await expectListsMatchBruteForce(api, documentIds(), ['en', 'fr'])
  })

  it('reads published versions by default: a list, get one and locale=* without status answer as status=published', async () => {
    for (const [plain, explicit] of [
      ['', 'status=published'],
      ['locale=*&sort=title', 'locale=*&sort=title&status=published'],
      ['locale=fr', 'locale=fr&status=published'],
    ]) {
      expect(await json(await api.list(plain as string))).toEqual(await json(await api.list(explicit as string)))
    }
    expect(await json(await api.get(modified.documentId))).toEqual(await json(await api.get(modified.documentId, { status: 'published' })))
    expect((await oneOf(await api.get(modified.documentId))).title).toBe('echo')
    expect((await oneOf(await api.get(modified.documentId, { status: 'draft' }))).title).toBe('echo edited')
  })

  it('shows publishedAt null in every draft and a time in every published version', async () => {
    for (const doc of (await listAll(api, 'status=draft&locale=*')).data) expect(doc.publishedAt).toBeNull()
    for (const doc of (await listAll(api, 'status=published&locale=*')).data) expect(doc.publishedAt).toEqual(expect.any(String))
  })

  it('answers 404 on get one for a locale never published, 200 with its draft for status=draft', async () => {
    for (const locale of ['en', 'fr']) {
      expect((await api.get(neverPublished.documentId, { locale })).status).toBe(404)
      expect((await api.get(neverPublished.documentId, { locale, status: 'published' })).status).toBe(404)
      expect(await oneOf(await api.get(neverPublished.documentId, { locale, status: 'draft' }))).toMatchObject({ locale, publishedAt: null })
    }
    expect((await api.get(neverPublished.documentId, { locale: '*' })).status).toBe(404)
    expect((await dataOf(await api.get(neverPublished.documentId, { locale: '*', status: 'draft' }))).map((doc: Doc) => doc.locale).sort()).toEqual(['en', 'fr'])
  })

  it('answers get one with locale=* with every version of the status asked, and counts them', async () => {
    const [first] = created
    const published = await json(await api.get(first!.documentId, { locale: '*' }))
    const drafts = await json(await api.get(first!.documentId, { locale: '*', status: 'draft' }))
    expect(published.data.map((doc: Doc) => [doc.locale, doc.publishedAt === null])).toEqual([['en', false], ['fr', false]])
    expect(drafts.data.map((doc: Doc) => [doc.locale, doc.publishedAt])).toEqual([['en', null], ['fr', null]])
    expect(drafts.meta.pagination.total).toBe(2)
    expect(new Set([...published.data, ...drafts.data].map((doc: Doc) => doc.id)).size).toBe(4)
  })

  it('filters within the status: a draft value never matches a published list, and counts follow', async () => {
    const byDraftTitle = 'filters[title][$eq]=echo%20edited'
    expect((await listAll(api, `${byDraftTitle}`)).total).toBe(0)
    const drafts = await listAll(api, `${byDraftTitle}&status=draft`)
    expect(drafts.data.map((doc) => [doc.documentId, doc.publishedAt])).toEqual([[modified.documentId, null]])
    const byPublishedTitle = 'filters[title][$eq]=echo'
    expect((await listAll(api, `${byPublishedTitle}&status=draft`)).total).toBe(0)
    expect((await listAll(api, `${byPublishedTitle}`)).data.map((doc) => doc.documentId)).toEqual([modified.documentId])
    const even = await listAll(api, 'filters[category][$eq]=even&status=draft&locale=*')
    const truth = await bruteForce(api, documentIds())
    expect(keysOf(even.data)).toEqual(keysOf(truth.draft.filter((doc) => doc.category === 'even')))
    expect(even.total).toBe(even.data.length)
  })

  it('sorts and paginates within the status, as a brute-force sort of that status\'s versions', async () => {
    const truth = await bruteForce(api, documentIds())
    const collator = new Intl.Collator('en')
    for (const status of STATUSES) {
      const expected = truth[status].filter((doc) => doc.locale === 'en').sort((a, b) => collator.compare(b.title, a.title) || a.id - b.id)
      const pages: Doc[] = []
      for (let page = 1; page <= 3; page++) {
        const body = await json(await api.list(`status=${status}&sort=title:desc&pagination[pageSize]=2&pagination[page]=${page}`))
        expect(body.meta.pagination).toEqual({ page, pageSize: 2, pageCount: Math.ceil(expected.length / 2), total: expected.length })
        pages.push(...body.data)
      }
      expect({ status, titles: pages.map((doc) => doc.title) }).toEqual({ status, titles: expected.map((doc) => doc.title) })
      const offset = await json(await api.list(`status=${status}&sort=title:desc&pagination[start]=1&pagination[limit]=2`))
      expect(offset.data.map((doc: Doc) => doc.id)).toEqual(expected.slice(1, 3).map((doc) => doc.id))
      expect(offset.meta.pagination).toEqual({ start: 1, limit: 2, total: expected.length })
    }
  })

  it('selects fields within the status', async () => {
    const draft = await json(await api.list(`status=draft&fields=title,publishedAt&filters[documentId][$eq]=${modified.documentId}`))
    expect(draft.data).toEqual([{ id: expect.any(Number), documentId: modified.documentId, title: 'echo edited', publishedAt: null }])
    const one = await oneOf(await api.get(modified.documentId, { status: 'draft', 'fields[0]': 'title' }))
    expect(one).toEqual({ id: draft.data[0].id, documentId: modified.documentId, title: 'echo edited' })
    const published = await oneOf(await api.get(modified.documentId, { fields: 'title' }))
    expect(published).toEqual({ id: modified.id, documentId: modified.documentId, title: 'echo' })
  })

  it('searches with _q within the status', async () => {
    expect((await listAll(api, '_q=edited')).total).toBe(0)
    expect((await listAll(api, '_q=edited&status=draft')).data.map((doc) => doc.documentId)).toEqual([modified.documentId])
    expect((await listAll(api, '_q=delta&status=draft&locale=*')).total).toBe(2)
    expect((await listAll(api, '_q=delta&locale=*')).total).toBe(0)
  })

  describe.each([
    ['DRAFT', 'status=DRAFT'],
    ['Published', 'status=Published'],
    ['preview', 'status=preview'],
    ['live', 'status=live'],
    ['drafts', 'status=drafts'],
  ])('status=%s', (value, query) => {
    it('answers 400 with the exact message on every read route', async () => {
      const routes = [
        `/api/articles?${query}`,
        `/api/articles?${query}&locale=*`,
        `/api/articles/${modified.documentId}?${query}`,
        `/api/articles/${modified.documentId}?${query}&locale=*`,
        `/api/homepage?${query}`,
      ]
      for (const path of routes) {
        await expectQueryError(ctx, () => ctx.request('GET', path, { token: key }), 'status', statusMessage(value))
      }
    })
  })

  it.each([
    ['status[0]=draft'],
    ['status[0]=draft&status[1]=published'],
    ['status[draft]=1'],
  ])('answers 400 to %s (not one value), naming status', async (query) => {
    for (const path of ['/api/articles', `/api/articles/${modified.documentId}`, '/api/homepage']) {
      await expectQueryError(ctx, () => ctx.request('GET', `${path}?${query}`, { token: key }), 'status', /^Invalid parameter at 'status'\. Expected 'published' or 'draft', received: /)
    }
  })

  describe('who may read drafts (findDrafts)', () => {
    const routes = () => [
      ['a list', '/api/articles?status=draft'],
      ['a list of every locale', '/api/articles?status=draft&locale=*'],
      ['get one', `/api/articles/${modified.documentId}?status=draft`],
      ['get one of every locale', `/api/articles/${modified.documentId}?status=draft&locale=*`],
      ['the single type', '/api/homepage?status=draft'],
    ] as const
    beforeAll(async () => {
      expect((await ctx.request('PUT', '/api/homepage', { token: key, body: { data: { title: 'Home' } } })).status).toBe(200)
      expect((await ctx.request('PUT', '/api/homepage?status=draft', { token: key, body: { data: { title: 'Home next' } } })).status).toBe(200)
    })

    const callers: [string, number, () => Promise<string | undefined>][] = [
      ['the public role', 403, async () => undefined],
      ['a read-only token', 200, () => ctx.token('read-only')],
      ['a full-access token', 200, () => ctx.token('full-access')],
      ['a custom token with find and findOne only', 403, () => ctx.token('custom', [`${ARTICLE}.find`, `${ARTICLE}.findOne`, `${HOMEPAGE}.find`])],
      ['a custom token granted findDrafts', 200, () => ctx.token('custom', [`${ARTICLE}.find`, `${ARTICLE}.findOne`, `${ARTICLE}.findDrafts`, `${HOMEPAGE}.find`, `${HOMEPAGE}.findDrafts`])],
    ]
    it.each(callers)('answers %s with %i on draft reads, and 200 on published reads', async (_name, status, token) => {
      const accessKey = await token()
      for (const [name, path] of routes()) {
        const response = await ctx.request('GET', path, { token: accessKey })
        expect({ name, status: response.status }).toEqual({ name, status })
        if (status === 403) {
          expect((await json(response)).error).toEqual(FORBIDDEN)
          expect(response.headers.get('cache-control')).toBe('no-store')
          // Not even a 304 for a caller that may not read the draft.
          expect((await ctx.request('GET', path, { token: accessKey, headers: { 'If-None-Match': '*' } })).status).toBe(403)
        } else {
          expect({ name, cacheControl: response.headers.get('cache-control') }).toEqual({ name, cacheControl: PRIVATE })
        }
        const published = await ctx.request('GET', path.replace('status=draft', 'status=published'), { token: accessKey })
        expect({ name, status: published.status }).toEqual({ name, status: 200 })
      }
    })

    // Every publicationFilter value tells which documents have drafts, or unpublished changes (issue 33, point 3).
    it.each(callers)('answers %s with %i on publicationFilter, whatever its value and the status', async (_name, status, token) => {
      const accessKey = await token()
      for (const filter of PUBLICATION_FILTERS) {
        for (const query of [`publicationFilter=${filter}`, `publicationFilter=${filter}&status=published`, `publicationFilter=${filter}&status=draft&locale=*`]) {
          const response = await ctx.request('GET', `/api/articles?${query}`, { token: accessKey })
          expect({ query, status: response.status }).toEqual({ query, status })
          if (status === 403) expect((await json(response)).error).toEqual(FORBIDDEN)
          expect({ query, cacheControl: response.headers.get('cache-control') }).toEqual({ query, cacheControl: status === 403 ? 'no-store' : PRIVATE })
        }
      }
    })

    it('lets the public role read drafts once findDrafts is granted through the admin API, answering them private, never public', async () => {
      const role = await json(await ctx.admin('GET', '/admin/roles/public'))
      const permissions: string[] = role.data.permissions
      expect(permissions).not.toContain(`${ARTICLE}.findDrafts`)
      const granted = await ctx.admin('PUT', '/admin/roles/public', { permissions: [...permissions, `${ARTICLE}.findDrafts`, `${HOMEPAGE}.findDrafts`] })
      expect(granted.status).toBe(200)
      try {
        for (const [name, path] of routes()) {
          const response = await ctx.request('GET', path)
          expect({ name, status: response.status, cacheControl: response.headers.get('cache-control') }).toEqual({ name, status: 200, cacheControl: PRIVATE })
          const revalidated = await ctx.request('GET', path, { headers: { 'If-None-Match': response.headers.get('etag') as string } })
          expect({ name, status: revalidated.status, cacheControl: revalidated.headers.get('cache-control') }).toEqual({ name, status: 304, cacheControl: PRIVATE })
          const published = await ctx.request('GET', path.replace('status=draft', 'status=published'))
          expect({ name, cacheControl: published.headers.get('cache-control') }).toEqual({ name, cacheControl: expect.stringMatching(/^public/) })
        }
        // publicationFilter reads drafts whatever the status (issue 33, point 3): never cached publicly either.
        for (const query of PUBLICATION_FILTERS.flatMap((filter) => [`publicationFilter=${filter}`, `publicationFilter=${filter}&status=published`])) {
          const response = await ctx.request('GET', `/api/articles?${query}`)
          expect({ query, status: response.status, cacheControl: response.headers.get('cache-control') }).toEqual({ query, status: 200, cacheControl: PRIVATE })
        }
      } finally {
        expect((await ctx.admin('PUT', '/admin/roles/public', { permissions })).status).toBe(200)
      }
      expect((await ctx.request('GET', '/api/articles?status=draft')).status).toBe(403)
    })
  })
})

describe('types without draft & publish (author, tag) ignore status', () => {
  let ctx: TestContext
  let key: string
  beforeAll(async () => {
    ({ ctx, key } = await setup(['fr']))
  })

  it('writes with status=draft as without: the version is readable at once, publishedAt set', async () => {
    const response = await ctx.request('POST', '/api/authors?status=draft', { token: key, body: { data: { name: 'Ada', email: 'ada@example.com' } } })
    const author = await dataOf(response)
    expect(typeof author.publishedAt).toBe('string')
    const read = await ctx.request('GET', `/api/authors/${author.documentId}`)
    expect(await oneOf(read)).toEqual(author)
    const tag = await dataOf(await ctx.request('POST', '/api/tags?status=draft', { token: key, body: { data: { name: 'News' } } }))
    expect(typeof tag.publishedAt).toBe('string')
    expect((await ctx.request('GET', `/api/tags/${tag.documentId}`)).status).toBe(200)
  })

  it.each(['draft', 'published', 'DRAFT'])('answers status=%s reads exactly as reads without status, to anyone who may find', async (status) => {
    for (const path of ['/api/authors', '/api/tags', '/api/authors?locale=*']) {
      const plain = await ctx.request('GET', path)
      const withStatus = await ctx.request('GET', `${path}${path.includes('?') ? '&' : '?'}status=${status}`)
      expect({ path, status: withStatus.status }).toEqual({ path, status: 200 })
      expect(await json(withStatus)).toEqual(await json(plain))
    }
  })

  it('deletes with status as without (status is a 400 on DELETE only for draft & publish types)', async () => {
    const author = await dataOf(await ctx.request('POST', '/api/authors', { token: key, body: { data: { name: 'Grace', email: 'grace@example.com' } } }))
    expect((await ctx.request('DELETE', `/api/authors/${author.documentId}?status=draft`, { token: key })).status).toBe(204)
    expect((await ctx.request('GET', `/api/authors/${author.documentId}`)).status).toBe(404)
  })
})

describe('conditional requests and the page cache per status', () => {
  let ctx: TestContext
  let api: DraftClient
  let doc: Doc
  const settle = () => vi.setSystemTime(Date.now() + SETTLE_MS + 100)

  beforeAll(async () => {
    vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true })
    // The page cache on (the default) and the registry cached: a repeated list may come from the cache.
    const made = await setup(['fr'], { cacheTtlMs: 5000 })
    ctx = made.ctx
    api = made.api
    doc = await dataOf(await api.post({ title: 'published title' }))
    await dataOf(await api.put(doc.documentId, { title: 'draft title' }, { status: 'draft' }))
    await dataOf(await api.post({ title: 'another' }))
    settle()
  })
  afterAll(() => {
    vi.useRealTimers()
  })

  it('tags the draft and the published version of one locale differently, each "<its id>.<revision>"', async () => {
    const { published, draft } = await bothOf(api, doc.documentId)
    const publishedTag = await tagOf(api, doc.documentId, 'published')
    const draftTag = await tagOf(api, doc.documentId, 'draft')
    expect(idOfTag(publishedTag)).toBe(published?.id)
    expect(idOfTag(draftTag)).toBe(draft?.id)
    expect(publishedTag).not.toBe(draftTag)
  })

  it('answers 304 to a version\'s own tag only: the published tag does not validate the draft, nor the reverse', async () => {
    const publishedTag = await tagOf(api, doc.documentId, 'published')
    const draftTag = await tagOf(api, doc.documentId, 'draft')
    expect((await api.get(doc.documentId, { status: 'draft' }, { 'If-None-Match': draftTag })).status).toBe(304)
    expect((await api.get(doc.documentId, {}, { 'If-None-Match': publishedTag })).status).toBe(304)
    const draft = await api.get(doc.documentId, { status: 'draft' }, { 'If-None-Match': publishedTag })
    expect(draft.status).toBe(200)
    expect((await oneOf(draft)).title).toBe('draft title')
    const published = await api.get(doc.documentId, {}, { 'If-None-Match': draftTag })
    expect(published.status).toBe(200)
    expect((await oneOf(published)).title).toBe('published title')
  })

  it('tags lists per status: a draft list is never validated by the published list\'s tag', async () => {
    for (const query of ['sort=title&', 'locale=*&', '']) {
      const published = await api.list(`${query}status=published`)
      const draft = await api.list(`${query}status=draft`)
      expect(published.headers.get('etag')).not.toBe(draft.headers.get('etag'))
      const crossed = await api.list(`${query}status=draft`, { 'If-None-Match': published.headers.get('etag') as string })
      expect({ query, status: crossed.status }).toEqual({ query, status: 200 })
      expect((await json(crossed)).data.every((entry: Doc) => entry.publishedAt === null)).toBe(true)
      expect((await api.list(`${query}status=draft`, { 'If-None-Match': draft.headers.get('etag') as string })).status).toBe(304)
    }
  })

  it('never serves one status\'s cached page for the other', async () => {
    const titles = async (status: Status) => (await json(await api.list(`status=${status}&sort=title`))).data.map((entry: Doc) => entry.title)
    for (let i = 0; i < 3; i++) expect(await titles('published')).toEqual(['another', 'published title'])
    for (let i = 0; i < 3; i++) expect(await titles('draft')).toEqual(['another', 'draft title'])
    expect(await titles('published')).toEqual(['another', 'published title'])
  })

  it('changes the draft list\'s answer after a draft write, and the published list\'s after a publication', async () => {
    const draftBefore = await api.list('status=draft&sort=title')
    const publishedBefore = await api.list('status=published&sort=title')
    await dataOf(await api.put(doc.documentId, { title: 'draft title 2' }, { status: 'draft' }))
    settle()
    const draftAfter = await api.list('status=draft&sort=title', { 'If-None-Match': draftBefore.headers.get('etag') as string })
    expect(draftAfter.status).toBe(200)
    expect((await json(draftAfter)).data.map((entry: Doc) => entry.title)).toEqual(['another', 'draft title 2'])
    const publishedSame = await api.list('status=published&sort=title')
    expect((await json(publishedSame)).data.map((entry: Doc) => entry.title)).toEqual(['another', 'published title'])
    await dataOf(await api.action(doc.documentId, 'publish'))
    settle()
    const publishedAfter = await api.list('status=published&sort=title', { 'If-None-Match': publishedBefore.headers.get('etag') as string })
    expect(publishedAfter.status).toBe(200)
    expect((await json(publishedAfter)).data.map((entry: Doc) => entry.title)).toEqual(['another', 'draft title 2'])
  })
})

describe('actions: publish, unpublish, discard-draft', () => {
  let ctx: TestContext
  let key: string
  let api: DraftClient
  let home: DraftClient

  beforeAll(async () => {
    ({ ctx, key, api, home } = await setup(['fr', 'de']))
  })

  /** A document published in en with different draft changes pending, and fr as asked. */
  async function pending(fr: 'none' | 'draft' | 'published' = 'none'): Promise<Doc> {
    const doc = await dataOf(await api.post({ title: 'published', views: 1, category: 'c1' }))
    await dataOf(await api.put(doc.documentId, { title: 'pending', views: 2 }, { status: 'draft' }))
    if (fr !== 'none') await dataOf(await api.put(doc.documentId, { title: 'fr' }, { locale: 'fr', ...(fr === 'draft' ? { status: 'draft' } : {}) }))
    return doc
  }

  it('publish: the draft becomes the published version (its id kept); 200 with the published version', async () => {
    const doc = await pending()
    const draft = (await bothOf(api, doc.documentId)).draft
    const response = await api.action(doc.documentId, 'publish')
    const answer = await dataOf(response)
    const after = await bothOf(api, doc.documentId)
    expect(answer).toEqual(after.published)
    expect(answer).toMatchObject({ id: doc.id, title: 'pending', views: 2, category: 'c1' })
    expect(Date.parse(answer.publishedAt)).toBeGreaterThanOrEqual(Date.parse(doc.publishedAt))
    expect(attributesOf(after.published ?? {})).toEqual(attributesOf(draft ?? {}))
    expect(after.draft).toMatchObject({ id: draft?.id, title: 'pending', publishedAt: null })
    expect((await listAll(api, `status=published&filters[documentId][$eq]=${doc.documentId}`)).data.map((entry) => entry.title)).toEqual(['pending'])
  })

  it('publish of a locale never published creates its published version, with an id of its own', async () => {
    const doc = await dataOf(await api.post({ title: 'new' }, { status: 'draft' }))
    const answer = await dataOf(await api.action(doc.documentId, 'publish'))
    expect(answer).toMatchObject({ documentId: doc.documentId, title: 'new', locale: 'en' })
    expect(typeof answer.publishedAt).toBe('string')
    expect(answer.id).not.toBe(doc.id)
    expect((await bothOf(api, doc.documentId)).published).toEqual(answer)
  })

  it('publish when the published version already equals the draft: 200, and nothing is written', async () => {
    const doc = await dataOf(await api.post({ title: 'same' }))
    const tag = await tagOf(api, doc.documentId, 'published')
    const before = await tableSnapshot(ctx)
    const answer = await dataOf(await api.action(doc.documentId, 'publish'))
    expect(await tableSnapshot(ctx)).toBe(before)
    expect(answer).toEqual(doc)
    expect(await tagOf(api, doc.documentId, 'published')).toBe(tag)
  })

  it('unpublish: the published version is removed, the draft stays; 200 with the draft; then 404, writing nothing', async () => {
    const doc = await pending()
    const draft = (await bothOf(api, doc.documentId)).draft
    const publishedCount = (await listAll(api, 'status=published')).total
    const answer = await dataOf(await api.action(doc.documentId, 'unpublish'))
    expect(answer).toMatchObject({ id: draft?.id, title: 'pending', publishedAt: null })
    const after = await bothOf(api, doc.documentId)
    expect(after.published).toBeUndefined()
    expect(attributesOf(after.draft ?? {})).toEqual(attributesOf(draft ?? {}))
    expect(after.draft?.id).toBe(draft?.id)
    expect((await listAll(api, 'status=published')).total).toBe(publishedCount - 1)
    const before = await tableSnapshot(ctx)
    const again = await api.action(doc.documentId, 'unpublish')
    expect(again.status).toBe(404)
    expect((await json(again)).error.name).toBe('NotFoundError')
    expect(await tableSnapshot(ctx)).toBe(before)
  })

  it('discard-draft: the draft is reset to a copy of the published version; 200 with the draft', async () => {
    const doc = await pending()
    const draftId = (await bothOf(api, doc.documentId)).draft?.id
    const answer = await dataOf(await api.action(doc.documentId, 'discard-draft'))
    const after = await bothOf(api, doc.documentId)
    expect(answer).toEqual(after.draft)
    expect(answer).toMatchObject({ id: draftId, title: 'published', views: 1, publishedAt: null })
    expect(attributesOf(after.draft ?? {})).toEqual(attributesOf(doc))
    expect(after.published).toEqual(doc)
  })

  it('discard-draft leaves a draft equal to the published version: a publish after it writes nothing', async () => {
    const doc = await pending()
    await dataOf(await api.action(doc.documentId, 'discard-draft'))
    const before = await tableSnapshot(ctx)
    expect(await dataOf(await api.action(doc.documentId, 'publish'))).toEqual(doc)
    expect(await tableSnapshot(ctx)).toBe(before)
  })

  it('discard-draft answers 404 for a locale never published, writing nothing', async () => {
    const doc = await dataOf(await api.post({ title: 'never' }, { status: 'draft' }))
    const before = await tableSnapshot(ctx)
    expect((await api.action(doc.documentId, 'discard-draft')).status).toBe(404)
    expect(await tableSnapshot(ctx)).toBe(before)
    expect((await bothOf(api, doc.documentId)).draft).toEqual(doc)
  })

  it('acts on the default locale without locale, on the one named with locale, and on no other', async () => {
    const doc = await pending('published')
    await dataOf(await api.put(doc.documentId, { title: 'fr pending' }, { locale: 'fr', status: 'draft' }))
    await dataOf(await api.action(doc.documentId, 'publish', { locale: 'fr' }))
    expect((await bothOf(api, doc.documentId, 'fr')).published?.title).toBe('fr pending')
    expect((await bothOf(api, doc.documentId, 'en')).published?.title).toBe('published')
    await dataOf(await api.action(doc.documentId, 'publish'))
    expect((await bothOf(api, doc.documentId, 'en')).published?.title).toBe('pending')
    expect((await dataOf(await api.action(doc.documentId, 'unpublish', { locale: 'FR' }))).locale).toBe('fr')
    expect((await bothOf(api, doc.documentId, 'fr')).published).toBeUndefined()
    expect((await bothOf(api, doc.documentId, 'en')).published?.title).toBe('pending')
  })

  it('answers 404 for an unknown document or a locale without a version, 400 for an unregistered locale; nothing written', async () => {
    const doc = await pending()
    const cases: [string, (name: ActionName) => Promise<Response>, number][] = [
      ['an unknown document', (name) => api.action('abcdefghijklmnopqrstuvwx', name), 404],
      ['a locale without a version', (name) => api.action(doc.documentId, name, { locale: 'de' }), 404],
      ['an unregistered locale', (name) => api.action(doc.documentId, name, { locale: 'xx' }), 400],
    ]
    for (const name of ACTIONS) {
      for (const [what, send, status] of cases) {
        const before = new Set(JSON.parse(await tableSnapshot(ctx)) as string[])
        expect({ name, what, status: (await send(name)).status }).toEqual({ name, what, status })
        // Nothing written, not even the id sequence: the items that changed, listed.
        const after = new Set(JSON.parse(await tableSnapshot(ctx)) as string[])
        expect({ name, what, written: [...after].filter((item) => !before.has(item)) }).toEqual({ name, what, written: [] })
      }
    }
  })

  describe('with locale=*', () => {
    it('publish: publishes every locale, skipping none that has a draft', async () => {
      const doc = await pending('draft')
      await dataOf(await api.put(doc.documentId, { title: 'de' }, { locale: 'de', status: 'draft' }))
      expect((await api.action(doc.documentId, 'publish', { locale: '*' })).status).toBe(200)
      const published = await versionsOf(api, doc.documentId, 'published')
      const drafts = await versionsOf(api, doc.documentId, 'draft')
      expect(Object.keys(published).sort()).toEqual(['de', 'en', 'fr'])
      for (const locale of ['en', 'fr', 'de']) expect(attributesOf(published[locale]!)).toEqual(attributesOf(drafts[locale]!))
    })

    it('unpublish: removes the published versions, skipping the locales never published; 404 only when none is', async () => {
      const doc = await pending('draft')
      expect((await api.action(doc.documentId, 'unpublish', { locale: '*' })).status).toBe(200)
      expect(await versionsOf(api, doc.documentId, 'published')).toEqual({})
      expect(Object.keys(await versionsOf(api, doc.documentId, 'draft')).sort()).toEqual(['en', 'fr'])
      const before = await tableSnapshot(ctx)
      expect((await api.action(doc.documentId, 'unpublish', { locale: '*' })).status).toBe(404)
      expect(await tableSnapshot(ctx)).toBe(before)
    })

    it('discard-draft: resets the drafts of the published locales, skipping the others; 404 only when none was published', async () => {
      const doc = await pending('draft')
      expect((await api.action(doc.documentId, 'discard-draft', { locale: '*' })).status).toBe(200)
      const drafts = await versionsOf(api, doc.documentId, 'draft')
      expect(drafts.en).toMatchObject({ title: 'published', views: 1 })
      expect(drafts.fr).toMatchObject({ title: 'fr' }) // never published: skipped
      expect((await bothOf(api, doc.documentId, 'fr')).published).toBeUndefined()
      const never = await dataOf(await api.post({ title: 'never' }, { status: 'draft' }))
      await dataOf(await api.put(never.documentId, { title: 'jamais' }, { locale: 'fr', status: 'draft' }))
      const before = await tableSnapshot(ctx)
      expect((await api.action(never.documentId, 'discard-draft', { locale: '*' })).status).toBe(404)
      expect(await tableSnapshot(ctx)).toBe(before)
    })

    it('publish of a document whose every locale is already published as its draft: 200, nothing written', async () => {
      const doc = await dataOf(await api.post({ title: 'en' }))
      await dataOf(await api.put(doc.documentId, { title: 'fr' }, { locale: 'fr' }))
      const before = await tableSnapshot(ctx)
      expect((await api.action(doc.documentId, 'publish', { locale: '*' })).status).toBe(200)
      expect(await tableSnapshot(ctx)).toBe(before)
    })
  })

  describe('If-Match', () => {
    it.each(ACTIONS)('%s: names the draft\'s tag; 412 when it moved or for the published tag, writing nothing', async (name) => {
      const doc = await pending()
      const staleDraft = await tagOf(api, doc.documentId, 'draft')
      await dataOf(await api.put(doc.documentId, { title: 'pending 2' }, { status: 'draft' }))
      const publishedTag = await tagOf(api, doc.documentId, 'published')
      for (const tag of [staleDraft, publishedTag]) {
        const before = await tableSnapshot(ctx)
        const response = await api.action(doc.documentId, name, {}, { 'If-Match': tag })
        expect({ tag, status: response.status }).toEqual({ tag, status: 412 })
        expect((await json(response)).error.name).toBe('PreconditionFailedError')
        expect(await tableSnapshot(ctx)).toBe(before)
      }
      const current = await tagOf(api, doc.documentId, 'draft')
      expect((await api.action(doc.documentId, name, {}, { 'If-Match': current })).status).toBe(200)
    })

    it('PUT without status names the published version: its tag writes, the draft\'s is 412', async () => {
      const doc = await pending()
      const draftTag = await tagOf(api, doc.documentId, 'draft')
      const publishedTag = await tagOf(api, doc.documentId, 'published')
      const before = await tableSnapshot(ctx)
      expect((await api.put(doc.documentId, { title: 'x' }, {}, { 'If-Match': draftTag })).status).toBe(412)
      expect(await tableSnapshot(ctx)).toBe(before)
      const written = await api.put(doc.documentId, { title: 'read and written back' }, {}, { 'If-Match': publishedTag })
      expect(written.status).toBe(200)
      expect((await bothOf(api, doc.documentId)).published?.title).toBe('read and written back')
    })

    it('PUT with status=draft names the draft: its tag writes, the published one\'s is 412', async () => {
      const doc = await pending()
      const draftTag = await tagOf(api, doc.documentId, 'draft')
      const publishedTag = await tagOf(api, doc.documentId, 'published')
      const before = await tableSnapshot(ctx)
      expect((await api.put(doc.documentId, { title: 'x' }, { status: 'draft' }, { 'If-Match': publishedTag })).status).toBe(412)
      expect(await tableSnapshot(ctx)).toBe(before)
      expect((await api.put(doc.documentId, { title: 'draft written back' }, { status: 'draft' }, { 'If-Match': draftTag })).status).toBe(200)
      expect(await bothOf(api, doc.documentId)).toMatchObject({ published: { title: 'published' }, draft: { title: 'draft written back' } })
    })

    it('DELETE names the published version: the draft\'s tag is 412, the published one\'s deletes both', async () => {
      const doc = await pending()
      const draftTag = await tagOf(api, doc.documentId, 'draft')
      const publishedTag = await tagOf(api, doc.documentId, 'published')
      const before = await tableSnapshot(ctx)
      expect((await api.del(doc.documentId, {}, { 'If-Match': draftTag })).status).toBe(412)
      expect(await tableSnapshot(ctx)).toBe(before)
      expect((await api.del(doc.documentId, {}, { 'If-Match': publishedTag })).status).toBe(204)
      expect(await bothOf(api, doc.documentId)).toEqual({ published: undefined, draft: undefined })
    })
  })

  describe('the publish permission', () => {
    it.each([
      ['a read-only token', () => ctx.token('read-only')],
      ['a custom token with every other article action', () => ctx.token('custom', ['find', 'findOne', 'findDrafts', 'create', 'update', 'delete', 'createLocalization'].map((action) => `${ARTICLE}.${action}`))],
      ['the public role', async () => undefined],
    ])('answers 403 to %s on every action, writing nothing', async (_name, token) => {
      const doc = await pending()
      const accessKey = await token()
      for (const name of ACTIONS) {
        const before = await tableSnapshot(ctx)
        const response = await ctx.request('POST', `/api/articles/${doc.documentId}/actions/${name}`, { token: accessKey })
        expect({ name, status: response.status }).toEqual({ name, status: 403 })
        expect((await json(response)).error).toEqual(FORBIDDEN)
        expect(await tableSnapshot(ctx)).toBe(before)
      }
    })

    it('lets a custom token holding publish act', async () => {
      const doc = await pending()
      const publisher = await ctx.token('custom', [`${ARTICLE}.publish`])
      const response = await ctx.request('POST', `/api/articles/${doc.documentId}/actions/publish`, { token: publisher })
      expect(response.status).toBe(200)
      expect((await bothOf(api, doc.documentId)).published?.title).toBe('pending')
    })

    it('lets the public role act once publish is granted through the admin API', async () => {
      const doc = await pending()
      const { permissions } = (await json(await ctx.admin('GET', '/admin/roles/public'))).data
      expect(permissions).not.toContain(`${ARTICLE}.publish`)
      expect((await ctx.admin('PUT', '/admin/roles/public', { permissions: [...permissions, `${ARTICLE}.publish`] })).status).toBe(200)
      try {
        expect((await json(await ctx.admin('GET', '/admin/roles/public'))).data.permissions).toContain(`${ARTICLE}.publish`)
        expect((await ctx.request('POST', `/api/articles/${doc.documentId}/actions/publish`)).status).toBe(200)
      } finally {
        expect((await ctx.admin('PUT', '/admin/roles/public', { permissions })).status).toBe(200)
      }
      expect((await ctx.request('POST', `/api/articles/${doc.documentId}/actions/unpublish`)).status).toBe(403)
    })

    it('accepts publish and findDrafts in custom tokens through the admin API, and lists them', async () => {
      const response = await ctx.admin('POST', '/admin/api-tokens', { name: 'editor', type: 'custom', permissions: [`${ARTICLE}.publish`, `${ARTICLE}.findDrafts`, `${HOMEPAGE}.publish`, `${HOMEPAGE}.findDrafts`] })
      expect(response.status).toBe(201)
      expect((await json(response)).data.permissions).toEqual(expect.arrayContaining([`${ARTICLE}.publish`, `${ARTICLE}.findDrafts`, `${HOMEPAGE}.publish`, `${HOMEPAGE}.findDrafts`]))
    })

    it('needs no publish for writes without status: a token holding create and update publishes through them, as today', async () => {
      const writer = await ctx.token('custom', ['find', 'findOne', 'create', 'update'].map((action) => `${ARTICLE}.${action}`))
      const created = await dataOf(await ctx.request('POST', '/api/articles', { token: writer, body: { data: { title: 'by a writer' } } }))
      expect(typeof created.publishedAt).toBe('string')
      await dataOf(await ctx.request('PUT', `/api/articles/${created.documentId}`, { token: writer, body: { data: { title: 'by a writer, again' } } }))
      expect((await bothOf(api, created.documentId)).published?.title).toBe('by a writer, again')
    })
  })

  describe('on the single type, at /api/homepage/actions/<name>', () => {
    it('publishes, unpublishes and discards as a collection does', async () => {
      await dataOf(await home.put(undefined, { title: 'Home', tagline: 'one' }))
      await dataOf(await home.put(undefined, { tagline: 'two' }, { status: 'draft' }))
      const published = await dataOf(await home.action(undefined, 'publish'))
      expect(published).toMatchObject({ title: 'Home', tagline: 'two' })
      expect(typeof published.publishedAt).toBe('string')
      expect(await dataOf(await home.get(undefined))).toEqual(published)
      await dataOf(await home.put(undefined, { tagline: 'three' }, { status: 'draft' }))
      expect(await dataOf(await home.action(undefined, 'discard-draft'))).toMatchObject({ tagline: 'two', publishedAt: null })
      expect(await dataOf(await home.action(undefined, 'unpublish'))).toMatchObject({ tagline: 'two', publishedAt: null })
      expect((await home.get(undefined)).status).toBe(404)
      expect((await home.action(undefined, 'unpublish')).status).toBe(404)
      expect((await home.action(undefined, 'discard-draft')).status).toBe(404)
      await dataOf(await home.put(undefined, { title: 'Accueil' }, { locale: 'fr', status: 'draft' }))
      expect((await home.action(undefined, 'publish', { locale: '*' })).status).toBe(200)
      expect((await dataOf(await home.get(undefined, { locale: 'fr' }))).title).toBe('Accueil')
      expect((await dataOf(await home.get(undefined, { locale: 'en' }))).tagline).toBe('two')
    })

    it('needs the homepage\'s publish: 403 for a read-only token', async () => {
      const response = await ctx.request('POST', '/api/homepage/actions/publish', { token: await ctx.token('read-only') })
      expect(response.status).toBe(403)
    })
  })
})

describe('non-localized attributes per status', () => {
  let api: DraftClient
  const LOCALES = ['en', 'fr', 'de']

  beforeAll(async () => {
    ({ api } = await setup(['fr', 'de']))
  })

  /** A document published in en, fr and de with views 1, category c1. */
  async function everywhere(): Promise<string> {
    const { documentId } = await dataOf(await api.post({ title: 'en', views: 1, category: 'c1' }))
    for (const locale of ['fr', 'de']) await dataOf(await api.put(documentId, { title: locale }, { locale }))
    return documentId
  }
  /** [locale, views, category] of every version of a status. */
  const shared = async (documentId: string, status: Status) => {
    const versions = await versionsOf(api, documentId, status)
    return Object.keys(versions).sort().map((locale) => [locale, versions[locale]!.views, versions[locale]!.category])
  }
  const all = (views: number, category: string, locales = LOCALES) => [...locales].sort().map((locale) => [locale, views, category])

  it('a draft write changes every locale\'s draft, and no published version', async () => {
    const documentId = await everywhere()
    await dataOf(await api.put(documentId, { views: 7, category: 'c7' }, { locale: 'fr', status: 'draft' }))
    expect(await shared(documentId, 'draft')).toEqual(all(7, 'c7'))
    expect(await shared(documentId, 'published')).toEqual(all(1, 'c1'))
    // Published reads, lists included, do not show the unpublished change.
    expect((await listAll(api, `locale=*&filters[documentId][$eq]=${documentId}&filters[views][$eq]=7`)).total).toBe(0)
    expect((await listAll(api, `locale=*&status=draft&filters[documentId][$eq]=${documentId}&filters[views][$eq]=7`)).total).toBe(3)
  })

  it('a publication copies the draft\'s non-localized values to every published version, keeping their localized ones', async () => {
    const documentId = await everywhere()
    await dataOf(await api.put(documentId, { views: 8, category: 'c8', title: 'en next' }, { status: 'draft' }))
    await dataOf(await api.put(documentId, { title: 'de next' }, { locale: 'de', status: 'draft' }))
    await dataOf(await api.action(documentId, 'publish', { locale: 'fr' }))
    expect(await shared(documentId, 'published')).toEqual(all(8, 'c8'))
    const published = await versionsOf(api, documentId, 'published')
    expect(LOCALES.map((locale) => published[locale]?.title)).toEqual(['en', 'fr', 'de'])
  })

  it('a write without status publishes the non-localized change to every published locale', async () => {
    const documentId = await everywhere()
    await dataOf(await api.put(documentId, { title: 'de draft' }, { locale: 'de', status: 'draft' }))
    await dataOf(await api.put(documentId, { views: 3 }, { locale: 'en' }))
    expect(await shared(documentId, 'published')).toEqual(all(3, 'c1'))
    expect(await shared(documentId, 'draft')).toEqual(all(3, 'c1'))
    expect((await versionsOf(api, documentId, 'published')).de?.title).toBe('de') // the de draft stays unpublished
  })

  it('a new localization takes the drafts\' values; published only once it is published', async () => {
    const { documentId } = await dataOf(await api.post({ title: 'en', views: 1, category: 'c1' }))
    await dataOf(await api.put(documentId, { views: 4 }, { status: 'draft' }))
    expect(await dataOf(await api.put(documentId, { title: 'fr' }, { locale: 'fr', status: 'draft' }))).toMatchObject({ views: 4, category: 'c1' })
    expect(await shared(documentId, 'published')).toEqual(all(1, 'c1', ['en']))
    const frPublished = await dataOf(await api.put(documentId, { title: 'fr live' }, { locale: 'fr' }))
    expect(frPublished.views).toBe(4)
    expect(await shared(documentId, 'published')).toEqual(all(4, 'c1', ['en', 'fr']))
  })

  it('unpublishing or discarding keeps the published locales in agreement, and the drafts in agreement', async () => {
    const documentId = await everywhere()
    await dataOf(await api.put(documentId, { views: 9 }, { status: 'draft' }))
    await dataOf(await api.action(documentId, 'unpublish', { locale: 'de' }))
    await dataOf(await api.action(documentId, 'discard-draft', { locale: 'en' }))
    const drafts = await shared(documentId, 'draft')
    expect(new Set(drafts.map(([, views, category]) => `${views}/${category}`)).size).toBe(1)
    expect((await versionsOf(api, documentId, 'draft')).en?.views).toBe(1) // reset to its published copy
    expect(await shared(documentId, 'published')).toEqual(all(1, 'c1', ['en', 'fr']))
  })

  it('marks the other locales\' drafts modified by a non-localized draft write through one of them', async () => {
    const documentId = await everywhere()
    const modified = async () => (await listAll(api, `status=draft&locale=*&publicationFilter=modified&filters[documentId][$eq]=${documentId}`)).data.map((doc) => doc.locale).sort()
    expect(await modified()).toEqual([])
    await dataOf(await api.put(documentId, { views: 2 }, { locale: 'en', status: 'draft' }))
    expect(await modified()).toEqual(['de', 'en', 'fr'])
  })
})

describe('publicationFilter', () => {
  let ctx: TestContext
  let api: DraftClient
  /** What the test made of each (documentId, locale): published or not, the draft changed since or not. */
  interface Pair { readonly name: string; readonly documentId: string; readonly locale: string; readonly published: boolean; readonly modified: boolean }
  const pairs: Pair[] = []
  let truth: Record<Status, Doc[]>

  const COHORTS: Record<PublicationFilter, (pair: Pair) => boolean> = {
    'never-published': (pair) => !pair.published,
    'has-published-version': (pair) => pair.published,
    'never-published-document': (pair) => !pairs.some((other) => other.documentId === pair.documentId && other.published),
    'has-published-version-document': (pair) => pairs.some((other) => other.documentId === pair.documentId && other.published),
    modified: (pair) => pair.published && pair.modified,
    unmodified: (pair) => pair.published && !pair.modified,
    'published-without-draft': () => false,
    'published-with-draft': (pair) => pair.published,
  }
  /** The versions a list of `status` with `filter` shows: the cohort's pairs, in that status where they have one. */
  const expected = (filter: PublicationFilter, status: Status, locale: string) => {
    const chosen = pairs.filter((pair) => COHORTS[filter](pair) && (locale === '*' || pair.locale === locale))
    return truth[status].filter((doc) => chosen.some((pair) => pair.documentId === doc.documentId && pair.locale === doc.locale))
  }

  beforeAll(async () => {
    ({ ctx, api } = await setup(['fr']))
    const record = (name: string, documentId: string, locale: string, published: boolean, modified: boolean) => pairs.push({ name, documentId, locale, published, modified })
    // a: published in en and fr, unmodified.
    const a = await dataOf(await api.post({ title: 'a-en', category: 'x', views: 1 }))
    await dataOf(await api.put(a.documentId, { title: 'a-fr' }, { locale: 'fr' }))
    record('a', a.documentId, 'en', true, false)
    record('a', a.documentId, 'fr', true, false)
    // b: en published then changed as a draft; fr a draft never published.
    const b = await dataOf(await api.post({ title: 'b-en', category: 'y', views: 2 }))
    await dataOf(await api.put(b.documentId, { title: 'b-en-2' }, { status: 'draft' }))
    await dataOf(await api.put(b.documentId, { title: 'b-fr' }, { locale: 'fr', status: 'draft' }))
    record('b', b.documentId, 'en', true, true)
    record('b', b.documentId, 'fr', false, false)
    // c: never published anywhere.
    const c = await dataOf(await api.post({ title: 'c-en', category: 'x', views: 3 }, { status: 'draft' }))
    await dataOf(await api.put(c.documentId, { title: 'c-fr' }, { locale: 'fr', status: 'draft' }))
    record('c', c.documentId, 'en', false, false)
    record('c', c.documentId, 'fr', false, false)
    // d: published in en only, unmodified.
    const d = await dataOf(await api.post({ title: 'd-en', category: 'y', views: 4 }))
    record('d', d.documentId, 'en', true, false)
    // e: en a draft never published, fr published.
    const e = await dataOf(await api.post({ title: 'e-en', category: 'x', views: 5 }, { status: 'draft' }))
    await dataOf(await api.put(e.documentId, { title: 'e-fr' }, { locale: 'fr' }))
    record('e', e.documentId, 'en', false, false)
    record('e', e.documentId, 'fr', true, false)
    // f: fr published then changed as a draft; en published, then unpublished.
    const f = await dataOf(await api.post({ title: 'f-en', category: 'y', views: 6 }))
    await dataOf(await api.put(f.documentId, { title: 'f-fr' }, { locale: 'fr' }))
    await dataOf(await api.put(f.documentId, { title: 'f-fr-2' }, { locale: 'fr', status: 'draft' }))
    await dataOf(await api.action(f.documentId, 'unpublish'))
    record('f', f.documentId, 'en', false, false)
    record('f', f.documentId, 'fr', true, true)
    // g: en published, then a non-localized draft change.
    const g = await dataOf(await api.post({ title: 'g-en', category: 'x', views: 7 }))
    await dataOf(await api.put(g.documentId, { views: 70 }, { status: 'draft' }))
    record('g', g.documentId, 'en', true, true)
    // h: en published, changed as a draft, then published again: unmodified.
    const h = await dataOf(await api.post({ title: 'h-en', category: 'y', views: 8 }))
    await dataOf(await api.put(h.documentId, { title: 'h-en-2' }, { status: 'draft' }))
    await dataOf(await api.action(h.documentId, 'publish'))
    record('h', h.documentId, 'en', true, false)
    truth = await expectListsMatchBruteForce(api, new Set(pairs.map((pair) => pair.documentId)), ['en', 'fr'])
  })

  describe.each(PUBLICATION_FILTERS)('publicationFilter=%s', (filter) => {
    it.each(STATUSES)('lists the cohort\'s versions in status=%s, in en, fr and *, counted exactly', async (status) => {
      for (const locale of ['en', 'fr', '*']) {
        const want = expected(filter, status, locale)
        if (filter === 'published-with-draft' && status === 'draft') {
          // Strapi answers nothing here; "status decides which version is shown" would show the drafts.
          const { data, total } = await listAll(api, `status=draft&publicationFilter=${filter}&locale=${locale}`)
          const drafts = expected('has-published-version', 'draft', locale)
          expect([keysOf([]), keysOf(drafts)]).toContainEqual(keysOf(data))
          expect(total).toBe(data.length)
          continue
        }
        const { data, total } = await listAll(api, `status=${status}&publicationFilter=${filter}&locale=${locale}`)
        expect({ locale, total, keys: keysOf(data) }).toEqual({ locale, total: want.length, keys: keysOf(want) })
        for (const doc of data) expect(doc.publishedAt === null).toBe(status === 'draft')
      }
    })
  })

  it('gives never-published and has-published-version, and modified and unmodified with has-published-version, their partitions', async () => {
    for (const status of STATUSES) {
      const read = async (filter: PublicationFilter) => keysOf((await listAll(api, `status=${status}&locale=*&publicationFilter=${filter}`)).data)
      const all = keysOf((await listAll(api, `status=${status}&locale=*`)).data)
      expect([...await read('never-published'), ...await read('has-published-version')].sort()).toEqual(all)
      expect([...await read('modified'), ...await read('unmodified')].sort()).toEqual(await read('has-published-version'))
      expect([...await read('never-published-document'), ...await read('has-published-version-document')].sort()).toEqual(all)
    }
  })

  it('applies publicationFilter with the status by default (published)', async () => {
    expect(await json(await api.list('publicationFilter=modified&locale=*'))).toEqual(await json(await api.list('publicationFilter=modified&locale=*&status=published')))
    expect((await listAll(api, 'publicationFilter=never-published&locale=*')).total).toBe(0)
  })

  it.each([
    ['status=draft&publicationFilter=has-published-version-document&locale=*&filters[category][$eq]=x&sort=title:desc', 'draft', 'has-published-version-document', '*', (doc: Doc) => doc.category === 'x'],
    ['status=published&publicationFilter=modified&locale=*&filters[views][$gte]=2&sort=title', 'published', 'modified', '*', (doc: Doc) => doc.views >= 2],
    ['status=draft&publicationFilter=never-published&locale=en&sort=views:desc', 'draft', 'never-published', 'en', () => true],
    ['status=draft&publicationFilter=unmodified&locale=*&filters[title][$startsWith]=a&sort=title', 'draft', 'unmodified', '*', (doc: Doc) => doc.title.startsWith('a')],
  ] as const)('combines with filters, sort and pagination: %s', async (query, status, filter, locale, keep) => {
    const [field, order] = (/sort=(\w+):?(\w*)/.exec(query) ?? []).slice(1) as [string, string]
    const collator = new Intl.Collator(locale === '*' ? 'und' : locale)
    const compare = (a: Doc, b: Doc) => (typeof a[field] === 'number' ? a[field] - b[field] : collator.compare(a[field], b[field]))
    const want = expected(filter, status, locale).filter(keep).sort((a, b) => (order === 'desc' ? compare(b, a) : compare(a, b)) || a.id - b.id)
    expect(want.length).toBeGreaterThan(1)
    const whole = await json(await api.list(`${query}&pagination[pageSize]=100`))
    expect(whole.data.map((doc: Doc) => doc.id)).toEqual(want.map((doc) => doc.id))
    expect(whole.meta.pagination.total).toBe(want.length)
    const second = await json(await api.list(`${query}&pagination[pageSize]=1&pagination[page]=2`))
    expect(second.data.map((doc: Doc) => doc.id)).toEqual([want[1]!.id])
    expect(second.meta.pagination).toEqual({ page: 2, pageSize: 1, pageCount: want.length, total: want.length })
    const offset = await json(await api.list(`${query}&pagination[start]=1&pagination[limit]=10&fields=title`))
    expect(offset.data).toEqual(want.slice(1).map((doc) => ({ id: doc.id, documentId: doc.documentId, title: doc.title })))
  })

  it.each([
    ['publicationFilter=draft'],
    ['publicationFilter=Modified'],
    ['publicationFilter=never_published'],
    ['publicationFilter[0]=modified'],
    ['status=draft&publicationFilter=modified,unmodified'],
  ])('answers 400 to %s naming every accepted value, with query details', async (query) => {
    const error = await expectQueryError(ctx, () => api.list(query), 'publicationFilter', /^Invalid value for 'publicationFilter'\. Expected one of: /)
    for (const value of PUBLICATION_FILTERS) expect(error.message).toContain(value)
  })
})

describe('fallback within a status (fr → en, fr-CA → fr)', () => {
  let ctx: TestContext
  let api: DraftClient
  const documentIds: string[] = []
  const CHAINS: Record<string, string[]> = { fr: ['fr', 'en'], 'fr-CA': ['fr-CA', 'fr', 'en'] }

  beforeAll(async () => {
    ctx = await createTestContext()
    const key = await ctx.token()
    api = draftClient(ctx, key)
    expect((await ctx.admin('POST', '/admin/i18n/locales', { code: 'fr', fallback: 'en' })).status).toBe(201)
    expect((await ctx.admin('POST', '/admin/i18n/locales', { code: 'fr-CA', fallback: 'fr' })).status).toBe(201)
    // x: en published, fr a draft only.
    const x = await dataOf(await api.post({ title: 'x-en' }))
    await dataOf(await api.put(x.documentId, { title: 'x-fr' }, { locale: 'fr', status: 'draft' }))
    // y: en a draft only.
    const y = await dataOf(await api.post({ title: 'y-en' }, { status: 'draft' }))
    // z: en and fr published, fr-CA a draft only.
    const z = await dataOf(await api.post({ title: 'z-en' }))
    await dataOf(await api.put(z.documentId, { title: 'z-fr' }, { locale: 'fr' }))
    await dataOf(await api.put(z.documentId, { title: 'z-fr-CA' }, { locale: 'fr-CA', status: 'draft' }))
    // w: en published with a newer draft.
    const w = await dataOf(await api.post({ title: 'w-en' }))
    await dataOf(await api.put(w.documentId, { title: 'w-en-draft' }, { status: 'draft' }))
    documentIds.push(x.documentId, y.documentId, z.documentId, w.documentId)
  })

  /** Per document, the first version of `status` along the chain of `locale`. */
  const servedBy = async (locale: string, status: Status) => {
    const served: Doc[] = []
    for (const documentId of documentIds) {
      const versions = await versionsOf(api, documentId, status)
      const found = CHAINS[locale]!.map((code) => versions[code]).find((doc) => doc !== undefined)
      if (found !== undefined) served.push(found)
    }
    return served
  }

  it('walks the versions of the status asked only, on get one: what it finds, Content-Language and ETag', async () => {
    for (const locale of ['fr', 'fr-CA']) {
      for (const status of STATUSES) {
        const served = await servedBy(locale, status)
        for (const documentId of documentIds) {
          const response = await api.get(documentId, { locale, status })
          const want = served.find((doc) => doc.documentId === documentId)
          if (want === undefined) {
            expect({ locale, status, documentId, code: response.status }).toEqual({ locale, status, documentId, code: 404 })
            continue
          }
          expect(response.headers.get('content-language')).toBe(want.locale)
          expect(idOfTag(response.headers.get('etag'))).toBe(want.id)
          expect({ locale, status, found: await oneOf(response) }).toEqual({ locale, status, found: want })
        }
      }
    }
    // Spelled out: a draft never hides behind the published version of its own locale, nor the reverse.
    const [x, y, z, w] = documentIds
    expect((await oneOf(await api.get(x, { locale: 'fr' }))).title).toBe('x-en')
    expect((await oneOf(await api.get(x, { locale: 'fr', status: 'draft' }))).title).toBe('x-fr')
    expect((await api.get(y, { locale: 'fr-CA' })).status).toBe(404)
    expect((await oneOf(await api.get(y, { locale: 'fr-CA', status: 'draft' }))).title).toBe('y-en')
    expect((await oneOf(await api.get(z, { locale: 'fr-CA' }))).title).toBe('z-fr')
    expect((await oneOf(await api.get(z, { locale: 'fr-CA', status: 'draft' }))).title).toBe('z-fr-CA')
    expect((await oneOf(await api.get(w, { locale: 'fr', status: 'draft' }))).title).toBe('w-en-draft')
  })

  it('answers fallback=false with the locale\'s own version of the status only', async () => {
    const [x] = documentIds
    expect((await api.get(x, { locale: 'fr', fallback: 'false' })).status).toBe(404)
    expect((await oneOf(await api.get(x, { locale: 'fr', status: 'draft', fallback: 'false' }))).title).toBe('x-fr')
  })

  describe.each([
    { state: 'before the served lists are rebuilt', ready: false },
    { state: 'after the served lists are marked ready', ready: true },
  ])('lists $state', ({ ready }) => {
    beforeAll(async () => {
      if (ready) {
        const { epoch } = await ctx.services.locales.current()
        expect(await ctx.services.locales.markServedReady(epoch)).toBe(true)
      }
    })

    it.each(['fr', 'fr-CA'])('lists in %s every document once, as its first version of the status along the chain; total counts them', async (locale) => {
      for (const status of STATUSES) {
        const want = (await servedBy(locale, status)).sort((a, b) => a.id - b.id)
        const body = await json(await api.list(`locale=${locale}&status=${status}`))
        expect({ status, data: body.data }).toEqual({ status, data: want })
        expect(body.meta.pagination.total).toBe(want.length)
        const sorted = await json(await api.list(`locale=${locale}&status=${status}&sort=title:desc&pagination[pageSize]=2&pagination[page]=2`))
        const collator = new Intl.Collator(locale)
        expect(sorted.data.map((doc: Doc) => doc.title)).toEqual([...want].sort((a, b) => collator.compare(b.title, a.title)).slice(2, 4).map((doc) => doc.title))
        const fromEn = await json(await api.list(`locale=${locale}&status=${status}&filters[locale][$eq]=en`))
        expect(fromEn.meta.pagination.total).toBe(want.filter((doc) => doc.locale === 'en').length)
      }
    })
  })
})

describe('each write and action is one transaction: a failure part-way writes nothing', () => {
  let ctx: TestContext
  let api: DraftClient
  const WRITES = ['TransactWriteItemsCommand', 'PutItemCommand', 'UpdateItemCommand', 'DeleteItemCommand', 'BatchWriteItemCommand']

  beforeAll(async () => {
    ({ ctx, api } = await setup(['fr', 'de']))
  })

  /** A document in en, fr (published, with draft changes pending, non-localized ones included) and de (a draft only). */
  async function document(): Promise<string> {
    const { documentId } = await dataOf(await api.post({ title: 'en', views: 1, category: 'c1' }))
    await dataOf(await api.put(documentId, { title: 'fr' }, { locale: 'fr' }))
    await dataOf(await api.put(documentId, { title: 'de' }, { locale: 'de', status: 'draft' }))
    await dataOf(await api.put(documentId, { title: 'en next', views: 2 }, { status: 'draft' }))
    await dataOf(await api.put(documentId, { title: 'fr next' }, { locale: 'fr', status: 'draft' }))
    return documentId
  }
  /** Every version of the document, both statuses, and the counts of both statuses' lists. */
  const state = async (documentId: string) => ({
    published: await versionsOf(api, documentId, 'published'),
    draft: await versionsOf(api, documentId, 'draft'),
    counts: await Promise.all(STATUSES.flatMap((status) => ['en', 'fr', 'de', '*'].map(async (locale) => (await listAll(api, `status=${status}&locale=${locale}`)).total))),
  })
  /** Fails the `k`-th write call that names `documentId` (a process dying there), letting the others through. */
  const failWrite = (documentId: string, k: number) => {
    let seen = 0
    ctx.db.middlewareStack.add((next: any, context: any) => async (args: any) => {
      if (WRITES.includes(context.commandName) && JSON.stringify(args.input).includes(documentId)) {
        seen += 1
        if (seen === k) throw new Error('injected: the process died before this write')
      }
      return next(args)
    }, { step: 'initialize', name: 'failWrite', override: true })
  }

  const operations: [string, (documentId: string) => Promise<Response>][] = [
    ['publish of fr', (documentId) => api.action(documentId, 'publish', { locale: 'fr' })],
    ['publish of every locale', (documentId) => api.action(documentId, 'publish', { locale: '*' })],
    ['unpublish of every locale', (documentId) => api.action(documentId, 'unpublish', { locale: '*' })],
    ['discard-draft of en', (documentId) => api.action(documentId, 'discard-draft')],
    ['PUT without status of a non-localized value', (documentId) => api.put(documentId, { views: 9, title: 'en 9' })],
    ['PUT status=draft of a non-localized value', (documentId) => api.put(documentId, { views: 8 }, { locale: 'de', status: 'draft' })],
    ['DELETE of every locale', (documentId) => api.del(documentId, { locale: '*' })],
  ]
  it.each(operations)('%s: either all of it or none of it, whichever write fails', async (_name, operation) => {
    // The first write failing, then the second: a write split in two shows here.
    for (let k = 1; k <= 2; k++) {
      const documentId = await document()
      const before = await state(documentId)
      failWrite(documentId, k)
      let response: Response
      try {
        response = await operation(documentId)
      } finally {
        ctx.db.middlewareStack.remove('failWrite')
      }
      const after = await state(documentId)
      if (response.status >= 500) {
        expect({ k, after }).toEqual({ k, after: before })
      } else {
        expect({ k, succeeded: [200, 204].includes(response.status) }).toEqual({ k, succeeded: true })
        // Succeeded: every write it needed went through, as in a run without the failure.
        const again = await document()
        const cleanBefore = await state(again)
        expect((await operation(again)).status).toBe(response.status)
        const clean = await state(again)
        const strip = (versions: Record<string, Doc>) => Object.fromEntries(Object.entries(versions).map(([locale, doc]) => [locale, attributesOf(doc)]))
        expect({ k, published: strip(after.published), draft: strip(after.draft) }).toEqual({ k, published: strip(clean.published), draft: strip(clean.draft) })
        const delta = (from: number[], to: number[]) => to.map((count, i) => count - from[i]!)
        expect({ k, counts: delta(before.counts, after.counts) }).toEqual({ k, counts: delta(cleanBefore.counts, clean.counts) })
      }
    }
  })
})

describe('costs: a list reads entries of its own status (and cohort) only', () => {
  let ctx: TestContext
  let api: DraftClient
  const DRAFTS_ONLY = 60

  beforeAll(async () => {
    ({ ctx, api } = await setup(['fr']))
    for (let i = 0; i < DRAFTS_ONLY; i += 10) {
      await Promise.all(Array.from({ length: 10 }, async (_, j) => dataOf(await api.post({ title: `draft ${i + j}` }, { status: 'draft' }))))
    }
    for (const title of ['live a', 'live b']) await dataOf(await api.post({ title }))
    for (const title of ['changed a', 'changed b']) {
      const { documentId } = await dataOf(await api.post({ title }))
      await dataOf(await api.put(documentId, { title: `${title} (draft)` }, { status: 'draft' }))
    }
  })

  /** Document entries read from DynamoDB while `run` runs: Query's ScannedCount and BatchGet/GetItem items. */
  async function entriesRead(run: () => Promise<Response>): Promise<{ response: Response; read: number }> {
    let read = 0
    ctx.db.middlewareStack.add((next: any, context: any) => async (args: any) => {
      const result: any = await next(args)
      const output = result.output ?? {}
      // Items as stored (marshalled) or as the document client gives them.
      const isDocument = (item: Record<string, any>) => !String(item.documentId?.S ?? item.documentId ?? '').startsWith('#')
      if (context.commandName === 'QueryCommand') read += Number(output.ScannedCount ?? output.Count ?? 0)
      if (context.commandName === 'BatchGetItemCommand') {
        for (const items of Object.values(output.Responses ?? {}) as Record<string, any>[][]) read += items.filter(isDocument).length
      }
      return result
    }, { step: 'initialize', name: 'countReads', override: true })
    try {
      return { response: await run(), read }
    } finally {
      ctx.db.middlewareStack.remove('countReads')
    }
  }

  it.each([
    ['the published list, default order', 'status=published'],
    ['the published list, sorted by title', 'status=published&sort=title'],
    ['the published list of every locale', 'status=published&locale=*'],
    ['drafts with unpublished changes (publicationFilter=modified)', 'status=draft&publicationFilter=modified'],
    ['published versions with unpublished changes', 'status=published&publicationFilter=modified&sort=title'],
  ])(`reads about its page for %s, not the ${DRAFTS_ONLY} drafts never published`, async (_name, query) => {
    const { response, read } = await entriesRead(() => api.list(query))
    const body = await json(response)
    expect(body.meta.pagination.total).toBe(body.data.length)
    expect(body.data.length).toBeLessThanOrEqual(4)
    expect({ query, read }).toEqual({ query, read: expect.any(Number) })
    expect(read).toBeLessThanOrEqual(12)
  })
})

describe('publicationFilter on named documents (filters[documentId][$in], as the admin list asks)', () => {
  it('reads those documents by key, not their state partitions whole', async () => {
    const s = await shop({}, [])
    const articles: Doc[] = []
    for (let i = 0; i < 12; i++) articles.push(await s.article({ title: `a${i}` }))
    // Half the drafts modified after publication: the `modified` partition holds 6.
    for (let i = 0; i < 12; i += 2) expect((await s.articles.put(articles[i]!.documentId, { title: `a${i} edited` }, { status: 'draft' })).status).toBe(200)
    const peer = countedPeer(s.ctx)
    expect((await peer.request('GET', '/api/articles', { token: s.key })).status).toBe(200)
    const named = [articles[0]!, articles[1]!, articles[2]!].map((doc) => doc.documentId as string)
    const path = `/api/articles?status=draft&publicationFilter=modified&${named.map((id, i) => `filters[documentId][$in][${i}]=${id}`).join('&')}`
    peer.calls.length = 0
    const answer = await peer.request('GET', path, { token: s.key })
    expect(answer.status).toBe(200)
    const body = await json(answer)
    expect(body.data.map((doc: Doc) => doc.documentId).sort()).toEqual([named[0], named[2]].sort())
    expect(body.meta.pagination.total).toBe(2)
    expect(peer.calls.map((call) => call.command)).toEqual(['BatchGetItemCommand'])
  })
})
