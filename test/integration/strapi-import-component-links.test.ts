// `npm run import` moves relations and media inside components (integration.md §21): Strapi exports
// them as links of the component entries' own rows (left: the component's uid and the entry's id;
// media as `relation.morph` links from the file to the entry), as its data-transfer's link stream
// does for every content type and component; `npm run export` writes them the same way. The archive is written here in that layout for the
// models of test/fixtures/components-project (a component with a relation and a media, a zone entry
// with a to-many relation and a multiple media); after the import the populated reads show them.
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { LocalBlobs } from '../../lib/local/uploads.js'
import { loadContentTypes } from '../../lib/schema/load.js'
import { readArchive } from '../../lib/transfer/archive-reader.js'
import { ArchiveWriter } from '../../lib/transfer/archive-writer.js'
import { exportArchive } from '../../lib/transfer/export.js'
import { importArchive } from '../../lib/transfer/import.js'
import { archiveSchemas, STRAPI_VERSION } from '../../lib/transfer/strapi-schemas.js'
import { createTestContext, expectLinksIndexed, json, scanTable, type TestContext } from '../support/context.js'
import { png, sendForm, uploadForm } from '../support/media.js'

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

/** The entities and links of an archive. */
async function contents(path: string): Promise<{ entities: any[]; links: any[] }> {
  const found = { entities: [] as any[], links: [] as any[] }
  await readArchive(path, { record: { entities: (r) => void found.entities.push(r), links: (r) => void found.links.push(r) } })
  return found
}

/** Every component entry id in `value` (nested too), by component uid: `seo` is `shared.seo`, a zone entry says its own. */
function entryIds(value: unknown, uid: string, into: Map<string, number[]>, uids: Record<string, string>): void {
  for (const entry of Array.isArray(value) ? value : value === null || value === undefined ? [] : [value]) {
    const own = (entry.__component as string | undefined) ?? uid
    into.set(own, [...(into.get(own) ?? []), entry.id])
    for (const [name, nested] of Object.entries(uids)) if (entry[name] !== undefined) entryIds(entry[name], nested, into, uids)
  }
}

describe('export of relations and media inside components', () => {
  it('writes them as links of the entries\' rows, with entry ids unique per component, and a fresh import reads them back', async () => {
    // Prepare: the API writes entry ids per document, so two pages (each a draft and a published
    // version) hold the same ids; both link an article inside their seo and their zone.
    const dir = mkdtempSync(join(tmpdir(), 'export-component-links-'))
    const types = loadContentTypes(TYPES)
    const source = await createTestContext({ rest: { findOneShape: 'object' } }, {}, types, new LocalBlobs(join(dir, 'source-blobs')))
    const token = await source.token('full-access')
    const post = async (path: string, data: unknown) => (await json(await source.request('POST', path, { token, body: { data } }))).data
    const red = await post('/api/articles', { title: 'Red' })
    const blue = await post('/api/articles', { title: 'Blue' })
    const uploaded = await sendForm(source, uploadForm([{ bytes: await png(4, 3), name: 'one.png' }, { bytes: await png(5, 3), name: 'two.png' }]), token)
    const [one, two] = (await uploaded.json()) as { id: number; name: string }[]
    const pages: { documentId: string }[] = []
    for (const [title, canonical, articles, image, gallery] of [['First', red, [blue, red], one, [two, one]], ['Second', blue, [red], two, [one]]] as const) {
      pages.push(await post('/api/pages', {
        title, seo: { metaTitle: title, canonical: canonical.documentId, image: image?.id, keywords: [{ word: title }] },
        blocks: [{ __component: 'blocks.hero', heading: title }, { __component: 'blocks.related', heading: 'More', articles: articles.map((doc) => doc.documentId), gallery: gallery.map((file) => file?.id) }],
      }))
    }
    const query = 'populate[seo][populate]=*&populate[blocks][on][blocks.related][populate]=*'
    const names = (docs: any[] | undefined, field: string) => docs?.map((doc) => doc[field])
    const read = async (ctx: TestContext, key: string, status: string) => Promise.all(pages.map(async (page) => {
      const { data } = await json(await ctx.request('GET', `/api/pages/${page.documentId}?status=${status}&${query}`, { token: key }))
      return {
        seo: { metaTitle: data.seo.metaTitle, canonical: data.seo.canonical?.title, image: data.seo.image?.name },
        blocks: data.blocks.map((block: any) => ({ __component: block.__component, articles: names(block.articles, 'title'), gallery: names(block.gallery, 'name') })),
      }
    }))
    // Act
    const archive = join(dir, 'export.tar.gz')
    await exportArchive(source.services, archive, { typesDir: TYPES })
    // Assess: rows hold no relation inside components; the links name the entries' rows.
    const { entities, links } = await contents(archive)
    const rows = entities.filter((entity) => entity.type === 'api::page.page')
    expect(rows).toHaveLength(4)
    expect(entities.filter((entity) => entity.type === 'plugin::upload.file')).toHaveLength(2)
    const ids = new Map<string, number[]>()
    for (const row of rows) {
      expect(row.data.seo).not.toHaveProperty('canonical')
      expect(row.data.seo).not.toHaveProperty('image')
      for (const block of row.data.blocks) expect(block).not.toHaveProperty('articles')
      for (const block of row.data.blocks) expect(block).not.toHaveProperty('gallery')
      entryIds(row.data.seo, 'shared.seo', ids, { keywords: 'shared.keyword', ctas: 'shared.button' })
      entryIds(row.data.blocks, '', ids, { ctas: 'shared.button' })
    }
    for (const [uid, list] of ids) expect(new Set(list).size, uid).toBe(list.length)
    expect(ids.get('shared.seo')).toHaveLength(4)
    const articleRow = new Map(entities.filter((entity) => entity.type === 'api::article.article').map((entity) => [entity.id, entity.data.title]))
    const seoLinks = links.filter((link) => link.left.type === 'shared.seo')
    expect(seoLinks.map((link) => [link.left.field, articleRow.get(link.right.ref)]).sort()).toEqual([['canonical', 'Blue'], ['canonical', 'Blue'], ['canonical', 'Red'], ['canonical', 'Red']])
    const relatedLinks = links.filter((link) => link.left.type === 'blocks.related')
    expect(relatedLinks).toHaveLength(6)
    for (const link of [...seoLinks, ...relatedLinks]) expect(ids.get(link.left.type)).toContain(link.left.ref)
    // Media inside them: a morph link from the file to the entry's row, in the attribute's order.
    const fileRow = new Map(entities.filter((entity) => entity.type === 'plugin::upload.file').map((entity) => [entity.id, entity.data.name]))
    const morphs = links.filter((link) => link.kind === 'relation.morph')
    expect(morphs.filter((link) => link.right.type === 'shared.seo').map((link) => [link.right.field, fileRow.get(link.left.ref)]).sort()).toEqual([['image', 'one.png'], ['image', 'one.png'], ['image', 'two.png'], ['image', 'two.png']])
    expect(morphs.filter((link) => link.right.type === 'blocks.related')).toHaveLength(6)
    for (const link of morphs) expect(ids.get(link.right.type)).toContain(link.right.ref)
    // A fresh table importing the export answers the same populated reads.
    const target = await createTestContext({ rest: { findOneShape: 'object' } }, {}, types, new LocalBlobs(join(dir, 'target-blobs')))
    const report = await importArchive(target.services, archive)
    expect(report.differences).toEqual([])
    const targetToken = await target.token('full-access')
    for (const status of ['published', 'draft']) expect(await read(target, targetToken, status)).toEqual(await read(source, token, status))
    expect((await read(source, token, 'published'))[0]).toEqual({ seo: { metaTitle: 'First', canonical: 'Red', image: 'one.png' }, blocks: [{ __component: 'blocks.hero' }, { __component: 'blocks.related', articles: ['Blue', 'Red'], gallery: ['two.png', 'one.png'] }] })
    expectLinksIndexed(await scanTable(target), new Map(), types)
  })
})
