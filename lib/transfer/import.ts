// `npm run import`: a Strapi archive into the table (integration.md §21), in two passes over the
// archive. The first reads schemas, locales and the map of Strapi's row ids (which document, locale
// and status each row is) with the links grouped by the row that owns them; it compares schemas and
// stops there on any difference, nothing written. Then the locales, then the second pass writes
// every row of the project's types as one version, a document's rows together and many documents at
// once (import-batches.ts, importDocuments), with its links.
// Components and zones plug in where versionOf reads a row's values (their rows come as further
// entities and `relation.component`-like links of the row); media as a third pass with the
// reader's `asset` handler, storing the files before the rows that link them are written.
import { FILE_TYPE, FILE_UID, type ContentType } from '../content-types.js'
import { scopeOf } from '../operations/context.js'
import { importDocuments, type IncomingVersion } from '../operations/import-version.js'
import type { Readable } from 'node:stream'
import type { BlobStore } from '../media/blobs.js'
import type { Services } from '../services.js'
import { singleTypeDocumentId } from '../storage/documents.js'
import { readArchive } from './archive-reader.js'
import { DocumentBatches } from './import-batches.js'
import { ConfigurationSchema, DEFAULT_LOCALE_KEY, EntitySchema, LinkSchema, LOCALE_TYPE, parseRecord, SchemaRecordSchema, storeValue, type Entity, type Link, type SchemaRecord } from './archive-records.js'
import { componentUids, componentValue, fileValues, ownerSide, type Linked } from './import-values.js'
import { schemaDifferences } from './schema-diff.js'

/** Rows written at once: whole documents, batched per type and group-committed by the store, so DynamoDB is the bound. */
const DEFAULT_CONCURRENCY = 2000

/** Fields of a Strapi row that are not attributes. */
const ROW_FIELDS = new Set(['id', 'documentId', 'locale', 'createdAt', 'updatedAt', 'publishedAt', 'createdBy', 'updatedBy', 'localizations'])

export interface ImportOptions {
  readonly concurrency?: number
  /** Called after every batch of rows written: rows done so far, and how many there are. */
  readonly progress?: (done: number, total: number) => void
}

/** What an import did: the schema differences that stopped it, or the versions written and found as they were, per type. */
export interface ImportReport {
  readonly differences: readonly string[]
  readonly locales: readonly string[]
  readonly counts: Readonly<Record<string, { written: number; unchanged: number }>>
}

/** What the first pass learns. */
interface Survey {
  schemas: SchemaRecord[]
  locales: { code: string; name: string }[]
  defaultLocale: string | undefined
  /** `<uid> <row id>` → documentId (a single type's as the project fixes it). */
  rows: Map<string, string>
  /** `<uid> <documentId>` → how many rows the document has (its versions are written together). */
  perDocument: Map<string, number>
  /** `<uid> <row id> <field>` → the links the row owns, in their order. */
  links: Map<string, Link[]>
  /** `<hash><ext>` of each file and format → its MIME type, for the bytes under `assets/uploads/`. */
  mimes: Map<string, string>
  total: number
}

async function survey(path: string, types: ReadonlyMap<string, ContentType>): Promise<Survey> {
  // Links of component entries too: relations and media inside components are their rows' links.
  const owners = new Set([...types.keys(), ...componentUids([...types.values()].flatMap((type) => Object.values(type.components)))])
  const found: Survey = { schemas: [], locales: [], defaultLocale: undefined, rows: new Map(), perDocument: new Map(), links: new Map(), mimes: new Map(), total: 0 }
  await readArchive(path, {
    record: {
      schemas: (record) => void found.schemas.push(parseRecord(SchemaRecordSchema, record, 'schemas')),
      entities: (record) => {
        const entity = parseRecord(EntitySchema, record, 'entities')
        if (entity.type === LOCALE_TYPE) found.locales.push({ code: String(entity.data.code), name: String(entity.data.name ?? entity.data.code) })
        const type = types.get(entity.type)
        if (type === undefined || typeof entity.data.documentId !== 'string') return
        const documentId = type.kind === 'single' ? singleTypeDocumentId(type) : entity.data.documentId
        found.rows.set(`${entity.type} ${entity.id}`, documentId)
        found.perDocument.set(`${entity.type} ${documentId}`, (found.perDocument.get(`${entity.type} ${documentId}`) ?? 0) + 1)
        if (type === FILE_TYPE) noteMimes(found.mimes, entity.data)
        found.total += 1
      },
      links: (record) => {
        const link = ownerSide(parseRecord(LinkSchema, record, 'links'))
        if (link === undefined || !owners.has(link.left.type) || link.left.field === undefined) return
        const key = `${link.left.type} ${link.left.ref} ${link.left.field}`
        const list = found.links.get(key)
        if (list === undefined) found.links.set(key, [link])
        else list.push(link)
      },
      configuration: (record) => {
        const { value } = parseRecord(ConfigurationSchema, record, 'configuration')
        if (value.key === DEFAULT_LOCALE_KEY) found.defaultLocale = String(storeValue(value.value))
      },
    },
  })
  return found
}

/** The MIME types of a file row's objects: its own and its formats'. */
function noteMimes(mimes: Map<string, string>, data: Record<string, unknown>): void {
  for (const file of [data, ...Object.values((data.formats ?? {}) as Record<string, Record<string, unknown>>)]) {
    if (typeof file.hash === 'string' && typeof file.mime === 'string') mimes.set(`${file.hash}${String(file.ext ?? '')}`, file.mime)
  }
}

/** Registers the archive's locales the project lacks, and its default locale as the default. */
async function importLocales(services: Services, found: Survey): Promise<string[]> {
  const registered = new Set((await services.locales.list(true)).map((locale) => locale.code))
  const added: string[] = []
  for (const locale of found.locales) {
    if (registered.has(locale.code)) continue
    await services.locales.add({ code: locale.code, name: locale.name })
    added.push(locale.code)
  }
  if (found.defaultLocale !== undefined && found.defaultLocale !== (await services.locales.defaultCode())) {
    await services.locales.update(found.defaultLocale, { isDefault: true })
  }
  return added
}

/** The version a Strapi row is: its values, its links resolved to documentIds, its status from publishedAt. */
function versionOf(type: ContentType, entity: Entity, found: Survey, defaultLocale: string, blobs: BlobStore | undefined): IncomingVersion {
  const data = type === FILE_TYPE ? (fileValues(entity.data, blobs) as Entity['data']) : entity.data
  const attributes: Record<string, unknown> = {}
  for (const name of Object.keys(type.attributes)) attributes[name] = ROW_FIELDS.has(name) ? null : (data[name] ?? null)
  const linked: Linked = (owner, ref, field, many) => {
    const links = [...(found.links.get(`${owner} ${String(ref)} ${field}`) ?? [])].sort((a, b) => (a.left.pos ?? 0) - (b.left.pos ?? 0))
    const ids = links.flatMap((link) => found.rows.get(`${link.right.type} ${link.right.ref}`) ?? [])
    return many ? (ids.length === 0 ? null : ids) : (ids[0] ?? null)
  }
  for (const [name, field] of Object.entries(type.components)) attributes[name] = componentValue(field, data[name], linked)
  for (const [name, relation] of Object.entries(type.relations)) {
    if (relation.mappedBy === undefined) attributes[name] = linked(entity.type, entity.id, name, relation.many)
  }
  const published = !type.draftAndPublish || data.publishedAt !== null
  const createdAt = data.createdAt ?? new Date(0).toISOString()
  return {
    documentId: found.rows.get(`${entity.type} ${entity.id}`) as string,
    locale: type.localized && typeof data.locale === 'string' ? data.locale : defaultLocale,
    status: published ? 'published' : 'draft',
    id: entity.id,
    createdAt,
    updatedAt: data.updatedAt ?? createdAt,
    publishedAt: published ? (data.publishedAt ?? createdAt) : null,
    attributes,
  }
}

/**
 * Stores a file of `assets/uploads/` under its name in the blob store (writing it again on a rerun
 * is harmless: objects are named by their content); sidecars and files no row names are skipped.
 */
async function storeAsset(services: Services, found: Survey, name: string, content: Readable): Promise<void> {
  const file = name.startsWith('uploads/') ? name.slice('uploads/'.length) : undefined
  const mime = file === undefined ? undefined : found.mimes.get(file)
  if (services.media === undefined || mime === undefined) return void content.resume()
  const chunks: Buffer[] = []
  for await (const chunk of content) chunks.push(chunk as Buffer)
  await services.media.blobs.put(name, Buffer.concat(chunks), mime)
}

/** Imports the archive at `path` into `services`' table; stops before writing on any schema difference. */
export async function importArchive(services: Services, path: string, options: ImportOptions = {}): Promise<ImportReport> {
  // Files too (media): their rows are documents of the file type, their bytes the archive's assets.
  const types = new Map([...services.types, FILE_TYPE].map((type) => [type.uid, type]))
  const found = await survey(path, types)
  const differences = schemaDifferences(found.schemas, services.types)
  if (differences.length > 0) return { differences, locales: [], counts: {} }
  const locales = await importLocales(services, found)
  const defaultLocale = await services.locales.defaultCode()
  const counts: Record<string, { written: number; unchanged: number }> = Object.fromEntries(services.types.map((type) => [type.uid, { written: 0, unchanged: 0 }]))
  const maxIds = new Map<string, number>()
  let done = 0
  const batches = new DocumentBatches((type, documents) => importDocuments(scopeOf(type, services), documents), options.concurrency ?? DEFAULT_CONCURRENCY, (type, results) => {
    const count = (counts[type.uid] ??= { written: 0, unchanged: 0 })
    const before = done
    for (const written of results.flat()) {
      if (written) count.written += 1
      else count.unchanged += 1
      done += 1
    }
    if (Math.floor(done / 100) > Math.floor(before / 100) || done === found.total) options.progress?.(done, found.total)
  })
  await readArchive(path, {
    record: {
      entities: async (record) => {
        const entity = parseRecord(EntitySchema, record, 'entities')
        const type = types.get(entity.type)
        const documentId = found.rows.get(`${entity.type} ${entity.id}`)
        if (type === undefined || documentId === undefined) return
        maxIds.set(type.uid, Math.max(maxIds.get(type.uid) ?? 0, entity.id))
        const key = `${entity.type} ${documentId}`
        await batches.add(type, key, found.perDocument.get(key) ?? 1, versionOf(type, entity, found, defaultLocale, services.media?.blobs))
      },
    },
    asset: (name, content) => storeAsset(services, found, name, content),
  })
  await batches.finish()
  for (const [uid, max] of maxIds) await services.documents.raiseSequence(types.get(uid) as ContentType, max)
  return { differences, locales, counts }
}
