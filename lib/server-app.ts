// One app serving every route, for the local server and the integration tests. On Lambda each
// content type, the locales route and the admin API are separate functions with the same apps.
import type { Hono } from 'hono'
import { createLocalesApp } from './admin-app.js'
import { EDITOR_PAGES } from './admin-ui/editors.js'
import { mediaLibrary } from './admin-ui/media-library.js'
import { createAdminSite } from './admin-ui/site.js'
import { createContentApp } from './content-app.js'
import { createBaseApp, json } from './http.js'
import { createUploadApp } from './media/upload-app.js'
import type { LogWriter } from './observability/request-log.js'
import { builtOpenApi } from './openapi/document.js'
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
 * Every content type, the upload API when the process has a blob store, `/api/i18n/locales`, `/admin/*` (the admin API and web interface) and `GET /_health` (200 when DynamoDB
 * answers, 503 in the envelope when it cannot be reached) and `extra` apps in one app, logging each request to `log`.
 */
export function createServerApp(services: Services, log?: LogWriter, extra: readonly Hono[] = []): Hono {
  const app = createBaseApp(services.config, log)
  const healthy = cachedHealth(() => services.access.checkReachable(), HEALTH_TTL_MS)
  app.get('/_health', async (c) => {
    await healthy()
    return json(c, { status: 'ok' })
  })
  // Mounted: this app runs the per-request middleware (log, CORS, limits) once for every route.
  // The OpenAPI documents built here, each on first use (a Lambda function reads the stack's files instead).
  const openApi = builtOpenApi(services.types, services.config)
  app.route('/', createLocalesApp(services, true, openApi))
  const media = services.media
  app.route('/', createAdminSite(services, openApi, true, { editors: EDITOR_PAGES, library: media === undefined ? undefined : mediaLibrary(media) }))
  for (const type of services.types) app.route('/', createContentApp(type, services, true))
  if (services.media !== undefined) app.route('/', createUploadApp(services, services.media, true))
  // A local server's own routes (the stored files at /uploads/, lib/local/uploads.ts).
  for (const routes of extra) app.route('/', routes)
  return app
}
