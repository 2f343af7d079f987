// The admin function's whole surface: the administration API and, beside it, the admin web
// interface, both under `/admin`.
import type { Hono } from 'hono'
import { createAdminApp } from '../admin-app.js'
import type { Services } from '../services.js'
import { createApiClient } from './api-client.js'
import { createAdminUi } from './app.js'

/**
 * The administration API and web interface; `mounted` inside the server app (see createBaseApp).
 * `uploads` makes the upload API the media library calls (a process with a blob store): passed in,
 * so the admin function's bundle holds neither the upload code nor sharp.
 */
export function createAdminSite(services: Services, mounted = false, uploads?: () => Hono): Hono {
  const app = createAdminApp(services, mounted)
  app.route('/', createAdminUi(services, createApiClient(services, uploads)))
  return app
}
