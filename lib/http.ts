// HTTP plumbing shared by every app: the one error renderer, 404/405 envelopes, body reading with
// its limits, and ETag / If-Match handling. Nothing here knows which runtime serves the app.
import { Hono, type Context } from 'hono'
import { cors } from 'hono/cors'
import { parseJson } from './body.js'
import {
  ApiError, badRequest, errorEnvelope, internalError, methodNotAllowed, notFound, payloadTooLarge,
  preconditionFailed, unsupportedMediaType,
} from './errors.js'
import type { Version, VersionTag } from './storage/items.js'

/** Logs an unexpected error once, without request data. */
export type ErrorLogger = (error: unknown) => void

const defaultLogger: ErrorLogger = (error) => console.error(JSON.stringify({ level: 'error', message: 'Unhandled error', error: String((error as Error)?.stack ?? error) }))

/**
 * A Hono app with the API's error envelope for every failure (an ApiError as itself, anything
 * else as an opaque 500), the envelope for unknown routes, CORS, and the body size limit.
 */
export function createBaseApp(maxBodyBytes: number, logError: ErrorLogger = defaultLogger): Hono {
  const app = new Hono()
  app.onError((error, c) => renderError(c, error, logError))
  app.notFound((c) => renderError(c, notFound(), logError))
  app.use('*', cors({ origin: '*', allowHeaders: ['Authorization', 'Content-Type', 'If-Match'], exposeHeaders: ['ETag'], maxAge: 600 }))
  app.use('*', async (c, next) => {
    const length = c.req.header('content-length')
    if (length !== undefined && Number(length) > maxBodyBytes) throw payloadTooLarge(maxBodyBytes)
    await next()
  })
  return app
}

/** Renders any thrown value as the error envelope. */
export function renderError(c: Context, error: unknown, logError: ErrorLogger = defaultLogger): Response {
  const apiError = error instanceof ApiError ? error : internalError()
  if (!(error instanceof ApiError)) logError(error)
  for (const [name, value] of Object.entries(apiError.headers)) c.header(name, value)
  return c.json(errorEnvelope(apiError), apiError.status as 400)
}

/** Answers 405 with an `Allow` header for the methods a path does not serve. */
export function allowOnly(app: Hono, path: string, methods: readonly string[]): void {
  app.all(path, (c) => {
    if (c.req.method === 'OPTIONS') return c.body(null, 204)
    throw methodNotAllowed(methods)
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
  const bytes = new Uint8Array(await c.req.arrayBuffer())
  if (bytes.byteLength > maxBytes) throw payloadTooLarge(maxBytes)
  let text: string
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    throw badRequest('Invalid JSON body: not valid UTF-8')
  }
  return parseJson(text)
}

/** The ETag of a locale version: changes on every write to it. */
export function etagOf(version: Version): string {
  return `"${version.id}.${version.rev}"`
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
    const match = /^"(\d+)\.(\d+)"$/.exec(tag)
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
