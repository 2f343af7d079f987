// Large JSON-text values stored compressed (lib/storage/packed-json.ts) over HTTP on DynamoDB Local:
// a zone, components and blocks past 1 KB are stored as Binary and read back equal through every
// populate form, a list and an export / import; items written before (JSON text) still read and
// are rewritten packed by their next write; a version past the item limit as text but not
// compressed is stored, one past it compressed still a 413 that writes nothing.
import { PutCommand } from '@aws-sdk/lib-dynamodb'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { inflateRawSync } from 'node:zlib'
import { beforeAll, describe, expect, it } from 'vitest'
import type { ContentType } from '../../lib/content-types.js'
import { loadContentTypes } from '../../lib/schema/load.js'
import { itemBytes } from '../../lib/storage/item-size.js'
import { exportArchive } from '../../lib/transfer/export.js'
import { importArchive } from '../../lib/transfer/import.js'
import { createTestContext, documentItems, json, tableSnapshot, type TestContext } from '../support/context.js'

const TYPES = new URL('../fixtures/components-project/src/api/', import.meta.url).pathname
const types: readonly ContentType[] = loadContentTypes(TYPES)

/** A seeded generator of unsigned 32-bit integers (xorshift32). */
function xorshift(seed: number): () => number {
  let state = seed + 0x9e3779b9
  return () => {
    state ^= state << 13
    state ^= state >>> 17
    state ^= state << 5
    return state >>> 0
  }
}

/** Text of `words` words drawn from a small vocabulary by a seeded generator: compresses as prose does. */
function prose(seed: number, words: number): string {
  const vocabulary = ['the', 'page', 'zone', 'block', 'content', 'localized', 'stored', 'reads', 'answer', 'écrit', 'données', '数据', 'with', 'every', 'version']
  const next = xorshift(seed)
  return Array.from({ length: words }, () => vocabulary[next() % vocabulary.length]).join(' ')
}

/** Printable ASCII (no quote, no backslash) that no compression shrinks much. */
function noise(seed: number, length: number): string {
  const next = xorshift(seed)
  return Array.from({ length }, () => String.fromCharCode(35 + (next() % 57))).join('')
}

const zone = (seed: number, words: number) => Array.from({ length: 8 }, (_, i) =>
  i % 2 === 0 ? { __component: 'blocks.hero', heading: `Heading ${seed}.${i}`, subheading: prose(seed + i, words), ctas: [{ text: 'Go', url: `/go/${i}` }] } : { __component: 'blocks.text', body: prose(seed * 7 + i, words), columns: 2 })

/** The stored versions of a document (not its head, not its served copies). */
const versionsOf = async (ctx: TestContext, documentId: string) =>
  (await documentItems(ctx, documentId)).filter((item) => !String(item.locale).startsWith('#') && !String(item.locale).startsWith('~'))

describe('large JSON-text values stored compressed', () => {
  let ctx: TestContext
  let key: string
  const create = async (data: Record<string, unknown>) => {
    const response = await ctx.request('POST', '/api/pages?populate=*', { token: key, body: { data } })
    expect(response.status).toBe(200)
    return (await json(response)).data as Record<string, any>
  }
  const read = async (path: string, context = ctx) => {
    const response = await context.request('GET', path, { token: key })
    expect(response.status, path).toBe(200)
    return (await json(response)).data
  }

  beforeAll(async () => {
    ctx = await createTestContext({ rest: { findOneShape: 'object' } }, {}, types)
    key = await ctx.token()
  })

  it('stores a zone past 1 KB as Binary, smaller than its text, and reads it back equal through every populate form', async () => {
    const blocks = zone(1, 60)
    const page = await create({ title: 'Packed', seo: { metaTitle: 'Packed', metaDescription: prose(3, 300) }, blocks })
    const [item] = await versionsOf(ctx, page.documentId)
    expect(item!.blocks).toBeInstanceOf(Uint8Array)
    const text = inflateRawSync(item!.blocks).toString('utf8')
    expect(item!.blocks.byteLength).toBeLessThan(Buffer.byteLength(text) / 2)
    expect(JSON.parse(text).map((entry: any) => entry.__component)).toEqual(blocks.map((entry) => entry.__component))
    expect(item!.seo).toBeInstanceOf(Uint8Array)
    const path = `/api/pages/${page.documentId}`
    const full = await read(`${path}?populate[blocks][populate]=*&populate[seo]=true`)
    expect(full.blocks).toEqual(blocks.map(({ ctas, ...entry }: any) =>
      expect.objectContaining({ ...entry, id: expect.any(Number), ...(ctas === undefined ? {} : { ctas: ctas.map((cta: object) => expect.objectContaining(cta)) }) })))
    expect(full.seo).toMatchObject({ metaTitle: 'Packed', metaDescription: prose(3, 300) })
    expect((await read(`${path}?populate=*`)).blocks.map((entry: any) => entry.subheading ?? entry.body)).toEqual(blocks.map((entry: any) => entry.subheading ?? entry.body))
    const fragment = await read(`${path}?populate[blocks][on][blocks.text][fields][0]=body&populate[blocks][on][blocks.hero][populate][ctas]=true`)
    expect(fragment.blocks.map((entry: any) => entry.body ?? entry.ctas[0].url)).toEqual(blocks.map((entry: any) => entry.body ?? entry.ctas[0].url))
    const list = await read(`/api/pages?populate=*&filters[documentId][$eq]=${page.documentId}`)
    expect(list[0].blocks).toEqual((await read(`${path}?populate=*`)).blocks)
  })

  it('reads a version stored before (JSON text), and its next write stores it compressed', async () => {
    const blocks = zone(2, 60)
    const page = await create({ title: 'Old', blocks })
    const before = await read(`/api/pages/${page.documentId}?populate=*`)
    for (const item of await documentItems(ctx, page.documentId)) {
      if (!(item.blocks instanceof Uint8Array)) continue
      await ctx.db.send(new PutCommand({ TableName: ctx.config.tableName, Item: { ...item, blocks: inflateRawSync(item.blocks).toString('utf8') } }))
    }
    expect((await versionsOf(ctx, page.documentId)).every((item) => typeof item.blocks === 'string')).toBe(true)
    expect(await read(`/api/pages/${page.documentId}?populate=*`)).toEqual(before)
    expect((await read(`/api/pages?populate=*&filters[documentId][$eq]=${page.documentId}`))[0]).toEqual(before)
    const updated = await ctx.request('PUT', `/api/pages/${page.documentId}?populate=*`, { token: key, body: { data: { title: 'Old, rewritten' } } })
    expect(updated.status).toBe(200)
    expect((await json(updated)).data.blocks).toEqual(before.blocks)
    expect((await versionsOf(ctx, page.documentId)).every((item) => item.blocks instanceof Uint8Array)).toBe(true)
  })

  it('stores a version whose text is past the item limit when compressed it fits, and refuses with a 413 one that does not fit', async () => {
    const long = Array.from({ length: 8 }, (_, i) => ({ __component: 'blocks.text', body: prose(10 + i, 9_000) }))
    expect(Buffer.byteLength(JSON.stringify(long))).toBeGreaterThan(400 * 1024)
    const page = await create({ title: 'Long', blocks: long })
    expect(page.blocks.map((entry: any) => entry.body)).toEqual(long.map((entry) => entry.body))
    const [item] = await versionsOf(ctx, page.documentId)
    expect(itemBytes(item!)).toBeLessThan(380 * 1024)
    expect((await read(`/api/pages/${page.documentId}?populate=*`)).blocks.map((entry: any) => entry.body)).toEqual(long.map((entry) => entry.body))
    const dense = Array.from({ length: 8 }, (_, i) => ({ __component: 'blocks.text', body: noise(20 + i, 100_000) }))
    const snapshot = await tableSnapshot(ctx)
    const refused = await ctx.request('POST', '/api/pages', { token: key, body: { data: { title: 'Dense', blocks: dense } } })
    expect(refused.status).toBe(413)
    expect((await json(refused)).error.name).toBe('PayloadTooLargeError')
    expect(await tableSnapshot(ctx)).toBe(snapshot)
  })

  it('exports packed values as Strapi rows and imports them back equal', async () => {
    const page = await create({ title: 'Exported', seo: { metaTitle: 'Exported', metaDescription: prose(4, 300) }, blocks: zone(5, 60) })
    const archive = join(mkdtempSync(join(tmpdir(), 'packed-export-')), 'export.tar.gz')
    await exportArchive(ctx.services, archive, { typesDir: TYPES })
    const target = await createTestContext({ rest: { findOneShape: 'object' } }, {}, types)
    await importArchive(target.services, archive)
    const path = `/api/pages/${page.documentId}?populate[blocks][populate]=*&populate[seo]=true`
    const strip = (value: unknown): unknown => JSON.parse(JSON.stringify(value, (name, inner) => (name === 'id' ? undefined : inner)))
    const imported = await target.request('GET', path, { token: await target.token() })
    expect(imported.status).toBe(200)
    expect(strip((await json(imported)).data.blocks)).toEqual(strip((await read(path)).blocks))
    expect((await versionsOf(target, page.documentId)).every((item) => item.blocks instanceof Uint8Array)).toBe(true)
  })
})
