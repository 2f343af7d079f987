// The blob store of `npm start` (content-model.md §19): files under `<DATA_DIR>/uploads/`, kept
// across restarts, served at `/uploads/<hash><ext>` as Strapi's local provider serves them, with the
// same headers as the CDN's (immutable, nosniff, active types as sandboxed downloads). Presigned
// uploads are PUTs to `/uploads/incoming/<id>` signed with a key of this process.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { Hono } from 'hono'
import { INCOMING_PREFIX, PRESIGN_SECONDS, UPLOADS_PREFIX, deliveryHeaders, type BlobStore, type PresignedUpload, type StoredObject } from '../media/blobs.js'
import { badRequest, forbidden, notFound, payloadTooLarge } from '../errors.js'

/** A stored object's name: a hash and an extension, or an incoming upload's id; never a path. */
const OBJECT_NAME = /^[A-Za-z0-9_-]{1,128}(\.[a-z0-9]{1,10})?$/
/** Where each object's type is kept beside it (the file name says nothing about it). */
const TYPES = '.types'

export class LocalBlobs implements BlobStore {
  readonly provider = 'local'
  private readonly key = randomBytes(32)

  /** `root` (DATA_DIR) holds `uploads/` (with each object's type in `uploads/.types/`) and `incoming/`. */
  constructor(private readonly root: string) {}

  urlOf(key: string): string {
    return `/${key}`
  }

  /** The file of `key`, refusing anything but `uploads/<name>` or `incoming/<name>`. */
  private pathOf(key: string): string {
    const [prefix, name] = key.split(/(?<=\/)/)
    if ((prefix !== UPLOADS_PREFIX && prefix !== INCOMING_PREFIX) || name === undefined || !OBJECT_NAME.test(name)) throw notFound()
    return join(this.root, prefix, name)
  }

  private typePath(key: string): string {
    return join(this.root, UPLOADS_PREFIX, TYPES, key.replace('/', '_'))
  }

  async put(key: string, bytes: Uint8Array, mime: string): Promise<void> {
    const path = this.pathOf(key)
    await mkdir(join(path, '..'), { recursive: true })
    await mkdir(join(this.root, UPLOADS_PREFIX, TYPES), { recursive: true })
    // The type first: a file is served only once both are there.
    await writeFile(this.typePath(key), mime)
    await writeFile(path, bytes)
  }

  async delete(keys: readonly string[]): Promise<void> {
    await Promise.all(keys.map(async (key) => {
      await rm(this.pathOf(key), { force: true })
      await rm(this.typePath(key), { force: true })
    }))
  }

  async read(key: string, maxBytes: number): Promise<StoredObject | undefined> {
    const path = this.pathOf(key)
    const size = await stat(path).then((found) => found.size, () => undefined)
    if (size === undefined) return undefined
    const contentType = await readFile(this.typePath(key), 'utf8').catch(() => undefined)
    return { size, contentType, bytes: size > maxBytes ? undefined : await readFile(path) }
  }

  async presign(key: string, mime: string, size: number, origin: string): Promise<PresignedUpload> {
    const expires = Math.floor(Date.now() / 1000) + PRESIGN_SECONDS
    const query = new URLSearchParams({ expires: String(expires), size: String(size), type: mime })
    query.set('signature', this.sign(key, query))
    return { url: `${origin}/uploads/${key}?${query}`, method: 'PUT', headers: { 'Content-Type': mime }, expiresAt: new Date(expires * 1000).toISOString() }
  }

  private sign(key: string, query: URLSearchParams): string {
    return createHmac('sha256', this.key).update(`${key}\n${query.get('expires')}\n${query.get('size')}\n${query.get('type')}`).digest('base64url')
  }

  /** Checks a presigned PUT's URL (signature, expiry) and its Content-Type; the size it must have. */
  checkPresigned(key: string, query: URLSearchParams, contentType: string | undefined): number {
    const signature = Buffer.from(query.get('signature') ?? '')
    const expected = Buffer.from(this.sign(key, query))
    if (signature.length !== expected.length || !timingSafeEqual(signature, expected)) throw forbidden()
    if (Number(query.get('expires')) < Date.now() / 1000) throw forbidden()
    if (contentType !== query.get('type')) throw badRequest(`Content-Type must be ${query.get('type')}, as presigned`)
    return Number(query.get('size'))
  }
}

/** Reads a body of exactly `size` bytes: 413 past it, 400 short of it. */
async function readExactly(body: ReadableStream<Uint8Array> | null, size: number): Promise<Uint8Array> {
  const chunks: Uint8Array[] = []
  let total = 0
  if (body !== null) {
    const reader = body.getReader()
    for (let next = await reader.read(); !next.done; next = await reader.read()) {
      total += next.value.byteLength
      if (total > size) {
        void reader.cancel().catch(() => undefined)
        throw payloadTooLarge(size)
      }
      chunks.push(next.value)
    }
  }
  if (total !== size) throw badRequest(`The body must be ${size} bytes, as presigned`)
  return Buffer.concat(chunks)
}

/** `GET /uploads/<name>` (the stored files, with their delivery headers) and the presigned `PUT /uploads/incoming/<id>`. */
export function localUploadsApp(blobs: LocalBlobs): Hono {
  const app = new Hono()
  app.get('/uploads/:name', async (c) => {
    const key = `${UPLOADS_PREFIX}${c.req.param('name')}`
    const found = await blobs.read(key, Number.MAX_SAFE_INTEGER)
    if (found?.bytes === undefined) throw notFound()
    return c.body(found.bytes as Uint8Array<ArrayBuffer>, 200, deliveryHeaders(found.contentType ?? 'application/octet-stream'))
  })
  app.put('/uploads/incoming/:id', async (c) => {
    const key = `${INCOMING_PREFIX}${c.req.param('id')}`
    const size = blobs.checkPresigned(key, new URL(c.req.url).searchParams, c.req.header('content-type'))
    await blobs.put(key, await readExactly(c.req.raw.body, size), c.req.header('content-type') as string)
    return c.body(null, 200)
  })
  return app
}
