// Writing media attributes (content-model.md §19): a value in `data` names files by `id` or
// `documentId` (or `{ id }` / `{ documentId }`), `null`, or for `multiple` an array in display
// order; the relation forms (`connect`, `disconnect`, `set`) work too. Each reference becomes the
// file's documentId, which is what the version stores (a one-way relation to files, lib/relations/);
// a missing file, or one outside `allowedTypes`, is a 400 naming the attribute.
import { FILE_TYPE, type ContentType, type Relation } from '../content-types.js'
import { badRequest } from '../errors.js'
import type { Services } from '../services.js'
import { DOCUMENT_ID } from '../storage/documents.js'
import type { Version } from '../storage/items.js'

/** The kind of file `allowedTypes` names for a MIME type: images, videos, audios, or files (anything else). */
export function mediaKindOf(mime: string): string {
  return mime.startsWith('image/') ? 'images' : mime.startsWith('video/') ? 'videos' : mime.startsWith('audio/') ? 'audios' : 'files'
}

function refusal(name: string, message: string): never {
  throw badRequest(`${name}: ${message}`, { errors: [{ path: [name], message, name: 'ValidationError' }] })
}

/** A reference to a file as written: a documentId, or an id to look up. */
type Reference = { documentId: string } | { id: number }

/** The reference `value` makes, or a 400 naming the attribute. */
function referenceOf(name: string, value: unknown): Reference {
  const inner = typeof value === 'object' && value !== null && !Array.isArray(value) ? value as Record<string, unknown> : undefined
  const raw = inner === undefined ? value : inner.documentId ?? inner.id
  if (inner !== undefined && Object.keys(inner).some((key) => key !== 'id' && key !== 'documentId' && key !== 'position')) refusal(name, 'a file is named by its id or documentId')
  if (typeof raw === 'number' && Number.isSafeInteger(raw) && raw > 0) return { id: raw }
  if (typeof raw === 'string' && /^[1-9]\d{0,15}$/.test(raw)) return { id: Number(raw) }
  if (typeof raw === 'string' && DOCUMENT_ID.test(raw)) return { documentId: raw }
  return refusal(name, `${JSON.stringify(raw) ?? 'undefined'} is not a file id or documentId`)
}

/** Every reference a media value holds, with a function that rebuilds the value from their documentIds. */
function referencesIn(name: string, relation: Relation, value: unknown): { refs: Reference[]; rebuild: (ids: readonly string[]) => unknown } {
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

/**
 * `data` with the media attributes of `type` it sets turned into files' documentIds: 400 naming the
 * attribute for a reference that is not a file, a missing file, or a file outside `allowedTypes`.
 * Other keys are returned as they are (the relation and body rules check them).
 */
export async function resolveMediaValues(services: Services, type: ContentType, data: unknown): Promise<unknown> {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return data
  const entries = Object.entries(type.relations).filter(([name, relation]) => relation.media !== undefined && name in data)
  if (entries.length === 0) return data
  const locale = await services.locales.defaultCode()
  const read = services.documents.batchReader()
  const resolved: Record<string, unknown> = { ...(data as Record<string, unknown>) }
  await Promise.all(entries.map(async ([name, relation]) => {
    const { refs, rebuild } = referencesIn(name, relation, resolved[name])
    const files = await Promise.all(refs.map((ref) => ('id' in ref ? services.documents.versionById(FILE_TYPE, locale, ref.id) : undefined)))
    const byDocumentId = new Map((await read(FILE_TYPE, refs.flatMap((ref) => ('documentId' in ref ? [{ documentId: ref.documentId, list: locale }] : [])))).map((file) => [file.documentId, file]))
    const found: Version[] = refs.map((ref, i) => {
      const file = 'id' in ref ? files[i] : byDocumentId.get(ref.documentId)
      return file ?? refusal(name, `file ${'id' in ref ? ref.id : `"${ref.documentId}"`} not found`)
    })
    const allowed = relation.media?.allowedTypes
    for (const file of found) {
      const mime = String(file.attributes.mime)
      if (allowed !== undefined && !allowed.includes(mediaKindOf(mime))) refusal(name, `file ${file.id} is ${mime}, not one of ${allowed.join(', ')}`)
    }
    resolved[name] = rebuild(found.map((file) => file.documentId))
  }))
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
