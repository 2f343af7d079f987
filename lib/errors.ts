// One error type for the whole API, thrown through the factories below and rendered only by the
// app's onError as the envelope `{ data: null, error: { status, name, message, details } }`.

export type ErrorDetails = Record<string, unknown>

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly errorName: string,
    message: string,
    readonly details: ErrorDetails = {},
    readonly headers: Record<string, string> = {},
  ) {
    // An answer, not a fault: its stack is never logged (request-log.ts), so none is captured
    // (capturing it walks the request's async frames on every 4xx).
    const stackTraceLimit = Error.stackTraceLimit
    Error.stackTraceLimit = 0
    super(message)
    Error.stackTraceLimit = stackTraceLimit
    this.name = 'ApiError'
  }
}

/** The `details` of an error about a query parameter. */
export function queryDetails(param: string, key: string, path: string | null, extra: ErrorDetails = {}): ErrorDetails {
  return { key, path, source: 'query', param, ...extra }
}

export const badRequest = (message: string, details: ErrorDetails = {}) =>
  new ApiError(400, 'ValidationError', message, details)
export const paginationError = (message: string, details: ErrorDetails = {}) =>
  new ApiError(400, 'PaginationError', message, details)
export const unauthorized = (message = 'Missing or invalid credentials') => new ApiError(401, 'UnauthorizedError', message)
export const forbidden = () => new ApiError(403, 'ForbiddenError', 'Forbidden')
export const notFound = () => new ApiError(404, 'NotFoundError', 'Not Found')
export const methodNotAllowed = (allow: readonly string[]) =>
  new ApiError(405, 'MethodNotAllowedError', 'Method Not Allowed', {}, { Allow: allow.join(', ') })
export const conflict = (message = 'Conflict') => new ApiError(409, 'ConflictError', message)
export const preconditionFailed = () =>
  new ApiError(412, 'PreconditionFailedError', 'The version has changed since it was read (If-Match)')
export const payloadTooLarge = (limit: number) =>
  new ApiError(413, 'PayloadTooLargeError', `Request body is larger than ${limit} bytes`)
export const uriTooLong = (limit: number) =>
  new ApiError(414, 'URITooLongError', `Query string is longer than ${limit} characters`)
export const unsupportedMediaType = () =>
  new ApiError(415, 'UnsupportedMediaTypeError', 'Request body must be JSON (Content-Type: application/json)')
export const serviceUnavailable = (retryAfterSeconds = 1) =>
  new ApiError(503, 'ServiceUnavailableError', 'Service temporarily unavailable, retry later', {}, {
    'Retry-After': String(retryAfterSeconds),
  })
export const internalError = () => new ApiError(500, 'InternalServerError', 'Internal Server Error')

/** The JSON body of an error response. */
export function errorEnvelope(error: ApiError) {
  return {
    data: null,
    error: { status: error.status, name: error.errorName, message: error.message, details: error.details },
  }
}
