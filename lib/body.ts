// Request bodies: `{ data: { ...attributes } }` checked against a content type with valibot, every
// problem collected, nothing coerced. Code past this point sees typed attribute values only.
import * as v from 'valibot'
import type { Attribute, ContentType } from './content-types.js'
import { badRequest } from './errors.js'

/** What a body may contain: every attribute, a partial update, or localized attributes only. */
export type BodyMode = 'create' | 'update' | 'localization'

export type Attributes = Record<string, unknown>

const SYSTEM_KEYS = new Set(['id', 'documentId', 'createdAt', 'updatedAt', 'publishedAt'])
const MISSING_DATA = 'Missing "data" payload in the request body'

/** Largest magnitude DynamoDB stores in a number; a float beyond it is rejected, not truncated. */
const NUMBER_MAGNITUDE = 9.9e125

const wellFormed = (s: string) => s.isWellFormed()
const text = (maxLength?: number) =>
  v.pipe(
    v.string('must be a string'),
    v.check(wellFormed, 'must be valid Unicode'),
    v.check((s) => maxLength === undefined || [...s].length <= maxLength, `must be at most ${maxLength} characters`),
  )

/**
 * Deepest nesting of a blocks or json value (the bound DynamoDB sets on nested attributes; real
 * blocks use a handful). Far deeper values overflow the stack when stored (JSON.stringify): a 400, not a 500.
 */
const MAX_NESTING = 32

/** True when `value` has at most `max` levels of arrays and objects; iterative, so never overflows. */
function nestingWithin(value: unknown, max: number): boolean {
  const pending: [unknown, number][] = [[value, 1]]
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [current, depth] = next
    if (typeof current !== 'object' || current === null) continue
    if (depth > max) return false
    for (const child of Object.values(current)) pending.push([child, depth + 1])
  }
  return true
}
const TOO_DEEP = `must not be nested more than ${MAX_NESTING} levels deep`

const BlockChildSchema = v.looseObject({ type: v.string('must be a string') })
const BlocksSchema = v.pipe(
  v.array(
    v.looseObject({ type: v.string('must be a string'), children: v.array(BlockChildSchema, 'must be an array') }, 'must be a block object'),
    'must be an array of blocks',
  ),
  v.check((value) => nestingWithin(value, MAX_NESTING), TOO_DEEP),
)

function attributeSchema(attribute: Attribute): v.GenericSchema {
  switch (attribute.type) {
    case 'string':
      return text(attribute.maxLength ?? 255)
    case 'text':
      return text(attribute.maxLength)
    case 'email':
      return v.pipe(text(attribute.maxLength ?? 255), v.email('must be an email address'))
    case 'uid':
      return v.pipe(text(attribute.maxLength ?? 255), v.regex(/^[A-Za-z0-9\-_.~]*$/, 'must only contain A-Z a-z 0-9 - _ . ~'))
    case 'enumeration':
      return v.picklist(attribute.enum ?? [], `must be one of ${(attribute.enum ?? []).join(', ')}`)
    case 'integer':
      return v.pipe(v.number('must be an integer'), v.integer('must be an integer'), v.minValue(-2147483648), v.maxValue(2147483647))
    case 'biginteger':
      return v.pipe(v.string('must be a string of digits'), v.regex(/^-?\d{1,19}$/, 'must be a string of digits'))
    case 'float':
    case 'decimal':
      return v.pipe(v.number('must be a number'), v.check((n) => Math.abs(n) <= NUMBER_MAGNITUDE, 'is out of range'))
    case 'boolean':
      return v.boolean('must be a boolean')
    case 'date':
      return v.pipe(v.string('must be a date (YYYY-MM-DD)'), v.isoDate('must be a date (YYYY-MM-DD)'))
    case 'time':
      return v.pipe(v.string('must be a time (HH:mm:ss.SSS)'), v.regex(/^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d{1,3})?)?$/, 'must be a time (HH:mm:ss.SSS)'))
    case 'datetime':
      // Stored in UTC as toISOString writes it (as Strapi does), so string order is chronological
      // in sorts, filters and index keys alike.
      return v.pipe(
        v.string('must be an ISO 8601 date-time'),
        v.check((s) => /^\d{4}-\d\d-\d\dT/.test(s) && !Number.isNaN(Date.parse(s)) && Math.abs(Date.parse(s)) <= 8.64e15, 'must be an ISO 8601 date-time'),
        v.transform((s) => new Date(s).toISOString()),
      )
    case 'blocks':
      return BlocksSchema
    case 'json':
      return v.pipe(v.unknown(), v.check((value) => nestingWithin(value, MAX_NESTING), TOO_DEEP))
  }
}

interface FieldError {
  path: string[]
  message: string
  name: 'ValidationError'
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/**
 * Checks a parsed JSON body against `type` and returns the attributes it sets (null clears).
 * `locale` inside data is ignored (the query decides). Every problem is listed in one 400.
 */
export function parseBody(body: unknown, type: ContentType, mode: BodyMode): Attributes {
  // `data: {}` is valid (behaviour.md §6): a create or localization with nothing set, an update of nothing.
  if (!isRecord(body) || !isRecord(body.data)) {
    throw badRequest(MISSING_DATA)
  }
  const data = body.data
  const errors: FieldError[] = []
  const attributes: Attributes = {}
  const fail = (name: string, message: string) => errors.push({ path: [name], message, name: 'ValidationError' })
  for (const [name, value] of Object.entries(data)) {
    if (name === 'locale') continue
    const attribute = Object.hasOwn(type.attributes, name) ? type.attributes[name] : undefined
    if (attribute === undefined || SYSTEM_KEYS.has(name)) {
      fail(name, `Invalid key ${name}`)
      continue
    }
    if (mode === 'localization' && !attribute.localized) {
      fail(name, `${name} is not localized: it cannot be set when creating a localization`)
      continue
    }
    if (value === null) {
      if (attribute.required === true) fail(name, `${name} must be defined`)
      else attributes[name] = null
      continue
    }
    const result = v.safeParse(attributeSchema(attribute), value)
    if (result.success) attributes[name] = result.output
    else fail(name, `${name} ${result.issues[0].message}`)
  }
  if (mode !== 'update') {
    for (const [name, attribute] of Object.entries(type.attributes)) {
      const inherited = mode === 'localization' && !attribute.localized
      if (attribute.required === true && !inherited && !(name in attributes) && !errors.some((e) => e.path[0] === name)) {
        fail(name, `${name} must be defined`)
      }
    }
  }
  if (errors.length > 0) {
    const message = errors.length === 1 ? (errors[0]?.message ?? 'Invalid body') : `${errors.length} errors occurred`
    throw badRequest(message, { errors })
  }
  return attributes
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
