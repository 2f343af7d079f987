// The `pagination` query parameter: page style or offset style, validated with valibot into a
// window (offset + limit) plus the metadata shape to answer with.
import * as v from 'valibot'
import type { RestConfig } from '../config.js'
import { badRequest, paginationError, queryDetails } from '../errors.js'

const INTEGER = /^-?\d+$/

function integerParam(name: string, min: number, allowMinusOne = false) {
  const range = allowMinusOne ? `an integer >= ${min} or -1` : `an integer >= ${min}`
  return v.optional(
    v.pipe(
      v.string(`pagination[${name}] must be ${range}`),
      v.regex(INTEGER, `pagination[${name}] must be ${range}`),
      v.transform(Number),
      v.check((n) => Number.isSafeInteger(n) && (n >= min || (allowMinusOne && n === -1)), `pagination[${name}] must be ${range}`),
    ),
  )
}

const WITH_COUNT: Record<string, boolean> = { true: true, t: true, '1': true, false: false, f: false, '0': false }

const PaginationSchema = v.strictObject(
  {
    page: integerParam('page', 1),
    pageSize: integerParam('pageSize', 1),
    start: integerParam('start', 0),
    limit: integerParam('limit', 1, true),
    withCount: v.optional(
      v.pipe(
        v.string('pagination[withCount] must be one of true|false|1|0|t|f'),
        v.check((s) => s.toLowerCase() in WITH_COUNT, 'pagination[withCount] must be one of true|false|1|0|t|f'),
        v.transform((s) => WITH_COUNT[s.toLowerCase()] === true),
      ),
    ),
  },
)

export type Pagination =
  | { readonly mode: 'page'; readonly page: number; readonly pageSize: number; readonly withCount: boolean }
  | { readonly mode: 'offset'; readonly start: number; readonly limit: number; readonly withCount: boolean }

const HINT = 'use pagination[page], pagination[pageSize], pagination[start], pagination[limit] or pagination[withCount]'

/** Parses the raw `pagination` value from qs; defaults and clamping come from `rest`. */
export function parsePagination(raw: unknown, rest: Pick<RestConfig, 'defaultLimit' | 'maxLimit'>): Pagination {
  if (raw === undefined) raw = {}
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw badRequest(`Invalid pagination parameter: ${HINT}`, queryDetails('pagination', 'pagination', 'pagination'))
  }
  for (const key of Object.keys(raw)) {
    if (!(key in PaginationSchema.entries)) {
      throw badRequest(`Invalid key pagination[${key}]: ${HINT}`, queryDetails('pagination', key, `pagination.${key}`))
    }
  }
  const result = v.safeParse(PaginationSchema, raw)
  if (!result.success) {
    const issue = result.issues[0]
    const key = String(issue.path?.[0]?.key ?? 'pagination')
    throw badRequest(issue.message, queryDetails('pagination', key, `pagination.${key}`))
  }
  const { page, pageSize, start, limit, withCount = true } = result.output
  const pageStyle = page !== undefined || pageSize !== undefined
  const offsetStyle = start !== undefined || limit !== undefined
  if (pageStyle && offsetStyle) {
    throw paginationError('Cannot use both page & offset pagination in the same query', queryDetails('pagination', 'pagination', 'pagination'))
  }
  const clamp = (n: number) => Math.min(n, rest.maxLimit)
  if (offsetStyle) {
    const wanted = limit === undefined ? rest.defaultLimit : limit === -1 ? rest.maxLimit : limit
    return { mode: 'offset', start: start ?? 0, limit: clamp(wanted), withCount }
  }
  return { mode: 'page', page: page ?? 1, pageSize: clamp(pageSize ?? rest.defaultLimit), withCount }
}

/** The window of entries a pagination asks for. */
export function paginationWindow(pagination: Pagination): { offset: number; limit: number } {
  return pagination.mode === 'offset'
    ? { offset: pagination.start, limit: pagination.limit }
    : { offset: Math.min((pagination.page - 1) * pagination.pageSize, Number.MAX_SAFE_INTEGER), limit: pagination.pageSize }
}

/** `meta.pagination` for a pagination and the total (omitted when withCount is false). */
export function paginationMeta(pagination: Pagination, total: number | undefined): Record<string, number> {
  const counted = pagination.withCount && total !== undefined
  if (pagination.mode === 'offset') {
    return { start: pagination.start, limit: pagination.limit, ...(counted ? { total } : {}) }
  }
  const { page, pageSize } = pagination
  return counted ? { page, pageSize, pageCount: Math.ceil(total / pageSize), total } : { page, pageSize }
}
