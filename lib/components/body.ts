// Component and dynamic-zone values in a write's `data` (content-model.md §18), checked against
// their schemas with every problem collected under its full path (`["blocks", 2, "title"]`).
// The result is a pending value: entries sent with an `id` hold the keys sent (merged into the
// stored entry by entries.ts, which also gives new entries their ids), new entries hold every
// attribute (defaults applied, null where not sent).
import * as v from 'valibot'
import type { ComponentField, ComponentSchema, Relation } from '../content-types.js'
import { readLinkOp, type LinkOp } from '../relations/write.js'
import { valueSchemaOf } from '../schema/values.js'

/** One problem of a body, as Strapi's `details.errors[]` lists them. */
export interface FieldError {
  path: (string | number)[]
  message: string
  name: 'ValidationError'
}

/** What reading a body's components needs to know. */
export interface ReadScope {
  readonly errors: FieldError[]
  /** A draft write: `required` and `min` are checked when it is published (content-model.md §15). */
  readonly draft: boolean
}

/** `blocks[2].title`: a path as Strapi's messages write it. */
export function pathText(path: readonly (string | number)[]): string {
  return path.map((part, index) => (typeof part === 'number' ? `[${part}]` : index === 0 ? part : `.${part}`)).join('')
}

const ENTRY_KEYS = new Set(['id', '__component'])

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function fail(scope: ReadScope, path: (string | number)[], message: string): undefined {
  scope.errors.push({ path, message, name: 'ValidationError' })
  return undefined
}

/** A component's attribute names (scalars, relations, nested components). */
function namesOf(schema: ComponentSchema): string[] {
  return [...Object.keys(schema.attributes), ...Object.keys(schema.relations), ...Object.keys(schema.components)]
}

/**
 * One entry of `schema` at `path`: its attributes checked by their own schemas and options,
 * unknown keys refused; an entry without `id` gets every attribute (default, or null).
 */
function readEntry(schema: ComponentSchema, raw: Record<string, unknown>, path: (string | number)[], scope: ReadScope): Record<string, unknown> {
  const entry: Record<string, unknown> = {}
  const id = raw.id
  const known = id !== undefined && id !== null
  if (known) {
    if (typeof id === 'number' && Number.isSafeInteger(id) && id > 0) entry.id = id
    else fail(scope, [...path, 'id'], `${pathText([...path, 'id'])} must be the id of an entry (a positive integer)`)
  }
  for (const key of Object.keys(raw)) {
    if (!ENTRY_KEYS.has(key) && !namesOf(schema).includes(key)) fail(scope, [...path, key], `Invalid key ${key}`)
  }
  for (const [name, attribute] of Object.entries(schema.attributes)) {
    const at = [...path, name]
    const sent = Object.hasOwn(raw, name) ? raw[name] : undefined
    if (sent === undefined) {
      if (known) continue
      if (attribute.default !== undefined) entry[name] = v.parse(valueSchemaOf(attribute), attribute.default)
      else if (attribute.required === true && !scope.draft) fail(scope, at, `${pathText(at)} must be defined`)
      else entry[name] = null
      continue
    }
    if (attribute.writable === false) {
      fail(scope, at, `Invalid key ${name}`)
      continue
    }
    if (sent === null) {
      if (attribute.required === true && !scope.draft) fail(scope, at, `${pathText(at)} must be defined`)
      else entry[name] = null
      continue
    }
    const result = v.safeParse(valueSchemaOf(attribute), sent)
    if (result.success) entry[name] = result.output
    else fail(scope, at, `${pathText(at)} ${result.issues[0].message}`)
  }
  for (const [name, relation] of Object.entries(schema.relations)) {
    const at = [...path, name]
    const sent = Object.hasOwn(raw, name) ? raw[name] : undefined
    // A required media attribute (content-model.md §19) as a required scalar: a draft may lack it.
    const emptied = sent === null || (Array.isArray(sent) && sent.length === 0) || (sent === undefined && !known)
    if (relation.media?.required === true && !scope.draft && emptied) {
      fail(scope, at, `${pathText(at)} must be defined`)
      continue
    }
    if (sent === undefined) {
      if (!known) entry[name] = null
      continue
    }
    const op = readLinks(sent, relation, at, scope)
    if (op !== undefined) entry[name] = op
  }
  for (const [name, field] of Object.entries(schema.components)) {
    const sent = Object.hasOwn(raw, name) ? raw[name] : undefined
    if (sent === undefined && known) continue
    entry[name] = readComponentValue(field, sent ?? null, [...path, name], scope) ?? null
  }
  return entry
}

/**
 * A relation's value inside a component, read as at top level (content-model.md §16): a documentId
 * (or `{ documentId, locale }`) or null for a to-one, an array for a to-many, or `{ connect,
 * disconnect, set }`. The pending value is the operation, applied to the stored entry's links when
 * the write settles it (entries.ts); messages name the full path.
 */
function readLinks(raw: unknown, relation: Relation, path: (string | number)[], scope: ReadScope): LinkOp | undefined {
  const op = readLinkOp(pathText(path), relation, raw)
  return 'refused' in op ? fail(scope, path, op.refused) : op
}

/**
 * The pending value of a component attribute (`field`) at `path`: null, an entry, or an array of
 * entries, checked against `required`, `min` and `max`; undefined when it has problems (listed in
 * `scope.errors`). Zone entries must name one of the zone's components in `__component`.
 */
export function readComponentValue(field: ComponentField, raw: unknown, path: (string | number)[], scope: ReadScope): unknown {
  const name = pathText(path)
  if (raw === null) {
    if (field.required === true && !scope.draft) return fail(scope, path, `${name} must be defined`)
    return null
  }
  if (!field.repeatable) {
    if (!isRecord(raw)) return fail(scope, path, `${name} must be an object`)
    return readEntry(field.components[0] as ComponentSchema, raw, path, scope)
  }
  if (!Array.isArray(raw)) return fail(scope, path, `${name} must be an array`)
  if (field.min !== undefined && raw.length < field.min && !scope.draft) fail(scope, path, `${name} must contain at least ${field.min} items`)
  if (field.max !== undefined && raw.length > field.max) fail(scope, path, `${name} must contain at most ${field.max} items`)
  const before = scope.errors.length
  const entries = raw.map((item, index) => {
    const at = [...path, index]
    if (!isRecord(item)) return fail(scope, at, `${pathText(at)} must be an object`)
    if (field.kind === 'component') return readEntry(field.components[0] as ComponentSchema, item, at, scope)
    const uid = item.__component
    const schema = field.components.find((component) => component.uid === uid)
    if (schema === undefined) {
      const expected = field.components.map((component) => component.uid).join(', ')
      return fail(scope, [...at, '__component'], typeof uid === 'string' ? `${pathText([...at, '__component'])}: '${uid}' is not one of the components of ${name} (${expected})` : `${pathText([...at, '__component'])} must be defined: one of ${expected}`)
    }
    return { __component: uid, ...readEntry(schema, item, at, scope) }
  })
  return scope.errors.length > before ? undefined : entries
}
