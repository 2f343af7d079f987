// Writing media attributes (content-model.md §19): a value in `data` names files by `id` or
// `documentId` (or `{ id }` / `{ documentId }`), `null`, or for `multiple` an array in display
// order; the relation forms (`connect`, `disconnect`, `set`) work too. Each reference becomes the
// file's documentId, which is what the version stores (a one-way relation to files, lib/relations/);
// a missing file, or one outside `allowedTypes`, is a 400 naming the attribute.
import { FILE_TYPE, type ComponentField, type ContentType, type Relation } from '../content-types.js'
import { pathText } from '../components/body.js'
import { badRequest } from '../errors.js'
import type { Services } from '../services.js'
import { DOCUMENT_ID } from '../storage/documents.js'
import type { Version } from '../storage/items.js'

/** The kind of file `allowedTypes` names for a MIME type: images, videos, audios, or files (anything else). */
export function mediaKindOf(mime: string): string {
  return mime.startsWith('image/') ? 'images' : mime.startsWith('video/') ? 'videos' : mime.startsWith('audio/') ? 'audios' : 'files'
}

function refusal(at: string | readonly (string | number)[], message: string): never {
  const path = typeof at === 'string' ? [at] : [...at]
  throw badRequest(`${pathText(path)}: ${message}`, { errors: [{ path, message, name: 'ValidationError' }] })
}

/** A reference to a file as written: a documentId, or an id to look up. */
type Reference = { documentId: string } | { id: number }

/** The reference `value` makes, or a 400 naming the attribute. */
function referenceOf(name: readonly (string | number)[], value: unknown): Reference {
  const inner = typeof value === 'object' && value !== null && !Array.isArray(value) ? value as Record<string, unknown> : undefined
  const raw = inner === undefined ? value : inner.documentId ?? inner.id
  if (inner !== undefined && Object.keys(inner).some((key) => key !== 'id' && key !== 'documentId' && key !== 'position')) refusal(name, 'a file is named by its id or documentId')
  if (typeof raw === 'number' && Number.isSafeInteger(raw) && raw > 0) return { id: raw }
  if (typeof raw === 'string' && /^[1-9]\d{0,15}$/.test(raw)) return { id: Number(raw) }
  if (typeof raw === 'string' && DOCUMENT_ID.test(raw)) return { documentId: raw }
  return refusal(name, `${JSON.stringify(raw) ?? 'undefined'} is not a file id or documentId`)
}

/** Every reference a media value holds, with a function that rebuilds the value from their documentIds. */
function referencesIn(name: readonly (string | number)[], relation: Relation, value: unknown): { refs: Reference[]; rebuild: (ids: readonly string[]) => unknown } {
  if (value === null) return { refs: [], rebuild: () => null }
  if (Array.isArray(value)) {
    if (!relation.many && value.length > 1) refusal(name, 'takes one file (it is not multiple)')
    return { refs: value.map((one) => referenceOf(name, one)), rebuild: (ids) => (relation.many ? [...ids] : ids[0] ?? null) }
  }
  const ops = typeof value === 'object' ? value as Record<string, unknown> : undefined
  if (ops !== undefined && ['connect', 'disconnect', 'set'].some((key) => key in ops)) {
    const keys = Object.keys(ops).filter((key) => ['connect', 'disconnect', 'set'].includes(key))
    const lists = keys.map((key) => (Array.isArray(ops[key]) ? ops[key] as unknown[] : [ops[key]]))
    const refs = lists.flat().map((one) => referenceOf(name, one))
    return {
      refs,
      rebuild: (ids) => {
        let at = 0
        const rebuilt: Record<string, unknown> = {}
        keys.forEach((key, i) => {
          const list = lists[i] as unknown[]
          rebuilt[key] = list.map((one) => {
            const documentId = ids[at++]
            return typeof one === 'object' && one !== null && 'position' in one ? { documentId, position: (one as { position: unknown }).position } : documentId
          })
        })
        return rebuilt
      },
    }
  }
  return { refs: [referenceOf(name, value)], rebuild: (ids) => (relation.many ? [...ids] : ids[0]) }
}

/** A media value in `data`: where it is, its attribute, and how to replace it. */
interface Site {
  readonly path: readonly (string | number)[]
  readonly relation: Relation
  readonly value: unknown
  readonly set: (value: unknown) => void
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

/** The media values inside the component value `raw` of `field` at `path` (as sent: anything malformed is left to the body's checks). */
function sitesInComponent(field: ComponentField, raw: unknown, path: (string | number)[], sites: Site[]): void {
  const entries = field.repeatable ? (Array.isArray(raw) ? raw : []) : [raw]
  entries.forEach((entry, index) => {
    if (!isRecord(entry)) return
    const at = field.repeatable ? [...path, index] : path
    const schema = field.kind === 'component' ? field.components[0] : field.components.find((component) => component.uid === entry.__component)
    if (schema === undefined) return
    for (const [name, relation] of Object.entries(schema.relations)) {
      if (relation.media !== undefined && entry[name] !== undefined) sites.push({ path: [...at, name], relation, value: entry[name], set: (value) => { entry[name] = value } })
    }
    for (const [name, nested] of Object.entries(schema.components)) sitesInComponent(nested, entry[name], [...at, name], sites)
  })
}

/** Every media value `data` sets, at top level and inside its components (content-model.md §19). */
function mediaSites(type: ContentType, data: Record<string, unknown>): Site[] {
  const sites: Site[] = []
  for (const [name, relation] of Object.entries(type.relations)) {
    if (relation.media !== undefined && name in data) sites.push({ path: [name], relation, value: data[name], set: (value) => { data[name] = value } })
  }
  for (const [name, field] of Object.entries(type.components)) if (name in data) sitesInComponent(field, data[name], [name], sites)
  return sites
}

/**
 * `data` with the media attributes of `type` it sets, at top level and inside components, turned
 * into files' documentIds: 400 naming the attribute (its full path inside components) for a
 * reference that is not a file, a missing file, or a file outside `allowedTypes`. Other keys are
 * returned as they are (the relation and body rules check them). Files named by documentId are
 * read in one batch, those named by id each by its index.
 */
export async function resolveMediaValues(services: Services, type: ContentType, data: unknown): Promise<unknown> {
  if (!isRecord(data) || mediaSites(type, data).length === 0) return data
  const resolved = structuredClone(data)
  const sites = mediaSites(type, resolved).map((site) => ({ site, ...referencesIn(site.path, site.relation, site.value) }))
  const locale = await services.locales.defaultCode()
  const refs = sites.flatMap(({ refs }) => refs)
  const byId = new Map((await Promise.all([...new Set(refs.flatMap((ref) => ('id' in ref ? [ref.id] : [])))].map((id) => services.documents.versionById(FILE_TYPE, locale, id)))).flatMap((file) => (file === undefined ? [] : [[file.id, file] as const])))
  const wanted = [...new Set(refs.flatMap((ref) => ('documentId' in ref ? [ref.documentId] : [])))]
  const byDocumentId = new Map((await services.documents.batchReader()(FILE_TYPE, wanted.map((documentId) => ({ documentId, list: locale })))).map((file) => [file.documentId, file]))
  for (const { site, refs: named, rebuild } of sites) {
    const found: Version[] = named.map((ref) => ('id' in ref ? byId.get(ref.id) : byDocumentId.get(ref.documentId)) ?? refusal(site.path, `file ${'id' in ref ? ref.id : `"${ref.documentId}"`} not found`))
    const allowed = site.relation.media?.allowedTypes
    for (const file of found) {
      const mime = String(file.attributes.mime)
      if (allowed !== undefined && !allowed.includes(mediaKindOf(mime))) refusal(site.path, `file ${file.id} is ${mime}, not one of ${allowed.join(', ')}`)
    }
    site.set(rebuild(found.map((file) => file.documentId)))
  }
  return resolved
}

/**
 * 400 naming a `required` media attribute that `data` empties (null, no file), or that a create
 * (`creating`) leaves out, as body.ts does for required scalar attributes.
 */
export function checkRequiredMedia(type: ContentType, data: unknown, creating: boolean): void {
  const values = typeof data === 'object' && data !== null ? data as Record<string, unknown> : {}
  for (const [name, relation] of Object.entries(type.relations)) {
    if (relation.media?.required !== true) continue
    if (!(name in values)) {
      if (creating) refusal(name, `${name} must be defined`)
      continue
    }
    const value = values[name]
    if (value === null || (Array.isArray(value) && value.length === 0)) refusal(name, `${name} must be defined`)
  }
}
