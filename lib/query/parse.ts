// The query string, parsed once at the boundary: qs with explicit limits, then checked into a typed
// query. Code past this point never sees raw strings such as "2" or "title:desc".
import qs from 'qs'
import type { RestConfig } from '../config.js'
import type { ContentType } from '../content-types.js'
import { badRequest, queryDetails, uriTooLong } from '../errors.js'
import { parsePagination, type Pagination } from './pagination.js'
import { parseSort, type SortEntry } from './sort.js'

/** Longest accepted query string, in characters (a 414 beyond it). */
export const MAX_QUERY_LENGTH = 8192

const QS_OPTIONS = {
  depth: 5,
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
  try {
    return qs.parse(search, QS_OPTIONS) as Record<string, unknown>
  } catch (error) {
    const reason = error instanceof RangeError ? `: ${error.message}` : ''
    throw badRequest(`Invalid query string${reason}`, queryDetails('query', 'query', null))
  }
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

export interface ItemQuery {
  /** The requested locale code as sent, `*`, or undefined for the default locale. */
  readonly locale: string | undefined
}

export interface ListQuery extends ItemQuery {
  readonly sort: readonly SortEntry[]
  readonly pagination: Pagination
  readonly filters: import('./filters.js').Filter | undefined
  readonly fields: readonly string[] | undefined
  readonly fallback: boolean
}

/** Parses a list read's query: `locale`, `sort`, `pagination`; anything else is a 400. */
export function parseListQuery(url: string, type: ContentType, rest: Pick<RestConfig, 'defaultLimit' | 'maxLimit'>): ListQuery {
  const parsed = parseSearch(url)
  rejectUnknownKeys(parsed, ['locale', 'sort', 'pagination'])
  return {
    locale: readLocale(parsed.locale),
    sort: parseSort(parsed.sort, type),
    pagination: parsePagination(parsed.pagination, rest),
    filters: undefined,
    fields: undefined,
    fallback: true,
  }
}

/** Parses the query of every other route: `locale` only. */
export function parseItemQuery(url: string): ItemQuery {
  const parsed = parseSearch(url)
  rejectUnknownKeys(parsed, ['locale'])
  return { locale: readLocale(parsed.locale) }
}

// TEMPORARY shims until the full parsers land.
import type { Filter } from './filters.js'
export interface ReadQuery extends ItemQuery { readonly filters: Filter | undefined; readonly fields: readonly string[] | undefined; readonly fallback: boolean }
export function parseReadQuery(url: string, type: ContentType): ReadQuery {
  void type
  return { ...parseItemQuery(url), filters: undefined, fields: undefined, fallback: true }
}
export function parseWriteQuery(url: string, type: ContentType): ItemQuery & { readonly fields: readonly string[] | undefined } {
  void type
  return { ...parseItemQuery(url), fields: undefined }
}
