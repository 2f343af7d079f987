// The upload API (content-model.md §19) over HTTP, with its binaries in a real S3-compatible
// server: Strapi's file shape, images' formats, the files routes, updates, deletes, permissions,
// the presigned route, and each safety rule with the bad file it refuses or defuses.
import sharp from 'sharp'
import { HeadObjectCommand } from '@aws-sdk/client-s3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { UPLOAD_ACTIONS } from '../../lib/access.js'
import { createTestContext, json, type TestContext } from '../support/context.js'
import { jpegWithLocation, png, sendForm, uploadForm } from '../support/media.js'
import { startTestS3, type TestS3 } from '../support/s3.js'

let s3: TestS3
let ctx: TestContext
let key: string

beforeAll(async () => {
  s3 = await startTestS3()
  ctx = await createTestContext({ upload: { sizeLimit: 3_000_000, maxBodyBytes: 2_000_000, allowedTypes: ['image/*', 'text/plain', 'application/pdf'], breakpoints: { large: 1000, medium: 750, small: 500 }, keepLocation: false } }, {}, undefined, s3.blobs)
  key = await ctx.token('full-access')
})
afterAll(async () => {
  await s3.stop()
})

type FileObject = Record<string, any>

async function uploadOne(bytes: Uint8Array, name: string, info?: unknown): Promise<FileObject> {
  const response = await sendForm(ctx, uploadForm([{ bytes, name, type: 'image/png' }], info === undefined ? [] : [info]), key)
  expect(response.status, await response.clone().text()).toBe(201)
  const body = (await response.json()) as FileObject[]
  expect(body).toHaveLength(1)
  return body[0] as FileObject
}

/** The object a stored `url` names, as S3 serves it. */
async function objectAt(url: string): Promise<Response> {
  return fetch(url)
}

describe('POST /api/upload', () => {
  it('answers 201 with Strapi\'s file shape, and the formats of each breakpoint the image is larger than', async () => {
    const file = await uploadOne(await png(1200, 800), 'photo.png', { alternativeText: 'A blue field', caption: 'Blue' })
    expect(Object.keys(file)).toEqual(['id', 'documentId', 'name', 'alternativeText', 'caption', 'width', 'height', 'formats', 'hash', 'ext', 'mime', 'size', 'url', 'previewUrl', 'provider', 'provider_metadata', 'createdAt', 'updatedAt', 'publishedAt'])
    expect(file).toMatchObject({ name: 'photo.png', alternativeText: 'A blue field', caption: 'Blue', width: 1200, height: 800, ext: '.png', mime: 'image/png', previewUrl: null, provider: 'aws-s3', provider_metadata: null })
    expect(Number.isInteger(file.id)).toBe(true)
    expect(file.documentId).toMatch(/^[a-z0-9]{24}$/)
    expect(file.publishedAt).toEqual(expect.any(String))
    const stored = await objectAt(file.url)
    const bytes = new Uint8Array(await stored.arrayBuffer())
    expect(file.size).toBe(Math.round(bytes.byteLength / 10) / 100)
    expect(Object.keys(file.formats).sort()).toEqual(['large', 'medium', 'small', 'thumbnail'])
    expect(file.formats.thumbnail).toMatchObject({ name: 'thumbnail_photo.png', ext: '.png', mime: 'image/png', path: null, width: 234, height: 156 })
    expect(file.formats.large).toMatchObject({ width: 1000, height: 667 })
    expect(file.formats.medium).toMatchObject({ width: 750, height: 500 })
    expect(file.formats.small).toMatchObject({ width: 500, height: 333 })
    for (const format of Object.values(file.formats) as FileObject[]) {
      const copy = await objectAt(format.url)
      expect(copy.status).toBe(200)
      const copyBytes = Buffer.from(await copy.arrayBuffer())
      expect(format.sizeInBytes).toBe(copyBytes.byteLength)
      expect(format.size).toBe(Math.round(copyBytes.byteLength / 10) / 100)
      expect(await sharp(copyBytes).metadata()).toMatchObject({ width: format.width, height: format.height, format: 'png' })
    }
  })

  it('makes only the formats an image is larger than (a 600 × 400 image: thumbnail and small)', async () => {
    const file = await uploadOne(await png(600, 400), 'mid.png')
    expect(Object.keys(file.formats).sort()).toEqual(['small', 'thumbnail'])
    const tiny = await uploadOne(await png(100, 80), 'tiny.png')
    expect(tiny.formats).toBeNull()
  })

  it('stores objects under content-hash keys with immutable cache headers', async () => {
    const bytes = await png(300, 200)
    const [a, b] = [await uploadOne(bytes, 'one.png'), await uploadOne(bytes, 'two.png')]
    expect(a.hash.split('_')[0]).toBe(b.hash.split('_')[0])
    expect(a.hash).not.toBe(b.hash)
    expect(a.url).toBe(`${s3.endpoint}/${s3.bucket}/uploads/${a.hash}.png`)
    const head = await s3.client.send(new HeadObjectCommand({ Bucket: s3.bucket, Key: `uploads/${a.hash}.png` }))
    expect(head.CacheControl).toBe('public, max-age=31536000, immutable')
    expect(head.ContentType).toBe('image/png')
  })

  it('takes several files and a fileInfo per file, answering them in order', async () => {
    const response = await sendForm(ctx, uploadForm([{ bytes: await png(20, 20), name: 'a.png' }, { bytes: Buffer.from('plain words'), name: 'b.txt' }], [{ name: 'first' }, { caption: 'second' }]), key)
    expect(response.status).toBe(201)
    const files = (await response.json()) as FileObject[]
    expect(files.map((file) => [file.name, file.caption, file.mime, file.ext])).toEqual([['first', null, 'image/png', '.png'], ['b.txt', 'second', 'text/plain', '.txt']])
  })

  it('answers 400 without files, for a fileInfo that is not JSON, and 415 for a body that is not multipart', async () => {
    expect((await sendForm(ctx, uploadForm([], [{ name: 'x' }]), key)).status).toBe(400)
    const form = uploadForm([{ bytes: await png(10, 10), name: 'a.png' }])
    form.append('fileInfo', '{not json')
    expect((await sendForm(ctx, form, key)).status).toBe(400)
    const plain = await ctx.request('POST', '/api/upload', { token: key, body: { files: [] } })
    expect(plain.status).toBe(415)
  })
})

describe('safety', () => {
  it('decides the type from the bytes: a .png holding text is text/plain, with its own extension', async () => {
    const file = await uploadOne(Buffer.from('just some words, not an image'), 'picture.png')
    expect(file).toMatchObject({ mime: 'text/plain', ext: '.txt', width: null, height: null, formats: null })
    expect(file.url.endsWith('.txt')).toBe(true)
  })

  it('refuses a type outside the allow-list whatever the name and Content-Type say (HTML named .png)', async () => {
    const response = await sendForm(ctx, uploadForm([{ bytes: Buffer.from('<!doctype html><script>alert(1)</script>'), name: 'cat.png', type: 'image/png' }]), key)
    expect(response.status).toBe(400)
    expect((await json(response)).error.message).toContain('text/html')
    expect(await (await ctx.request('GET', '/api/upload/files?filters[name][$eq]=cat.png', { token: key })).json()).toEqual([])
  })

  it('refuses a file past the size limit with 413 before storing anything', async () => {
    const big = Buffer.alloc(2_100_000, 'a')
    const response = await sendForm(ctx, uploadForm([{ bytes: big, name: 'big.txt' }]), key)
    expect(response.status).toBe(413)
  })

  it('stores path-like names as their last segment; objects are named by hashes only', async () => {
    const file = await uploadOne(await png(10, 10), '../../etc/passwd.png')
    expect(file.name).toBe('passwd.png')
    expect(file.url).toBe(`${s3.endpoint}/${s3.bucket}/uploads/${file.hash}.png`)
    expect(file.hash).toMatch(/^[0-9a-f]{20}_[a-z0-9]{24}$/)
    const windows = await uploadOne(await png(10, 10), 'C:\\Users\\me\\secret.png')
    expect(windows.name).toBe('secret.png')
  })

  it('serves an SVG with a script as a download, never inline', async () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(document.cookie)</script></svg>')
    const ctxSvg = await createTestContext({ upload: { sizeLimit: 1_000_000, maxBodyBytes: 1_000_000, allowedTypes: ['image/svg+xml'], breakpoints: {}, keepLocation: false } }, {}, undefined, s3.blobs)
    const response = await sendForm(ctxSvg, uploadForm([{ bytes: svg, name: 'logo.svg' }]), await ctxSvg.token('full-access'))
    expect(response.status).toBe(201)
    const [file] = (await response.json()) as FileObject[]
    expect(file).toMatchObject({ mime: 'image/svg+xml', ext: '.svg' })
    const head = await s3.client.send(new HeadObjectCommand({ Bucket: s3.bucket, Key: `uploads/${file!.hash}.svg` }))
    expect(head.ContentDisposition).toBe('attachment')
  })

  it('removes EXIF data (the GPS location) from stored images by default', async () => {
    const original = await jpegWithLocation(400, 300)
    expect((await sharp(original).metadata()).exif).toBeDefined()
    const response = await sendForm(ctx, uploadForm([{ bytes: original, name: 'trip.jpg', type: 'image/jpeg' }]), key)
    const [file] = (await response.json()) as FileObject[]
    expect(file).toMatchObject({ mime: 'image/jpeg', ext: '.jpg', width: 400, height: 300 })
    const stored = Buffer.from(await (await objectAt(file!.url)).arrayBuffer())
    expect((await sharp(stored).metadata()).exif).toBeUndefined()
    expect(stored.includes(Buffer.from('TestCam'))).toBe(false)
  })
})

describe('files routes', () => {
  let first: FileObject
  beforeAll(async () => {
    first = await uploadOne(await png(50, 40), 'listed.png', { alternativeText: 'listed' })
  })

  it('finds a file by id and by documentId, 404 otherwise', async () => {
    for (const id of [first.id, first.documentId]) {
      const response = await ctx.request('GET', `/api/upload/files/${id}`, { token: key })
      expect(response.status).toBe(200)
      expect(await response.json()).toEqual(first)
    }
    for (const id of ['999999999', 'nope', 'abcdefghijklmnopqrstuvwx']) expect((await ctx.request('GET', `/api/upload/files/${id}`, { token: key })).status).toBe(404)
  })

  it('lists files as a plain array with filters, sort and pagination', async () => {
    const response = await ctx.request('GET', '/api/upload/files?filters[alternativeText][$eq]=listed', { token: key })
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual([first])
    const images = (await (await ctx.request('GET', '/api/upload/files?filters[mime][$startsWith]=image/&sort=id:desc&pagination[pageSize]=2', { token: key })).json()) as FileObject[]
    expect(images).toHaveLength(2)
    expect(images.every((file) => file.mime.startsWith('image/'))).toBe(true)
    expect((images[0] as FileObject).id).toBeGreaterThan((images[1] as FileObject).id)
    expect((await ctx.request('GET', '/api/upload/files?filters[nope][$eq]=1', { token: key })).status).toBe(400)
  })

  it('updates a file\'s information with ?id=, and its bytes when a file is sent', async () => {
    const file = await uploadOne(await png(300, 300), 'old.png')
    const info = new FormData()
    info.append('fileInfo', JSON.stringify({ alternativeText: 'new text', caption: 'new caption' }))
    const response = await sendForm(ctx, info, key, `/api/upload?id=${file.id}`)
    expect(response.status).toBe(200)
    expect(await response.json()).toMatchObject({ id: file.id, documentId: file.documentId, alternativeText: 'new text', caption: 'new caption', hash: file.hash, name: 'old.png' })
    const replaced = await sendForm(ctx, uploadForm([{ bytes: await png(120, 60), name: 'new.png' }]), key, `/api/upload?id=${file.documentId}`)
    expect(replaced.status).toBe(200)
    const after = (await replaced.json()) as FileObject
    expect(after).toMatchObject({ id: file.id, name: 'new.png', width: 120, height: 60, alternativeText: 'new text', formats: null })
    expect(after.hash).not.toBe(file.hash)
    expect((await objectAt(after.url)).status).toBe(200)
    expect((await objectAt(file.url)).status).toBe(404)
    expect((await objectAt(file.formats.thumbnail.url)).status).toBe(404)
    expect((await sendForm(ctx, info, key, '/api/upload?id=987654321')).status).toBe(404)
  })

  it('deletes a file: 200 with the file, its objects gone, then 404', async () => {
    const file = await uploadOne(await png(400, 300), 'doomed.png')
    const response = await ctx.request('DELETE', `/api/upload/files/${file.id}`, { token: key })
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual(file)
    expect((await objectAt(file.url)).status).toBe(404)
    expect((await objectAt(file.formats.thumbnail.url)).status).toBe(404)
    expect((await ctx.request('GET', `/api/upload/files/${file.id}`, { token: key })).status).toBe(404)
    expect((await ctx.request('DELETE', `/api/upload/files/${file.id}`, { token: key })).status).toBe(404)
  })
})

describe('permissions', () => {
  it('the public role holds no upload action by default: 403 on every route', async () => {
    const file = await uploadOne(await png(10, 10), 'private.png')
    expect((await sendForm(ctx, uploadForm([{ bytes: await png(10, 10), name: 'a.png' }]))).status).toBe(403)
    expect((await ctx.request('GET', '/api/upload/files')).status).toBe(403)
    expect((await ctx.request('GET', `/api/upload/files/${file.id}`)).status).toBe(403)
    expect((await ctx.request('DELETE', `/api/upload/files/${file.id}`)).status).toBe(403)
    expect((await ctx.request('POST', '/api/upload/presign', { body: { name: 'a.png', mime: 'image/png', size: 10 } })).status).toBe(403)
  })

  it('a custom token holds exactly the upload actions granted; a read-only token finds', async () => {
    const file = await uploadOne(await png(10, 10), 'granted.png')
    const finder = await ctx.token('custom', [UPLOAD_ACTIONS.find, UPLOAD_ACTIONS.findOne])
    expect((await ctx.request('GET', '/api/upload/files', { token: finder })).status).toBe(200)
    expect((await ctx.request('GET', `/api/upload/files/${file.id}`, { token: finder })).status).toBe(200)
    expect((await ctx.request('DELETE', `/api/upload/files/${file.id}`, { token: finder })).status).toBe(403)
    expect((await sendForm(ctx, uploadForm([{ bytes: await png(10, 10), name: 'a.png' }]), finder)).status).toBe(403)
    const reader = await ctx.token('read-only')
    expect((await ctx.request('GET', '/api/upload/files', { token: reader })).status).toBe(200)
    expect((await sendForm(ctx, uploadForm([{ bytes: await png(10, 10), name: 'a.png' }]), reader)).status).toBe(403)
    const uploader = await ctx.token('custom', [UPLOAD_ACTIONS.upload])
    expect((await sendForm(ctx, uploadForm([{ bytes: await png(10, 10), name: 'a.png' }]), uploader)).status).toBe(201)
    expect((await ctx.request('GET', '/api/upload/files', { token: uploader })).status).toBe(403)
  })

  it('the public role can be granted upload actions through the admin API', async () => {
    const current = (await json(await ctx.admin('GET', '/admin/roles/public'))).data.permissions as string[]
    const granted = await ctx.admin('PUT', '/admin/roles/public', { permissions: [...current, UPLOAD_ACTIONS.find] })
    expect(granted.status).toBe(200)
    expect((await ctx.request('GET', '/api/upload/files')).status).toBe(200)
    await ctx.admin('PUT', '/admin/roles/public', { permissions: current })
  })
})

describe('presigned uploads', () => {
  async function presign(body: unknown): Promise<Response> {
    return ctx.request('POST', '/api/upload/presign', { token: key, body })
  }

  it('presign, PUT to S3, complete: the same file object as a direct upload', async () => {
    const bytes = await png(800, 600)
    const response = await presign({ name: 'big.png', mime: 'image/png', size: bytes.byteLength })
    expect(response.status).toBe(200)
    const upload = (await response.json()) as { id: string; url: string; method: string; headers: Record<string, string>; expiresAt: string }
    expect(upload).toMatchObject({ method: 'PUT', headers: { 'Content-Type': 'image/png' } })
    expect(upload.url.startsWith(`${s3.endpoint}/${s3.bucket}/incoming/${upload.id}?`)).toBe(true)
    expect(upload.url).toContain('X-Amz-SignedHeaders=content-length%3Bcontent-type%3Bhost')
    expect(upload.url).not.toContain('x-amz-checksum')
    const put = await fetch(upload.url, { method: 'PUT', body: bytes, headers: upload.headers })
    expect(put.status).toBe(200)
    const completed = await ctx.request('POST', '/api/upload/complete', { token: key, body: { id: upload.id, fileInfo: { name: 'big.png', alternativeText: 'large' } } })
    expect(completed.status).toBe(201)
    const file = (await completed.json()) as FileObject
    expect(file).toMatchObject({ name: 'big.png', alternativeText: 'large', width: 800, height: 600, mime: 'image/png', provider: 'aws-s3' })
    expect(Object.keys(file.formats).sort()).toEqual(['medium', 'small', 'thumbnail'])
    expect(await (await ctx.request('GET', `/api/upload/files/${file.id}`, { token: key })).json()).toEqual(file)
    expect((await objectAt(upload.url.split('?')[0] as string)).status).toBe(404)
  })

  it('refuses a presign past upload.sizeLimit (413) or of a type not accepted (400)', async () => {
    expect((await presign({ name: 'huge.png', mime: 'image/png', size: 3_000_001 })).status).toBe(413)
    expect((await presign({ name: 'page.html', mime: 'text/html', size: 100 })).status).toBe(400)
    expect((await presign({ name: 'x', mime: 'image/png' })).status).toBe(400)
  })

  it('refuses to complete an upload whose bytes are not the type presigned, and removes them', async () => {
    const bytes = Buffer.from('<html><script>alert(1)</script></html>')
    const upload = (await (await presign({ name: 'fake.png', mime: 'image/png', size: bytes.byteLength })).json()) as { id: string; url: string; headers: Record<string, string> }
    expect((await fetch(upload.url, { method: 'PUT', body: bytes, headers: upload.headers })).status).toBe(200)
    const completed = await ctx.request('POST', '/api/upload/complete', { token: key, body: { id: upload.id } })
    expect(completed.status).toBe(400)
    expect((await ctx.request('POST', '/api/upload/complete', { token: key, body: { id: upload.id } })).status).toBe(400)
  })

  it('answers 400 when nothing was uploaded for the id', async () => {
    expect((await ctx.request('POST', '/api/upload/complete', { token: key, body: { id: 'abcdefghijklmnopqrstuvwx' } })).status).toBe(400)
  })
})
