// One app serving every route, for the local server and the integration tests. On Lambda each
// content type, the locales route and the admin API are separate functions with the same apps.
import type { Hono } from 'hono'
import { createAdminApp, createLocalesApp } from './admin-app.js'
import { createContentApp } from './content-app.js'
import { createBaseApp, json } from './http.js'
import type { LogWriter } from './observability/request-log.js'
import type { Services } from './services.js'

/** How long one health check's answer is reused: load balancers poll often, DynamoDB reads cost. */
const HEALTH_TTL_MS = 1500

/** `check` run at most once per `ttlMs` (concurrent callers share it); its failure is cached too. */
function cachedHealth(check: () => Promise<void>, ttlMs: number, clock: () => number = Date.now): () => Promise<void> {
  let last: { at: number; result: Promise<void> } | undefined
  return () => {
    const now = clock()
    if (last === undefined || now - last.at >= ttlMs) {
      const result = check()
      result.catch(() => undefined) // observed by the callers; never unhandled
      last = { at: now, result }
    }
    return last.result
  }
}

/**
 * Every content type, `/api/i18n/locales`, `/admin/*` and `GET /_health` (200 when DynamoDB
 * answers, 503 in the envelope when it cannot be reached) in one app, logging each request to `log`.
 */
export function createServerApp(services: Services, log?: LogWriter): Hono {
  const app = createBaseApp(services.config, log)
  const healthy = cachedHealth(() => services.access.checkReachable(), HEALTH_TTL_MS)
  app.get('/_health', async (c) => {
    await healthy()
    return json(c, { status: 'ok' })
  })
  // Mounted: this app runs the per-request middleware (log, CORS, limits) once for every route.
  app.route('/', createLocalesApp(services, true))
  app.route('/', createAdminApp(services, true))
  for (const type of services.types) app.route('/', createContentApp(type, services, true))
  return app
}
