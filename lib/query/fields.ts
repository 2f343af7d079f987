// The `fields` query parameter (delivery.md §11): which fields a returned document holds.
import { publicAttributes, type ContentType } from '../content-types.js'
import { badRequest, queryDetails } from '../errors.js'

const ALWAYS = ['id', 'documentId'] as const
const SELECTABLE_SYSTEM = ['createdAt', 'updatedAt', 'publishedAt', 'locale'] as const

const invalid = (message: string, key: string) => badRequest(message, queryDetails('fields', key, 'fields'))

/** The names in `fields=a,b`, `fields[0]=a&fields[1]=b` or `fields=a`, trimmed, empty ones dropped. */
function names(raw: unknown): string[] {
  const items = Array.isArray(raw) ? raw : [raw]
  return items.flatMap((item) => {
    if (typeof item !== 'string') throw invalid('Invalid fields: expected field names', 'fields')
    return item.split(',').map((name) => name.trim()).filter((name) => name !== '')
  })
}

/**
 * Parses the raw `fields` value from qs; undefined (every field) when absent, `*` or `fields[0]=*`;
 * 400 on unknown (or private) names, with or without `*`.
 */
export function parseFields(raw: unknown, type: ContentType): readonly string[] | undefined {
  if (raw === undefined) return undefined
  const requested = names(raw)
  if (requested.length === 0) throw invalid('Invalid fields: at least one field name is required', 'fields')
  const selectable = new Set<string>([...ALWAYS, ...SELECTABLE_SYSTEM, ...publicAttributes(type)])
  // Every name is checked, beside `*` too (as Strapi): a private one is a 400, never ignored.
  for (const name of requested) {
    if (name !== '*' && !selectable.has(name)) throw invalid(`Invalid key ${name}`, name)
  }
  return requested.includes('*') ? undefined : [...new Set(requested)]
}

/** The document with id, documentId and the selected fields only, in the document's own key order. */
export function selectFields(document: Record<string, unknown>, fields: readonly string[] | undefined): Record<string, unknown> {
  if (fields === undefined) return document
  const keep = new Set<string>([...ALWAYS, ...fields])
  const selected: Record<string, unknown> = {}
  for (const key of ALWAYS) {
    if (Object.hasOwn(document, key)) selected[key] = document[key]
  }
  for (const [key, value] of Object.entries(document)) {
    if (keep.has(key) && !Object.hasOwn(selected, key)) selected[key] = value
  }
  return selected
}
