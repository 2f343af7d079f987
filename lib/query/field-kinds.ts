// How each sortable or filterable field's values are read and ordered, decided in one place for
// the filter parser, the sort comparator and the index keys.
import type { ContentType } from '../content-types.js'

/** How a field's values are read from the query and ordered. */
export type FieldKind = 'integer' | 'number' | 'biginteger' | 'boolean' | 'date' | 'time' | 'datetime' | 'collated' | 'plain'

const TIMESTAMPS: ReadonlySet<string> = new Set(['createdAt', 'updatedAt', 'publishedAt'])

/** The kind of a field: system fields by name, attributes by type (strings, and anything else, collated). */
export function fieldKind(field: string, type: ContentType): FieldKind {
  if (field === 'id') return 'integer'
  if (field === 'documentId') return 'plain'
  if (field === 'locale') return 'collated'
  if (TIMESTAMPS.has(field)) return 'datetime'
  const attributeType = Object.hasOwn(type.attributes, field) ? type.attributes[field]?.type : undefined
  if (attributeType === 'float' || attributeType === 'decimal') return 'number'
  if (attributeType === 'integer' || attributeType === 'biginteger' || attributeType === 'boolean') return attributeType
  if (attributeType === 'date' || attributeType === 'time' || attributeType === 'datetime') return attributeType
  return 'collated'
}

/** True for kinds whose string values order by code unit (ISO dates, times, timestamps, documentIds). */
export function plainOrdered(kind: FieldKind): boolean {
  return kind === 'plain' || kind === 'date' || kind === 'time' || kind === 'datetime'
}
