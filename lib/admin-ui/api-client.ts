// The admin web interface calls the API in process, through the very apps that serve it over
// HTTP (admin API, locales, and those its page sets bring: one per content type, the upload API):
// every rule, check and error of the API holds for the interface too, and nothing is
// re-implemented here. The admin token goes in a header of the in-process request only (never a
// URL, never a log: the inner app logs nothing); content requests act as a full-access caller set
// in the context (TRUSTED_CALLER).
import type { Context, Hono } from 'hono'
import { fullAccessCaller, TRUSTED_CALLER } from '../access.js'
import { createAdminApp, createLocalesApp } from '../admin-app.js'
import { createBaseApp } from '../http.js'
import type { Services } from '../services.js'
import { typesOf } from './types.js'

/** One answer of the API: status, parsed JSON body (undefined when empty), ETag header. */
export interface ApiAnswer {
  readonly status: number
  readonly body: any
  readonly etag: string | undefined
}

/** A field error of a 400: the attribute path and the API's message. */
export interface FieldError {
  readonly path: readonly string[]
  readonly message: string
}

export interface ApiClient {
  /** `body`: JSON, or a FormData sent as multipart/form-data (the upload API). */
  call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<ApiAnswer>
}

/**
 * The in-process API of one process's services: the admin and locales apps, and `apps` (the
 * content apps and upload API of the page sets the process serves, see AdminPages in ui.ts).
 */
export function createApiClient(services: Services, apps: readonly Hono[] = []): ApiClient {
  // No request log of its own: the page's request is logged, with the DynamoDB calls of its API calls.
  const inner: Hono = createBaseApp(services.config, false)
  const caller = fullAccessCaller(typesOf(services))
  inner.use('*', async (c: Context, next) => {
    c.set(TRUSTED_CALLER, caller)
    await next()
  })
  inner.route('/', createAdminApp(services, true))
  inner.route('/', createLocalesApp(services, true))
  for (const app of apps) inner.route('/', app)
  const authorization: Record<string, string> = services.adminToken === undefined ? {} : { Authorization: `Bearer ${services.adminToken}` }
  return {
    async call(method, path, body, headers = {}) {
      const init: RequestInit = { method, headers: { ...authorization, ...headers } }
      if (body instanceof FormData) init.body = body
      else if (body !== undefined) {
        init.body = JSON.stringify(body)
        init.headers = { ...init.headers, 'Content-Type': 'application/json' }
      }
      const response = await inner.request(path, init)
      const text = await response.text()
      return { status: response.status, body: text === '' ? undefined : JSON.parse(text), etag: response.headers.get('etag') ?? undefined }
    },
  }
}

/** The error message of a failed answer. */
export function messageOf(answer: ApiAnswer): string {
  return typeof answer.body?.error?.message === 'string' ? answer.body.error.message : `The API answered ${answer.status}`
}

/** The field errors of a 400 (`details.errors[]`), each with its attribute path. */
export function fieldErrorsOf(answer: ApiAnswer): FieldError[] {
  const errors: unknown = answer.body?.error?.details?.errors
  if (!Array.isArray(errors)) return []
  return errors.flatMap((error: any) => (Array.isArray(error?.path) && typeof error?.message === 'string' ? [{ path: error.path.map(String), message: error.message }] : []))
}
