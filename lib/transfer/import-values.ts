// What a Strapi row's values become in a version (integration.md §21), beyond plain attributes:
// components and zones (inline in Strapi's rows, each entry with its `id`, a zone's with its
// `__component`) kept with their ids, schema attributes and nested components; files (rows of
// `plugin::upload.file`) with their `url`s and `provider` those of the blob store that now holds
// their bytes; and the `relation.morph` links of media, turned to the owner's side.
import type { ComponentField } from '../content-types.js'
import { FILE_UID } from '../content-types.js'
import type { BlobStore } from '../media/blobs.js'
import type { Link } from './archive-records.js'

type Entry = Record<string, unknown>
const isEntry = (value: unknown): value is Entry => typeof value === 'object' && value !== null && !Array.isArray(value)

/**
 * The documentIds the row (or component entry) `ref` of `owner` links to in `field`, as a version
 * stores them: one id or null, or a list or null (`many`).
 */
export type Linked = (owner: string, ref: unknown, field: string, many: boolean) => string | string[] | null

/**
 * A component or zone value of a Strapi row as the project stores it (null for none). Relations and
 * media inside an entry are links of the entry's own row in the archive (`linked`).
 */
export function componentValue(field: ComponentField, raw: unknown, linked: Linked): unknown {
  const entry = (value: Entry): Entry | undefined => {
    const schema = field.kind === 'dynamiczone' ? field.components.find((component) => component.uid === value.__component) : field.components[0]
    if (schema === undefined) return undefined
    const stored: Entry = { id: value.id }
    if (field.kind === 'dynamiczone') stored.__component = schema.uid
    for (const name of Object.keys(schema.attributes)) stored[name] = value[name] ?? null
    for (const [name, relation] of Object.entries(schema.relations)) stored[name] = linked(schema.uid, value.id, name, relation.many)
    for (const [name, nested] of Object.entries(schema.components)) stored[name] = componentValue(nested, value[name], linked)
    return stored
  }
  if (field.repeatable) return Array.isArray(raw) ? raw.filter(isEntry).flatMap((value) => entry(value) ?? []) : []
  return isEntry(raw) ? (entry(raw) ?? null) : null
}

/** The uids of the components `fields` hold, nested ones too. */
export function componentUids(fields: readonly ComponentField[]): Set<string> {
  const uids = new Set<string>()
  const visit = (field: ComponentField) => {
    for (const schema of field.components) {
      if (uids.has(schema.uid)) continue
      uids.add(schema.uid)
      Object.values(schema.components).forEach(visit)
    }
  }
  fields.forEach(visit)
  return uids
}

/** A file row's values with the blob store's `url`s and `provider` (as they were without one). */
export function fileValues(values: Entry, blobs: BlobStore | undefined): Entry {
  if (blobs === undefined) return values
  const urlOf = (format: unknown) => (isEntry(format) ? { ...format, url: blobs.urlOf(`uploads/${String(format.hash)}${String(format.ext ?? '')}`) } : format)
  const formats = isEntry(values.formats) ? Object.fromEntries(Object.entries(values.formats).map(([name, format]) => [name, urlOf(format)])) : values.formats
  return { ...values, url: blobs.urlOf(`uploads/${String(values.hash)}${String(values.ext ?? '')}`), provider: blobs.provider, formats }
}

/** A link as its owner holds it: a media link (`relation.morph` from a file) turned around, others as they are. */
export function ownerSide(link: Link): Link | undefined {
  if (link.kind !== 'relation.morph') return link
  if (link.left.type !== FILE_UID || link.right.field === undefined) return undefined
  return { kind: link.kind, relation: link.relation, left: { type: link.right.type, ref: link.right.ref, field: link.right.field, pos: link.right.pos }, right: { type: FILE_UID, ref: link.left.ref } }
}
