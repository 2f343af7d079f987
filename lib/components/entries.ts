// Component entries as a write stores them (content-model.md §18): each with an integer `id`
// unique among its document's components, kept when a write sends it back (the stored entry
// updated with the keys sent), new for entries sent without one. Pure: applied by the write to the
// versions it read, on every attempt.
import type { ComponentField, ComponentSchema, ContentType, Relation } from '../content-types.js'
import { applyLinkOp, connected, linkIds, linkValue, type LinkOp } from '../relations/write.js'
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
  readonly maxLinks: number
}

/** A pending relation value: the operation a body sent (components/body.ts). */
function isLinkOp(value: unknown): value is LinkOp {
  return isRecord(value) && (value.kind === 'set' || value.kind === 'edit')
}

/** A relation's stored links after the pending `value` (an operation, or a value kept as is). */
function settleLinks(relation: Relation, value: unknown, stored: unknown, path: (string | number)[], scope: Settle): unknown {
  if (!isLinkOp(value)) return value ?? null
  return linkValue(relation, applyLinkOp(pathText(path), relation, linkIds(stored), value, scope.maxLinks, path))
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
  for (const [name, relation] of Object.entries(schema.relations)) {
    result[name] = Object.hasOwn(entry, name) ? settleLinks(relation, entry[name], base?.[name], [...path, name], scope) : (base?.[name] ?? null)
  }
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
 * `versions`, the document's; relations inside them applied to the stored entry's links (at most
 * `maxLinks` to a to-many, content-model.md §16).
 */
export function settleComponents(type: ContentType, values: Attributes, target: { readonly attributes: Attributes } | undefined, versions: readonly { readonly attributes: Attributes }[], maxLinks: number): Attributes {
  const names = Object.keys(type.components).filter((name) => Object.hasOwn(values, name))
  if (names.length === 0) return values
  let last = largestComponentId(type, versions)
  const scope: Settle = { next: () => ++last, maxLinks }
  const settled: Attributes = { ...values }
  for (const name of names) settled[name] = settleValue(type.components[name] as ComponentField, values[name], target?.attributes[name], [name], scope)
  return settled
}

/** A link inside a pending component value: the relation's target type, the target, and where it was sent. */
export interface ComponentLink {
  readonly target: string
  readonly documentId: string
  /** The locale the target must exist in, when the write names one (`{ documentId, locale }`). */
  readonly locale?: string
  readonly path: (string | number)[]
}

/** Calls `visit` with every entry of `value` (of `field`, at `path`), nested entries included, and its schema and path. */
export function walkEntries(field: ComponentField, value: unknown, path: (string | number)[], visit: (schema: ComponentSchema, entry: Entry, at: (string | number)[]) => void): void {
  entriesOf(value).forEach((entry, index) => {
    const at = field.repeatable ? [...path, index] : path
    const schema = schemaOf(field, entry)
    if (schema === undefined) return
    visit(schema, entry, at)
    for (const [name, nested] of Object.entries(schema.components)) walkEntries(nested, entry[name], [...at, name], visit)
  })
}

/** Every link the component values in `values` (a write's attributes) may add, for the check that their targets exist. */
export function componentLinks(type: ContentType, values: Attributes): ComponentLink[] {
  const links: ComponentLink[] = []
  for (const [name, field] of Object.entries(type.components)) {
    if (!Object.hasOwn(values, name)) continue
    walkEntries(field, values[name], [name], (schema, entry, at) => {
      for (const [relationName, relation] of Object.entries(schema.relations)) {
        const sent = entry[relationName]
        const targets = isLinkOp(sent) ? connected(sent) : linkIds(sent).map((documentId) => ({ documentId }))
        for (const target of targets) links.push({ target: relation.target, ...target, path: [...at, relationName] })
      }
    })
  }
  return links
}

/**
 * The stored links of the components in `values` (a version's attributes), by where they are: the
 * path of component attribute names down to the relation (`seo.article`; a zone's entries add
 * their component, `blocks[blocks.related].articles`), as the index of links keys them (content-model.md §16).
 */
export function storedComponentLinks(type: ContentType, values: Attributes): Map<string, Set<string>> {
  const links = new Map<string, Set<string>>()
  const visit = (field: ComponentField, value: unknown, prefix: string) => {
    for (const entry of entriesOf(value)) {
      const schema = schemaOf(field, entry)
      if (schema === undefined) continue
      const at = field.kind === 'dynamiczone' ? `${prefix}[${schema.uid}]` : prefix
      for (const name of Object.keys(schema.relations)) {
        const ids = linkIds(entry[name])
        if (ids.length === 0) continue
        const key = `${at}.${name}`
        links.set(key, new Set([...(links.get(key) ?? []), ...ids]))
      }
      for (const [name, nested] of Object.entries(schema.components)) visit(nested, entry[name], `${at}.${name}`)
    }
  }
  for (const [name, field] of Object.entries(type.components)) visit(field, values[name], name)
  return links
}
