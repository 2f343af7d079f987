// Find (content-api.md; delivery.md §11–13): a page of a locale's versions, sorted, filtered,
// populated. Planned in two steps so that the HTTP layer keeps its conditional answers cheap: the
// plan holds the page's validator (one small read that answers a 304 or a cached page) and the
// page read, which the caller starts alongside the validator or not at all.
import type { Populated } from '../answers/document.js'
import { populatesComponentsOnly } from '../components/populate.js'
import { WILDCARD } from '../locales.js'
import { crossesRelations } from '../query/filters.js'
import { paginationWindow } from '../query/pagination.js'
import type { ListQuery, PublicationFilter } from '../query/parse.js'
import { throughRelation } from '../query/sort.js'
import { checkReadThrough, listsReadThrough } from '../relations/dependencies.js'
import { treeKey, type PopulateTree } from '../relations/populate-query.js'
import { sortedThroughRelations } from '../relations/sort.js'
import type { Version } from '../storage/items.js'
import type { ListResult } from '../storage/lists/reader.js'
import type { ListState, Validator } from '../storage/lists/validator.js'
import { publicationList, versionList, type PublicationState, type Status } from '../table.js'
import { readable, localeOf, readStatusOf, relationLocaleOf, type Asker, type Scope } from './context.js'
import { resolvedFilter } from './find-one.js'
import { populatorOf, type Populator } from './populate.js'

/** The publication states each `publicationFilter` keeps (content-model.md §15; see PublicationState). */
const PUBLICATION_STATES: Record<PublicationFilter, readonly PublicationState[]> = {
  'never-published': ['n', 'N'],
  'has-published-version': ['m', 'u'],
  'never-published-document': ['n'],
  'has-published-version-document': ['N', 'm', 'u'],
  modified: ['m'],
  unmodified: ['u'],
  // Every published version has a draft here.
  'published-without-draft': [],
  'published-with-draft': ['m', 'u'],
}

export interface FindInput {
  readonly asker: Asker
  readonly query: ListQuery
  /** The query's populate tree when the caller keeps it parsed (see ListQueries). */
  readonly tree?: () => PopulateTree | undefined
}

/** A list read planned: what its answer depends on, its validator, and the page read itself. */
export interface FindPlan {
  /** Everything the page depends on besides the lists' revisions, its type among them (part of its ETag; `key` is its JSON, the page cache's key in a process serving every type). */
  readonly normalized: Readonly<Record<string, unknown>>
  readonly key: string
  /** The slot indexes are complete (see ListRequest.trusted). */
  readonly trusted: boolean
  /** When the page's reads started (lists settle from then: see SETTLE_MS). */
  readonly startedAt: number
  /**
   * What each document's JSON depends on besides its version (`fields`, populate), when that is
   * all: nothing populated, or components only (delivery/rendered.ts); undefined when documents
   * show other documents.
   */
  readonly shape: string | undefined
  /** The lists' head: their revisions and when they last changed. */
  readonly validator: Validator
  /** Reads the page (with the validator alongside, or in the BatchGet of its documents). */
  read(): Promise<ListResult>
  /**
   * The populated relations of a page's versions (undefined when nothing is populated); `lists`,
   * the validator's list states read before, lets targets come from the process's cache.
   */
  populate(versions: readonly Version[], lists?: ReadonlyMap<string, ListState>): Promise<Populated | undefined>
}

/**
 * Plans a list read: locale, status, populate and relation access checked (400, 403 and 503
 * before anything is read), the lists to read chosen, their validator made.
 */
export async function planFind(scope: Scope, input: FindInput): Promise<FindPlan> {
  const { type, services } = scope
  const { asker, query } = input
  const locale = await localeOf(scope, query.locale, true)
  const linked = await relationLocaleOf(scope, query.locale, locale)
  const status = await readStatusOf(scope, asker, query.status, query.publicationFilter)
  const fallback = query.fallback !== false
  const populator = populatorOf(scope, asker.who, query.populate, status, fallback, input.tree)
  // A filter or a sort through relations needs `find` on each type it reaches (checked here, before
  // any answer, cached or not); the filter is resolved with the page's read.
  const relationFilter = crossesRelations(query.filters)
  const relationSort = query.sort.some(throughRelation)
  if (relationFilter || relationSort) checkReadThrough(services, type, { filter: query.filters, sort: query.sort }, readable(asker.who, status))
  const { lists: listNames, partitions, chain, served } = await listsOf(scope, query, locale, status, fallback)
  const normalized = { uid: type.uid, locale, ...(linked === locale ? {} : { linked }), lists: listNames, sort: query.sort, pagination: query.pagination, filters: query.filters, fields: query.fields, fallback: chain !== undefined, partitions, populate: populator === undefined ? undefined : treeKey(populator.tree) }
  const { offset, limit } = paginationWindow(query.pagination)
  const trusted = await services.locales.indexTrusted()
  // Lists settle from when their reads start (see SETTLE_MS): a page read then saw every write
  // made SETTLE_MS before, whatever the order in which its reads and the validator's end.
  const startedAt = Date.now()
  // With `publicationFilter`, the total is the state partitions' count; the lists' revisions
  // move with every change to their versions (a partition's only when its members change).
  // Through relations (populate, filters, sort), the other types' lists read count too.
  const through = populator !== undefined || relationFilter || relationSort
    ? await listsReadThrough(services, type, { tree: populator?.tree, filter: query.filters, sort: query.sort, locale: linked, status, fallback })
    : []
  const validator = services.lists.validator(type, listNames, partitions, through)
  const read = async (): Promise<ListResult> => {
    const filter = relationFilter ? await resolvedFilter(scope, asker.who, query.filters, linked, status, fallback) : query.filters
    const request = { lists: listNames, collation: locale, sort: query.sort, filter, offset, limit, maxScan: services.config.rest.maxScan, trusted, startedAt }
    if (relationSort) return sortedThroughRelations({ services, status, fallback, read: services.documents.batchReader() }, type, request, validator, linked)
    if (partitions !== undefined) return partitions.length === 0 ? { versions: [], total: 0 } : services.lists.inPublicationStates(type, request, partitions, validator)
    return chain !== undefined && !served ? services.lists.listChain(type, chain, request, validator) : services.lists.list(type, request, validator)
  }
  const shape = populator === undefined || populatesComponentsOnly(type, populator.tree) ? JSON.stringify([query.fields ?? null, normalized.populate ?? null]) : undefined
  return { normalized, key: JSON.stringify(normalized), trusted, startedAt, shape, validator, read, populate: populateWith(populator, linked) }
}

/** A plan's populate step: nothing without a populator. */
function populateWith(populator: Populator | undefined, locale: string) {
  return async (versions: readonly Version[], lists?: ReadonlyMap<string, ListState>) => (populator === undefined ? undefined : populator(versions, locale, lists))
}

/**
 * The lists a read goes through: the served copy of a fallback chain once it is ready, else each
 * locale's own (each one's along the chain, or every locale for `*`); with `publicationFilter`,
 * its own versions only (no fallback), and the partitions of the states it keeps.
 */
async function listsOf(scope: Scope, query: ListQuery, locale: string, status: Status, fallback: boolean) {
  const { locales } = scope.services
  const chain = fallback && locale !== WILDCARD && query.publicationFilter === undefined ? await locales.chainOf(locale) : undefined
  const served = chain !== undefined && (await locales.servedReady(locale))
  const lists = served ? [`~${versionList(locale, status)}`] : (chain ?? (await locales.expand(locale))).map((code) => versionList(code, status))
  const states = query.publicationFilter === undefined ? undefined : PUBLICATION_STATES[query.publicationFilter]
  const partitions = states === undefined ? undefined : lists.flatMap((list) => states.map((state) => publicationList(list, state)))
  return { lists, partitions, chain, served }
}
