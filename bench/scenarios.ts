// The request kinds the benchmark measures, each as a request through the Hono app and the floor's
// answer to the same question. Reads run against the seeded documents; writes create, localize
// and delete documents of their own (the app's and the floor's separately) so the table is back
// to N versions per locale afterwards.
import type { Attributes } from '../lib/body.js'
import { newDocumentId } from '../lib/storage/documents.js'
import { slotOf, type Compare } from './floor.js'
import { idsOf, orders, PAGE, repeatedPageScenario, request, samePage, send, type BenchContext, type Scenario } from './requests.js'
import { localizedAttributes, random, sharedAttributes } from './seed.js'

const sameDocument = (appText: string, floorText: string) => {
  if (idsOf(appText).join() !== idsOf(floorText).join()) throw new Error('app and floor read different documents')
}

/**
 * Middle pages (start = N/2) are measured up to this N: at N = 100,000 the middle page (50,000
 * index entries paged through on DynamoDB Local, which ends index pages at 1 MB of base items) did
 * not finish its few requests within 6 minutes; their targets use the sizes measured.
 */
export const MIDDLE_PAGE_MAX_N = Number(process.env.BENCH_MIDDLE_MAX_N ?? 10_000)

/** The read kinds, on the default locale (en); the filter kinds are in filter-scenarios.ts. */
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
    // Draft & publish (content-model.md §15): each status's list costs what today's list does.
    {
      kind: 'list-published', label: 'list page 1, status=published', write: false,
      app: get('/api/articles?status=published'), floor: () => floor.firstPage('en', PAGE, true), check: samePage(n),
    },
    {
      kind: 'list-draft', label: 'list page 1, status=draft', write: false,
      app: () => send(app, 'GET', '/api/articles?status=draft', 200, { token: ctx.token }), floor: () => floor.firstPage('draft:en', PAGE, true), check: samePage(n),
    },
    {
      kind: 'sort-title-draft', label: 'list page 1, status=draft&sort=title', write: false,
      app: () => send(app, 'GET', '/api/articles?status=draft&sort=title', 200, { token: ctx.token }),
      floor: () => floor.sortedPage('draft:en', slotOf('title'), false, byTitle, 0, PAGE), check: samePage(n),
    },
    {
      kind: 'publication-modified', label: 'list page 1, status=draft&publicationFilter=modified', write: false,
      app: () => send(app, 'GET', '/api/articles?status=draft&publicationFilter=modified', 200, { token: ctx.token }),
      floor: () => floor.statePage('draft:en', 'draft:en#m', PAGE), check: samePage('floor'),
    },
    markedScenario(ctx, 'near-page-marked', `list page 3, default sort, list marks on`, `pagination[page]=3&pagination[pageSize]=${PAGE}`, () => floor.sortedPage('en', slotOf('id'), false, byId, 2 * PAGE, PAGE)),
    ...(middlePages ? [markedScenario(ctx, 'deep-title-marked', 'sorted middle page, sort=title&pagination[start]=N/2, list marks on', `sort=title&pagination[start]=${middle}`, () => floor.sortedPage('en', slotOf('title'), false, byTitle, middle, PAGE))] : []),
  ]
}

/** The default page repeated with the in-process page cache on: the validator read, then the cached page. */
function pageCacheScenario(ctx: BenchContext): Scenario {
  return repeatedPageScenario(ctx, 'list-page-cache', 'list page 1, default sort, repeated, page cache on', '/api/articles',
    () => ctx.floor.firstPage('en', PAGE, true), (cached) => ctx.floor.cachedPage('en', cached))
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
 * non-localized `views` on a seeded document (its 3 locales), PUT of its localized `title` (en), a
 * draft PUT and its publication, PUT of a new localization (fr) of the created document, DELETE of
 * that localization, then DELETE of the whole created document (`locale=*`, en left). `cleanUp`
 * deletes what create made and is still there.
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
      kind: 'update-localized', label: 'PUT title (localized, published at once: draft and published version of en)', write: true,
      app: (i) => send(app, 'PUT', `/api/articles/${documentIds[(2 * i) % documentIds.length]}?locale=en`, 200, { token, body: { data: { title: `title ${ctx.n} ${i}` } } }),
      floor: (i) => floor.updateLocalized(documentIds[(2 * i + 1) % documentIds.length]!, 'en', { title: `title ${ctx.n} ${i}` }),
    },
    {
      kind: 'update-draft', label: 'PUT status=draft of a published version (title)', write: true,
      app: (i) => send(app, 'PUT', `/api/articles/${documentIds[(2 * i) % documentIds.length]}?locale=en&status=draft`, 200, { token, body: { data: { title: `draft ${ctx.n} ${i}` } } }),
      floor: (i) => floor.writeDraft(documentIds[(2 * i + 1) % documentIds.length]!, 'en', { title: `draft ${ctx.n} ${i}` }),
    },
    {
      // The drafts the previous kind wrote, each published: the published version becomes their copy.
      kind: 'publish', label: 'publish the draft (POST .../actions/publish)', write: true,
      app: (i) => send(app, 'POST', `/api/articles/${documentIds[(2 * i) % documentIds.length]}/actions/publish?locale=en`, 200, { token }),
      floor: (i) => floor.publish(documentIds[(2 * i + 1) % documentIds.length]!, 'en'),
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
    {
      kind: 'delete-document', label: 'DELETE a document (locale=*: its en draft and published version)', write: true,
      app: async (i) => {
        const text = await send(app, 'DELETE', `/api/articles/${appDocuments[i]}?locale=*`, 204, { token })
        deleted.add(appDocuments[i]!)
        return text
      },
      floor: async (i) => {
        const text = await floor.deleteVersion(floorDocuments[i]!, 'en')
        deleted.add(floorDocuments[i]!)
        return text
      },
    },
  ]
  const deleted = new Set<string>()
  const cleanUp = async () => {
    for (const documentId of appDocuments.filter((id) => !deleted.has(id))) await send(app, 'DELETE', `/api/articles/${documentId}?locale=en`, 204, { token })
    for (const documentId of floorDocuments.filter((id) => !deleted.has(id))) await floor.deleteVersion(documentId, 'en')
  }
  return { scenarios, cleanUp }
}
