// Request bodies: `{ data: { ...attributes } }` checked against a content type with valibot, every
// problem collected, nothing coerced. Code past this point sees typed attribute values only.
import * as v from 'valibot'
import { readComponentValue, type FieldError } from './components/body.js'
import type { Attribute, ComponentField, ContentType } from './content-types.js'
import { badRequest } from './errors.js'
import { MUST_BE_DEFINED, nullRequired } from './schema/messages.js'
import { hashPassword, PasswordToHash, valueSchemaOf as schemaOf } from './schema/values.js'

/** What a body may contain: every attribute, a partial update, or localized attributes only. */
export type BodyMode = 'create' | 'update' | 'localization'

export type Attributes = Record<string, unknown>

const SYSTEM_KEYS = new Set(['id', 'documentId', 'createdAt', 'updatedAt', 'publishedAt'])
const MISSING_DATA = 'Missing "data" payload in the request body'

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** True when a body of `mode` gives `attribute` its own value (a localization inherits the shared ones). */
const ownedIn = (mode: BodyMode, attribute: Attribute | ComponentField) => mode !== 'update' && !(mode === 'localization' && !attribute.localized)

/**
 * How a write treats its body (content-model.md §15): `draft` when it writes a draft & publish
 * type's draft only (`status=draft`), which may be incomplete: `required` is not enforced then.
 */
export interface BodyOptions {
  readonly draft?: boolean
}

/**
 * Checks a parsed JSON body against `type` and returns the attributes it sets (null clears), with
 * declared defaults filled in on create (and for a new localization's localized attributes).
 * `locale` inside data is ignored (the query decides), `publishedAt` too (publication follows
 * `status`), except `publishedAt: null` on a write that publishes. Every problem is listed in one 400.
 */
export function parseBody(body: unknown, type: ContentType, mode: BodyMode, options: BodyOptions = {}): Attributes {
  // `data: {}` is valid (behaviour.md §6): a create or localization with nothing set, an update of nothing.
  if (!isRecord(body) || !isRecord(body.data)) {
    throw badRequest(MISSING_DATA)
  }
  const data = body.data
  const errors: FieldError[] = []
  const attributes: Attributes = {}
  const fail = (name: string, message: string) => errors.push({ path: [name], message, name: 'ValidationError' })
  for (const [name, value] of Object.entries(data)) {
    // Relations are read by lib/relations/write.ts.
    if (name === 'locale' || Object.hasOwn(type.relations, name)) continue
    const field = Object.hasOwn(type.components, name) ? type.components[name] : undefined
    if (field !== undefined) {
      if (mode === 'localization' && !field.localized) fail(name, `${name} is not localized: it cannot be set when creating a localization`)
      else {
        const pending = readComponentValue(field, value, [name], { errors, draft: options.draft === true })
        if (pending !== undefined) attributes[name] = pending
      }
      continue
    }
    const attribute = Object.hasOwn(type.attributes, name) ? type.attributes[name] : undefined
    if (name === 'publishedAt') {
      // Accepted and ignored, as Strapi 5 does, so a version read can be written back; but `null`
      // is Strapi 4's way to ask for a draft, which Strapi 5 silently publishes (§15).
      if (value === null && type.draftAndPublish && options.draft !== true) fail(name, PUBLISHED_AT_NULL)
      continue
    }
    if (attribute === undefined || SYSTEM_KEYS.has(name) || attribute.writable === false) {
      fail(name, `Invalid key ${name}`)
      continue
    }
    if (mode === 'localization' && !attribute.localized) {
      fail(name, `${name} is not localized: it cannot be set when creating a localization`)
      continue
    }
    if (value === null) {
      if (attribute.required === true && options.draft !== true) fail(name, `${name} ${nullRequired(attribute)}`)
      else attributes[name] = null
      continue
    }
    const result = v.safeParse(schemaOf(attribute), value)
    if (result.success) attributes[name] = result.output
    else fail(name, `${name} ${result.issues[0].message}`)
  }
  for (const [name, attribute] of Object.entries(type.attributes)) {
    if (!ownedIn(mode, attribute) || name in attributes || errors.some((e) => e.path[0] === name)) continue
    // Defaults were checked at start-up; parsed again, a password default is hashed with its own salt.
    if (attribute.default !== undefined) attributes[name] = v.parse(schemaOf(attribute), attribute.default)
    else if (attribute.required === true && options.draft !== true && uidSource(type, attribute, data) === undefined) fail(name, `${name} ${MUST_BE_DEFINED}`)
  }
  for (const [name, field] of Object.entries(type.components)) {
    if (ownedIn(mode, field) && field.required === true && options.draft !== true && !Object.hasOwn(data, name)) fail(name, `${name} ${MUST_BE_DEFINED}`)
  }
  throwIfAny(errors)
  return attributes
}

const PUBLISHED_AT_NULL = 'publishedAt cannot be null on a write that publishes: to write the draft only, add the query parameter status=draft'

/** One 400 listing every problem of `errors`, if any (Strapi's message: the one problem, or their count). */
function throwIfAny(errors: readonly FieldError[]): void {
  if (errors.length === 0) return
  const message = errors.length === 1 ? (errors[0]?.message ?? 'Invalid body') : `${errors.length} errors occurred`
  throw badRequest(message, { errors })
}

/**
 * Checks that a version about to be published is complete (content-model.md §15): a draft may
 * lack `required` values, its publication may not. One 400 lists every missing path; the
 * repeatable components and dynamic zones of §18, once served, add their `min` here.
 */
export function checkPublishable(type: ContentType, attributes: Readonly<Attributes>): void {
  const errors: FieldError[] = []
  for (const [name, attribute] of Object.entries(type.attributes)) {
    if (attribute.required === true && (attributes[name] ?? null) === null) errors.push({ path: [name], message: `${name} ${nullRequired(attribute)}`, name: 'ValidationError' })
  }
  for (const [name, field] of Object.entries(type.components)) {
    if (field.required === true && (attributes[name] ?? null) === null) errors.push({ path: [name], message: `${name} ${MUST_BE_DEFINED}`, name: 'ValidationError' })
  }
  throwIfAny(errors)
}

/** Replaces each password `parseBody` left in `attributes` with its salted hash, hashed off the event loop, in parallel. */
export async function hashPasswords(attributes: Attributes): Promise<void> {
  await Promise.all(Object.entries(attributes).map(async ([name, value]) => {
    if (value instanceof PasswordToHash) attributes[name] = await hashPassword(value.text)
  }))
}

/** The text a `uid` attribute not sent is derived from: its `targetField`'s value in `data`, if a non-empty string. */
function uidSource(type: ContentType, attribute: Attribute, data: Record<string, unknown>): string | undefined {
  if (attribute.type !== 'uid' || attribute.targetField === undefined) return undefined
  const source = data[attribute.targetField]
  return typeof source === 'string' && slugify(source) !== '' ? source : undefined
}

/** The `uid` attributes a body of `mode` leaves to derive, each with its base slug (made unique by the store). */
export function uidsToDerive(type: ContentType, mode: BodyMode, body: unknown, attributes: Attributes): { name: string; base: string }[] {
  const data = isRecord(body) && isRecord(body.data) ? body.data : {}
  return Object.entries(type.attributes).flatMap(([name, attribute]) => {
    if (!ownedIn(mode, attribute) || attributes[name] !== undefined) return []
    const source = uidSource(type, attribute, data)
    return source === undefined ? [] : [{ name, base: slugify(source).slice(0, attribute.maxLength ?? 255) }]
  })
}

/** Strapi's uid form of a text: accents dropped, lower-case, runs of anything else as one `-`. */
export function slugify(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/ß/g, 'ss').replace(/æ/gi, 'ae').replace(/ø/gi, 'o').replace(/œ/gi, 'oe').replace(/đ/gi, 'd').replace(/ł/gi, 'l')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
}

/**
 * Parses a request body's text as JSON: 400 `Invalid JSON body` when it is not, or when one of its
 * numbers cannot be kept exactly (`1e309`, a 30-digit integer): JSON.parse would silently turn it
 * into Infinity (stored as null) or a rounded double.
 */
export function parseJson(raw: string): unknown {
  if (raw.trim() === '') return undefined
  let parsed: unknown
  try {
    parsed = JSON.parse(raw) as unknown
  } catch {
    throw badRequest('Invalid JSON body')
  }
  const inexact = firstInexactNumber(raw)
  if (inexact !== undefined) {
    throw badRequest(`Invalid JSON body: the number ${inexact.slice(0, 40)} cannot be stored exactly (out of range or more precise than a double)`)
  }
  return parsed
}

/** Strings (skipped whole, so digits inside them are not numbers) and number tokens of valid JSON text. */
const JSON_TOKEN = /"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g

/** The first number of valid JSON text whose value a double does not hold exactly, if any. */
function firstInexactNumber(raw: string): string | undefined {
  for (const [token] of raw.matchAll(JSON_TOKEN)) {
    if (token.startsWith('"')) continue
    if (decimalValue(token) !== decimalValue(String(Number(token)))) return token
  }
  return undefined
}

/** A canonical form of a decimal literal's value (`1.50e1` and `15` alike); `Infinity` stays itself. */
function decimalValue(literal: string): string {
  const match = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(literal)
  if (match === null) return literal
  const [, sign, whole = '', fraction = '', exponent = '0'] = match
  let digits = (whole + fraction).replace(/^0+/, '')
  if (digits === '') return '0' // -0 and 0 alike: JSON cannot tell them apart once stored
  let power = Number(exponent) - fraction.length
  const trimmed = digits.replace(/0+$/, '')
  power += digits.length - trimmed.length
  digits = trimmed
  return `${sign}${digits}e${power}`
}
