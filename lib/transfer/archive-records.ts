// The lines of a Strapi archive this project reads, parsed at the boundary (valibot): an entity (one
// row of Strapi's database: one locale version of one status of a document), a link (one row of a
// relation's join: the owning side on the left), a core-store setting. Strapi's own types (`admin::`,
// `plugin::`) are read only where they matter here: the locales of `plugin::i18n.locale`.
import * as v from 'valibot'
import { ArchiveError } from './archive-reader.js'

export const EntitySchema = v.object({
  type: v.string(),
  id: v.number(),
  data: v.looseObject({
    documentId: v.optional(v.nullable(v.string())),
    locale: v.optional(v.nullable(v.string())),
    createdAt: v.optional(v.nullable(v.string())),
    updatedAt: v.optional(v.nullable(v.string())),
    publishedAt: v.optional(v.nullable(v.string())),
  }),
})
export type Entity = v.InferOutput<typeof EntitySchema>

const LinkEndSchema = v.object({ type: v.string(), ref: v.union([v.number(), v.string()]), field: v.optional(v.string()), pos: v.optional(v.number()) })
export const LinkSchema = v.object({ kind: v.string(), relation: v.optional(v.string()), left: LinkEndSchema, right: LinkEndSchema })
export type Link = v.InferOutput<typeof LinkSchema>

export const ConfigurationSchema = v.object({ type: v.string(), value: v.looseObject({ key: v.optional(v.string()), value: v.optional(v.unknown()) }) })

export const SchemaRecordSchema = v.looseObject({
  uid: v.string(),
  kind: v.optional(v.string()),
  modelType: v.optional(v.string()),
  attributes: v.record(v.string(), v.looseObject({})),
})
export type SchemaRecord = v.InferOutput<typeof SchemaRecordSchema>

/** Parses one line of `stage` or fails naming what is wrong. */
export function parseRecord<S extends v.GenericSchema>(schema: S, record: unknown, stage: string): v.InferOutput<S> {
  const parsed = v.safeParse(schema, record)
  if (!parsed.success) throw new ArchiveError(`${stage}: a line is not a Strapi ${stage} record (${parsed.issues.map((issue) => `${v.getDotPath(issue) ?? ''} ${issue.message}`.trim()).join('; ')})`)
  return parsed.output
}

/** Strapi's uid of its locales type: its entities are the archive's locales. */
export const LOCALE_TYPE = 'plugin::i18n.locale'

/** The core-store key of the default locale. */
export const DEFAULT_LOCALE_KEY = 'plugin_i18n_default_locale'

/** A core-store value: stored as JSON text, or as the plain string it is. */
export function storeValue(raw: unknown): unknown {
  if (typeof raw !== 'string') return raw
  try {
    return JSON.parse(raw)
  } catch {
    return raw
  }
}
