// Where the bytes of files live (content-model.md §19): one interface, three places. S3 in AWS
// (lib/media/s3-blobs.ts; in tests an S3-compatible server, not a mock), files under DATA_DIR for
// `npm start` (lib/local/uploads.ts). Keys are content hashes, so an object never changes once
// written and is served with immutable cache headers.
import type { UploadConfig } from '../config.js'
import { isActive } from './sniff.js'

/** Where uploaded objects live under the store's root: `uploads/<hash><ext>`, served at `/uploads/<hash><ext>`. */
export const UPLOADS_PREFIX = 'uploads/'
/** Where presigned uploads land until `POST /api/upload/complete` checks and registers them. */
export const INCOMING_PREFIX = 'incoming/'
/** How long a presigned upload may be used. */
export const PRESIGN_SECONDS = 900

/** A presigned upload: the request a client makes to send the bytes without passing through a function. */
export interface PresignedUpload {
  readonly url: string
  readonly method: 'PUT'
  /** Headers the request must carry as they are (the signature covers them). */
  readonly headers: Readonly<Record<string, string>>
  readonly expiresAt: string
}

export interface BlobStore {
  /** Strapi's `provider` field of the files it holds (`aws-s3`, `local`). */
  readonly provider: string
  /** The `url` of the object under `key` (absolute to the CDN in AWS, `/uploads/...` locally as Strapi's local provider). */
  urlOf(key: string): string
  /** Stores an object with its delivery headers (deliveryHeaders); writing the same key again is harmless. */
  put(key: string, bytes: Uint8Array, mime: string): Promise<void>
  /** Removes objects; missing ones are ignored. */
  delete(keys: readonly string[]): Promise<void>
  /** A presigned PUT of exactly `size` bytes of type `mime` to `key`; `origin` is the API's, for stores served by it. */
  presign(key: string, mime: string, size: number, origin: string): Promise<PresignedUpload>
  /** An object as stored, its bytes only when at most `maxBytes`; undefined when absent. */
  read(key: string, maxBytes: number): Promise<StoredObject | undefined>
}

/** An object read back: its size and stored Content-Type, and its bytes unless it was larger than asked. */
export interface StoredObject {
  readonly size: number
  readonly contentType: string | undefined
  readonly bytes: Uint8Array | undefined
}

/** A year: objects are named by their content, so they never change. */
export const IMMUTABLE = 'public, max-age=31536000, immutable'

/**
 * The headers a stored file is served with, wherever it is served: immutable caching, its sniffed
 * type with no sniffing by the browser, and for active types (SVG, HTML, ...) a download in a
 * sandbox, so that a script in them never runs in the origin serving them.
 */
export function deliveryHeaders(mime: string): Record<string, string> {
  return {
    'Content-Type': mime,
    'Cache-Control': IMMUTABLE,
    'X-Content-Type-Options': 'nosniff',
    'Content-Security-Policy': "sandbox; default-src 'none'; img-src 'self' data:; media-src 'self'; style-src 'unsafe-inline'",
    ...(isActive(mime) ? { 'Content-Disposition': 'attachment' } : {}),
  }
}

/** The media library's parts in one process: where bytes go, and its limits. */
export interface Media {
  readonly blobs: BlobStore
  readonly config: UploadConfig
}
