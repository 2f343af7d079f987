// Conditional requests and caching (delivery.md §13): list validators, If-None-Match, and the
// Cache-Control / Vary headers every answer carries. Nothing here reads storage.
import { createHash } from 'node:crypto'
import type { Context, MiddlewareHandler } from 'hono'
import type { RestConfig } from '../config.js'
import { SETTLE_MS } from '../storage/lists/validator.js'

/** A strong tag for a list answer, from everything the answer depends on. */
export function listTag(parts: Readonly<Record<string, unknown>>, changedAt: number, now = Date.now()): string {
  const settled = now - changedAt >= SETTLE_MS
  const digest = createHash('sha256').update(JSON.stringify(parts)).update(settled ? '' : `unsettled ${now} ${Math.random()}`).digest('base64url')
  return `"l-${digest.slice(0, 27)}"`
}

/** True when `If-None-Match` holds `tag`, `*`, or a list containing it (weak comparison). */
export function noneMatch(header: string | undefined, tag: string): boolean {
  if (header === undefined) return false
  const bare = (value: string) => value.trim().replace(/^W\//, '')
  return header.split(',').some((candidate) => bare(candidate) === '*' || bare(candidate) === bare(tag))
}

/** A 304 with the tag and the caching headers the 200 would carry (set by `cachingHeaders`). */
export function notModified(c: Context, tag: string): Response {
  c.header('ETag', tag)
  return c.body(null, 304)
}

/** Context key a handler sets on an answer that must never be cached publicly (a draft, content-model.md §15). */
export const PRIVATE_ANSWER = 'privateAnswer'

/**
 * Cache-Control for every answer of a content or locales app: anonymous reads are `public` with
 * the configured ages, reads with a token (or of drafts) `private, no-cache`, writes and errors
 * `no-store`; every GET answer carries `Vary: Authorization`.
 */
export function cachingHeaders(rest: RestConfig): MiddlewareHandler {
  const { maxAge, sMaxAge, staleWhileRevalidate } = rest.cache
  const publicRead = `public, max-age=${maxAge}, s-maxage=${sMaxAge}, stale-while-revalidate=${staleWhileRevalidate}`
  return async (c, next) => {
    await next()
    const read = c.req.method === 'GET' || c.req.method === 'HEAD'
    const ok = c.res.status < 300 || c.res.status === 304
    const vary = c.res.headers.get('Vary')
    if (read && !/\bauthorization\b/i.test(vary ?? '')) c.res.headers.set('Vary', vary === null ? 'Authorization' : `${vary}, Authorization`)
    if (!read || !ok) c.res.headers.set('Cache-Control', 'no-store')
    else c.res.headers.set('Cache-Control', c.req.header('authorization') === undefined && c.get(PRIVATE_ANSWER as never) !== true ? publicRead : 'private, no-cache')
  }
}

/** `Cache-Control: no-store` on every answer (the administration API). */
export const noStore: MiddlewareHandler = async (c, next) => {
  await next()
  c.res.headers.set('Cache-Control', 'no-store')
}
