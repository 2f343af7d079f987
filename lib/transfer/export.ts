// `npm run export` (integration.md §21): the table as an archive of `strapi export --no-encrypt`,
// which `strapi import` loads. One pass over the table's documents, a page at a time (Scan of the
// heads, then each document read whole, many at once): each version is one Strapi row (its id,
// documentId, locale, status and timestamps kept; components inline, as Strapi's rows hold them),
// each link of an owning relation one `relation.basic` line to the target's row of the same locale
// and status, each media link a `relation.morph` line from the file. Relations and media inside
// components are links of the component entries' own rows, as Strapi's are (left: the component's
// uid and the entry's id), so entry ids are made unique per component in the archive. The locales and the default
// locale come first, the files' bytes go under `assets/` with Strapi's sidecar metadata.
import { FILE_TYPE, FILE_UID, typeByUid, type ComponentField, type ContentType, type Relation } from '../content-types.js'
import { entriesOf, schemaOf } from '../components/entries.js'
import type { Services } from '../services.js'
import type { Version } from '../storage/items.js'
import { versionList } from '../table.js'
import { ArchiveWriter } from './archive-writer.js'
import { DEFAULT_LOCALE_KEY, LOCALE_TYPE } from './archive-records.js'
import { writeAsset } from './export-assets.js'
import { archiveSchemas, STRAPI_VERSION } from './strapi-schemas.js'

/** Documents read at once. */
const DEFAULT_CONCURRENCY = 32

export interface ExportOptions {
  /** The folder of the project's schema files (the archive's `schemas/`). */
  readonly typesDir: string
  readonly concurrency?: number
  /** Called after every page of documents: rows written so far. */
  readonly progress?: (rows: number) => void
}

/** What an export wrote: rows per type (versions; files for `plugin::upload.file`), links, assets. */
export interface ExportReport {
  readonly locales: readonly string[]
  readonly counts: Readonly<Record<string, number>>
  readonly links: number
  readonly assets: number
}

interface Run {
  readonly services: Services
  readonly writer: ArchiveWriter
  readonly defaultLocale: string
  readonly counts: Record<string, number>
  /** Component entry ids written so far, per component uid (Strapi's are unique per component table). */
  readonly entryIds: Map<string, { readonly used: Set<number>; largest: number }>
  links: number
  assets: number
}

/** A row that owns links: a version, or a component entry inside it (a row of its component's table in Strapi). */
interface Owner {
  readonly uid: string
  readonly ref: number
  readonly relations: Readonly<Record<string, Relation>>
  readonly values: Readonly<Record<string, unknown>>
  /** The version it is part of: its links go to the targets' rows of its locale and status. */
  readonly version: Version
}

/** One version as the archive holds it: its row's data, and the owners of its links. */
interface Row {
  readonly type: ContentType
  readonly version: Version
  readonly data: Record<string, unknown>
  readonly owners: readonly Owner[]
}

/** Writes the table of `services` as an archive at `path` (`.tar` plain, else gzip). */
export async function exportArchive(services: Services, path: string, options: ExportOptions): Promise<ExportReport> {
  const writer = new ArchiveWriter(path)
  try {
    const locales = await services.locales.list(true)
    const run: Run = { services, writer, defaultLocale: await services.locales.defaultCode(), counts: {}, entryIds: new Map(), links: 0, assets: 0 }
    await writer.file('metadata.json', JSON.stringify({ createdAt: new Date().toISOString(), strapi: { version: STRAPI_VERSION } }, null, 2))
    for (const schema of archiveSchemas(options.typesDir)) await writer.line('schemas', schema)
    for (const [index, locale] of locales.entries()) {
      await writer.line('entities', { type: LOCALE_TYPE, id: index + 1, data: { documentId: localeDocumentId(locale.code), name: locale.name, code: locale.code, createdAt: locale.createdAt, updatedAt: locale.updatedAt, publishedAt: locale.createdAt, locale: null } })
    }
    await writer.line('configuration', { type: 'core-store', value: { id: 1, key: DEFAULT_LOCALE_KEY, value: run.defaultLocale, type: 'string', environment: null, tag: null } })
    let rows = 0
    for await (const page of services.documents.scan()) {
      rows += await exportPage(run, page, options.concurrency ?? DEFAULT_CONCURRENCY)
      options.progress?.(rows)
    }
    await writer.close()
    return { locales: locales.map((locale) => locale.code), counts: run.counts, links: run.links, assets: run.assets }
  } catch (error) {
    writer.abort(error instanceof Error ? error : new Error(String(error)))
    throw error
  }
}

/** A locale row's documentId: Strapi's are 24 [a-z0-9]; derived from the code, the same on every export. */
function localeDocumentId(code: string): string {
  return `locale${code.toLowerCase().replace(/[^a-z0-9]/g, '')}`.padEnd(24, '0').slice(0, 24)
}

/** Writes the rows and links of one page of documents; returns the rows written. */
async function exportPage(run: Run, page: readonly { documentId: string; uid: string }[], concurrency: number): Promise<number> {
  const known = page.flatMap((entry) => {
    const type = typeByUid(run.services.types, entry.uid)
    return type === undefined ? [] : [{ type, documentId: entry.documentId }]
  })
  const documents: { type: ContentType; versions: readonly Version[] }[] = []
  for (let start = 0; start < known.length; start += concurrency) {
    const slice = known.slice(start, start + concurrency)
    const states = await Promise.all(slice.map(({ type, documentId }) => run.services.documents.getDocument(type, documentId)))
    states.forEach((state, index) => documents.push({ type: (slice[index] as { type: ContentType }).type, versions: state.versions }))
  }
  const rows = documents.flatMap(({ type, versions }) => versions.map((version) => rowOf(run, type, version)))
  const targets = await targetIds(run, rows.flatMap((row) => row.owners))
  for (const { type, version, data, owners } of rows) {
    await run.writer.line('entities', { type: type.uid, id: version.id, data })
    if (type.uid === FILE_UID) run.assets += await writeAsset(run.services, run.writer, version)
    for (const owner of owners) await writeLinks(run, owner, targets)
    run.counts[type.uid] = (run.counts[type.uid] ?? 0) + 1
  }
  return rows.length
}

/** A version as Strapi's row: its values but relations and media (those are links), its system fields. */
function rowOf(run: Run, type: ContentType, version: Version): Row {
  const data: Record<string, unknown> = { documentId: version.documentId }
  const owners: Owner[] = [{ uid: type.uid, ref: version.id, relations: type.relations, values: version.attributes, version }]
  for (const name of Object.keys(type.attributes)) data[name] = version.attributes[name] ?? null
  for (const [name, field] of Object.entries(type.components)) data[name] = componentRows(run, field, version.attributes[name], version, owners)
  if (type.uid === FILE_UID) data.folderPath = '/'
  const publishedAt = version.status === 'draft' ? null : (version.publishedAt ?? version.createdAt)
  // Strapi's rows of a type without i18n (files too) hold no locale.
  const locale = type.localized ? version.locale : null
  return { type, version, data: { ...data, createdAt: version.createdAt, updatedAt: version.updatedAt, publishedAt, locale }, owners }
}

/**
 * A component or zone value as Strapi's row holds it: each entry's attributes and nested entries,
 * without its relations and media (added to `owners`: links of the entry's row), its id unique
 * among the archive's entries of its component (a document's own ids repeat across documents, and
 * across a draft and its published version, where Strapi's are rows of one table).
 */
function componentRows(run: Run, field: ComponentField, value: unknown, version: Version, owners: Owner[]): unknown {
  const rows = entriesOf(value).flatMap((entry) => {
    const schema = schemaOf(field, entry)
    if (schema === undefined) return []
    const ref = entryId(run, schema.uid, entry.id)
    const row: Record<string, unknown> = field.kind === 'dynamiczone' ? { __component: schema.uid, id: ref } : { id: ref }
    for (const name of Object.keys(schema.attributes)) row[name] = entry[name] ?? null
    for (const [name, nested] of Object.entries(schema.components)) row[name] = componentRows(run, nested, entry[name], version, owners)
    owners.push({ uid: schema.uid, ref, relations: schema.relations, values: entry, version })
    return [row]
  })
  if (value === null || value === undefined) return null
  return field.repeatable ? rows : (rows[0] ?? null)
}

/** The entry's id if no entry of `uid` took it yet in this archive, else the next one above all taken. */
function entryId(run: Run, uid: string, id: unknown): number {
  const ids = run.entryIds.get(uid) ?? { used: new Set<number>(), largest: 0 }
  run.entryIds.set(uid, ids)
  const chosen = typeof id === 'number' && !ids.used.has(id) ? id : ids.largest + 1
  ids.used.add(chosen)
  ids.largest = Math.max(ids.largest, chosen)
  return chosen
}

/** The row a link of `version` goes to: the target's version in the same locale (else the default one) and status. */
function targetKeys(target: ContentType, documentId: string, version: Version, defaultLocale: string): { documentId: string; list: string }[] {
  const status = target.draftAndPublish ? version.status : 'published'
  const locales = target.localized ? [...new Set([version.locale, defaultLocale])] : [defaultLocale]
  return locales.map((locale) => ({ documentId, list: versionList(locale, status) }))
}

const linkedIds = (value: unknown): string[] => (Array.isArray(value) ? value : value === null || value === undefined ? [] : [value]).filter((id): id is string => typeof id === 'string')

/** Reads the ids of every row the owners' links go to, by target type: `<uid> <documentId> <list>` → id. */
async function targetIds(run: Run, owners: readonly Owner[]): Promise<Map<string, number>> {
  const wanted = new Map<string, Map<string, { documentId: string; list: string }>>()
  for (const owner of owners) {
    for (const [name, relation] of Object.entries(owner.relations)) {
      if (relation.mappedBy !== undefined) continue
      const target = typeByUid(run.services.types, relation.target)
      if (target === undefined) continue
      const keys = wanted.get(target.uid) ?? new Map()
      wanted.set(target.uid, keys)
      for (const documentId of linkedIds(owner.values[name])) {
        for (const key of targetKeys(target, documentId, owner.version, run.defaultLocale)) keys.set(`${key.documentId} ${key.list}`, key)
      }
    }
  }
  const ids = new Map<string, number>()
  await Promise.all([...wanted].map(async ([uid, keys]) => {
    const target = typeByUid(run.services.types, uid) as ContentType
    for (const found of await run.services.documents.getVersions(target, [...keys.values()])) ids.set(`${uid} ${found.documentId} ${versionList(found.locale, found.status)}`, found.id)
  }))
  return ids
}

/** The links of an owner's owning relations and media attributes, in their order. */
async function writeLinks(run: Run, owner: Owner, targets: ReadonlyMap<string, number>): Promise<void> {
  for (const [name, relation] of Object.entries(owner.relations)) {
    if (relation.mappedBy !== undefined) continue
    const target = typeByUid(run.services.types, relation.target)
    if (target === undefined) continue
    let pos = 0
    for (const documentId of linkedIds(owner.values[name])) {
      const ref = targetKeys(target, documentId, owner.version, run.defaultLocale).map((key) => targets.get(`${target.uid} ${key.documentId} ${key.list}`)).find((id) => id !== undefined)
      if (ref === undefined) continue
      pos += 1
      const line = target === FILE_TYPE
        ? { kind: 'relation.morph', relation: 'morphToMany', left: { type: FILE_UID, field: 'related', ref }, right: { ref: owner.ref, pos, type: owner.uid, field: name } }
        : { kind: 'relation.basic', relation: relation.relation, left: { type: owner.uid, field: name, ref: owner.ref, pos }, right: { type: target.uid, ref, ...(relation.inversedBy === undefined ? {} : { field: relation.inversedBy }) } }
      await run.writer.line('links', line)
      run.links += 1
    }
  }
}
