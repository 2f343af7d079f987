// Files as documents (content-model.md §19): the shape the API shows of a `plugin::upload.file`
// version (FILE_TYPE, lib/content-types.ts), and the objects its bytes are stored under.
import { FILE_TYPE } from '../content-types.js'
import { toDocument, type Version } from '../storage/items.js'

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
  return toDocument(FILE_TYPE, version)
}

/** The object keys a file's bytes are stored under: its own and its formats'. */
export function objectKeysOf(version: Version): string[] {
  const { hash, ext, formats } = version.attributes as unknown as FileAttributes
  return [`uploads/${hash}${ext}`, ...Object.values(formats ?? {}).map((format) => `uploads/${format.hash}${format.ext}`)]
}

export { FILE_TYPE }
