// The media library's operations (content-model.md §19), free of HTTP: store an uploaded file
// (checked, sniffed, resized, hashed, its bytes in the blob store, its document in the table),
// update its information or bytes, find, delete. The upload routes (upload-app.ts) and the
// presigned route's completion call them alike.
import { createHash } from 'node:crypto'
import { addVersion, updateVersions } from '../document-changes.js'
import { ApiError, badRequest, notFound, payloadTooLarge } from '../errors.js'
import type { Services } from '../services.js'
import { DOCUMENT_ID, newDocumentId } from '../storage/documents.js'
import type { Version } from '../storage/items.js'
import { UPLOADS_PREFIX, type Media } from './blobs.js'
import { FILE_TYPE, kilobytes, objectKeysOf, type FileAttributes, type FileFormat } from './file-type.js'
import { processImage } from './images.js'
import { sniff } from './sniff.js'

/** What a file's upload brings besides its bytes (`fileInfo`). */
export interface FileInfo {
  readonly name?: string
  readonly alternativeText?: string | null
  readonly caption?: string | null
}

/** Longest stored name; longer ones keep their end (the extension). */
const MAX_NAME = 255

/**
 * A client's file name as stored: its last path segment, without control characters, at most
 * MAX_NAME characters; stored objects are named by hashes, so this is only ever shown.
 */
export function cleanName(raw: string): string {
  // eslint-disable-next-line no-control-regex
  const base = raw.replace(/[\u0000-\u001F\u007F]/g, '').split(/[\\/]/).pop()?.trim() ?? ''
  const name = base === '' || base === '.' || base === '..' ? 'file' : base
  return name.length > MAX_NAME ? name.slice(-MAX_NAME) : name
}

/** True when `mime` is in the allow-list (`type/*` entries accept a kind). */
export function allowedMime(allowed: readonly string[], mime: string): boolean {
  return allowed.some((entry) => entry === mime || (entry.endsWith('/*') && mime.startsWith(entry.slice(0, -1))))
}

/** A stored object's hash: a content hash, and the file's documentId so that two files never share (and delete) an object. */
function hashOf(bytes: Uint8Array, documentId: string, prefix = ''): string {
  return `${prefix}${createHash('sha256').update(bytes).digest('hex').slice(0, 20)}_${documentId}`
}

/**
 * Checks and stores the bytes of a file of document `documentId`: 413 past the size limit, 400 for
 * a type outside the allow-list (decided from the bytes). Returns its attributes but `name`,
 * `alternativeText` and `caption`, and the keys of the objects stored.
 */
export async function storeBytes(media: Media, bytes: Uint8Array, documentId: string, name: string): Promise<{ attributes: Omit<FileAttributes, 'name' | 'alternativeText' | 'caption'>; keys: string[] }> {
  if (bytes.byteLength > media.config.sizeLimit) throw payloadTooLarge(media.config.sizeLimit)
  if (bytes.byteLength === 0) throw badRequest(`The file ${name} is empty`)
  const { mime, ext } = await sniff(bytes)
  if (!allowedMime(media.config.allowedTypes, mime)) {
    throw badRequest(`The file ${name} is of type ${mime}, which this server does not accept`, { errors: [{ path: ['files'], message: `type ${mime} is not allowed`, name: 'ValidationError' }] })
  }
  const image = await processImage(bytes, mime, media.config.breakpoints, media.config.keepLocation).catch(() => {
    throw badRequest(`The file ${name} is not a readable ${mime} image`)
  })
  const hash = hashOf(image.bytes, documentId)
  const formats: Record<string, FileFormat> = {}
  const puts: { key: string; bytes: Uint8Array }[] = [{ key: `${UPLOADS_PREFIX}${hash}${ext}`, bytes: image.bytes }]
  for (const format of image.formats) {
    const formatHash = hashOf(format.bytes, documentId, `${format.name}_`)
    const key = `${UPLOADS_PREFIX}${formatHash}${ext}`
    puts.push({ key, bytes: format.bytes })
    formats[format.name] = { name: `${format.name}_${name}`, hash: formatHash, ext, mime, path: null, width: format.width, height: format.height, size: kilobytes(format.bytes.byteLength), sizeInBytes: format.bytes.byteLength, url: media.blobs.urlOf(key) }
  }
  await Promise.all(puts.map((put) => media.blobs.put(put.key, put.bytes, mime)))
  return {
    attributes: {
      width: image.width, height: image.height, formats: image.formats.length === 0 ? null : formats, hash, ext, mime,
      size: kilobytes(image.bytes.byteLength), url: media.blobs.urlOf(puts[0]!.key), previewUrl: null, provider: media.blobs.provider, provider_metadata: null,
    },
    keys: puts.map((put) => put.key),
  }
}

/** Removes stored objects after a failed write, keeping the write's own error. */
async function dropObjects(media: Media, keys: readonly string[]): Promise<void> {
  await media.blobs.delete(keys).catch(() => undefined)
}

/** Creates a file from its bytes and information: the document of `plugin::upload.file`, its objects stored first. */
export async function createFile(services: Services, media: Media, bytes: Uint8Array, filename: string, info: FileInfo = {}): Promise<Version> {
  const documentId = newDocumentId()
  const name = cleanName(info.name ?? filename)
  const stored = await storeBytes(media, bytes, documentId, name)
  const locale = await services.locales.defaultCode()
  const attributes = { ...stored.attributes, name, alternativeText: info.alternativeText ?? null, caption: info.caption ?? null }
  try {
    return await services.documents.create(FILE_TYPE, documentId, locale, 1, (_current, now, [id]) => addVersion(FILE_TYPE, documentId, [], locale, 'published', id as number, attributes as never, now))
  } catch (error) {
    await dropObjects(media, stored.keys)
    throw error
  }
}

/** The file an API path names: by `id` (a number) or `documentId`; 404 when none. */
export async function findFile(services: Services, idOrDocumentId: string): Promise<Version> {
  const locale = await services.locales.defaultCode()
  let version: Version | undefined
  if (DOCUMENT_ID.test(idOrDocumentId)) version = await services.documents.getVersion(FILE_TYPE, idOrDocumentId, locale)
  else if (/^[1-9]\d{0,15}$/.test(idOrDocumentId)) version = await services.documents.versionById(FILE_TYPE, locale, Number(idOrDocumentId))
  if (version === undefined) throw notFound()
  return version
}

/**
 * Updates a file's information, and its bytes when `bytes` is given (new objects under new hashes;
 * the old ones are removed once the document no longer names them).
 */
export async function updateFile(services: Services, media: Media, idOrDocumentId: string, info: FileInfo, bytes?: { bytes: Uint8Array; filename: string }): Promise<Version> {
  const found = await findFile(services, idOrDocumentId)
  const changes: Record<string, unknown> = {}
  if (info.name !== undefined) changes.name = cleanName(info.name)
  if (info.alternativeText !== undefined) changes.alternativeText = info.alternativeText
  if (info.caption !== undefined) changes.caption = info.caption
  const stored = bytes === undefined ? undefined : await storeBytes(media, bytes.bytes, found.documentId, (changes.name as string | undefined) ?? cleanName(bytes.filename))
  if (stored !== undefined) Object.assign(changes, stored.attributes, info.name === undefined ? { name: cleanName(bytes!.filename) } : {})
  let before: Version | undefined
  try {
    const version = await services.documents.write(FILE_TYPE, found.documentId, found.locale, (current, now) => {
      before = current.versions[0]
      if (before === undefined) throw notFound()
      return updateVersions(FILE_TYPE, current.versions, before, changes as never, now)
    })
    if (stored !== undefined && before !== undefined) {
      const kept = new Set(stored.keys)
      await media.blobs.delete(objectKeysOf(before).filter((key) => !kept.has(key)))
    }
    return version
  } catch (error) {
    if (stored !== undefined) await dropObjects(media, stored.keys)
    throw error
  }
}

/**
 * Deletes a file: its document (links to it resolve to nothing from then on, as a deleted
 * relation target's do), then its objects. Answers the file as it was.
 */
export async function deleteFile(services: Services, media: Media, idOrDocumentId: string): Promise<Version> {
  const found = await findFile(services, idOrDocumentId)
  const deleted = await services.documents.write(FILE_TYPE, found.documentId, found.locale, (current) => {
    const version = current.versions[0]
    if (version === undefined) throw notFound()
    return { versions: [], result: version }
  })
  await media.blobs.delete(objectKeysOf(deleted)).catch((error: unknown) => {
    // The document is gone: its objects are unreachable through the API; a failure here is logged, not answered.
    if (!(error instanceof ApiError)) console.warn(`media: objects of file ${deleted.documentId} not removed: ${String(error)}`)
  })
  return deleted
}
