// One app serving every route, for the local server and the integration tests. On Lambda each
// content type, the locales route and the admin API are separate functions with the same apps.
import type { Hono } from 'hono'
import { createAdminApp, createLocalesApp } from './admin-app.js'
import { createContentApp } from './content-app.js'
import { contentTypes } from './content-types.js'
import { createBaseApp } from './http.js'
import type { Services } from './services.js'

/** Every content type, `/api/i18n/locales`, `/admin/*` and `GET /_health` in one app. */
export function createServerApp(services: Services): Hono {
  const app = createBaseApp(services.config)
  app.get('/_health', (c) => c.json({ status: 'ok' }))
  app.route('/', createLocalesApp(services))
  app.route('/', createAdminApp(services))
  for (const type of Object.values(contentTypes)) app.route('/', createContentApp(type, services))
  return app
}
