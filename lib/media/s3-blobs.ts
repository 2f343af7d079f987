// The blob store on S3 (content-model.md §19): a private bucket, objects served by the CDN at
// `<publicUrl>/uploads/<hash><ext>`; tests run it against an S3-compatible server.
import { DeleteObjectsCommand, GetObjectCommand, NoSuchKey, PutObjectCommand, S3Client, type S3ClientConfig } from '@aws-sdk/client-s3'
import { getSignedUrl } from '@aws-sdk/s3-request-presigner'
import { PRESIGN_SECONDS, deliveryHeaders, type BlobStore, type PresignedUpload, type StoredObject } from './blobs.js'

export interface S3BlobsOptions {
  readonly bucket: string
  /** Where the objects are served: the CDN's origin (`https://d123.cloudfront.net`), no trailing slash. */
  readonly publicUrl: string
  readonly client?: S3Client
  readonly clientConfig?: S3ClientConfig
}

/** The S3 client of a blob store: checksums only where S3 requires them, so presigned URLs carry none. */
export function s3Client(config: S3ClientConfig = {}): S3Client {
  return new S3Client({ requestChecksumCalculation: 'WHEN_REQUIRED', responseChecksumValidation: 'WHEN_REQUIRED', ...config })
}

export class S3Blobs implements BlobStore {
  readonly provider = 'aws-s3'
  private readonly client: S3Client
  private readonly bucket: string
  private readonly publicUrl: string

  constructor(options: S3BlobsOptions) {
    this.client = options.client ?? s3Client(options.clientConfig)
    this.bucket = options.bucket
    this.publicUrl = options.publicUrl.replace(/\/+$/, '')
  }

  urlOf(key: string): string {
    return `${this.publicUrl}/${key}`
  }

  async put(key: string, bytes: Uint8Array, mime: string): Promise<void> {
    const headers = deliveryHeaders(mime)
    await this.client.send(new PutObjectCommand({
      Bucket: this.bucket,
      Key: key,
      Body: bytes,
      ContentType: headers['Content-Type'],
      CacheControl: headers['Cache-Control'],
      ContentDisposition: headers['Content-Disposition'],
    }))
  }

  async delete(keys: readonly string[]): Promise<void> {
    for (let i = 0; i < keys.length; i += 1000) {
      await this.client.send(new DeleteObjectsCommand({ Bucket: this.bucket, Delete: { Objects: keys.slice(i, i + 1000).map((Key) => ({ Key })), Quiet: true } }))
    }
  }

  async presign(key: string, mime: string, size: number): Promise<PresignedUpload> {
    // Content-Type and Content-Length are signed: S3 refuses the PUT unless both are as declared.
    const command = new PutObjectCommand({ Bucket: this.bucket, Key: key, ContentType: mime, ContentLength: size })
    const url = await getSignedUrl(this.client, command, { expiresIn: PRESIGN_SECONDS, signableHeaders: new Set(['content-type', 'content-length']) })
    return { url, method: 'PUT', headers: { 'Content-Type': mime }, expiresAt: new Date(Date.now() + PRESIGN_SECONDS * 1000).toISOString() }
  }

  async read(key: string, maxBytes: number): Promise<StoredObject | undefined> {
    try {
      const answer = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }))
      const size = answer.ContentLength ?? 0
      if (size > maxBytes) {
        await answer.Body?.transformToWebStream().cancel()
        return { size, contentType: answer.ContentType, bytes: undefined }
      }
      const bytes = await answer.Body?.transformToByteArray()
      return { size: bytes?.byteLength ?? 0, contentType: answer.ContentType, bytes: bytes !== undefined && bytes.byteLength <= maxBytes ? bytes : undefined }
    } catch (error) {
      if (error instanceof NoSuchKey || (error as { name?: string }).name === 'NoSuchKey') return undefined
      throw error
    }
  }
}
