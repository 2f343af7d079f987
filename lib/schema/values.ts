// The valibot schema of one attribute's non-null value, built from its declaration with every
// option of content-model.md §14 (lengths, bounds, regex, enum). Bodies (lib/body.ts) and schema
// defaults (lib/schema/model.ts) are checked by the same schemas. Nothing is coerced; a password
// comes out as a PasswordToHash, which the write replaces with its salted hash (hashed off the event
// loop, in libuv's thread pool: a hash takes tens of milliseconds).
import { randomBytes, scrypt } from 'node:crypto'
import { promisify } from 'node:util'
import * as v from 'valibot'
import type { Attribute } from '../content-types.js'
import { notType } from './messages.js'

/** Largest magnitude DynamoDB stores in a number; a float beyond it is rejected, not truncated. */
const NUMBER_MAGNITUDE = 9.9e125

/**
 * Deepest nesting of a blocks or json value (the bound DynamoDB sets on nested attributes; real
 * blocks use a handful). Far deeper values overflow the stack when stored (JSON.stringify): a 400, not a 500.
 */
export const MAX_NESTING = 32

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

const codePoints = (s: string) => [...s].length

/** Strings: well-formed Unicode, the length bounds (`defaultMax` when none is declared) and the regex. */
function text(attribute: Attribute, defaultMax?: number) {
  const maxLength = attribute.maxLength ?? defaultMax
  const { minLength, regex } = attribute
  const pattern = regex === undefined ? undefined : new RegExp(regex)
  return v.pipe(
    v.string(notType('string')),
    v.check((s) => s.isWellFormed(), 'must be valid Unicode'),
    v.check((s) => minLength === undefined || codePoints(s) >= minLength, `must be at least ${minLength} characters`),
    v.check((s) => maxLength === undefined || codePoints(s) <= maxLength, `must be at most ${maxLength} characters`),
    v.check((s) => pattern === undefined || pattern.test(s), `must match the following: "${String(pattern)}"`),
  )
}

/** Numbers within the declared `min` and `max`. */
function bounded<T extends number | string>(attribute: Attribute, compare: (value: T, bound: number) => number) {
  const { min, max } = attribute
  return [
    v.check((value: T) => min === undefined || compare(value, min) >= 0, `must be greater than or equal to ${min}`),
    v.check((value: T) => max === undefined || compare(value, max) <= 0, `must be less than or equal to ${max}`),
  ] as const
}

const numeric = (value: number, bound: number) => value - bound
/** A biginteger string against a bound, exactly (bounds beyond 2^53 as the nearest integers). */
const exact = (value: string, bound: number) => {
  const [a, b] = [BigInt(value), BigInt(Math.round(bound))]
  return a < b ? -1 : a > b ? 1 : 0
}

/** scrypt parameters of stored password hashes (OWASP's minimum for scrypt: N=2^17 is stronger but 128 MB). */
const SCRYPT = { N: 16384, r: 8, p: 1, keyLength: 32 } as const

const scryptAsync = promisify(scrypt) as (password: string, salt: Buffer, keyLength: number, options: { N: number; r: number; p: number }) => Promise<Buffer>

/** A salted scrypt hash of `password`, `scrypt$N$r$p$<salt>$<hash>` (base64url), computed off the event loop. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16)
  const hash = await scryptAsync(password, salt, SCRYPT.keyLength, { N: SCRYPT.N, r: SCRYPT.r, p: SCRYPT.p })
  return ['scrypt', SCRYPT.N, SCRYPT.r, SCRYPT.p, salt.toString('base64url'), hash.toString('base64url')].join('$')
}

/**
 * A password as a body gave it, until the write hashes it (lib/body.ts `hashPasswords`). Never
 * stored as such: DynamoDB's marshaller refuses a class instance, so a forgotten hash fails loudly.
 */
export class PasswordToHash {
  constructor(readonly text: string) {}
}

/** The schema of a non-null value of `attribute` in a body (or its declared default). */
export function attributeValueSchema(attribute: Attribute): v.GenericSchema {
  switch (attribute.type) {
    case 'string':
      return text(attribute, 255)
    case 'text':
    case 'richtext':
      return text(attribute)
    case 'email':
      return v.pipe(text(attribute, 255), v.email('must be a valid email'))
    case 'uid':
      return v.pipe(text(attribute, 255), v.regex(/^[A-Za-z0-9\-_.~]*$/, 'must match the following: "/^[A-Za-z0-9-_.~]*$/"'))
    case 'password':
      return v.pipe(text(attribute), v.transform((text: string) => new PasswordToHash(text)))
    case 'enumeration':
      return v.picklist(attribute.enum ?? [], `must be one of the following values: ${(attribute.enum ?? []).join(', ')}`)
    case 'integer':
      return v.pipe(v.number(notType('number')), v.integer('must be an integer'), v.minValue(-2147483648), v.maxValue(2147483647), ...bounded<number>(attribute, numeric))
    case 'biginteger':
      return v.pipe(v.string('must be a string of digits'), v.regex(/^-?\d{1,19}$/, 'must be a string of digits'), ...bounded<string>(attribute, exact))
    case 'float':
    case 'decimal':
      // DynamoDB keeps magnitudes from 1e-130 to 9.9e125 (and 0): anything else cannot be stored or indexed.
      return v.pipe(v.number(notType('number')), v.check((n) => Math.abs(n) <= NUMBER_MAGNITUDE && (n === 0 || Math.abs(n) >= 1e-130), 'is out of range'), ...bounded<number>(attribute, numeric))
    case 'boolean':
      return v.boolean(notType('boolean'))
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

/** Each attribute's value schema, built once (a body is checked on every write). */
const schemas = new WeakMap<Attribute, v.GenericSchema>()

/** The schema of a non-null value of `attribute`, kept per attribute. */
export function valueSchemaOf(attribute: Attribute): v.GenericSchema {
  let schema = schemas.get(attribute)
  if (schema === undefined) {
    schema = attributeValueSchema(attribute)
    schemas.set(attribute, schema)
  }
  return schema
}
