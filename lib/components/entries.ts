// Component entries as a write stores them (content-model.md §18): each with an integer `id`
// unique among its document's components, kept when a write sends it back (the stored entry
// updated with the keys sent), new for entries sent without one. Pure: applied by the write to the
// versions it read, on every attempt.
import type { ComponentField, ComponentSchema, ContentType } from '../content-types.js'
import { badRequest } from '../errors.js'
import type { Attributes } from '../body.js'
import { pathText, type FieldError } from './body.js'

type Entry = Record<string, unknown>

function isRecord(value: unknown): value is Entry {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** The entries of a stored or pending value: none, one, or each of an array. */
export function entriesOf(value: unknown): Entry[] {
  return Array.isArray(value) ? value.filter(isRecord) : isRecord(value) ? [value] : []
}

/** The schema of an entry of `field` (a zone's by its `__component`). */
export function schemaOf(field: ComponentField, entry: Entry): ComponentSchema | undefined {
  return field.kind === 'component' ? field.components[0] : field.components.find((component) => component.uid === entry.__component)
}

/** The largest entry id in `value` of `field`, nested entries included (0 for none). */
function largestId(field: ComponentField, value: unknown): number {
  let largest = 0
  for (const entry of entriesOf(value)) {
    if (typeof entry.id === 'number') largest = Math.max(largest, entry.id)
    const schema = schemaOf(field, entry)
    if (schema === undefined) continue
    for (const [name, nested] of Object.entries(schema.components)) largest = Math.max(largest, largestId(nested, entry[name]))
  }
  return largest
}

/** The largest component entry id among every version's values (0 for none). */
export function largestComponentId(type: ContentType, versions: readonly { readonly attributes: Attributes }[]): number {
  let largest = 0
  for (const version of versions) {
    for (const [name, field] of Object.entries(type.components)) largest = Math.max(largest, largestId(field, version.attributes[name]))
  }
  return largest
}

interface Settle {
  next: () => number
}

/** 400: an entry sent with an id this version does not hold at that place. */
function refuse(path: (string | number)[], id: unknown): never {
  const error: FieldError = { path, message: `${pathText(path)}: ${String(id)} is not the id of an entry of this attribute (send no id for a new entry)`, name: 'ValidationError' }
  throw badRequest(error.message, { errors: [error] })
}

/** One pending entry as stored: merged into the stored entry it names, or new with the next id. */
function settleEntry(field: ComponentField, entry: Entry, stored: readonly Entry[], path: (string | number)[], scope: Settle): Entry {
  const schema = schemaOf(field, entry) as ComponentSchema
  let base: Entry | undefined
  if (entry.id !== undefined) {
    base = stored.find((candidate) => candidate.id === entry.id && candidate.__component === entry.__component)
    if (base === undefined) refuse([...path, 'id'], entry.id)
  }
  const id = base === undefined ? scope.next() : entry.id
  const result: Entry = field.kind === 'dynamiczone' ? { __component: schema.uid, id } : { id }
  for (const name of Object.keys(schema.attributes)) result[name] = Object.hasOwn(entry, name) ? entry[name] : (base?.[name] ?? null)
  for (const name of Object.keys(schema.relations)) result[name] = Object.hasOwn(entry, name) ? entry[name] : (base?.[name] ?? null)
  for (const [name, nested] of Object.entries(schema.components)) {
    result[name] = Object.hasOwn(entry, name) ? settleValue(nested, entry[name], base?.[name], [...path, name], scope) : (base?.[name] ?? null)
  }
  return result
}

function settleValue(field: ComponentField, value: unknown, stored: unknown, path: (string | number)[], scope: Settle): unknown {
  if (value === null || value === undefined) return null
  const old = entriesOf(stored)
  if (!field.repeatable) return settleEntry(field, value as Entry, old, path, scope)
  return (value as Entry[]).map((entry, index) => settleEntry(field, entry, old, [...path, index], scope))
}

/**
 * `values` (a write's attributes) with their component values settled against `target`, the
 * version they replace (none for a new one): entries sent with an id updated from the stored one
 * (400 when it holds no entry with that id), new entries numbered after the largest id among
 * `versions`, the document's.
 */
export function settleComponents(type: ContentType, values: Attributes, target: { readonly attributes: Attributes } | undefined, versions: readonly { readonly attributes: Attributes }[]): Attributes {
  const names = Object.keys(type.components).filter((name) => Object.hasOwn(values, name))
  if (names.length === 0) return values
  let last = largestComponentId(type, versions)
  const scope: Settle = { next: () => ++last }
  const settled: Attributes = { ...values }
  for (const name of names) settled[name] = settleValue(type.components[name] as ComponentField, values[name], target?.attributes[name], [name], scope)
  return settled
}

/** A link inside a pending component value: the relation's target type, a documentId, and where it was sent. */
export interface ComponentLink {
  readonly target: string
  readonly documentId: string
  readonly path: (string | number)[]
}

/** Every link the component values in `values` (a write's attributes) send, for the check that their targets exist. */
export function componentLinks(type: ContentType, values: Attributes): ComponentLink[] {
  const links: ComponentLink[] = []
  const visit = (field: ComponentField, value: unknown, path: (string | number)[]) => {
    const entries = entriesOf(value)
    entries.forEach((entry, index) => {
      const at = field.repeatable ? [...path, index] : path
      const schema = schemaOf(field, entry)
      if (schema === undefined) return
      for (const [name, relation] of Object.entries(schema.relations)) {
        const sent = entry[name]
        const ids = typeof sent === 'string' ? [sent] : Array.isArray(sent) ? (sent as string[]) : []
        for (const documentId of ids) links.push({ target: relation.target, documentId, path: [...at, name] })
      }
      for (const [name, nested] of Object.entries(schema.components)) visit(nested, entry[name], [...at, name])
    })
  }
  for (const [name, field] of Object.entries(type.components)) if (Object.hasOwn(values, name)) visit(field, values[name], [name])
  return links
}
