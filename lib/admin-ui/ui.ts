// What the page modules (operators, editors) get from the admin web interface's app: the API,
// and route registration that applies the security headers, the session and the CSRF check.
import type { Context, Hono } from 'hono'
import type { Services } from '../services.js'
import type { ApiClient } from './api-client.js'
import type { Form } from './form.js'
import type { PageContext } from './layout.js'
import { relativeTo } from './paths.js'

export type PageHandler = (c: Context, page: PageContext) => Response | Promise<Response>
export type ActionHandler = (c: Context, page: PageContext, form: Form) => Response | Promise<Response>

export interface Ui {
  readonly services: Services
  readonly api: ApiClient
  /** A GET page for a signed-in session. */
  page(path: string, handler: PageHandler): void
  /** A form POST for a signed-in session, refused (403) without its CSRF token. */
  action(path: string, handler: ActionHandler): void
}

/**
 * Pages a process serves beside the settings pages (app.tsx, operators, locales, webhooks), with
 * the apps they call through the in-process API (mounted beside the admin and locales apps).
 */
export interface PageSet {
  readonly apps: (services: Services) => readonly Hono[]
  readonly pages: (ui: Ui) => void
}

/**
 * The page sets of one process's admin site; each undefined where another function serves those
 * pages (the admin media function on AWS: the stack routes `/admin/content` and `/admin/media` there).
 */
export interface AdminPages {
  /** The documents' pages (EDITOR_PAGES, editors.tsx). */
  readonly editors?: PageSet
  /** The media library's pages and the upload API; set, the navigation links the library. */
  readonly library?: PageSet
}

/** A 303 to an app path, relative to the current page (POST, then GET: a reload posts nothing). */
export function seeOther(c: Context, path: string): Response {
  return c.redirect(relativeTo(c.req.path, path), 303)
}
