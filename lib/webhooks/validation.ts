// The admin API's webhook bodies, parsed once at the boundary (valibot).
import * as v from 'valibot'
import { badRequest } from '../errors.js'
import { RESERVED_HEADERS, WEBHOOK_EVENTS } from './messages.js'

const Name = v.pipe(v.string('must be a string'), v.trim(), v.minLength(1, 'must not be empty'), v.maxLength(100, 'must be at most 100 characters'))
const Url = v.pipe(v.string('must be a string'), v.maxLength(2048, 'must be at most 2048 characters'))
const HeaderName = v.pipe(
  v.string(),
  v.regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/, 'must be an HTTP header name'),
  v.check((name) => !RESERVED_HEADERS.has(name.toLowerCase()), 'is set by every delivery and cannot be changed'),
)
const HeaderValue = v.pipe(v.string('must be a string'), v.maxLength(4096, 'must be at most 4096 characters'), v.regex(/^[^\r\n\0]*$/, 'must not hold line breaks'))
const MAX_HEADERS = 20
const Events = v.pipe(
  v.array(v.picklist(WEBHOOK_EVENTS, `must be one of ${WEBHOOK_EVENTS.join(', ')}`), 'must be an array of event names'),
  v.transform((events) => [...new Set(events)]),
)

export const NewWebhookSchema = v.strictObject({
  name: Name,
  url: Url,
  headers: v.optional(v.pipe(v.record(HeaderName, HeaderValue, 'must be an object of header values'), v.check((headers) => Object.keys(headers).length <= MAX_HEADERS, `must hold at most ${MAX_HEADERS} headers`))),
  events: Events,
  isEnabled: v.optional(v.boolean('must be a boolean')),
})

export const WebhookChangeSchema = v.strictObject({
  name: v.optional(Name),
  url: v.optional(Url),
  /** null keeps a header's stored value (values are never shown back); a header left out is removed. */
  headers: v.optional(v.pipe(v.record(HeaderName, v.nullable(HeaderValue), 'must be an object of header values (null keeps one)'), v.check((headers) => Object.keys(headers).length <= MAX_HEADERS, `must hold at most ${MAX_HEADERS} headers`))),
  events: v.optional(Events),
  isEnabled: v.optional(v.boolean('must be a boolean')),
})

export type NewWebhook = v.InferOutput<typeof NewWebhookSchema>
export type WebhookChange = v.InferOutput<typeof WebhookChangeSchema>

/** A 400 naming one field, shaped as the body validation's errors. */
export function fieldProblem(path: readonly string[], message: string) {
  return badRequest(`${path.join('.')} ${message}`, { errors: [{ path, message, name: 'ValidationError' }] })
}
