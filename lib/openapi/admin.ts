// The locale list (`GET /api/i18n/locales`) and the administration API of behaviour.md §8, with
// the locale fallback of delivery.md §12: paths and schemas.
import { allActions, TOKEN_LIFESPANS, TOKEN_TYPES } from '../access.js'
import type { ContentType } from '../content-types.js'
import { emptyResponse, errorResponses, jsonResponse, NOT_MODIFIED, READ_HEADERS, type ErrorStatus } from './responses.js'
import { closed, ref, type Schema } from './schemas.js'
import { WEBHOOK_EVENTS } from '../webhooks/messages.js'

/** Content routes: an API token's access key, or none for the public role. */
export const OPTIONAL_API_TOKEN = [{}, { apiToken: [] }]

/** The two bearer schemes: API tokens (content routes) and the admin token (`/admin`). */
export function securitySchemes(): Record<string, Schema> {
  return {
    apiToken: { type: 'http', scheme: 'bearer', description: 'An API token\'s access key. Without one, the public role applies.' },
    adminToken: { type: 'http', scheme: 'bearer', description: 'The admin token (ADMIN_TOKEN)' },
  }
}

const dateTime: Schema = { type: 'string', format: 'date-time' }
const lifespan: Schema = { enum: [...TOKEN_LIFESPANS, null] }
const name: Schema = { type: 'string', minLength: 1, maxLength: 100, description: 'Trimmed; 1 to 100 characters' }
const fallback: Schema = { type: ['string', 'null'], description: 'Another registered locale to fall back to (no cycles); null for none' }
const permissions: Schema = { type: 'array', items: ref('Action') }

/** Schemas of the locale list and the admin API. */
export function adminSchemas(types: readonly ContentType[]): Record<string, Schema> {
  const token = {
    id: { type: 'integer', minimum: 1 },
    name: { type: 'string' },
    type: { enum: [...TOKEN_TYPES] },
    description: { type: 'string' },
    permissions: { ...permissions, description: 'Every action the token holds' },
    lifespan: { ...lifespan, description: 'Milliseconds from creation to expiry; null: never expires' },
    expiresAt: { type: ['string', 'null'], format: 'date-time', description: 'When the token stops working (401 from then on); null: never' },
    createdAt: dateTime,
  }
  return {
    Locale: closed({
      id: { type: 'integer', minimum: 1 },
      name: { type: 'string', examples: ['French (fr)'] },
      code: { type: 'string', maxLength: 35, examples: ['fr', 'en-US'] },
      isDefault: { type: 'boolean' },
      createdAt: dateTime,
      updatedAt: dateTime,
      fallback: { ...fallback, description: 'The locale this one falls back to, or null' },
    }, ['id', 'name', 'code', 'isDefault', 'createdAt', 'updatedAt', 'fallback']),
    NewLocale: closed({ code: { type: 'string', maxLength: 35, description: 'BCP 47 shaped: en, fr-CA, zh-Hans-CN' }, name, isDefault: { type: 'boolean' }, fallback }, ['code']),
    LocaleChange: closed({ name, isDefault: { type: 'boolean', description: 'true makes it the default' }, fallback }),
    Action: { enum: allActions(types), description: 'An action a token or role may hold' },
    ApiToken: closed(token, Object.keys(token)),
    NewApiToken: closed({ name, type: { enum: [...TOKEN_TYPES] }, description: { type: 'string', maxLength: 1000 }, lifespan: { ...lifespan, description: '7, 30 or 90 days in ms, or null (the default): never expires' }, permissions: { ...permissions, description: 'Custom tokens only' } }, ['name', 'type']),
    CreatedApiToken: closed({ ...token, accessKey: { type: 'string', description: 'Shown this once; stored only as a hash' } }, [...Object.keys(token), 'accessKey']),
    PublicRole: closed({ permissions }, ['permissions']),
    ...webhookSchemas(),
    ReindexRequest: closed({ cursor: { type: 'string', description: 'The cursor of the previous step; omit to start a pass' } }),
    ReindexStep: closed({
      cursor: { type: ['string', 'null'], description: 'Pass it to the next step; null when the pass is complete' },
      documents: { type: 'integer', minimum: 0, description: 'Documents written in this step' },
      done: { type: 'boolean', description: 'The pass completed: served lists and the key version are recorded' },
    }, ['cursor', 'documents', 'done']),
  }
}

/** Schemas of `/admin/webhooks` (integration.md §20). */
function webhookSchemas(): Record<string, Schema> {
  const events: Schema = { type: 'array', items: { enum: [...WEBHOOK_EVENTS] } }
  const headers = (value: Schema, description: string): Schema => ({ type: 'object', additionalProperties: value, description })
  const webhook = {
    id: { type: 'integer', minimum: 1 },
    name: { type: 'string' },
    url: { type: 'string', description: 'https (http only with webhooks.allowInsecure)' },
    headers: headers({ type: 'null' }, 'Header names; values are write-only and shown as null'),
    events,
    isEnabled: { type: 'boolean' },
    createdAt: dateTime,
    updatedAt: dateTime,
  }
  const result = {
    statusCode: { type: ['integer', 'null'], description: 'The receiver\'s status; null when none came' },
    durationMs: { type: 'integer', minimum: 0 },
    error: { type: ['string', 'null'], description: 'null on a 2xx' },
  }
  return {
    Webhook: closed(webhook, Object.keys(webhook)),
    CreatedWebhook: closed({ ...webhook, secret: { type: 'string', description: 'The Standard Webhooks signing secret (whsec_...): shown this once' } }, [...Object.keys(webhook), 'secret']),
    NewWebhook: closed({ name, url: { type: 'string' }, headers: headers({ type: 'string' }, 'Sent with every delivery'), events, isEnabled: { type: 'boolean', default: true } }, ['name', 'url', 'events']),
    WebhookChange: closed({ name, url: { type: 'string' }, headers: headers({ type: ['string', 'null'] }, 'Replaces the headers; null keeps a header\'s stored value'), events, isEnabled: { type: 'boolean' } }),
    DeliveryResult: closed(result, Object.keys(result)),
    DeliveryAttempt: closed({
      seq: { type: 'integer', minimum: 1, description: 'The attempt\'s number; pass it to redeliver' },
      messageId: { type: 'string', description: 'The webhook-id header, the same on every retry' },
      event: { type: 'string' },
      at: dateTime,
      ...result,
      outcome: { enum: ['delivered', 'retrying', 'failed'] },
    }, ['seq', 'messageId', 'event', 'at', 'statusCode', 'durationMs', 'error', 'outcome']),
  }
}

const wrapped = (schema: Schema): Schema => closed({ data: schema }, ['data'])

const body = (schema: string): Schema => ({ required: true, content: { 'application/json': { schema: ref(schema) } } })

const BASE_ERRORS: ErrorStatus[] = [400, 401, 414, 500, 503]

function adminOperation(operationId: string, summary: string, responses: Schema, extra: ErrorStatus[] = [], more: Schema = {}): Schema {
  const errors = errorResponses(...BASE_ERRORS, ...extra)
  return { tags: ['admin'], operationId, summary, security: [{ adminToken: [] }], ...more, responses: { ...responses, ...errors } }
}

const ok = (description: string, schema: Schema) => ({ 200: jsonResponse(description, wrapped(schema), ['CacheControl']) })
const created = (description: string, schema: Schema) => ({ 201: jsonResponse(description, wrapped(schema), ['CacheControl']) })
const deleted = { 204: emptyResponse('Deleted', ['CacheControl']) }
const pathParameter = (param: string, schema: Schema): Schema => ({ parameters: [{ name: param, in: 'path', required: true, schema }] })
const BODY_ERRORS: ErrorStatus[] = [413, 415]

/** `GET /api/i18n/locales`, public. */
export function localeListPaths(): Record<string, Schema> {
  return {
    '/api/i18n/locales': {
      get: {
        tags: ['i18n'],
        operationId: 'i18n.listLocales',
        summary: 'The registered locales, as a bare array (as Strapi answers)',
        description: 'Needs plugin::i18n.locales.listLocales (the public role has it by default).',
        security: OPTIONAL_API_TOKEN,
        parameters: [ref('IfNoneMatch', 'parameters')],
        responses: {
          200: jsonResponse('The locales, by id', { type: 'array', items: ref('Locale') }, READ_HEADERS),
          304: NOT_MODIFIED,
          ...errorResponses(400, 401, 403, 414, 500, 503),
        },
      },
    },
  }
}

/** The `/admin` routes. */
export function adminPaths(): Record<string, Schema> {
  const code = pathParameter('code', { type: 'string', description: 'A registered code, matched case-insensitively' })
  const tokenId = pathParameter('id', { type: 'string', pattern: '^[1-9]\\d{0,15}$' })
  return {
    '/admin/i18n/locales': {
      get: adminOperation('admin.listLocales', 'Every registered locale', ok('The locales', { type: 'array', items: ref('Locale') })),
      post: adminOperation('admin.addLocale', 'Register a locale', created('The new locale', ref('Locale')), [409, ...BODY_ERRORS], { requestBody: body('NewLocale') }),
    },
    '/admin/i18n/locales/{code}': {
      ...code,
      put: adminOperation('admin.updateLocale', 'Rename a locale, make it the default, or set its fallback', ok('The locale', ref('Locale')), [404, ...BODY_ERRORS], { requestBody: body('LocaleChange') }),
      delete: adminOperation('admin.removeLocale', 'Remove a locale (409: the default, one still holding versions, or a fallback of another)', deleted, [404, 409]),
    },
    '/admin/api-tokens': {
      get: adminOperation('admin.listTokens', 'Every API token, without secrets', ok('The tokens', { type: 'array', items: ref('ApiToken') })),
      post: adminOperation('admin.createToken', 'Create an API token', created('The token with its access key', ref('CreatedApiToken')), BODY_ERRORS, { requestBody: body('NewApiToken') }),
    },
    '/admin/api-tokens/{id}': {
      ...tokenId,
      delete: adminOperation('admin.deleteToken', 'Revoke an API token at once', deleted, [404]),
    },
    '/admin/webhooks': {
      get: adminOperation('admin.listWebhooks', 'Every webhook, header values and secrets left out', ok('The webhooks', { type: 'array', items: ref('Webhook') })),
      post: adminOperation('admin.createWebhook', 'Create a webhook', created('The webhook with its signing secret', ref('CreatedWebhook')), BODY_ERRORS, { requestBody: body('NewWebhook') }),
    },
    '/admin/webhooks/{id}': {
      ...tokenId,
      get: adminOperation('admin.getWebhook', 'One webhook', ok('The webhook', ref('Webhook')), [404]),
      put: adminOperation('admin.updateWebhook', 'Change a webhook', ok('The webhook', ref('Webhook')), [404, ...BODY_ERRORS], { requestBody: body('WebhookChange') }),
      delete: adminOperation('admin.deleteWebhook', 'Delete a webhook and its delivery log', deleted, [404]),
    },
    '/admin/webhooks/{id}/test': {
      ...tokenId,
      post: adminOperation('admin.testWebhook', 'Send a trigger-test message once and answer how it went', ok('The attempt', ref('DeliveryResult')), [404]),
    },
    '/admin/webhooks/{id}/deliveries': {
      ...tokenId,
      get: adminOperation('admin.webhookDeliveries', 'The last 100 delivery attempts, newest first', ok('The attempts', { type: 'array', items: ref('DeliveryAttempt') }), [404]),
    },
    '/admin/webhooks/{id}/deliveries/{seq}/redeliver': {
      parameters: [...(tokenId.parameters as Schema[]), { name: 'seq', in: 'path', required: true, schema: { type: 'string', pattern: '^[1-9]\\d{0,15}$' } }],
      post: adminOperation('admin.redeliverWebhook', 'Send a logged attempt\'s message again, once, with its webhook-id', ok('The attempt', ref('DeliveryResult')), [404]),
    },
    '/admin/reindex': {
      post: adminOperation('admin.reindex', 'One step of a pass that rewrites every document with today\'s index keys and fallback chains', ok('Where the pass stands', ref('ReindexStep')), BODY_ERRORS, { requestBody: body('ReindexRequest') }),
    },
    '/admin/sessions': {
      delete: adminOperation('admin.endSessions', 'Sign every admin web interface session out (sign out everywhere)', deleted),
    },
    '/admin/roles/public': {
      get: adminOperation('admin.getPublicRole', 'What callers without a token may do', ok('The public role', ref('PublicRole'))),
      put: adminOperation('admin.setPublicRole', 'Set what callers without a token may do', ok('The public role', ref('PublicRole')), BODY_ERRORS, { requestBody: body('PublicRole') }),
    },
  }
}
