// Webhook events of integration.md §20 from the table's stream, end to end: writes over HTTP
// (app.request()), the local stream consumer on DynamoDB Local, a real receiver. One event per
// changed version, named as Strapi names them, with Strapi's body and Standard Webhooks headers.
import { Webhook } from 'standardwebhooks'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { LocalBlobs } from '../../lib/local/uploads.js'
import { png, sendForm, uploadForm } from '../support/media.js'
import { startReceiver, type Receiver } from '../support/receiver.js'
import { createWebhookContext, type WebhookContext } from '../support/webhooks.js'

const ALL = ['entry.create', 'entry.update', 'entry.delete', 'entry.publish', 'entry.unpublish', 'entry.draft-discard']
let ctx: WebhookContext
let receiver: Receiver
let secret: string
let token: string

beforeAll(async () => {
  ctx = await createWebhookContext({}, new LocalBlobs(await mkdtemp(join(tmpdir(), 'webhook-media-'))))
  receiver = await startReceiver()
  secret = (await ctx.hook(receiver.url, ALL)).secret
  token = await ctx.token()
})
afterAll(async () => {
  await ctx.stream.stop()
  await receiver.close()
})

const send = async (method: string, path: string, body?: unknown) => {
  const response = await ctx.request(method, path, { token, body })
  expect(response.status, `${method} ${path}`).toBeLessThan(300)
  return response.status === 204 ? undefined : ((await response.json()) as any).data
}

/** The events received about `documentId`, as `event locale status` (published when publishedAt is set). */
async function eventsOf(documentId: string, count: number): Promise<string[]> {
  const deadline = Date.now() + 20_000
  let mine = () => receiver.received.filter((request) => request.json?.entry?.documentId === documentId)
  while (mine().length < count && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50))
  await new Promise((resolve) => setTimeout(resolve, 300)) // and nothing more
  return mine().map(({ json }) => `${json.event} ${json.entry.locale} ${json.entry.publishedAt === null ? 'draft' : 'published'}`)
}

describe('webhook events from the change stream', () => {
  it('sends entry.create, entry.update and entry.delete for a type without draft & publish, without private fields', async () => {
    const author = await send('POST', '/api/authors', { data: { name: 'Ada', email: 'ada@example.com' } })
    await send('PUT', `/api/authors/${author.documentId}`, { data: { name: 'Ada L.' } })
    await send('DELETE', `/api/authors/${author.documentId}`)
    expect(await eventsOf(author.documentId, 3)).toEqual(['entry.create en published', 'entry.update en published', 'entry.delete en published'])
    const [created, updated, deleted] = receiver.received.filter((request) => request.json?.entry?.documentId === author.documentId)
    expect(created!.json).toEqual({ event: 'entry.create', createdAt: expect.any(String), model: 'author', uid: 'api::author.author', entry: author })
    expect(updated!.json.entry).toMatchObject({ name: 'Ada L.' })
    expect(deleted!.json.entry).toMatchObject({ name: 'Ada L.' })
    for (const request of [created, updated, deleted]) expect(request!.body).not.toContain('ada@example.com')
  })

  it('names every draft & publish change as Strapi does, in commit order', async () => {
    const draft = await send('POST', '/api/articles?status=draft', { data: { title: 'One' } })
    const id = draft.documentId
    await send('PUT', `/api/articles/${id}?status=draft`, { data: { title: 'Two' } })
    await send('POST', `/api/articles/${id}/actions/publish`)
    await send('PUT', `/api/articles/${id}?status=draft`, { data: { title: 'Three' } })
    await send('POST', `/api/articles/${id}/actions/discard-draft`)
    await send('POST', `/api/articles/${id}/actions/unpublish`)
    await send('PUT', `/api/articles/${id}`, { data: { title: 'Four' } }) // update and publish at once
    await send('DELETE', `/api/articles/${id}`)
    const events = await eventsOf(id, 10)
    expect(events).toHaveLength(10)
    expect(events.slice(0, 6)).toEqual([
      'entry.create en draft', 'entry.update en draft', 'entry.publish en published', 'entry.update en draft', 'entry.draft-discard en draft', 'entry.unpublish en published',
    ])
    expect(events.slice(6, 8).sort()).toEqual(['entry.publish en published', 'entry.update en draft'])
    expect(events.slice(8).sort()).toEqual(['entry.delete en draft', 'entry.delete en published'])
    const discarded = receiver.received.find((request) => request.json?.entry?.documentId === id && request.json.event === 'entry.draft-discard')
    expect(discarded!.json.entry.title).toBe('Two')
  })

  it('sends entry.create and entry.publish for a document created published', async () => {
    const article = await send('POST', '/api/articles', { data: { title: 'Straight out' } })
    expect((await eventsOf(article.documentId, 2)).sort()).toEqual(['entry.create en draft', 'entry.publish en published'])
  })

  it('sends a large blocks value (stored compressed) in the entry as it was written', async () => {
    const body = Array.from({ length: 20 }, (_, i) => ({ type: 'paragraph', children: [{ type: 'text', text: `Paragraph ${i} of a body stored compressed past 1 KB.` }] }))
    const article = await send('POST', '/api/articles', { data: { title: 'Packed body', body } })
    expect((await eventsOf(article.documentId, 2)).sort()).toEqual(['entry.create en draft', 'entry.publish en published'])
    const entries = receiver.received.filter((request) => request.json?.entry?.documentId === article.documentId).map(({ json }) => json.entry)
    for (const entry of entries) expect(entry.body).toEqual(body)
  })

  it('signs every delivery so a Standard Webhooks library verifies it, with the X-Strapi-Event header', async () => {
    const author = await send('POST', '/api/authors', { data: { name: 'Signed' } })
    await eventsOf(author.documentId, 1)
    const request = receiver.received.find((entry) => entry.json?.entry?.documentId === author.documentId)!
    expect(new Webhook(secret).verify(request.body, request.headers as Record<string, string>)).toMatchObject({ event: 'entry.create' })
    expect(request.headers['x-strapi-event']).toBe('entry.create')
    expect(request.headers['webhook-id']).toMatch(/^msg_/)
  })

  it('sends a webhook only the events it subscribes to, and nothing while it is disabled', async () => {
    const other = await startReceiver()
    try {
      const { id } = await ctx.hook(other.url, ['entry.publish'])
      const article = await send('POST', '/api/articles', { data: { title: 'Only publish' } })
      await eventsOf(article.documentId, 2)
      await other.waitFor(1)
      expect(other.received.map((request) => request.json.event)).toEqual(['entry.publish'])
      await ctx.admin('PUT', `/admin/webhooks/${id}`, { isEnabled: false })
      const second = await send('POST', '/api/articles', { data: { title: 'Disabled' } })
      await eventsOf(second.documentId, 2)
      expect(other.received).toHaveLength(1)
    } finally {
      await other.close()
    }
  })

  it('sends one event per changed version: a shared value changed in one locale updates the other locale\'s draft too', async () => {
    await ctx.addLocales('fr')
    const en = await send('POST', '/api/articles?status=draft', { data: { title: 'EN', views: 1 } })
    await send('PUT', `/api/articles/${en.documentId}?locale=fr&status=draft`, { data: { title: 'FR' } })
    await send('PUT', `/api/articles/${en.documentId}?status=draft`, { data: { views: 2 } })
    expect(await eventsOf(en.documentId, 4)).toEqual(['entry.create en draft', 'entry.create fr draft', ...(await eventsOf(en.documentId, 4)).slice(2).sort()])
    expect((await eventsOf(en.documentId, 4)).slice(2).sort()).toEqual(['entry.update en draft', 'entry.update fr draft'])
  })

  it('sends media.create, media.update and media.delete with the file as `media`, and no entry event for files', async () => {
    const media = await startReceiver()
    try {
      await ctx.hook(media.url, ['media.create', 'media.update', 'media.delete'])
      const uploaded = await sendForm(ctx, uploadForm([{ bytes: await png(40, 30), name: 'dot.png', type: 'image/png' }], [{ alternativeText: 'Dot' }]), token)
      expect(uploaded.status).toBe(201)
      const [file] = (await uploaded.json()) as { id: number; documentId: string }[]
      const form = new FormData()
      form.append('fileInfo', JSON.stringify({ alternativeText: 'Round dot' }))
      expect((await sendForm(ctx, form, token, `/api/upload?id=${file!.id}`)).status).toBe(200)
      expect((await ctx.request('DELETE', `/api/upload/files/${file!.id}`, { token })).status).toBe(200)
      const received = await media.waitFor(3)
      expect(received.map((request) => [request.json.event, request.headers['x-strapi-event'], request.json.media.alternativeText])).toEqual([
        ['media.create', 'media.create', 'Dot'], ['media.update', 'media.update', 'Round dot'], ['media.delete', 'media.delete', 'Round dot'],
      ])
      expect(received[0]!.json).toEqual({ event: 'media.create', createdAt: expect.any(String), media: expect.objectContaining({ id: file!.id, documentId: file!.documentId, name: 'dot.png', mime: 'image/png', width: 40, height: 30 }) })
      expect(receiver.received.filter((request) => request.json?.entry?.documentId === file!.documentId || request.json?.media !== undefined)).toEqual([])
    } finally {
      await media.close()
    }
  })
})
