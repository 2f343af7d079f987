// The request kinds the benchmark measures, each as a request through the Hono app and the floor's
// answer to the same question. Reads run against the seeded documents; writes create, localize
// and delete documents of their own (the app's and the floor's separately) so the table is back
// to N versions per locale afterwards.
import type { Hono } from 'hono'
import type { Attributes } from '../lib/body.js'
import { article } from './types.js'
import { collatorFor } from '../lib/query/sort.js'
import { newDocumentId } from '../lib/storage/documents.js'
import { filterScenarios } from './filter-scenarios.js'
import { slotOf, type Compare, type Floor } from './floor.js'
import { localizedAttributes, random, sharedAttributes } from './seed.js'

export interface BenchContext {
  /** The app with the page cache off (api.rest.pageCache 0), so every answer costs what it reads. */
  readonly app: Hono
  /** The same app with the in-process page cache on (the default size). */
  readonly cachedApp: Hono
  /** The app with the page cache off and list marks on (the default size): pages resume at a mark. */
  readonly markedApp: Hono
  readonly floor: Floor
  /** A full-access API key, for the writes. */
  readonly token: string
  /** Versions per locale. */
  readonly n: number
  /** Seeded documents, each with a version in every locale. */
  readonly documentIds: readonly string[]
  /** api.rest.maxScan: past it, a filter no index answers is a 400. */
  readonly maxScan: number
}

export interface Scenario {
  readonly kind: string
  readonly label: string
  readonly write: boolean
  /** Untimed set-up before the first repetition (e.g. the ETag a 304 needs). */
  prepare?(): Promise<void>
  /** The app's answer to repetition `i` (a real request through `app.request()`). */
  app(i: number): Promise<string>
  /** The floor's answer to repetition `i`. */
  floor(i: number): Promise<string>
  /** Throws unless both answered the same (run once per N, outside the timings). */
  check?(app: string, floor: string): void
}

export const PAGE = 25

interface SendOptions {
  readonly token?: string
  readonly body?: unknown
  readonly headers?: Record<string, string>
}

/** Sends one request; any other status than `expected` stops the run. */
export async function request(app: Hono, method: string, path: string, expected: number, options: SendOptions = {}): Promise<{ text: string; etag: string | null }> {
  const headers: Record<string, string> = { ...options.headers }
  if (options.token !== undefined) headers.Authorization = `Bearer ${options.token}`
  const body = options.body === undefined ? undefined : JSON.stringify(options.body)
  if (body !== undefined) headers['Content-Type'] = 'application/json'
  const response = await app.request(path, { method, headers, body })
  const text = await response.text()
  if (response.status !== expected) throw new Error(`${method} ${path}: expected ${expected}, got ${response.status} ${text.slice(0, 300)}`)
  return { text, etag: response.headers.get('etag') }
}

/** Sends one request and returns the body; any other status than `expected` stops the run. */
export async function send(app: Hono, method: string, path: string, expected: number, options: SendOptions = {}): Promise<string> {
  return (await request(app, method, path, expected, options)).text
}

type Page = { data: { documentId: string; locale?: string }[] | { documentId: string; locale?: string }; meta?: { pagination?: { total?: number }; total?: number } }

/** The documentIds of an answer (one document, or a page). */
export function idsOf(text: string): string[] {
  const { data } = JSON.parse(text) as Page
  return (Array.isArray(data) ? data : [data]).map((item) => item.documentId)
}

/** The total an answer states (meta.pagination.total from the app, meta.total from the floor). */
export function totalOf(text: string): number | undefined {
  if (text === '') return undefined
  const { meta } = JSON.parse(text) as Page
  return meta?.pagination?.total ?? meta?.total
}

/** The same documents in the same order, and the same total (`expected`, or the floor's), from the app and the floor. */
export function samePage(expectedTotal?: number | 'floor', allowEmpty = false) {
  return (app: string, floor: string) => {
    const [a, f] = [idsOf(app), idsOf(floor)]
    if ((a.length === 0 && !allowEmpty) || a.join() !== f.join()) throw new Error(`app and floor disagree: ${a.slice(0, 3).join()} vs ${f.slice(0, 3).join()}`)
    const want = expectedTotal === 'floor' ? totalOf(floor) : expectedTotal
    if (totalOf(app) !== want) throw new Error(`app total ${totalOf(app)}, expected ${want}`)
  }
}

const sameDocument = (appText: string, floorText: string) => {
  if (idsOf(appText).join() !== idsOf(floorText).join()) throw new Error('app and floor read different documents')
}

/** Exact orders of index entries' values, as the API sorts them (collation of the list's locale, ties by id). */
export function orders(locale: string) {
  const collator = collatorFor(locale)
  const byId: Compare = (a, b) => Number(a.id) - Number(b.id)
  const byTitle: Compare = (a, b) => collator.compare(String(a.title), String(b.title)) || byId(a, b)
  const byViewsDesc: Compare = (a, b) => Number(b.views) - Number(a.views) || byId(a, b)
  const byViewsDescThenTitle: Compare = (a, b) => Number(b.views) - Number(a.views) || byTitle(a, b)
  const byPublishedDesc: Compare = (a, b) => (String(a.publishedAt) < String(b.publishedAt) ? 1 : String(a.publishedAt) > String(b.publishedAt) ? -1 : byId(a, b))
  return { byId, byTitle, byViewsDesc, byViewsDescThenTitle, byPublishedDesc }
}

/**
 * Middle pages (start = N/2) are measured up to this N: at N = 100,000 the middle page (50,000
 * index entries paged through on DynamoDB Local, which ends index pages at 1 MB of base items) did
 * not finish its few requests within 6 minutes; their targets use the sizes measured.
 */
export const MIDDLE_PAGE_MAX_N = Number(process.env.BENCH_MIDDLE_MAX_N ?? 10_000)

/** The read kinds, on the default locale (en). */
export function readScenarios(ctx: BenchContext): Scenario[] {
  const { app, floor, n, documentIds } = ctx
  const get = (path: string) => () => send(app, 'GET', path, 200)
  const { byId, byTitle, byViewsDesc, byViewsDescThenTitle, byPublishedDesc } = orders('en')
  const deepStart = Math.max(0, n - PAGE)
  const middle = Math.floor(n / 2)
  const documentAt = (i: number) => documentIds[(i * 7919) % documentIds.length]!
  const sorted = (kind: string, query: string, field: string, descending: boolean, compare: Compare, offset = 0, label = `list page 1, ${query}`): Scenario => ({
    kind, label, write: false,
    app: get(`/api/articles?${query}${offset === 0 ? '' : `&pagination[start]=${offset}`}`),
    floor: () => floor.sortedPage('en', slotOf(field), descending, compare, offset, PAGE),
    check: samePage(n),
  })
  // 304s: the ETag of the previous answer, sent back.
  let listTag = ''
  let versionTag = ''
  const tagged = (tag: string | null) => {
    if (tag === null) throw new Error('no ETag on the answer')
    return tag
  }
  const middlePages = n <= MIDDLE_PAGE_MAX_N
  return [
    { kind: 'list-default', label: 'list page 1, default sort', write: false, app: get('/api/articles'), floor: () => floor.firstPage('en', PAGE, true), check: samePage(n) },
    sorted('sort-title', 'sort=title', 'title', false, byTitle),
    sorted('sort-views-desc', 'sort=views:desc', 'views', true, byViewsDesc),
    sorted('sort-published-desc', 'sort=publishedAt:desc', 'publishedAt', true, byPublishedDesc),
    sorted('sort-views-title', 'sort[0]=views:desc&sort[1]=title', 'views', true, byViewsDescThenTitle),
    ...(middlePages ? [sorted('deep-title', 'sort=title', 'title', false, byTitle, middle, 'sorted middle page, sort=title&pagination[start]=N/2')] : []),
    {
      kind: 'near-page', label: 'list page 3, default sort', write: false,
      app: get(`/api/articles?pagination[page]=3&pagination[pageSize]=${PAGE}`), floor: () => floor.sortedPage('en', slotOf('id'), false, byId, 2 * PAGE, PAGE), check: samePage(n),
    },
    sorted('deep-page', '', 'id', false, byId, deepStart, `deep page, pagination[start]=N-${PAGE}`),
    ...(middlePages ? [sorted('middle-page', '', 'id', false, byId, middle, 'middle page, pagination[start]=N/2')] : []),
    {
      kind: 'without-count', label: 'list page 1, pagination[withCount]=false', write: false,
      app: get('/api/articles?pagination[withCount]=false'), floor: () => floor.firstPage('en', PAGE, false), check: samePage(undefined),
    },
    {
      kind: 'get-one', label: 'get one', write: false,
      app: (i) => send(app, 'GET', `/api/articles/${documentAt(i)}?locale=en`, 200),
      floor: (i) => floor.getOne(documentAt(i), 'en'),
      check: sameDocument,
    },
    {
      kind: 'list-304', label: 'list page 1, If-None-Match: its ETag (304)', write: false,
      prepare: async () => void (listTag = tagged((await request(app, 'GET', '/api/articles', 200)).etag)),
      app: () => send(app, 'GET', '/api/articles', 304, { headers: { 'If-None-Match': listTag } }),
      floor: () => floor.listValidator('en'),
    },
    {
      kind: 'get-one-304', label: 'get one, If-None-Match: its ETag (304)', write: false,
      prepare: async () => void (versionTag = tagged((await request(app, 'GET', `/api/articles/${documentIds[0]}?locale=en`, 200)).etag)),
      app: () => send(app, 'GET', `/api/articles/${documentIds[0]}?locale=en`, 304, { headers: { 'If-None-Match': versionTag } }),
      floor: () => floor.getOne(documentIds[0]!, 'en').then(() => ''),
    },
    pageCacheScenario(ctx),
    markedScenario(ctx, 'near-page-marked', `list page 3, default sort, list marks on`, `pagination[page]=3&pagination[pageSize]=${PAGE}`, () => floor.sortedPage('en', slotOf('id'), false, byId, 2 * PAGE, PAGE)),
    ...(middlePages ? [markedScenario(ctx, 'deep-title-marked', 'sorted middle page, sort=title&pagination[start]=N/2, list marks on', `sort=title&pagination[start]=${middle}`, () => floor.sortedPage('en', slotOf('title'), false, byTitle, middle, PAGE))] : []),
    ...filterScenarios(ctx),
  ]
}

/** The default page repeated with the in-process page cache on: the validator read, then the cached page. */
function pageCacheScenario(ctx: BenchContext): Scenario {
  let cached = ''
  return {
    kind: 'list-page-cache', label: 'list page 1, default sort, repeated, page cache on', write: false,
    prepare: async () => {
      await send(ctx.cachedApp, 'GET', '/api/articles', 200)
      cached = await ctx.floor.firstPage('en', PAGE, true)
    },
    app: () => send(ctx.cachedApp, 'GET', '/api/articles', 200),
    floor: () => ctx.floor.cachedPage('en', async () => cached),
    check: samePage(ctx.n),
  }
}

/**
 * A page read again with list marks on (and the page cache off): after one untimed read of it at
 * the list's revision, it resumes at the mark before it. The floor reads it from nothing.
 */
function markedScenario(ctx: BenchContext, kind: string, label: string, query: string, floor: () => Promise<string>): Scenario {
  return {
    kind, label, write: false,
    prepare: async () => void (await send(ctx.markedApp, 'GET', `/api/articles?${query}`, 200)),
    app: () => send(ctx.markedApp, 'GET', `/api/articles?${query}`, 200),
    floor,
    check: samePage(ctx.n),
  }
}

/**
 * The write kinds, run in this order with the same repetitions: create (en), PUT of the
 * non-localized `views` on a seeded document, PUT of a new localization (fr) of the created
 * document, and DELETE of that localization. `cleanUp` deletes what create made.
 */
export function writeScenarios(ctx: BenchContext, seed: number): { scenarios: Scenario[]; cleanUp(): Promise<void> } {
  const { app, floor, token, documentIds } = ctx
  const rnd = random(seed)
  const appDocuments: string[] = []
  const floorDocuments: string[] = []
  const english = (): Attributes => ({ ...localizedAttributes(rnd, 'en', 0), ...sharedAttributes(rnd) })
  const french = (): Attributes => localizedAttributes(rnd, 'fr', 0)
  const scenarios: Scenario[] = [
    {
      kind: 'create', label: 'create (POST)', write: true,
      app: async () => {
        const text = await send(app, 'POST', '/api/articles', 200, { token, body: { data: english() } })
        appDocuments.push((JSON.parse(text) as { data: { documentId: string } }).data.documentId)
        return text
      },
      floor: async () => {
        const documentId = newDocumentId()
        floorDocuments.push(documentId)
        return floor.create(documentId, 'en', english())
      },
    },
    {
      kind: 'update-shared', label: 'PUT views (non-localized, 3 versions)', write: true,
      // A value no earlier size wrote, so the update is never a no-op.
      app: (i) => send(app, 'PUT', `/api/articles/${documentIds[(2 * i) % documentIds.length]}?locale=en`, 200, { token, body: { data: { views: 1_000_000 + ctx.n * 100 + i } } }),
      floor: (i) => floor.updateShared(documentIds[(2 * i + 1) % documentIds.length]!, 'en', { views: 1_000_000 + ctx.n * 100 + i }),
    },
    {
      kind: 'new-localization', label: 'PUT new localization (fr)', write: true,
      app: (i) => send(app, 'PUT', `/api/articles/${appDocuments[i]}?locale=fr`, 200, { token, body: { data: french() } }),
      floor: (i) => floor.newLocalization(floorDocuments[i]!, 'fr', french()),
    },
    {
      kind: 'delete', label: 'DELETE a localization', write: true,
      app: (i) => send(app, 'DELETE', `/api/articles/${appDocuments[i]}?locale=fr`, 204, { token }),
      floor: (i) => floor.deleteVersion(floorDocuments[i]!, 'fr'),
    },
  ]
  const cleanUp = async () => {
    for (const documentId of appDocuments) await send(app, 'DELETE', `/api/articles/${documentId}?locale=en`, 204, { token })
    for (const documentId of floorDocuments) await floor.deleteVersion(documentId, 'en')
  }
  return { scenarios, cleanUp }
}
