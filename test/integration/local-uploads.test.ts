// The local blob store of `npm start` (content-model.md §19): files under DATA_DIR/uploads,
// served at /uploads/<hash><ext> with the CDN's headers (immutable, nosniff, sandbox; active types
// as downloads), kept across restarts, and the presigned PUT it serves itself.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Hono } from 'hono'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LocalBlobs, localUploadsApp } from '../../lib/local/uploads.js'
import { createServerApp } from '../../lib/server-app.js'
import { createServices } from '../../lib/services.js'
import { ADMIN_TOKEN, TOKEN_HASH_SECRET, createTestContext, type TestContext } from '../support/context.js'
import { png, sendForm, uploadForm } from '../support/media.js'

let dir: string
let ctx: TestContext
let app: Hono
let key: string

/** The server app of a process on the test's table with a local blob store in `dir` (a restart makes a new one). */
function startApp(): Hono {
  const blobs = new LocalBlobs(dir)
  const services = createServices(ctx.db, ctx.config, { adminToken: ADMIN_TOKEN, tokenHashSecret: TOKEN_HASH_SECRET }, ctx.services.types, blobs)
  return createServerApp(services, () => undefined, [localUploadsApp(blobs)])
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'local-uploads-'))
  ctx = await createTestContext({ upload: { sizeLimit: 3_000_000, maxBodyBytes: 2_000_000, allowedTypes: ['image/*', 'text/plain'], breakpoints: { small: 500 }, keepLocation: false } })
  app = startApp()
  key = await ctx.token('full-access')
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

async function upload(bytes: Uint8Array, name: string): Promise<Record<string, any>> {
  const response = await sendForm({ app }, uploadForm([{ bytes, name }]), key)
  expect(response.status, await response.clone().text()).toBe(201)
  return ((await response.json()) as Record<string, any>[])[0] as Record<string, any>
}

describe('local files', () => {
  it('stores files under DATA_DIR/uploads and serves them at /uploads/<hash><ext> with immutable, sandboxed headers', async () => {
    const bytes = await png(600, 300)
    const file = await upload(bytes, 'wide.png')
    expect(file).toMatchObject({ provider: 'local', url: `/uploads/${file.hash}.png` })
    expect(file.formats.small.url).toBe(`/uploads/${file.formats.small.hash}.png`)
    expect(readdirSync(join(dir, 'uploads'))).toContain(`${file.hash}.png`)
    const served = await app.request(file.url)
    expect(served.status).toBe(200)
    expect(Buffer.from(await served.arrayBuffer()).equals(bytes)).toBe(true)
    expect(served.headers.get('content-type')).toBe('image/png')
    expect(served.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
    expect(served.headers.get('x-content-type-options')).toBe('nosniff')
    expect(served.headers.get('content-security-policy')).toMatch(/^sandbox/)
    expect(served.headers.get('content-disposition')).toBeNull()
  })

  it('serves an SVG with a script as a sandboxed download', async () => {
    const svgCtx = await createTestContext({ upload: { sizeLimit: 100_000, maxBodyBytes: 100_000, allowedTypes: ['image/svg+xml'], breakpoints: {}, keepLocation: false } })
    const blobs = new LocalBlobs(dir)
    const svgApp = createServerApp(createServices(svgCtx.db, svgCtx.config, { adminToken: ADMIN_TOKEN, tokenHashSecret: TOKEN_HASH_SECRET }, svgCtx.services.types, blobs), () => undefined, [localUploadsApp(blobs)])
    const svg = Buffer.from('<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(2)</script></svg>')
    const response = await sendForm({ app: svgApp }, uploadForm([{ bytes: svg, name: 'x.svg', type: 'image/png' }]), await svgCtx.token('full-access'))
    expect(response.status).toBe(201)
    const [file] = (await response.json()) as Record<string, any>[]
    const served = await svgApp.request(file!.url)
    expect(served.headers.get('content-type')).toBe('image/svg+xml')
    expect(served.headers.get('content-disposition')).toBe('attachment')
    expect(served.headers.get('content-security-policy')).toMatch(/^sandbox/)
  })

  it('keeps files across a restart (a new process on the same DATA_DIR)', async () => {
    const file = await upload(await png(20, 20), 'kept.png')
    const restarted = startApp()
    expect((await restarted.request(file.url)).status).toBe(200)
    expect((await restarted.request(`/api/upload/files/${file.id}`, { headers: { Authorization: `Bearer ${key}` } })).status).toBe(200)
  })

  it('answers 404 for names that are not stored objects (paths, unknown hashes, the type folder)', async () => {
    for (const path of ['/uploads/..%2Fsecrets.json', '/uploads/%2E%2E', '/uploads/.types', '/uploads/nothing.png', '/uploads/a%00.png']) {
      expect((await app.request(path)).status, path).toBe(404)
    }
  })
})

describe('local presigned uploads', () => {
  async function presign(size: number, mime = 'image/png') {
    const response = await app.request('http://127.0.0.1:4750/api/upload/presign', { method: 'POST', headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ name: 'p.png', mime, size }) })
    expect(response.status).toBe(200)
    return (await response.json()) as { id: string; url: string; headers: Record<string, string> }
  }

  it('takes the PUT the presign describes (larger than the JSON body limit), then completes it', async () => {
    const bytes = Buffer.concat([await png(1200, 1200), Buffer.alloc(0)])
    const upload = await presign(bytes.byteLength)
    expect(upload.url.startsWith(`http://127.0.0.1:4750/uploads/incoming/${upload.id}?`)).toBe(true)
    const put = await app.request(upload.url, { method: 'PUT', body: bytes, headers: { ...upload.headers, 'Content-Length': String(bytes.byteLength) } })
    expect(put.status).toBe(200)
    const done = await app.request('/api/upload/complete', { method: 'POST', headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ id: upload.id, fileInfo: { name: 'p.png' } }) })
    expect(done.status).toBe(201)
    expect(await done.json()).toMatchObject({ name: 'p.png', width: 1200, height: 1200, provider: 'local' })
    expect(readdirSync(join(dir, 'incoming'))).not.toContain(upload.id)
  })

  it('refuses a PUT with another signature (403), type (400) or size (400, 413)', async () => {
    const upload = await presign(10)
    const url = new URL(upload.url)
    const tampered = new URL(upload.url)
    tampered.searchParams.set('size', '1000000')
    expect((await app.request(tampered.toString(), { method: 'PUT', body: Buffer.alloc(10), headers: upload.headers })).status).toBe(403)
    expect((await app.request(url.toString(), { method: 'PUT', body: Buffer.alloc(10), headers: { 'Content-Type': 'text/html' } })).status).toBe(400)
    expect((await app.request(url.toString(), { method: 'PUT', body: Buffer.alloc(9), headers: upload.headers })).status).toBe(400)
    expect((await app.request(url.toString(), { method: 'PUT', body: Buffer.alloc(11), headers: upload.headers })).status).toBe(413)
  })
})
