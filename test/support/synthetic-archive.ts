// A Strapi archive of any size, as `strapi export` writes one (test/fixtures/strapi-archives/ for
// the shape), for the kill test and the import bench: locales en and fr, authors and tags, and
// `articles` documents each in en and fr, each locale a draft row and a published row, with an
// author and two tags; with `pages` (the media fixture's types), pages with a component, a
// repeatable component and a dynamic zone in both locales too. Written with the exporter's writer.
import { randomBytes } from 'node:crypto'
import { ArchiveWriter } from '../../lib/transfer/archive-writer.js'
import { archiveSchemas, STRAPI_VERSION } from '../../lib/transfer/strapi-schemas.js'

export interface SyntheticArchive {
  readonly articles: number
  readonly pages?: number
  /** The schema files the archive's schemas come from (the page type's folder when `pages` > 0). */
  readonly typesDir: string
}

const documentId = () => Array.from(randomBytes(24), (byte) => 'abcdefghijklmnopqrstuvwxyz0123456789'[byte % 36]).join('')
const LOCALES = ['en', 'fr'] as const
const AUTHORS = 20
const TAGS = 10

/** Writes the archive at `path`; returns the number of rows of each type. */
export async function writeSyntheticArchive(path: string, spec: SyntheticArchive): Promise<Record<string, number>> {
  const writer = new ArchiveWriter(path)
  const stamp = '2026-01-01T00:00:00.000Z'
  const counts: Record<string, number> = {}
  const row = async (type: string, data: Record<string, unknown>) => {
    const id = (counts[type] = (counts[type] ?? 0) + 1)
    await writer.line('entities', { type, id, data: { ...data, createdAt: stamp, updatedAt: stamp } })
    return id
  }
  await writer.file('metadata.json', JSON.stringify({ createdAt: stamp, strapi: { version: STRAPI_VERSION } }))
  for (const schema of archiveSchemas(spec.typesDir)) await writer.line('schemas', schema)
  for (const code of LOCALES) await row('plugin::i18n.locale', { documentId: documentId(), name: code, code, publishedAt: stamp, locale: null })
  await writer.line('configuration', { type: 'core-store', value: { id: 1, key: 'plugin_i18n_default_locale', value: 'en', type: 'string', environment: null, tag: null } })
  for (let n = 0; n < AUTHORS; n++) await row('api::author.author', { documentId: documentId(), name: `Author ${n}`, email: `author${n}@example.com`, publishedAt: stamp, locale: 'en' })
  for (let n = 0; n < TAGS; n++) await row('api::tag.tag', { documentId: documentId(), name: `Tag ${n}`, slug: `tag-${n}`, publishedAt: stamp, locale: 'en' })
  for (let n = 0; n < spec.articles; n++) {
    const id = documentId()
    for (const locale of LOCALES) {
      for (const publishedAt of [null, stamp]) {
        const ref = await row('api::article.article', { documentId: id, title: `Article ${n} (${locale})`, body: null, slug: `article-${n}-${locale}`, views: n, category: n % 2 === 0 ? 'news' : 'tech', publishedAt, locale })
        await writer.line('links', { kind: 'relation.basic', relation: 'manyToOne', left: { type: 'api::article.article', field: 'author', ref }, right: { type: 'api::author.author', field: 'articles', ref: (n % AUTHORS) + 1 } })
        for (const [pos, tag] of [n % TAGS, (n + 1) % TAGS].entries()) {
          await writer.line('links', { kind: 'relation.basic', relation: 'manyToMany', left: { type: 'api::article.article', field: 'tags', ref, pos: pos + 1 }, right: { type: 'api::tag.tag', field: 'articles', ref: tag + 1 } })
        }
      }
    }
  }
  let component = 0
  for (let n = 0; n < (spec.pages ?? 0); n++) {
    const id = documentId()
    for (const locale of LOCALES) {
      for (const publishedAt of [null, stamp]) {
        await row('api::page.page', {
          documentId: id, title: `Page ${n} (${locale})`, publishedAt, locale,
          seo: { id: ++component, metaTitle: `Page ${n}`, metaDescription: `About page ${n}` },
          links: [{ id: ++component, label: 'Home', url: '/' }, { id: ++component, label: `Page ${n}`, url: `/pages/${n}` }],
          sections: [{ id: ++component, __component: 'shared.quote', text: `Quote ${n}`, by: 'Someone' }, { id: ++component, __component: 'shared.link', label: 'More', url: '/more' }],
        })
      }
    }
  }
  await writer.close()
  return counts
}
