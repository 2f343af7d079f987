// The one answer builder: a version, with its populated relations, as Strapi's JSON (content-api.md).
// Every answer goes through it (lists, get one, writes, publication actions, `locale=*`, populated
// targets), and so will webhook payloads and the exporter: a plain function of what it shows.
import type { ContentType } from '../content-types.js'
import { selectFields } from '../query/fields.js'
import { toDocument, type Version } from '../storage/items.js'

/** A populated answer's extra fields for each version: relation name → document, array, count or null. */
export type Populated = ReadonlyMap<Version, Record<string, unknown>>

/**
 * The JSON of `version`: id, documentId, its public attributes (private ones never leave) and
 * system fields, only `fields` when given (id and documentId always), then the relations
 * `populated` holds for it.
 */
export function documentAnswer(type: ContentType, version: Version, fields: readonly string[] | undefined, populated?: Populated): Record<string, unknown> {
  const document = selectFields(toDocument(type, version), fields)
  const relations = populated?.get(version)
  return relations === undefined ? document : { ...document, ...relations }
}

/** The JSON of each of `versions`, in order (see documentAnswer). */
export function documentsAnswer(type: ContentType, versions: readonly Version[], fields: readonly string[] | undefined, populated?: Populated): Record<string, unknown>[] {
  return versions.map((version) => documentAnswer(type, version, fields, populated))
}
