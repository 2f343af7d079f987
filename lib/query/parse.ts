// The query string, parsed once at the boundary: qs with explicit limits, then checked into a typed
// query. Code past this point never sees raw strings such as "2" or "title:desc".
import parseQuery from 'qs/lib/parse.js'
import type { RestConfig } from '../config.js'
import type { ContentType } from '../content-types.js'
import { badRequest, queryDetails, uriTooLong } from '../errors.js'
import { parseFields } from './fields.js'
import { parseFilters, searchFilter, type Filter, type TypeOf } from './filters.js'
import { parsePagination, type Pagination } from './pagination.js'
import { parseSort, type SortEntry } from './sort.js'
import type { Status } from '../table.js'

/** Longest accepted query string, in characters (a 414 beyond it). */
export const MAX_QUERY_LENGTH = 8192

const QS_OPTIONS = {
  // Filters nest $and/$or/$not 5 deep (delivery.md §10): about 13 brackets, plus room for the
  // array-in-array form. strictDepth makes a deeper query a 400 rather than silently truncated.
  depth: 20,
  strictDepth: true,
  arrayLimit: 100,
  parameterLimit: 1000,
  plainObjects: true,
  allowPrototypes: false,
  allowDots: false,
  comma: false,
  // Past a limit, a 400 rather than qs silently dropping or reshaping parameters.
  throwOnLimitExceeded: true,
} as const

const PAGINATION_KEYS = new Set(['page', 'pageSize', 'start', 'limit', 'withCount'])

/** Parses the search part of a URL with qs; 414 past the length limit. */
export function parseSearch(url: string): Record<string, unknown> {
  const at = url.indexOf('?')
  const search = at === -1 ? '' : url.slice(at + 1)
  if (search.length > MAX_QUERY_LENGTH) throw uriTooLong(MAX_QUERY_LENGTH)
  const simple = parseSimple(search)
  if (simple !== undefined) return simple
  try {
    return parseQuery(search, QS_OPTIONS) as Record<string, unknown>
  } catch (error) {
    const overlong = error instanceof RangeError ? longArray(search) : undefined
    if (overlong !== undefined) {
      // Name the parameter whose list is too long (e.g. filters.views.$in), not just the query.
      throw badRequest(`Too many values in ${overlong.join('.')}: at most ${QS_OPTIONS.arrayLimit}`, queryDetails(overlong[0] as string, overlong.at(-1) as string, overlong.join('.')))
    }
    const reason = error instanceof RangeError ? `: ${error.message}` : ''
    throw badRequest(`Invalid query string${reason}`, queryDetails('query', 'query', null))
  }
}

/** `a=b&c=d` with plain words only: nothing qs would decode, nest or combine. */
const MAX_SIMPLE_PAIRS = 20
const SIMPLE_QUERY = /^(?:[A-Za-z0-9_]+=[A-Za-z0-9_.:*-]*(?:&|$))*$/

/**
 * What qs.parse gives a query of plain `key=value` pairs with distinct keys (get one's `locale=en`,
 * an empty query), without qs: it costs a few microseconds a request. Undefined for anything else.
 */
function parseSimple(search: string): Record<string, unknown> | undefined {
  if (!SIMPLE_QUERY.test(search) || search.endsWith('&')) return undefined
  const parsed: Record<string, unknown> = Object.create(null) as Record<string, unknown>
  if (search === '') return parsed
  const pairs = search.split('&')
  // qs counts parameters against its limit (a 400 past it): leave long queries to it.
  if (pairs.length > MAX_SIMPLE_PAIRS) return undefined
  for (const pair of pairs) {
    const at = pair.indexOf('=')
    const key = pair.slice(0, at)
    if (key in parsed || key === '__proto__') return undefined
    parsed[key] = pair.slice(at + 1)
  }
  return parsed
}

/** The path of the first list longer than qs's array limit, read again without that limit. */
function longArray(search: string): string[] | undefined {
  let parsed: unknown
  try {
    parsed = parseQuery(search, { ...QS_OPTIONS, arrayLimit: QS_OPTIONS.parameterLimit, throwOnLimitExceeded: false })
  } catch {
    return undefined
  }
  const walk = (value: unknown, path: string[]): string[] | undefined => {
    if (Array.isArray(value) && value.length > QS_OPTIONS.arrayLimit) return path
    if (typeof value !== 'object' || value === null) return undefined
    for (const [key, child] of Object.entries(value)) {
      const found = walk(child, [...path, key])
      if (found !== undefined) return found
    }
    return undefined
  }
  return walk(parsed, [])
}

function rejectUnknownKeys(parsed: Record<string, unknown>, allowed: readonly string[]): void {
  for (const key of Object.keys(parsed)) {
    if (allowed.includes(key)) continue
    if (PAGINATION_KEYS.has(key)) {
      throw badRequest(`Invalid key ${key}. Use pagination[${key}] instead`, queryDetails(key, key, null))
    }
    throw badRequest(`Invalid key ${key}`, queryDetails(key, key, null))
  }
}

/** The raw `locale` value: a code, `*`, or undefined for the default. Arrays and objects are 400s. */
function readLocale(raw: unknown): string | undefined {
  if (raw === undefined || raw === '') return undefined
  if (typeof raw !== 'string') {
    throw badRequest('Invalid locale: expected a single locale code', queryDetails('locale', 'locale', null))
  }
  return raw.trim() === '' ? undefined : raw.trim()
}

/** `fallback=true|false`; undefined when absent (which means true); any other value is a 400. */
function readFallback(raw: unknown, locale: string | undefined): boolean | undefined {
  if (raw === undefined) return undefined
  if (raw !== 'true' && raw !== 'false') {
    throw badRequest('Invalid fallback: expected true or false', queryDetails('fallback', 'fallback', null))
  }
  if (locale === '*') {
    throw badRequest('Invalid fallback: locale=* never falls back', queryDetails('fallback', 'fallback', null))
  }
  return raw === 'true'
}

/**
 * `status=published|draft` of a draft & publish type (content-model.md §15); undefined when absent.
 * Other types ignore it, as Strapi does.
 */
function readStatus(raw: unknown, type: ContentType): Status | undefined {
  if (raw === undefined || !type.draftAndPublish) return undefined
  if (raw === 'published' || raw === 'draft') return raw
  const received = typeof raw === 'string' ? raw : JSON.stringify(raw)
  throw badRequest(`Invalid parameter at 'status'. Expected 'published' or 'draft', received: ${received}`, queryDetails('status', 'status', null, { value: raw }))
}

/** Strapi's `publicationFilter` values (content-model.md §15). */
export const PUBLICATION_FILTERS = [
  'never-published',
  'has-published-version',
  'never-published-document',
  'has-published-version-document',
  'modified',
  'unmodified',
  'published-without-draft',
  'published-with-draft',
] as const

export type PublicationFilter = (typeof PUBLICATION_FILTERS)[number]

function readPublicationFilter(raw: unknown, type: ContentType): PublicationFilter | undefined {
  if (raw === undefined || !type.draftAndPublish) return undefined
  if (typeof raw === 'string' && (PUBLICATION_FILTERS as readonly string[]).includes(raw)) return raw as PublicationFilter
  throw badRequest(`Invalid value for 'publicationFilter'. Expected one of: ${PUBLICATION_FILTERS.join(', ')}`, { source: 'query', param: 'publicationFilter', value: raw })
}

export interface ItemQuery {
  /** The requested locale code as sent, `*`, or undefined for the default locale. */
  readonly locale: string | undefined
}

export interface WriteQuery extends ItemQuery {
  /** The fields the response holds; undefined for every field. */
  readonly fields: readonly string[] | undefined
  /** `status` as sent (draft & publish types; undefined otherwise): `draft` writes the draft only. */
  readonly status: Status | undefined
  /** `populate` as qs gave it (lib/relations/populate-query.ts reads it against every type); undefined when absent. */
  readonly populate: unknown
}

export interface ReadQuery extends WriteQuery {
  /** The filter a version must match (a 404 on get one); undefined for none. */
  readonly filters: Filter | undefined
  /** `fallback=true|false` as sent; undefined when absent, which means true (delivery.md §12). */
  readonly fallback: boolean | undefined
}

export interface ListQuery extends ReadQuery {
  readonly sort: readonly SortEntry[]
  readonly pagination: Pagination
  readonly publicationFilter: PublicationFilter | undefined
}

function readQuery(parsed: Record<string, unknown>, type: ContentType, typeOf: TypeOf | undefined): ReadQuery {
  const locale = readLocale(parsed.locale)
  return {
    locale,
    status: readStatus(parsed.status, type),
    filters: parseFilters(parsed.filters, type, typeOf),
    fields: parseFields(parsed.fields, type),
    fallback: readFallback(parsed.fallback, locale),
    populate: parsed.populate,
  }
}

/**
 * Parses a list read's query: `locale`, `sort`, `pagination`, `filters`, `_q`, `fields`,
 * `fallback`; anything else is a 400. `_q` joins `filters` by AND (content-model.md §14).
 */
export function parseListQuery(url: string, type: ContentType, rest: Pick<RestConfig, 'defaultLimit' | 'maxLimit'>, typeOf?: TypeOf): ListQuery {
  const parsed = parseSearch(url)
  rejectUnknownKeys(parsed, ['locale', 'status', 'publicationFilter', 'sort', 'pagination', 'filters', '_q', 'fields', 'fallback', 'populate'])
  const query = readQuery(parsed, type, typeOf)
  const search = searchFilter(parsed._q, type)
  return {
    ...query,
    filters: search === undefined ? query.filters : query.filters === undefined ? search : { kind: 'and', filters: [query.filters, search] },
    sort: parseSort(parsed.sort, type, typeOf),
    pagination: parsePagination(parsed.pagination, rest),
    publicationFilter: readPublicationFilter(parsed.publicationFilter, type),
  }
}

/** Parses the query of get one and the single-type GET: `locale`, `filters`, `fields`, `fallback`. */
export function parseReadQuery(url: string, type: ContentType, typeOf?: TypeOf): ReadQuery {
  const parsed = parseSearch(url)
  rejectUnknownKeys(parsed, ['locale', 'status', 'filters', 'fields', 'fallback', 'populate'])
  return readQuery(parsed, type, typeOf)
}

/**
 * Parses the query of POST and PUT: `locale`, `status` and `fields` (which shapes the response
 * only); of a publication action (`locale` and `fields`, `status` refused).
 */
export function parseWriteQuery(url: string, type: ContentType, action = false): WriteQuery {
  const parsed = parseSearch(url)
  rejectUnknownKeys(parsed, action ? ['locale', 'fields'] : ['locale', 'status', 'fields', 'populate'])
  return { locale: readLocale(parsed.locale), status: readStatus(parsed.status, type), fields: parseFields(parsed.fields, type), populate: parsed.populate }
}

/**
 * Parses the query of DELETE and `/api/i18n/locales`: `locale` only. A DELETE removes a locale's
 * draft and published version together: `status` on it is a 400 for a draft & publish type
 * (content-model.md §15), ignored by the others as Strapi does.
 */
export function parseItemQuery(url: string, type?: ContentType): ItemQuery {
  const parsed = parseSearch(url)
  if (parsed.status !== undefined && type !== undefined) {
    if (type.draftAndPublish) throw badRequest('Invalid parameter at \'status\': a DELETE removes both the draft and the published version of the locale', queryDetails('status', 'status', null))
    delete parsed.status
  }
  rejectUnknownKeys(parsed, ['locale'])
  return { locale: readLocale(parsed.locale) }
}
