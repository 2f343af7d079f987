// The `populate` that reads every component value of a version whole, as its form edits it
// (content-model.md §18): each component and zone down to its deepest nested component, the
// documentIds of relations inside them, and media (top level and inside) as file objects, for
// their thumbnails. Components cannot nest in a cycle (start-up refuses one), so the walk ends.
import type { ComponentField, ContentType, Relation } from '../../content-types.js'

/** Query keys that populate `field` under `key` (`populate[blocks]`). */
function populateField(query: URLSearchParams, key: string, field: ComponentField): void {
  // A zone's node takes the names of any of its components (lib/components/types.ts).
  const children = new Map<string, ComponentField | Relation>()
  for (const schema of field.components) {
    for (const [name, below] of Object.entries(schema.components)) children.set(name, below)
    for (const [name, relation] of Object.entries(schema.relations)) if (relation.private !== true) children.set(name, relation)
  }
  if (children.size === 0) {
    query.set(key, 'true')
    return
  }
  for (const [name, child] of children) {
    const at = `${key}[populate][${name}]`
    if ('kind' in child) populateField(query, at, child)
    else if (child.media !== undefined) query.set(at, 'true')
    else query.set(`${at}[fields][0]`, 'documentId')
  }
}

/** True when the type's form shows components or media (its reads then populate them). */
export function hasComponentsOrMedia(type: ContentType): boolean {
  return Object.keys(type.components).length > 0 || Object.values(type.relations).some((relation) => relation.media !== undefined)
}

/** Sets the query keys that populate every component, zone and media attribute of `type`. */
export function populateForForm(type: ContentType, query: URLSearchParams): void {
  for (const [name, field] of Object.entries(type.components)) populateField(query, `populate[${name}]`, field)
  for (const [name, relation] of Object.entries(type.relations)) if (relation.media !== undefined && relation.private !== true) query.set(`populate[${name}]`, 'true')
}
