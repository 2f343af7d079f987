// Stored component values as the indexes and filters read them (content-model.md §18): a
// component's filterable values go into its version's `f` map, so a filter through components is
// evaluated on index entries as a scalar filter is. Zones hold none: no filter reaches them.
import { isPrivate, SCALAR_TYPES, type ComponentField, type ComponentSchema } from '../content-types.js'
import { entriesOf, schemaOf } from './entries.js'

/** An entry's filterable values: its public scalars and to-one links, and its nested components'. */
function filterableEntry(schema: ComponentSchema, entry: Record<string, unknown>): Record<string, unknown> {
  const values: Record<string, unknown> = {}
  for (const [name, attribute] of Object.entries(schema.attributes)) {
    const value = entry[name]
    if (SCALAR_TYPES.has(attribute.type) && !isPrivate(attribute) && value !== null && value !== undefined) values[name] = value
  }
  // Links too (a to-many's as an array): a filter through a relation inside a component holds for
  // one entry (content-model.md §18), so its resolved condition is checked on the entry's links.
  for (const [name, relation] of Object.entries(schema.relations)) {
    const value = entry[name]
    if (relation.private !== true && (typeof value === 'string' || (Array.isArray(value) && value.length > 0))) values[name] = value
  }
  for (const [name, field] of Object.entries(schema.components)) {
    const value = filterableValue(field, entry[name])
    if (value !== undefined) values[name] = value
  }
  return values
}

/**
 * The filterable form of a component attribute's stored value: an object for a component, an
 * array for a repeatable one; undefined for a zone, null or an empty list.
 */
export function filterableValue(field: ComponentField, value: unknown): unknown {
  if (field.kind === 'dynamiczone' || value === null || value === undefined) return undefined
  const entries = entriesOf(value).map((entry) => filterableEntry(schemaOf(field, entry) as ComponentSchema, entry))
  if (!field.repeatable) return entries[0]
  return entries.length === 0 ? undefined : entries
}
