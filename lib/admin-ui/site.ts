// The admin function's whole surface: the administration API and, beside it, the admin web
// interface, both under `/admin`.
import type { Hono } from 'hono'
import { createAdminApp } from '../admin-app.js'
import type { OpenApiSource } from '../openapi/paths.js'
import type { Services } from '../services.js'
import { createApiClient } from './api-client.js'
import { createAdminUi } from './app.js'
import type { AdminPages, PageSet } from './ui.js'

/** The media library of a deployment that has one, where another process serves its pages: the navigation links it. */
export const LIBRARY_ELSEWHERE: PageSet = { apps: () => [], pages: () => undefined }

/**
 * The admin function's on AWS: the settings pages only. The documents' pages and the media
 * library's are the admin media function's (functions/admin-media.ts), routed there by the stack;
 * this process bundles neither them nor the content apps they call, and takes no uploads.
 */
export const SETTINGS_PAGES_ONLY: AdminPages = { library: LIBRARY_ELSEWHERE }

/**
 * The administration API and web interface; `mounted` inside the server app (see createBaseApp).
 * `pages`: the page sets this process serves beside the settings pages, passed in so that the
 * admin function's bundle holds none of them (nor the upload code and sharp). `openApi`: where
 * `/admin/openapi.json` comes from.
 */
export function createAdminSite(services: Services, openApi: OpenApiSource, mounted = false, pages: AdminPages = {}): Hono {
  const app = createAdminApp(services, mounted, openApi)
  const apps = [pages.editors, pages.library].flatMap((set) => set?.apps(services) ?? [])
  app.route('/', createAdminUi(services, createApiClient(services, apps), pages))
  return app
}
