// The responses every route shares: the error envelope of behaviour.md §1 for each status it
// lists (and 412), the 304 of delivery.md §13, and the response headers (ETag, Cache-Control,
// Vary, Content-Language, Allow, Retry-After).
import type { Config } from '../config.js'
import { MAX_QUERY_LENGTH } from '../query/parse.js'
import { closed, ref, type Schema } from './schemas.js'

/** The statuses of the error envelope, the names they carry, and when they are answered. */
const ERRORS: Record<number, { names: string[]; description: string; headers?: string[] }> = {
  400: { names: ['ValidationError', 'PaginationError'], description: 'Bad query parameter, bad body, unknown locale, or page and offset pagination mixed (PaginationError)' },
  401: { names: ['UnauthorizedError'], description: 'An Authorization header whose token is unknown, malformed or revoked (admin routes: a missing one too)' },
  403: { names: ['ForbiddenError'], description: 'The caller\'s role or token lacks the action (e.g. createLocalization)' },
  404: { names: ['NotFoundError'], description: 'Unknown route, unknown documentId, or no version in that locale' },
  405: { names: ['MethodNotAllowedError'], description: 'The path does not serve this method; Allow lists the ones it does', headers: ['Allow'] },
  409: { names: ['ConflictError'], description: 'A concurrent write won, and retrying would not be safe; or the locale is in use or already there' },
  412: { names: ['PreconditionFailedError'], description: 'If-Match names no current version' },
  413: { names: ['PayloadTooLargeError'], description: 'The body is over the size limit' },
  414: { names: ['URITooLongError'], description: `The query string is over ${MAX_QUERY_LENGTH} characters` },
  415: { names: ['UnsupportedMediaTypeError'], description: 'The body\'s Content-Type is not JSON (none is read as JSON)' },
  500: { names: ['InternalServerError'], description: 'A bug: a generic message, no details' },
  503: { names: ['ServiceUnavailableError'], description: 'DynamoDB is throttling or unreachable after retries; retry after Retry-After seconds', headers: ['RetryAfter'] },
}

export type ErrorStatus = 400 | 401 | 403 | 404 | 405 | 409 | 412 | 413 | 414 | 415 | 500 | 503

const EMPTY: Schema = { type: 'object', maxProperties: 0 }

/** `details` of a 400: about a query parameter, about body fields, unknown actions, or none. */
const ERROR_DETAILS: Record<string, Schema> = {
  QueryErrorDetails: {
    type: 'object',
    required: ['key', 'path', 'source', 'param'],
    properties: {
      key: { type: 'string' },
      path: { type: ['string', 'null'], examples: ['pagination.pageSize', 'filters.title'] },
      source: { const: 'query' },
      param: { type: 'string', examples: ['locale', 'sort', 'pagination', 'filters', 'fields', 'fallback'] },
      value: { type: 'string', description: 'The locale asked for (unknown locale)' },
      available: { type: 'array', items: { type: 'string' }, description: 'The registered locale codes (unknown locale)' },
    },
  },
  BodyErrorDetails: closed({
    errors: {
      type: 'array',
      description: 'Every problem found, not only the first',
      items: closed({ path: { type: 'array', items: { type: 'string' } }, message: { type: 'string' }, name: { const: 'ValidationError' } }, ['path', 'message', 'name']),
    },
  }, ['errors']),
  UnknownActionsDetails: closed({ unknown: { type: 'array', items: { type: 'string' } } }, ['unknown']),
}

/** The envelope of every non-2xx answer: `{ data: null, error: { status, name, message, details } }`. */
const ERROR_ENVELOPE: Schema = closed({
  data: { type: 'null' },
  error: closed({
    status: { type: 'integer', minimum: 400, maximum: 599 },
    name: { type: 'string' },
    message: { type: 'string' },
    details: { type: 'object' },
  }, ['status', 'name', 'message', 'details']),
}, ['data', 'error'], { description: 'The body of every non-2xx answer' })

/** The envelope narrowed to one status: its names and its details. */
const errorOf = (status: number, names: readonly string[], details: Schema): Schema => ({
  allOf: [ref('ErrorEnvelope'), {
    type: 'object',
    properties: {
      error: { type: 'object', properties: { status: { const: status }, name: names.length === 1 ? { const: names[0] } : { enum: names }, details } },
    },
  }],
})

/** The response headers, described once. */
function headers(config: Config): Record<string, Schema> {
  const { maxAge, sMaxAge, staleWhileRevalidate } = config.rest.cache
  const text = (description: string, examples?: string[]): Schema => ({ description, schema: { type: 'string', ...(examples === undefined ? {} : { examples }) } })
  return {
    ETag: text('For one version `"<id>.<revision>"` (usable in If-Match); for a list, a tag that changes whenever the same request\'s answer could', ['"12.3"']),
    CacheControl: text(`Anonymous reads: public, max-age=${maxAge}, s-maxage=${sMaxAge}, stale-while-revalidate=${staleWhileRevalidate} (api.rest.cache.*); reads with a token: private, no-cache; writes, admin routes and errors: no-store`),
    Vary: text('Authorization: the answer depends on the caller', ['Authorization']),
    ContentLanguage: text('The locale the version was found in (with fallback, maybe not the one asked for)', ['fr']),
    Allow: { ...text('The methods the path serves', ['GET, PUT, DELETE']), required: true },
    RetryAfter: { description: 'Seconds to wait before retrying', required: true, schema: { type: 'integer', minimum: 0 } },
  }
}

const header = (name: string): Schema => ref(name, 'headers')

/** The HTTP name of a header component: `CacheControl` is `Cache-Control`. */
const headerKey = (component: string) => component === 'ETag' ? component : component.replace(/(?<=[a-z])(?=[A-Z])/g, '-')

/** `headers` of a response: the named header components under their HTTP names. */
const headerMap = (components: readonly string[]): Schema =>
  Object.fromEntries(components.map((name) => [headerKey(name), header(name)]))

/** Components for errors and headers: `responses` (one per error status, and 304), `headers`, envelope schemas. */
export function responseComponents(config: Config) {
  const responses: Record<string, Schema> = {}
  for (const [status, error] of Object.entries(ERRORS)) {
    const details = status === '400' ? { anyOf: [ref('QueryErrorDetails'), ref('BodyErrorDetails'), ref('UnknownActionsDetails'), EMPTY] } : EMPTY
    const schema = errorOf(Number(status), error.names, details)
    responses[`Error${status}`] = jsonResponse(`${error.names.join(' or ')}: ${error.description}`, schema, ['CacheControl', 'Vary', ...(error.headers ?? [])])
  }
  responses.NotModified = emptyResponse('If-None-Match holds the current ETag (or *): no body', READ_HEADERS)
  const schemas = { ...ERROR_DETAILS, ErrorEnvelope: ERROR_ENVELOPE }
  return { responses, schemas, headers: headers(config) }
}

/** `{ <status>: $ref }` for the error statuses a route can answer. */
export function errorResponses(...statuses: ErrorStatus[]): Record<string, Schema> {
  return Object.fromEntries([...statuses].sort((a, b) => a - b).map((status) => [String(status), ref(`Error${status}`, 'responses')]))
}

/** The headers of a 200 answer to a GET: its ETag and how it may be cached. */
export const READ_HEADERS = ['ETag', 'CacheControl', 'Vary']

/** The answer to a conditional GET whose ETag still holds. */
export const NOT_MODIFIED = ref('NotModified', 'responses')

/** A JSON response with `schema` and the named header components. */
export function jsonResponse(description: string, schema: Schema, headerComponents: readonly string[] = []): Schema {
  const response: Schema = { description, content: { 'application/json': { schema } } }
  if (headerComponents.length > 0) response.headers = headerMap(headerComponents)
  return response
}

/** A response without a body (204). */
export function emptyResponse(description: string, headerComponents: readonly string[] = []): Schema {
  return { description, headers: headerMap(headerComponents) }
}
