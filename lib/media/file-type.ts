// Files as documents (content-model.md §19): the type `plugin::upload.file`, stored in the table
// as any content type's documents are (lib/storage/), not localized, without drafts, with Strapi's
// file shape. It is not one of the deployment's content types: it has no `/api/<plural>` routes,
// only the upload API's (lib/media/upload-app.ts).
import type { Attribute, ContentType } from '../content-types.js'
import type { Version } from '../storage/items.js'

export const FILE_UID = 'plugin::upload.file'

const text = (type: Attribute['type'] = 'string'): Attribute => ({ type, localized: false })

/**
 * Strapi's file attributes, in its order. The scalar ones come first so the slot indexes serve
 * filters and sorts on them (`mime`, `name`, `size`, `ext`...).
 */
export const FILE_TYPE: ContentType = {
  uid: FILE_UID,
  kind: 'collection',
  singularName: 'file',
  pluralName: 'files',
  displayName: 'File',
  localized: false,
  draftAndPublish: false,
  attributes: {
    name: text(),
    alternativeText: text('text'),
    caption: text('text'),
    width: text('integer'),
    height: text('integer'),
    formats: text('json'),
    hash: text(),
    ext: text(),
    mime: text(),
    size: text('float'),
    url: text('text'),
    previewUrl: text('text'),
    provider: text(),
    provider_metadata: text('json'),
  },
  relations: {},
}

/** The attributes of a file document. */
export interface FileAttributes {
  name: string
  alternativeText: string | null
  caption: string | null
  width: number | null
  height: number | null
  formats: Record<string, FileFormat> | null
  hash: string
  ext: string
  mime: string
  /** Kilobytes, two decimals (Strapi's unit). */
  size: number
  url: string
  previewUrl: string | null
  provider: string
  provider_metadata: unknown
}

/** One resized copy of an image, as Strapi describes it in `formats`. */
export interface FileFormat {
  readonly name: string
  readonly hash: string
  readonly ext: string
  readonly mime: string
  readonly path: null
  readonly width: number
  readonly height: number
  readonly size: number
  readonly sizeInBytes: number
  readonly url: string
}

/** Bytes as Strapi's `size`: kilobytes with two decimals. */
export function kilobytes(bytes: number): number {
  return Math.round((bytes / 1000) * 100) / 100
}

/** A file version as the API shows it (Strapi's shape: no `locale`). */
export function fileDocument(version: Version): Record<string, unknown> {
  const document: Record<string, unknown> = { id: version.id, documentId: version.documentId }
  for (const name of Object.keys(FILE_TYPE.attributes)) document[name] = version.attributes[name] ?? null
  document.createdAt = version.createdAt
  document.updatedAt = version.updatedAt
  document.publishedAt = version.publishedAt
  return document
}

/** The object keys a file's bytes are stored under: its own and its formats'. */
export function objectKeysOf(version: Version): string[] {
  const { hash, ext, formats } = version.attributes as unknown as FileAttributes
  return [`uploads/${hash}${ext}`, ...Object.values(formats ?? {}).map((format) => `uploads/${format.hash}${format.ext}`)]
}
