// The request kinds the benchmark measures, each as a request through the Hono app and the floor's
// answer to the same question. Reads run against the seeded documents; writes create, localize
// and delete documents of their own (the app's and the floor's separately) so the table is back
// to N versions per locale afterwards.
import type { Hono } from 'hono'
import type { Attributes } from '../lib/body.js'
import { newDocumentId } from '../lib/storage/documents.js'
import type { Compare, Floor } from './floor.js'
import { localizedAttributes, random, sharedAttributes } from './seed.js'

export interface BenchContext {
  readonly app: Hono
  readonly floor: Floor
  /** A full-access API key, for the writes. */
  readonly token: string
  /** Versions per locale. */
  readonly n: number
  /** Seeded documents, each with a version in every locale. */
  readonly documentIds: readonly string[]
}

export interface Scenario {
  readonly kind: string
  readonly label: string
  readonly write: boolean
  /** The app's answer to repetition `i` (a real request through `app.request()`). */
  app(i: number): Promise<string>
  /** The floor's answer to repetition `i`. */
  floor(i: number): Promise<string>
  /** Throws unless both answered the same (run once per N, outside the timings). */
  check?(app: string, floor: string): void
}

const PAGE = 25

/** Sends one request and returns the body; any other status than `expected` stops the run. */
export async function send(app: Hono, method: string, path: string, expected: number, options: { token?: string; body?: unknown } = {}): Promise<string> {
  const headers: Record<string, string> = {}
  if (options.token !== undefined) headers.Authorization = `Bearer ${options.token}`
  const body = options.body === undefined ? undefined : JSON.stringify(options.body)
  if (body !== undefined) headers['Content-Type'] = 'application/json'
  const response = await app.request(path, { method, headers, body })
  const text = await response.text()
  if (response.status !== expected) throw new Error(`${method} ${path}: expected ${expected}, got ${response.status} ${text.slice(0, 300)}`)
  return text
}

type Page = { data: { documentId: string }[] | { documentId: string }; meta?: { pagination?: { total?: number }; total?: number } }

function idsOf(text: string): string[] {
  const { data } = JSON.parse(text) as Page
  return (Array.isArray(data) ? data : [data]).map((item) => item.documentId)
}

function totalOf(text: string): number | undefined {
  const { meta } = JSON.parse(text) as Page
  return meta?.pagination?.total ?? meta?.total
}

/** The same documents in the same order, and the same total, from the app and the floor. */
function samePage(expectedTotal: number | undefined) {
  return (app: string, floor: string) => {
    const [a, f] = [idsOf(app), idsOf(floor)]
    if (a.length === 0 || a.join() !== f.join()) throw new Error(`app and floor disagree: ${a.slice(0, 3).join()} vs ${f.slice(0, 3).join()}`)
    if (totalOf(app) !== expectedTotal) throw new Error(`app total ${totalOf(app)}, expected ${expectedTotal}`)
  }
}

const collator = new Intl.Collator('en')
const byTitle: Compare = (a, b) => collator.compare(String(a.title), String(b.title)) || Number(a.id) - Number(b.id)
const byViewsDescThenTitle: Compare = (a, b) => Number(b.views) - Number(a.views) || byTitle(a, b)

/** The read kinds, on the default locale (en). */
export function readScenarios(ctx: BenchContext): Scenario[] {
  const { app, floor, n, documentIds } = ctx
  const get = (path: string) => () => send(app, 'GET', path, 200)
  const deepStart = Math.max(0, n - PAGE)
  const middle = Math.floor(n / 2)
  return [
    { kind: 'list-default', label: 'list page 1, default sort', write: false, app: get('/api/articles'), floor: () => floor.firstPage('en', PAGE, true), check: samePage(n) },
    { kind: 'sort-title', label: 'list page 1, sort=title', write: false, app: get('/api/articles?sort=title'), floor: () => floor.sortedPage('en', byTitle, 0, PAGE), check: samePage(n) },
    {
      kind: 'sort-views-title', label: 'list page 1, sort[0]=views:desc&sort[1]=title', write: false,
      app: get('/api/articles?sort[0]=views:desc&sort[1]=title'), floor: () => floor.sortedPage('en', byViewsDescThenTitle, 0, PAGE), check: samePage(n),
    },
    {
      kind: 'deep-page', label: `deep page, pagination[start]=N-${PAGE}`, write: false,
      app: get(`/api/articles?pagination[start]=${deepStart}`), floor: () => floor.deepPage('en', deepStart, PAGE), check: samePage(n),
    },
    {
      kind: 'middle-page', label: 'middle page, pagination[start]=N/2', write: false,
      app: get(`/api/articles?pagination[start]=${middle}`), floor: () => floor.deepPage('en', middle, PAGE), check: samePage(n),
    },
    {
      kind: 'without-count', label: 'list page 1, pagination[withCount]=false', write: false,
      app: get('/api/articles?pagination[withCount]=false'), floor: () => floor.firstPage('en', PAGE, false), check: samePage(undefined),
    },
    {
      kind: 'get-one', label: 'get one', write: false,
      app: (i) => send(app, 'GET', `/api/articles/${documentIds[(i * 7919) % documentIds.length]}?locale=en`, 200),
      floor: (i) => floor.getOne(documentIds[(i * 7919) % documentIds.length]!, 'en'),
      check: (appText, floorText) => {
        if (idsOf(appText).join() !== idsOf(floorText).join()) throw new Error('app and floor read different documents')
      },
    },
  ]
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
      app: (i) => send(app, 'PUT', `/api/articles/${documentIds[(2 * i) % documentIds.length]}?locale=en`, 200, { token, body: { data: { views: i } } }),
      floor: (i) => floor.updateShared(documentIds[(2 * i + 1) % documentIds.length]!, 'en', { views: i }),
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
