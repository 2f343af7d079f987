// HTTP plumbing shared by every app: the one error renderer, 404/405 envelopes, body reading with
// its limits, JSON answers within the response limit, and ETag / If-Match handling. Nothing here
// knows which runtime serves the app.
import { createHash } from 'node:crypto'
import { Hono, type Context, type MiddlewareHandler } from 'hono'
import { cors } from 'hono/cors'
import { parseJson } from './body.js'
import {
  ApiError, badRequest, errorEnvelope, internalError, methodNotAllowed, notFound, payloadTooLarge,
  preconditionFailed, unsupportedMediaType,
} from './errors.js'
import { requestLog, type LogSettings, type LogWriter } from './observability/request-log.js'
import type { Version, VersionTag } from './storage/items.js'

/** The one UTF-8 encoder of answers (a cached page is kept encoded as `jsonText` sends it). */
export const UTF8 = new TextEncoder()

/** The limits every app enforces: request body bytes and response body bytes. */
export interface AppLimits {
  readonly maxBodyBytes: number
  readonly rest: { readonly maxResponseBytes: number }
  /** The media library's limits: multipart bodies of `POST /api/upload`, and presigned PUTs served locally (`/uploads/`). */
  readonly upload?: { readonly maxBodyBytes: number; readonly sizeLimit: number }
  /** The request log's settings (defaults when absent). */
  readonly log?: LogSettings
}

const CORS = { origin: '*', allowHeaders: ['Authorization', 'Content-Type', 'If-Match', 'If-None-Match'], exposeHeaders: ['ETag', 'Content-Language'], maxAge: 600 }
const EXPOSED_HEADERS = CORS.exposeHeaders.join(',')

/**
 * A Hono app with the API's error envelope for every failure (an ApiError as itself, anything
 * else as an opaque 500), the envelope for unknown routes, CORS, the body size limits, and one log
 * line per request to `log` (none when `log` is false). A `mounted` app (one of the server app's, see server-app.ts) leaves
 * the per-request middleware, errors and unknown routes to the app it is mounted in, which runs
 * the middleware once for every route and renders errors in the same envelope (Hono wraps each
 * handler of a mounted app that has an error handler of its own in one more composition).
 */
export function createBaseApp(limits: AppLimits, log?: LogWriter | false, mounted = false): Hono {
  const { maxBodyBytes, rest, upload } = limits
  const app = new Hono()
  if (mounted) return app
  app.onError((error, c) => renderError(c, error))
  app.notFound((c) => renderError(c, notFound()))
  // `false`: no request log at all (the admin interface's in-process requests, logged by the page's).
  if (log !== false) app.use('*', requestLog(log, limits.log))
  app.use('*', corsAndLimits(maxBodyBytes, rest.maxResponseBytes, upload))
  return app
}

/** Where the base app keeps its response byte limit for `json` and `jsonText`. */
const RESPONSE_LIMIT = 'maxResponseBytes'

/**
 * Before every route: the CORS headers of every answer but a preflight (those hono/cors sets for
 * origin `*`), 413 past the body limit by Content-Length, and the response byte limit kept in the
 * request's context. The headers go through `c.header`, which holds them until the answer is made:
 * hono/cors sets them on `c.res`, a placeholder Response that Hono then copies into the answer,
 * two more Response objects a request.
 */
function corsAndLimits(maxBodyBytes: number, maxResponseBytes: number, upload?: AppLimits['upload']): MiddlewareHandler {
  return (c, next) => {
    // Preflights are answered by the route's own OPTIONS handler (allowOnly), with its methods only.
    if (c.req.method !== 'OPTIONS') {
      c.header('Access-Control-Allow-Origin', CORS.origin)
      c.header('Access-Control-Expose-Headers', EXPOSED_HEADERS)
    }
    const length = c.req.header('content-length')
    const limit = upload === undefined ? maxBodyBytes : c.req.path === '/api/upload' ? upload.maxBodyBytes : c.req.path.startsWith('/uploads/') ? upload.sizeLimit : maxBodyBytes
    if (length !== undefined && Number(length) > limit) throw payloadTooLarge(limit)
    c.set(RESPONSE_LIMIT, maxResponseBytes)
    return next()
  }
}

/**
 * A JSON answer from text already made (or already encoded as UTF-8: a cached page), refused when
 * larger than the app's response limit (Lambda answers at most 6 MB) with a 400 that says how to
 * ask for less, instead of the 502 the platform would give. Measured on the text itself: nothing
 * is serialized twice.
 */
export function jsonText(c: Context, text: string | Uint8Array<ArrayBuffer>, status = 200): Response {
  const maxBytes = c.get(RESPONSE_LIMIT) as number
  // Sent as UTF-8 bytes: a string body would be scanned for lone surrogates by the Response
  // (undici's toUSVString, about 4 ms for a 200 KB answer, profiled 2026-11-28), which
  // JSON.stringify never leaves; encoding is a fraction of that, and counts the bytes exactly.
  const body = typeof text === 'string' ? UTF8.encode(text) : text
  const bytes = body.byteLength
  if (bytes > maxBytes) {
    c.header('ETag', undefined)
    throw badRequest(
      `The response would be ${bytes} bytes, more than the limit of ${maxBytes}: ask for fewer documents (a smaller pagination[pageSize] or pagination[limit]) or fewer attributes (fields)`,
      { limit: maxBytes },
    )
  }
  return c.body(body, status as 200, { 'Content-Type': 'application/json' })
}

/** A JSON answer of `value`, within the response limit (see `jsonText`). */
export function json(c: Context, value: unknown, status = 200): Response {
  return jsonText(c, JSON.stringify(value), status)
}

/** Renders any thrown value as the error envelope (the request log records the error itself). */
export function renderError(c: Context, error: unknown): Response {
  const apiError = error instanceof ApiError ? error : internalError()
  for (const [name, value] of Object.entries(apiError.headers)) c.header(name, value)
  // Every error is `no-store` (delivery.md §13), unknown routes included.
  c.header('Cache-Control', 'no-store')
  return c.json(errorEnvelope(apiError), apiError.status as 400)
}

/**
 * Answers the methods a path does not serve: a CORS preflight (or plain OPTIONS) with the path's
 * methods only, anything else 405 with an `Allow` header.
 */
export function allowOnly(app: Hono, path: string, methods: readonly string[]): void {
  const preflight = cors({ ...CORS, allowMethods: [...methods] })
  app.all(path, async (c, next) => {
    if (c.req.method !== 'OPTIONS') throw methodNotAllowed(methods)
    c.header('Allow', methods.join(', '))
    return (await preflight(c, next)) ?? c.body(null, 204)
  })
}

const JSON_TYPE = /^application\/([a-z0-9.+-]*\+)?json\s*(;|$)/i
/** What fetch() labels a string body sent without a Content-Type: read as JSON like no header. */
const FETCH_DEFAULT_TYPE = 'text/plain;charset=UTF-8'

/**
 * Reads a JSON request body: 415 for a non-JSON Content-Type (none means JSON), 413 past
 * `maxBytes`, 400 for invalid UTF-8 or JSON. An empty body is undefined.
 */
export async function readJsonBody(c: Context, maxBytes: number): Promise<unknown> {
  const contentType = c.req.header('content-type')
  const declared = contentType?.trim() ?? ''
  if (declared !== '' && declared !== FETCH_DEFAULT_TYPE && !JSON_TYPE.test(declared)) throw unsupportedMediaType()
  const bytes = await readLimited(c.req.raw.body, maxBytes)
  let text: string
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    throw badRequest('Invalid JSON body: not valid UTF-8')
  }
  return parseJson(text)
}

/**
 * Reads a body stream to its end, or stops with a 413 once it passes `maxBytes`: a chunked body
 * has no Content-Length to check first, and must not be buffered whole.
 */
async function readLimited(body: ReadableStream<Uint8Array> | null, maxBytes: number): Promise<Uint8Array> {
  if (body === null) return new Uint8Array()
  const reader = body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (let next = await reader.read(); !next.done; next = await reader.read()) {
    size += next.value.byteLength
    if (size > maxBytes) {
      // The server discards the rest of the upload once the answer is sent.
      void reader.cancel().catch(() => undefined)
      throw payloadTooLarge(maxBytes)
    }
    chunks.push(next.value)
  }
  return Buffer.concat(chunks)
}

/** The ETag of a locale version: changes on every write to it. */
export function etagOf(version: Version): string {
  return `"${version.id}.${version.rev}"`
}

/**
 * The ETag of a version answered with populated relations: the version's tag and the digest of the
 * answer (its targets change it too), so If-None-Match revalidates the whole answer and If-Match
 * still names the version.
 */
export function populatedTagOf(version: Version, body: string): string {
  return `"${version.id}.${version.rev}.${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`
}

const MAX_IF_MATCH_TAGS = 20

/** The versions an `If-Match` header accepts: undefined without one, `*` for any existing one. */
export function parseIfMatch(header: string | undefined): readonly VersionTag[] | '*' | undefined {
  if (header === undefined) return undefined
  const tags = header.split(',').map((tag) => tag.trim().replace(/^W\//, ''))
  if (tags.includes('*')) return '*'
  // Each tag becomes a clause of a DynamoDB condition, whose length is bounded.
  if (tags.length > MAX_IF_MATCH_TAGS) throw badRequest(`If-Match lists more than ${MAX_IF_MATCH_TAGS} ETags`)
  return tags.flatMap((tag) => {
    // A populated answer's tag names its version too, then its body's digest (`"3.7.<digest>"`).
    const match = /^"(\d+)\.(\d+)(?:\.[A-Za-z0-9_-]+)?"$/.exec(tag)
    return match === null ? [] : [{ id: Number(match[1]), rev: Number(match[2]) }]
  })
}

/**
 * The revision an `If-Match` header pins a write to: undefined without the header, the read
 * revision when it matches (or is `*`), 412 when it does not or the version does not exist.
 */
export function expectedRevision(ifMatch: string | undefined, version: Version | undefined): number | undefined {
  const accepted = parseIfMatch(ifMatch)
  if (accepted === undefined) return undefined
  if (version === undefined) throw preconditionFailed()
  if (accepted === '*' || accepted.some((tag) => tag.id === version.id && tag.rev === version.rev)) return version.rev
  throw preconditionFailed()
}
