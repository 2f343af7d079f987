// Documents' JSON kept beside their versions (lib/delivery/rendered.ts; issue 34): a list answer of
// documents shown from their versions alone (nothing populated, or components only) is joined from
// each document's kept JSON. Over HTTP on DynamoDB Local with the page cache off, on the models of
// test/fixtures/components-project: the same bytes as a process keeping nothing, in every shape;
// a changed document, or a changed document a component links, shown changed at once. A fake
// clock (Date only) moves past SETTLE_MS, after which the pages' documents are kept.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { ContentType } from '../../lib/content-types.js'
import { loadContentTypes } from '../../lib/schema/load.js'
import { createServerApp } from '../../lib/server-app.js'
import { createServices } from '../../lib/services.js'
import { SETTLE_MS } from '../../lib/storage/lists/validator.js'
import { ADMIN_TOKEN, TOKEN_HASH_SECRET, createTestContext, json, requestsTo, type TestContext } from '../support/context.js'

const FIXTURE = new URL('../fixtures/components-project/src/api/', import.meta.url).pathname
const types: readonly ContentType[] = loadContentTypes(FIXTURE)

beforeAll(() => {
  vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true })
})
afterAll(() => {
  vi.useRealTimers()
})

const settle = () => vi.setSystemTime(Date.now() + SETTLE_MS + 100)

describe('list answers joined from the documents\' kept JSON', () => {
  let ctx: TestContext
  let key: string
  /** A process on the same table keeping nothing (no documents, no JSON), the page cache off too. */
  let bare: TestContext['request']
  let lead: string
  const pageIds: string[] = []

  const text = async (request: TestContext['request'], path: string) => {
    const response = await request('GET', path, { token: key })
    expect(response.status).toBe(200)
    return response.text()
  }
  /** `path` read twice settled by the keeping process (the second from kept versions and JSON), then by the bare one: the three alike. */
  const alike = async (path: string) => {
    settle()
    const first = await text(ctx.request, path)
    const second = await text(ctx.request, path)
    expect(second).toBe(first)
    expect(await text(bare, path)).toBe(second)
    return JSON.parse(second) as { data: Record<string, any>[] }
  }

  beforeAll(async () => {
    ctx = await createTestContext({ rest: { pageCache: 0 } }, {}, types)
    key = await ctx.token()
    const config = { ...ctx.config, rest: { ...ctx.config.rest, pageCache: 0, populate: { ...ctx.config.rest.populate, cacheBytes: 0 } } }
    bare = requestsTo(createServerApp(createServices(ctx.db, config, { adminToken: ADMIN_TOKEN, tokenHashSecret: TOKEN_HASH_SECRET }, types), () => undefined))
    const article = await ctx.request('POST', '/api/articles', { token: key, body: { data: { title: 'Lead story', secret: 'x' } } })
    expect(article.status).toBe(200)
    lead = (await json(article)).data.documentId
    for (let i = 0; i < 7; i++) {
      const blocks = [
        { __component: 'blocks.hero', heading: `Hero ${i} ✓ "quoted"`, subheading: i % 2 === 0 ? null : `sub ${i}`, ctas: [{ text: `Go ${i}`, url: `/go/${i}` }] },
        { __component: 'blocks.text', body: `Body ${i}\nwith a line break and ünïcödé` },
        ...(i === 3 ? [{ __component: 'blocks.related', heading: 'See also', lead }] : []),
      ]
      const data = { title: `Page ${i}`, seo: { metaTitle: `Meta ${i}`, priority: i, token: 'private', keywords: [{ word: `w${i}`, weight: i + 0.5 }] }, links: [{ text: `Link ${i}`, url: `/l/${i}` }], blocks }
      const response = await ctx.request('POST', '/api/pages?status=published', { token: key, body: { data } })
      expect(response.status).toBe(200)
      pageIds.push((await json(response)).data.documentId)
    }
  })

  it('answers the bytes a process keeping nothing answers, in every shape, one shape never served for another', async () => {
    const before = ctx.services.rendered.size
    const shapes = [
      '/api/pages',
      '/api/pages?populate=*',
      '/api/pages?fields[0]=title',
      '/api/pages?fields[0]=title&populate=*',
      '/api/pages?populate=seo',
      '/api/pages?populate[seo][fields][0]=priority',
      '/api/pages?populate=seo.keywords',
      '/api/pages?populate[blocks]=*',
      '/api/pages?populate[blocks][on][blocks.hero][fields][0]=heading',
      '/api/pages?populate[blocks][on][blocks.hero][populate][ctas]=true&populate[blocks][on][blocks.text]=true',
      '/api/pages?populate[0]=links&populate[1]=blocks&sort=title:desc&pagination[pageSize]=3&pagination[page]=2',
    ]
    const answers = new Map<string, string>()
    for (const path of shapes) answers.set(path, JSON.stringify(await alike(path)))
    // Every shape answered differently: none was served another's JSON.
    expect(new Set(answers.values()).size).toBe(shapes.length)
    // The JSON was kept (the answers came from it), private values left out.
    expect(ctx.services.rendered.size).toBeGreaterThan(before)
    expect(answers.get('/api/pages?populate=*')).not.toContain('private')
    const full = JSON.parse(answers.get('/api/pages?populate=*') as string).data as Record<string, any>[]
    expect(full.find((page) => page.title === 'Page 1')?.blocks[0]).toEqual({ __component: 'blocks.hero', id: expect.any(Number), heading: 'Hero 1 ✓ "quoted"', subheading: 'sub 1' })
  })

  it('shows a changed document changed at once, and again once its list has settled', async () => {
    const path = '/api/pages?populate=*&sort=title'
    await alike(path)
    const documentId = pageIds[2] as string
    const changed = await ctx.request('PUT', `/api/pages/${documentId}?status=published`, {
      token: key,
      body: { data: { blocks: [{ __component: 'blocks.text', body: 'Rewritten' }] } },
    })
    expect(changed.status).toBe(200)
    const blocksOf = (answer: { data: Record<string, any>[] }) => answer.data.find((page) => page.documentId === documentId)?.blocks
    // Before the list settles, then after (kept anew).
    expect(blocksOf(JSON.parse(await text(ctx.request, path)))).toEqual([{ __component: 'blocks.text', id: expect.any(Number), body: 'Rewritten', columns: 1 }])
    expect(blocksOf(await alike(path))).toEqual([{ __component: 'blocks.text', id: expect.any(Number), body: 'Rewritten', columns: 1 }])
  })

  it('keeps no JSON of documents read before their list settled (not kept, never found again), and keeps it once settled', async () => {
    const path = '/api/pages?fields[0]=title&fields[1]=updatedAt'
    const changed = await ctx.request('PUT', `/api/pages/${pageIds[4]}?status=published`, { token: key, body: { data: { title: 'Page 4, changed' } } })
    expect(changed.status).toBe(200)
    const before = ctx.services.rendered.size
    await text(ctx.request, path)
    expect(ctx.services.rendered.size).toBe(before)
    await alike(path)
    expect(ctx.services.rendered.size).toBeGreaterThan(before)
  })

  it('renders anew each time an answer shows another document (a relation inside a component), which can change alone', async () => {
    const path = '/api/pages?populate[blocks][on][blocks.related][populate][lead][fields][0]=title&populate[blocks][on][blocks.hero]=true&populate[blocks][on][blocks.text]=true'
    const leadOf = (answer: { data: Record<string, any>[] }) => answer.data.find((page) => page.title === 'Page 3')?.blocks.find((block: any) => block.__component === 'blocks.related')?.lead?.title
    expect(leadOf(await alike(path))).toBe('Lead story')
    const renamed = await ctx.request('PUT', `/api/articles/${lead}`, { token: key, body: { data: { title: 'Renamed story' } } })
    expect(renamed.status).toBe(200)
    // The page's version did not change: only a JSON made afresh shows the new title.
    expect(leadOf(JSON.parse(await text(ctx.request, path)))).toBe('Renamed story')
    expect(leadOf(await alike(path))).toBe('Renamed story')
  })
})
