// Components and zones in an answer (content-model.md §18): absent unless populated; a populated
// one shows its entries' `id` (and a zone entry's `__component`), their public scalar attributes
// (`fields` selects among them), and nested components and relations only when asked. Shaped from
// the version itself: no read, except the targets of relations inside components, which the caller
// reads in one batch per level (relations/populate.ts) and hands over as `linked`.
import { isPrivate, type ComponentField, type ComponentSchema, type ContentType, type Relation } from '../content-types.js'
import type { PopulateNode, PopulateTree } from '../relations/populate-query.js'
import { entriesOf, schemaOf } from './entries.js'

type Entry = Record<string, unknown>

/** A relation inside a component, with the node asking for it and the links of one entry. */
export interface LinkRequest {
  readonly relation: Relation
  readonly node: PopulateNode
  readonly ids: readonly string[]
}

/** The shown targets of a link request: documents as answers show them (populated below as asked). */
export type Linked = (request: LinkRequest) => Record<string, unknown>[]

/** The node an entry is shown with: its zone fragment (`on`) when one names its component. */
function nodeFor(node: PopulateNode, entry: Entry): PopulateNode {
  const fragment = typeof entry.__component === 'string' ? node.on?.get(entry.__component) : undefined
  return fragment ?? node
}

const linkIds = (value: unknown): string[] => (typeof value === 'string' ? [value] : Array.isArray(value) ? (value as string[]) : [])

function shownEntry(schema: ComponentSchema, entry: Entry, asked: PopulateNode, linked: Linked): Entry {
  const node = nodeFor(asked, entry)
  const shown: Entry = entry.__component === undefined ? { id: entry.id } : { __component: entry.__component, id: entry.id }
  for (const [name, attribute] of Object.entries(schema.attributes)) {
    if (isPrivate(attribute) || (node.fields !== undefined && !node.fields.includes(name))) continue
    shown[name] = entry[name] ?? null
  }
  for (const [name, below] of node.populate) {
    const field = schema.components[name]
    if (field !== undefined) shown[name] = shownValue(field, entry[name], below, linked)
    const relation = schema.relations[name]
    if (relation === undefined || relation.private === true) continue
    const documents = linked({ relation, node: below, ids: linkIds(entry[name]) })
    shown[name] = relation.many ? documents : (documents[0] ?? null)
  }
  return shown
}

/** A component attribute's stored value as `node` shows it: null, an entry, or an array of entries. */
export function shownValue(field: ComponentField, value: unknown, node: PopulateNode, linked: Linked): unknown {
  if (value === null || value === undefined) return field.repeatable ? [] : null
  const entries = entriesOf(value).flatMap((entry) => {
    const schema = schemaOf(field, entry)
    return schema === undefined ? [] : [shownEntry(schema, entry, node, linked)]
  })
  return field.repeatable ? entries : (entries[0] ?? null)
}

/** Every link request `tree` makes of `values` (a version's attributes) of `type`: what `linked` will be asked. */
export function linkRequests(type: ContentType, values: Readonly<Record<string, unknown>>, tree: PopulateTree): LinkRequest[] {
  const requests: LinkRequest[] = []
  const visit = (field: ComponentField, value: unknown, asked: PopulateNode) => {
    for (const entry of entriesOf(value)) {
      const schema = schemaOf(field, entry)
      if (schema === undefined) continue
      const node = nodeFor(asked, entry)
      for (const [name, below] of node.populate) {
        const nested = schema.components[name]
        if (nested !== undefined) visit(nested, entry[name], below)
        const relation = schema.relations[name]
        if (relation !== undefined && relation.private !== true) requests.push({ relation, node: below, ids: linkIds(entry[name]) })
      }
    }
  }
  for (const [name, node] of tree) {
    const field = type.components[name]
    if (field !== undefined) visit(field, values[name], node)
  }
  return requests
}

/**
 * True when `tree` (asked of `type`) populates components and zones alone, at every level: its
 * answers are shaped from the versions themselves, with no other document read (delivery/rendered.ts).
 */
export function populatesComponentsOnly(type: ContentType, tree: PopulateTree): boolean {
  const only = (field: ComponentField, asked: PopulateNode): boolean =>
    field.components.every((schema) => [asked, asked.on?.get(schema.uid)].every((node) => node === undefined || [...node.populate].every(([name, below]) => {
      const nested = schema.components[name]
      return nested !== undefined && only(nested, below)
    })))
  return [...tree].every(([name, node]) => {
    const field = type.components[name]
    return field !== undefined && only(field, node)
  })
}
