// Media attributes at top level (content-model.md §19): written by file id or documentId, checked
// (missing file, allowedTypes, required, multiple), populated (`*`, by name, object form with
// fields), filtered through (`[mime][$startsWith]`, `$null`), and unlinked everywhere when their
// file is deleted; Strapi's morph relations to files read as media.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { readSchema } from '../../lib/schema/model.js'
import { SETTLE_MS } from '../../lib/storage/lists/validator.js'
import { ADMIN_TOKEN, TOKEN_HASH_SECRET, createTestContext, holdWrites, json, requestsTo, type TestContext } from '../support/context.js'
import { createServerApp } from '../../lib/server-app.js'
import { createServices } from '../../lib/services.js'
import { hangGuard, rounds } from '../support/rounds.js'
import { png, sendForm, uploadForm } from '../support/media.js'
import { startTestS3, type TestS3 } from '../support/s3.js'
import { shippedTypes } from '../support/types.js'
import { countedPeer, keysOf } from '../support/relations.js'

const post = readSchema({ file: 'post/schema.json', api: 'post', name: 'post' }, {
  kind: 'collectionType',
  info: { singularName: 'post', pluralName: 'posts', displayName: 'Post' },
  options: { draftAndPublish: false },
  attributes: {
    title: { type: 'string' },
    cover: { type: 'media', multiple: false, allowedTypes: ['images'] },
    gallery: { type: 'media', multiple: true, allowedTypes: ['images', 'videos'] },
    attachment: { type: 'media', multiple: false, allowedTypes: ['files'] },
    legacy: { type: 'relation', relation: 'morphMany', target: 'plugin::upload.file', morphBy: 'related' },
  },
})
const poster = readSchema({ file: 'poster/schema.json', api: 'poster', name: 'poster' }, {
  kind: 'collectionType',
  info: { singularName: 'poster', pluralName: 'posters' },
  attributes: { title: { type: 'string' }, image: { type: 'media', required: true } },
})

let s3: TestS3
let ctx: TestContext
let key: string
type Doc = Record<string, any>

async function upload(bytes: Uint8Array, name: string): Promise<Doc> {
  const response = await sendForm(ctx, uploadForm([{ bytes, name }]), key)
  expect(response.status).toBe(201)
  return ((await response.json()) as Doc[])[0] as Doc
}

async function createPost(data: Record<string, unknown>, query = ''): Promise<Response> {
  return ctx.request('POST', `/api/posts${query}`, { token: key, body: { data } })
}

let image: Doc
let other: Doc
let text: Doc

beforeAll(async () => {
  s3 = await startTestS3()
  ctx = await createTestContext({ upload: { sizeLimit: 1_000_000, maxBodyBytes: 1_000_000, allowedTypes: ['image/*', 'text/plain'], breakpoints: {}, keepLocation: false } }, {}, [...shippedTypes, post, poster], s3.blobs)
  key = await ctx.token('full-access')
  image = await upload(await png(300, 200), 'cover.png')
  other = await upload(await png(20, 10), 'other.png')
  text = await upload(Buffer.from('terms and conditions'), 'terms.txt')
})
afterAll(async () => {
  await s3.stop()
})

describe('writing media attributes', () => {
  it('links files by id or documentId, in display order; the answer shows them only when populated', async () => {
    const response = await createPost({ title: 'a', cover: image.id, gallery: [other.documentId, image.id], attachment: text.documentId })
    expect(response.status, await response.clone().text()).toBe(200)
    const created = (await json(response)).data
    expect(created).not.toHaveProperty('cover')
    const read = await json(await ctx.request('GET', `/api/posts/${created.documentId}?populate=*`, { token: key }))
    expect(read.data[0].cover).toEqual(image)
    expect(read.data[0].gallery).toEqual([other, image])
    expect(read.data[0].attachment).toEqual(text)
    expect(read.data[0].legacy).toEqual([])
  })

  it.each([
    ['a missing file id', { cover: 987654 }, 'cover'],
    ['a missing documentId', { cover: 'abcdefghijklmnopqrstuvwx' }, 'cover'],
    ['a file outside allowedTypes', { cover: 'TEXT' }, 'cover'],
    ['an image where only files are allowed', { attachment: 'IMAGE' }, 'attachment'],
    ['several files for a single media', { cover: ['IMAGE', 'OTHER'] }, 'cover'],
    ['a value that names no file', { gallery: [true] }, 'gallery'],
  ])('answers 400 naming the attribute for %s, writing nothing', async (_, data, name) => {
    const swap = (value: unknown): unknown => (Array.isArray(value) ? value.map(swap) : value === 'TEXT' ? text.id : value === 'IMAGE' ? image.id : value === 'OTHER' ? other.id : value)
    const before = (await json(await ctx.request('GET', '/api/posts?pagination[withCount]=true', { token: key }))).meta.pagination.total
    const response = await createPost({ title: 'bad', ...Object.fromEntries(Object.entries(data).map(([k, v]) => [k, swap(v)])) })
    expect(response.status).toBe(400)
    const body = await json(response)
    expect(body.error.name).toBe('ValidationError')
    expect(body.error.message.startsWith(`${name}:`)).toBe(true)
    expect(body.error.details.errors[0].path).toEqual([name])
    expect((await json(await ctx.request('GET', '/api/posts?pagination[withCount]=true', { token: key }))).meta.pagination.total).toBe(before)
  })

  it('enforces required media on create and on an update that empties it', async () => {
    expect((await ctx.request('POST', '/api/posters', { token: key, body: { data: { title: 'x' } } })).status).toBe(400)
    const created = await ctx.request('POST', '/api/posters', { token: key, body: { data: { title: 'x', image: image.id } } })
    expect(created.status).toBe(200)
    const id = (await json(created)).data.documentId
    const emptied = await ctx.request('PUT', `/api/posters/${id}`, { token: key, body: { data: { image: null } } })
    expect(emptied.status).toBe(400)
    expect((await json(emptied)).error.message).toBe('image: image must be defined')
    expect((await ctx.request('PUT', `/api/posters/${id}`, { token: key, body: { data: { title: 'y' } } })).status).toBe(200)
  })

  it('updates a media attribute to another file, and unlinks it with null', async () => {
    const id = (await json(await createPost({ title: 'u', cover: image.id }))).data.documentId
    await ctx.request('PUT', `/api/posts/${id}`, { token: key, body: { data: { cover: other.documentId } } })
    expect((await json(await ctx.request('GET', `/api/posts/${id}?populate=cover`, { token: key }))).data[0].cover.id).toBe(other.id)
    await ctx.request('PUT', `/api/posts/${id}`, { token: key, body: { data: { cover: null } } })
    expect((await json(await ctx.request('GET', `/api/posts/${id}?populate=cover`, { token: key }))).data[0].cover).toBeNull()
  })
})

describe('reading media attributes', () => {
  let id: string
  beforeAll(async () => {
    id = (await json(await createPost({ title: 'read', cover: image.id, gallery: [image.id, other.id] }))).data.documentId
  })

  it('populates by name and in the object form with fields', async () => {
    const byName = (await json(await ctx.request('GET', `/api/posts/${id}?populate=cover`, { token: key }))).data[0]
    expect(byName.cover).toEqual(image)
    expect(byName).not.toHaveProperty('gallery')
    const fields = (await json(await ctx.request('GET', `/api/posts/${id}?populate[cover][fields][0]=url&populate[gallery][fields][0]=name`, { token: key }))).data[0]
    expect(fields.cover).toEqual({ id: image.id, documentId: image.documentId, url: image.url })
    expect(fields.gallery).toEqual([{ id: image.id, documentId: image.documentId, name: 'cover.png' }, { id: other.id, documentId: other.documentId, name: 'other.png' }])
  })

  it('populates media for a caller that holds no upload action (the public role with find)', async () => {
    const reader = await ctx.token('custom', ['api::post.post.find', 'api::post.post.findOne'])
    const response = await ctx.request('GET', `/api/posts/${id}?populate=cover`, { token: reader })
    expect(response.status).toBe(200)
    expect((await json(response)).data[0].cover.url).toBe(image.url)
  })

  it('filters through media: by the file\'s fields, and $null', async () => {
    const none = (await json(await createPost({ title: 'nocover' }))).data.documentId
    const list = async (query: string) => ((await json(await ctx.request('GET', `/api/posts?${query}&pagination[pageSize]=100`, { token: key }))).data as Doc[]).map((doc) => doc.documentId)
    const withImage = await list('filters[cover][mime][$startsWith]=image/')
    expect(withImage).toContain(id)
    expect(withImage).not.toContain(none)
    expect(await list('filters[cover][$null]=true')).toContain(none)
    expect(await list('filters[cover][$null]=true')).not.toContain(id)
    expect(await list(`filters[gallery][name][$eq]=other.png`)).toContain(id)
    expect(await list('filters[cover][name][$eq]=nothing.png')).toEqual([])
  })

  it('a process that keeps populated files (page cache off) shows a file\'s change and its delete at once', async () => {
    vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true })
    try {
      const settle = () => vi.setSystemTime(Date.now() + SETTLE_MS + 100)
      const peer = countedPeer({ ...ctx, config: { ...ctx.config, rest: { ...ctx.config.rest, pageCache: 0 } } })
      const file = await upload(await png(40, 40), 'kept.png')
      expect((await createPost({ title: 'kept cover', cover: file.id })).status).toBe(200)
      const covers = async () => ((await json(await peer.request('GET', '/api/posts?filters[title][$eq]=kept cover&populate=cover', { token: key }))).data as Doc[]).map((doc) => (doc.cover === null ? 'no cover' : doc.cover.alternativeText))
      const readsFile = () => peer.calls.some((call) => keysOf(call).some((one) => one.documentId === file.documentId))
      settle()
      expect(await covers()).toEqual([null])
      expect(readsFile()).toBe(true)
      peer.calls.length = 0
      expect(await covers()).toEqual([null])
      // Kept: the page and its count items are read, the file is not.
      expect(peer.calls.length).toBeGreaterThan(0)
      expect(readsFile()).toBe(false)
      const info = new FormData()
      info.append('fileInfo', JSON.stringify({ alternativeText: 'changed' }))
      expect((await sendForm(ctx, info, key, `/api/upload?id=${file.id}`)).status).toBe(200)
      expect(await covers()).toEqual(['changed'])
      settle()
      expect(await covers()).toEqual(['changed'])
      expect(await covers()).toEqual(['changed'])
      expect((await ctx.request('DELETE', `/api/upload/files/${file.id}`, { token: key })).status).toBe(200)
      expect(await covers()).toEqual(['no cover'])
    } finally {
      vi.useRealTimers()
    }
  })

  it('refuses unknown file fields in populate and filters', async () => {
    expect((await ctx.request('GET', `/api/posts/${id}?populate[cover][fields][0]=nope`, { token: key })).status).toBe(400)
    expect((await ctx.request('GET', '/api/posts?filters[cover][nope][$eq]=1', { token: key })).status).toBe(400)
  })
})

describe('deleting a linked file', () => {
  it('unlinks it everywhere at once: populate shows null or leaves it out', async () => {
    const doomed = await upload(await png(30, 30), 'doomed.png')
    const a = (await json(await createPost({ title: 'a', cover: doomed.id, gallery: [other.id, doomed.id] }))).data.documentId
    const b = (await json(await createPost({ title: 'b', gallery: [doomed.documentId] }))).data.documentId
    expect((await ctx.request('DELETE', `/api/upload/files/${doomed.id}`, { token: key })).status).toBe(200)
    const readA = (await json(await ctx.request('GET', `/api/posts/${a}?populate=*`, { token: key }))).data[0]
    expect(readA.cover).toBeNull()
    expect(readA.gallery.map((file: Doc) => file.id)).toEqual([other.id])
    expect((await json(await ctx.request('GET', `/api/posts/${b}?populate=gallery`, { token: key }))).data[0].gallery).toEqual([])
    const list = (await json(await ctx.request('GET', `/api/posts?filters[cover][name][$eq]=doomed.png`, { token: key }))).data
    expect(list).toEqual([])
    const unlinked = ((await json(await ctx.request('GET', '/api/posts?filters[cover][$null]=true&pagination[pageSize]=100', { token: key }))).data as Doc[]).map((doc) => doc.documentId)
    expect(unlinked).toContain(a)
    expect((await createPost({ title: 'c', cover: doomed.id })).status).toBe(400)
  })
})

describe('a race of a file\'s delete against a write that links it', () => {
  it('the delete succeeds, and no read ever shows a link to the missing file', async () => {
    // A second process on the table, with the blob store: the delete goes through it.
    const peer = { request: requestsTo(createServerApp(createServices(ctx.db, ctx.config, { adminToken: ADMIN_TOKEN, tokenHashSecret: TOKEN_HASH_SECRET }, ctx.services.types, s3.blobs), () => undefined)) }
    for (let round = 0; round < rounds(3); round++) {
      const file = await upload(await png(12, 12), `race${round}.png`)
      const id = (await json(await createPost({ title: `race ${round}`, gallery: [other.id] }))).data.documentId
      // Both writes held until each has read: the link's check saw the file, the delete the file.
      holdWrites(ctx, file.documentId, 2, 3000)
      const [link, del] = await Promise.all([
        ctx.request('PUT', `/api/posts/${id}`, { token: key, body: { data: { cover: file.id, gallery: [file.documentId, other.id] } } }),
        peer.request('DELETE', `/api/upload/files/${file.documentId}`, { token: key }),
      ])
      ctx.db.middlewareStack.remove('barrier')
      const label = { round }
      expect({ label, del: del.status }).toEqual({ label, del: 200 })
      expect({ label, link: [200, 400].includes(link.status) }).toEqual({ label, link: true })
      const read = (await json(await ctx.request('GET', `/api/posts/${id}?populate=*`, { token: key }))).data[0]
      expect({ label, cover: read.cover, gallery: read.gallery.map((one: Doc) => one.id) }).toEqual({ label, cover: null, gallery: [other.id] })
      const listed = ((await json(await ctx.request('GET', `/api/posts?filters[cover][$null]=true&pagination[pageSize]=100`, { token: key }))).data as Doc[]).map((doc) => doc.documentId)
      expect({ label, nullCover: listed.includes(id) }).toEqual({ label, nullCover: true })
      const through = (await json(await ctx.request('GET', `/api/posts?filters[gallery][documentId][$eq]=${file.documentId}`, { token: key }))).data
      expect({ label, through }).toEqual({ label, through: [] })
    }
  }, hangGuard(90_000))
})
