// `npm run import` moves relations and media inside components (integration.md §21): Strapi exports
// them as links of the component entries' own rows (left: the component's uid and the entry's id;
// media as `relation.morph` links from the file to the entry), as its data-transfer's link stream
// does for every content type and component. The archive is written here in that layout for the
// models of test/fixtures/components-project (a component with a relation and a media, a zone entry
// with a to-many relation and a multiple media); after the import the populated reads show them.
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { LocalBlobs } from '../../lib/local/uploads.js'
import { loadContentTypes } from '../../lib/schema/load.js'
import { ArchiveWriter } from '../../lib/transfer/archive-writer.js'
import { importArchive } from '../../lib/transfer/import.js'
import { archiveSchemas, STRAPI_VERSION } from '../../lib/transfer/strapi-schemas.js'
import { createTestContext, expectLinksIndexed, json, scanTable, type TestContext } from '../support/context.js'

const TYPES = new URL('../fixtures/components-project/src/api/', import.meta.url).pathname
const STAMP = '2026-01-01T00:00:00.000Z'
const ids = { one: 'a'.repeat(24), two: 'b'.repeat(24), page: 'c'.repeat(24), red: 'd'.repeat(24), blue: 'e'.repeat(24) }

async function writeArchive(path: string): Promise<void> {
  const writer = new ArchiveWriter(path)
  const entity = (type: string, id: number, data: Record<string, unknown>) => writer.line('entities', { type, id, data: { createdAt: STAMP, updatedAt: STAMP, ...data } })
  const link = (relation: string, left: Record<string, unknown>, right: Record<string, unknown>, kind = 'relation.basic') => writer.line('links', { kind, relation, left, right })
  await writer.file('metadata.json', JSON.stringify({ createdAt: STAMP, strapi: { version: STRAPI_VERSION } }))
  for (const schema of archiveSchemas(TYPES)) await writer.line('schemas', schema)
  await entity('plugin::i18n.locale', 1, { documentId: 'f'.repeat(24), name: 'English (en)', code: 'en', publishedAt: STAMP, locale: null })
  for (const [id, documentId, name] of [[1, ids.red, 'red'], [2, ids.blue, 'blue']] as const) {
    await entity('plugin::upload.file', id, { documentId, name: `${name}.png`, alternativeText: null, caption: null, width: 4, height: 3, formats: null, hash: `${name}_1`, ext: '.png', mime: 'image/png', size: 0.1, url: `/uploads/${name}_1.png`, previewUrl: null, provider: 'local', provider_metadata: null, folderPath: '/1', publishedAt: STAMP, locale: null })
  }
  await entity('api::article.article', 1, { documentId: ids.one, title: 'One', secret: null, publishedAt: STAMP, locale: 'en' })
  await entity('api::article.article', 2, { documentId: ids.two, title: 'Two', secret: null, publishedAt: STAMP, locale: 'en' })
  // The page's published row (id 1) and draft row (id 2), each with its own component entries.
  for (const [row, publishedAt, seo, block] of [[1, STAMP, 1, 1], [2, null, 2, 2]] as const) {
    await entity('api::page.page', row, {
      documentId: ids.page, title: 'Page', publishedAt, locale: 'en', links: [],
      seo: { id: seo, metaTitle: 'Seo', metaDescription: null, priority: null, token: null, keywords: [] },
      blocks: [{ id: block, __component: 'blocks.related', heading: 'Read on' }],
    })
    await link('oneToOne', { type: 'shared.seo', field: 'canonical', ref: seo }, { type: 'api::article.article', ref: 2 })
    await link('oneToMany', { type: 'blocks.related', field: 'articles', ref: block, pos: 1 }, { type: 'api::article.article', ref: 2 })
    await link('oneToMany', { type: 'blocks.related', field: 'articles', ref: block, pos: 2 }, { type: 'api::article.article', ref: 1 })
    await link('morphToMany', { type: 'plugin::upload.file', field: 'related', ref: 1 }, { type: 'shared.seo', field: 'image', ref: seo, pos: 1 }, 'relation.morph')
    for (const [pos, file] of [[1, 2], [2, 1]] as const) {
      await link('morphToMany', { type: 'plugin::upload.file', field: 'related', ref: file }, { type: 'blocks.related', field: 'gallery', ref: block, pos }, 'relation.morph')
    }
  }
  await writer.close()
}

describe('import of relations and media inside components', () => {
  let ctx: TestContext
  let report: Awaited<ReturnType<typeof importArchive>>

  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'import-component-links-'))
    await writeArchive(join(dir, 'archive.tar.gz'))
    ctx = await createTestContext({ rest: { findOneShape: 'object' } }, {}, loadContentTypes(TYPES), new LocalBlobs(join(dir, 'blobs')))
    report = await importArchive(ctx.services, join(dir, 'archive.tar.gz'))
  })

  it('links each entry to the documents and files its row links to, in their order', async () => {
    expect(report.differences).toEqual([])
    const token = await ctx.token('full-access')
    for (const status of ['published', 'draft']) {
      const query = `status=${status}&populate[seo][populate]=*&populate[blocks][on][blocks.related][populate]=*`
      const { data } = await json(await ctx.request('GET', `/api/pages/${ids.page}?${query}`, { token }))
      expect(data.seo.canonical).toMatchObject({ documentId: ids.two, title: 'Two' })
      expect(data.seo.image).toMatchObject({ documentId: ids.red, name: 'red.png' })
      const [block] = data.blocks
      expect(block.articles.map((article: { title: string }) => article.title)).toEqual(['Two', 'One'])
      expect(block.gallery.map((file: { name: string }) => file.name)).toEqual(['blue.png', 'red.png'])
    }
    expectLinksIndexed(await scanTable(ctx), new Map(), loadContentTypes(TYPES))
  })

  it('finds the page through a relation inside its component', async () => {
    const token = await ctx.token('full-access')
    const { data } = await json(await ctx.request('GET', `/api/pages?filters[seo][canonical][title][$eq]=Two`, { token }))
    expect(data.map((page: { documentId: string }) => page.documentId)).toEqual([ids.page])
  })
})
