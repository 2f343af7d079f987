// The admin function's whole surface: the administration API and, beside it, the admin web
// interface, both under `/admin`.
import type { Hono } from 'hono'
import { createAdminApp } from '../admin-app.js'
import type { OpenApiSource } from '../openapi/paths.js'
import type { Services } from '../services.js'
import { createApiClient } from './api-client.js'
import { createAdminUi } from './app.js'
import type { Ui } from './ui.js'

/** The media library of a process that takes uploads: its upload API, and the pages that call it. */
export interface MediaLibrary {
  /** Undefined where another process serves the pages that upload (LIBRARY_ELSEWHERE). */
  readonly uploads?: () => Hono
  readonly pages: (ui: Ui) => void
}

/**
 * The admin function's on AWS: the deployment has a media library (the navigation links it), but its
 * pages and the documents' pages are the admin media function's (functions/admin-media.ts), routed
 * there by the stack; this process registers none of them and takes no uploads.
 */
export const LIBRARY_ELSEWHERE: MediaLibrary = { pages: () => undefined }

/**
 * The administration API and web interface; `mounted` inside the server app (see createBaseApp).
 * `media`, from a process with a blob store: passed in, so the admin function's bundle holds
 * neither the upload code (nor sharp) nor the library's pages. `openApi`: where `/admin/openapi.json` comes from.
 */
export function createAdminSite(services: Services, openApi: OpenApiSource, mounted = false, media?: MediaLibrary): Hono {
  const app = createAdminApp(services, mounted, openApi)
  app.route('/', createAdminUi(services, createApiClient(services, media?.uploads), media?.pages))
  return app
}
