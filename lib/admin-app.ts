// The administration API (locales, API tokens, the public role, and its OpenAPI document at
// `/admin/openapi.json`) behind the admin token, and the public `GET /api/i18n/locales` and
// `GET /api/openapi.json` (the public API only). The documents come from an OpenApiSource the
// caller passes (lib/openapi/paths.ts): built in process, or files beside a Lambda bundle.
import type { Context, Hono, MiddlewareHandler } from 'hono'
import * as v from 'valibot'
import { adminTokenMatches, LIST_LOCALES, TOKEN_LIFESPANS, TOKEN_TYPES } from './access.js'
import { badRequest, notFound, unauthorized } from './errors.js'
import { allowOnly, createBaseApp, json, jsonText, readJsonBody } from './http.js'
import { cachingHeaders, listTag, noneMatch, noStore, notModified } from './delivery/conditional.js'
import { isLocaleCode } from './locales.js'
import { ADMIN_OPENAPI_PATH, OPENAPI_PATH, type OpenApiSource } from './openapi/paths.js'
import { parseItemQuery, parseSearch } from './query/parse.js'
import type { Services } from './services.js'
import { NewWebhookSchema, WebhookChangeSchema } from './webhooks/validation.js'

const Name = v.pipe(v.string('must be a string'), v.trim(), v.minLength(1, 'must not be empty'), v.maxLength(100, 'must be at most 100 characters'))

const NewLocaleSchema = v.strictObject({
  code: v.pipe(v.string('must be a string'), v.check(isLocaleCode, 'must be a locale code such as en, fr-CA or zh-Hans-CN')),
  name: v.optional(Name),
  isDefault: v.optional(v.boolean('must be a boolean')),
  fallback: v.optional(v.nullable(v.string('must be a locale code or null'))),
})
const LocaleChangeSchema = v.strictObject({
  name: v.optional(Name),
  isDefault: v.optional(v.boolean('must be a boolean')),
  fallback: v.optional(v.nullable(v.string('must be a locale code or null'))),
})
const NewTokenSchema = v.strictObject({
  name: Name,
  type: v.picklist(TOKEN_TYPES, `must be one of ${TOKEN_TYPES.join(', ')}`),
  description: v.optional(v.pipe(v.string('must be a string'), v.maxLength(1000, 'must be at most 1000 characters'))),
  lifespan: v.optional(v.nullable(v.picklist(TOKEN_LIFESPANS, `must be null (unlimited) or one of ${TOKEN_LIFESPANS.join(', ')} (7, 30 or 90 days in ms)`))),
  permissions: v.optional(v.array(v.string('must be an action name'), 'must be an array of action names')),
})
const ReindexSchema = v.strictObject({ cursor: v.optional(v.string('must be the cursor of the previous step')) })
const RoleSchema = v.strictObject({ permissions: v.array(v.string('must be an action name'), 'must be an array of action names') })

/** Parses an admin body with `schema`: 400 listing every problem. */
async function adminBody<S extends v.GenericSchema>(c: Context, schema: S, maxBytes: number): Promise<v.InferOutput<S>> {
  const result = v.safeParse(schema, await readJsonBody(c, maxBytes))
  if (result.success) return result.output
  const errors = result.issues.map((issue) => ({
    path: (issue.path ?? []).map((item) => String(item.key)),
    message: issue.message,
    name: 'ValidationError',
  }))
  const first = errors[0]
  const message = errors.length === 1 && first !== undefined ? `${first.path.join('.') || 'body'} ${first.message}` : `${errors.length} errors occurred`
  throw badRequest(message, { errors })
}

/** Rejects any query parameter: admin routes take none. */
function noQuery(c: Context): void {
  const [key] = Object.keys(parseSearch(c.req.url))
  if (key !== undefined) throw badRequest(`Invalid key ${key}`, { key, path: null, source: 'query', param: key })
}

/**
 * The admin token check, then no query. Attached to each route rather than to `/admin/*`, so an
 * unknown route (404) or method (405) answers before credentials (401), as §8 orders the checks.
 */
function adminOnly(adminToken: string | undefined): MiddlewareHandler {
  return async (c, next) => {
    if (!adminTokenMatches(c.req.header('authorization'), adminToken)) throw unauthorized()
    noQuery(c)
    await next()
  }
}

/**
 * The administration app, at `/admin`; `mounted` inside the server app (see createBaseApp). With
 * `openApi`, it serves `/admin/openapi.json` too (the admin interface's in-process client needs no document).
 */
export function createAdminApp(services: Services, mounted = false, openApi?: OpenApiSource): Hono {
  const { locales, access, config } = services
  const app = createBaseApp(config, undefined, mounted)
  app.use('/admin/*', noStore)
  const admin = adminOnly(services.adminToken)

  // Read afresh: an operator sees a change made through any other instance at once (one GetItem).
  app.get('/admin/i18n/locales', admin, async (c) => json(c, { data: await locales.list(true) }))
  app.post('/admin/i18n/locales', admin, async (c) => {
    const input = await adminBody(c, NewLocaleSchema, config.maxBodyBytes)
    return json(c, { data: await locales.add(input) }, 201)
  })
  allowOnly(app, '/admin/i18n/locales', ['GET', 'POST'])
  app.put('/admin/i18n/locales/:code', admin, async (c) => {
    const input = await adminBody(c, LocaleChangeSchema, config.maxBodyBytes)
    return json(c, { data: await locales.update(c.req.param('code'), input) })
  })
  app.delete('/admin/i18n/locales/:code', admin, async (c) => {
    await locales.remove(c.req.param('code'))
    return c.body(null, 204)
  })
  allowOnly(app, '/admin/i18n/locales/:code', ['PUT', 'DELETE'])

  app.get('/admin/api-tokens', admin, async (c) => json(c, { data: await access.listTokens() }))
  app.post('/admin/api-tokens', admin, async (c) => {
    const input = await adminBody(c, NewTokenSchema, config.maxBodyBytes)
    return json(c, { data: await access.createToken(input) }, 201)
  })
  allowOnly(app, '/admin/api-tokens', ['GET', 'POST'])
  app.delete('/admin/api-tokens/:id', admin, async (c) => {
    const id = c.req.param('id')
    if (!/^[1-9]\d{0,15}$/.test(id)) throw notFound()
    await access.deleteToken(Number(id))
    return c.body(null, 204)
  })
  allowOnly(app, '/admin/api-tokens/:id', ['DELETE'])

  app.post('/admin/reindex', admin, async (c) => {
    const input = await adminBody(c, ReindexSchema, config.maxBodyBytes)
    return json(c, { data: await services.reindex.step(input.cursor) })
  })
  allowOnly(app, '/admin/reindex', ['POST'])

  // Sign out everywhere: every session of the admin web interface ends (the CLI's `sessions revoke`).
  app.delete('/admin/sessions', admin, async (c) => {
    await services.adminSessions.endAll()
    return c.body(null, 204)
  })
  allowOnly(app, '/admin/sessions', ['DELETE'])

  app.get('/admin/roles/public', admin, async (c) => json(c, { data: { permissions: await access.getPublicPermissions() } }))
  app.put('/admin/roles/public', admin, async (c) => {
    const input = await adminBody(c, RoleSchema, config.maxBodyBytes)
    return json(c, { data: { permissions: await access.setPublicPermissions(input.permissions) } })
  })
  allowOnly(app, '/admin/roles/public', ['GET', 'PUT'])

  registerWebhookRoutes(app, services, admin)

  if (openApi !== undefined) {
    app.get(ADMIN_OPENAPI_PATH, admin, (c) => jsonText(c, openApi('admin')))
    allowOnly(app, ADMIN_OPENAPI_PATH, ['GET'])
  }
  return app
}

/** A positive integer id of a path, or a 404. */
function idParam(c: Context, name: string): number {
  const id = c.req.param(name) ?? ''
  if (!/^[1-9]\d{0,15}$/.test(id)) throw notFound()
  return Number(id)
}

/** `/admin/webhooks` (integration.md §20): settings, the test action, the delivery log and redeliver. */
function registerWebhookRoutes(app: Hono, services: Services, admin: MiddlewareHandler): void {
  const { webhooks, config } = services
  app.get('/admin/webhooks', admin, async (c) => json(c, { data: await webhooks.list() }))
  app.post('/admin/webhooks', admin, async (c) => json(c, { data: await webhooks.create(await adminBody(c, NewWebhookSchema, config.maxBodyBytes)) }, 201))
  allowOnly(app, '/admin/webhooks', ['GET', 'POST'])
  app.get('/admin/webhooks/:id', admin, async (c) => json(c, { data: await webhooks.get(idParam(c, 'id')) }))
  app.put('/admin/webhooks/:id', admin, async (c) => {
    const id = idParam(c, 'id')
    return json(c, { data: await webhooks.update(id, await adminBody(c, WebhookChangeSchema, config.maxBodyBytes)) })
  })
  app.delete('/admin/webhooks/:id', admin, async (c) => {
    await webhooks.remove(idParam(c, 'id'))
    return c.body(null, 204)
  })
  allowOnly(app, '/admin/webhooks/:id', ['GET', 'PUT', 'DELETE'])
  app.post('/admin/webhooks/:id/test', admin, async (c) => json(c, { data: await webhooks.test(idParam(c, 'id')) }))
  allowOnly(app, '/admin/webhooks/:id/test', ['POST'])
  app.get('/admin/webhooks/:id/deliveries', admin, async (c) => json(c, { data: await webhooks.attempts(idParam(c, 'id')) }))
  allowOnly(app, '/admin/webhooks/:id/deliveries', ['GET'])
  app.post('/admin/webhooks/:id/deliveries/:seq/redeliver', admin, async (c) => json(c, { data: await webhooks.redeliver(idParam(c, 'id'), idParam(c, 'seq')) }))
  allowOnly(app, '/admin/webhooks/:id/deliveries/:seq/redeliver', ['POST'])
}

/**
 * `GET /api/i18n/locales`: the registered locales as a bare array, as Strapi answers; and, with
 * `openApi`, `GET /api/openapi.json`, the public OpenAPI document. `mounted` inside the server app
 * (see createBaseApp).
 */
export function createLocalesApp(services: Services, mounted = false, openApi?: OpenApiSource): Hono {
  const app = createBaseApp(services.config, undefined, mounted)
  app.use('/api/i18n/locales', cachingHeaders(services.config.rest))
  if (openApi !== undefined) {
    app.get(OPENAPI_PATH, (c) => {
      noQuery(c)
      return jsonText(c, openApi('public'))
    })
    allowOnly(app, OPENAPI_PATH, ['GET'])
  }
  app.get('/api/i18n/locales', async (c) => {
    await services.access.authorize(c.req.header('authorization'), undefined, LIST_LOCALES)
    parseItemQuery(c.req.url)
    const locales = await services.locales.list()
    const tag = listTag({ locales }, 0)
    if (noneMatch(c.req.header('if-none-match'), tag)) return notModified(c, tag)
    c.header('ETag', tag)
    return json(c, locales)
  })
  allowOnly(app, '/api/i18n/locales', ['GET'])
  return app
}
