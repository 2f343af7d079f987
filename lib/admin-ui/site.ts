// The admin function's whole surface: the administration API and, beside it, the admin web
// interface, both under `/admin`.
import type { Hono } from 'hono'
import { createAdminApp } from '../admin-app.js'
import type { Services } from '../services.js'
import { createAdminUi } from './app.js'

/** The administration API and web interface; `mounted` inside the server app (see createBaseApp). */
export function createAdminSite(services: Services, mounted = false): Hono {
  const app = createAdminApp(services, mounted)
  app.route('/', createAdminUi(services))
  return app
}
