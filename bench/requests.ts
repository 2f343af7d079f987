// What a benchmark scenario is, the context it runs in, requests through the app, and the
// comparisons of the app's answers with the floor's: shared by the read, filter, write and
// fallback scenarios (kept apart from them, so none of those files imports another).
import type { Hono } from 'hono'
import { collatorFor } from '../lib/query/sort.js'
import type { Compare, Floor } from './floor.js'

export interface BenchContext {
  /** The app with the page cache off (api.rest.pageCache 0), so every answer costs what it reads. */
  readonly app: Hono
  /** The same app with the in-process page cache on (the default size). */
  readonly cachedApp: Hono
  /** The app with the page cache off and list marks on (the default size): pages resume at a mark. */
  readonly markedApp: Hono
  /** The app with the page cache and list marks off, populated documents kept (api.rest.populate.cacheBytes as by default). */
  readonly keptApp: Hono
  readonly floor: Floor
  /** A full-access API key, for the writes. */
  readonly token: string
  /** Versions per locale. */
  readonly n: number
  /** Seeded documents, each with a version in every locale. */
  readonly documentIds: readonly string[]
  /** api.rest.maxScan: past it, a filter no index answers is a 400. */
  readonly maxScan: number
  /** The authors and tags the articles link (relations.ts). */
  readonly relations?: SeededRelations
  /** The admin function's app and its pages' recording API client (admin-pages.ts). */
  readonly adminPages?: AdminPages
}

/** One API call an admin page made: what it sent, what it got, and which calls had ended when it started. */
export interface RecordedCall {
  readonly method: string
  readonly path: string
  readonly body: unknown
  readonly headers: Record<string, string> | undefined
  readonly after: readonly number[]
  status: number
}

/** The admin function's app, and the in-process API client of its pages, which records the calls of `run` (admin-pages.ts). */
export interface AdminPages {
  readonly app: Hono
  readonly client: { record(run: () => Promise<unknown>): Promise<RecordedCall[]> }
  readonly adminToken: string
  /** The Cookie header of a new signed-in session (its record stored, as a sign-in stores it). */
  signIn(): Promise<string>
}

/** What relations.ts seeded: author 0 (ten articles link it at every N), its name's slot and key for the floor, and authors to delete. */
export interface SeededRelations {
  readonly authorName: string
  readonly authorSlot: number
  readonly authorNameKey: string
  /** Authors 1..: each linked from up to 1,000 articles. */
  readonly linkedAuthors: readonly string[]
  readonly unlinkedAuthors: readonly string[]
  linksOf(j: number): { author: string | null; tags: string[]; indexed: boolean }
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
  /**
   * True when the floor's answer already went through Responses the bench read (the admin pages'
   * replayed API requests, a repeated page's cached bytes); otherwise the suite sends it as one,
   * as the app's is (suite.ts).
   */
  readonly floorResponds?: boolean
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
 * A page repeated with the in-process page cache on: the app's validator read, then its cached
 * page, against the floor's validator read (`validate`), then the same answer the app serves, kept
 * as UTF-8 bytes as the app keeps it and sent and read as the app's is: a minimal handler with a
 * page cache sends the same bytes, so the ratio is the app's own work per request, not the size of
 * its answer (a populated page is more than twice the page the floor reads, `read`, which checks
 * the app's page once).
 */
export function repeatedPageScenario(ctx: BenchContext, kind: string, label: string, path: string, read: () => Promise<string>, validate: <T>(cached: () => Promise<T>) => Promise<T>): Scenario {
  let cached = new Uint8Array()
  return {
    kind, label, write: false,
    prepare: async () => {
      const answer = await send(ctx.cachedApp, 'GET', path, 200)
      samePage(ctx.n)(answer, await read())
      cached = new TextEncoder().encode(answer)
    },
    app: () => send(ctx.cachedApp, 'GET', path, 200),
    floor: async () => new Response(await validate(async () => cached), { headers: { 'Content-Type': 'application/json' } }).text(),
    floorResponds: true,
    check: samePage(ctx.n),
  }
}
