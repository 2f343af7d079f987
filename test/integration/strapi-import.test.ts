// `npm run import` (integration.md §21) of archives made by `strapi export` from the peer
// (test/fixtures/strapi-archives/, remade by scripts/strapi-archives.mjs): after the import, the
// REST reads the peer answered (answers.json) answer the same here, but for the written
// differences; a second run changes nothing; a schema difference stops it before any write.
import { fileURLToPath } from 'node:url'
import { readFileSync } from 'node:fs'
import { beforeAll, describe, expect, it } from 'vitest'
import type { ContentType } from '../../lib/content-types.js'
import { singleTypeDocumentId } from '../../lib/storage/documents.js'
import { importArchive } from '../../lib/transfer/import.js'
import { createTestContext, json, type TestContext } from '../support/context.js'
import { shippedTypes } from '../support/types.js'

const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/strapi-archives/${name}`, import.meta.url))
const answers = JSON.parse(readFileSync(fixture('answers.json'), 'utf8')) as Record<string, { status: number; body: unknown }>

/** The peer's homepage documentId: ours is fixed by the type (a written difference). */
function peerHomepageId(): string {
  const body = answers['/homepage?locale=en&status=published']?.body as { data: { documentId: string } }
  return body.data.documentId
}

/**
 * An answer with the written differences made equal: the single type's documentId, and the order
 * of `localizations` (Strapi's follows no stated order; here by id).
 */
function normalized(value: unknown, homepageId: string): unknown {
  return JSON.parse(JSON.stringify(value).replaceAll(homepageId, peerHomepageId()), (key, item: unknown) =>
    key === 'localizations' && Array.isArray(item) ? [...item].sort((a: { id: number }, b: { id: number }) => a.id - b.id) : item)
}

async function readAll(ctx: TestContext, token: string): Promise<Record<string, { status: number; body: unknown }>> {
  const homepageId = singleTypeDocumentId(shippedTypes.find((type) => type.uid === 'api::homepage.homepage') as ContentType)
  const read: Record<string, { status: number; body: unknown }> = {}
  for (const path of Object.keys(answers)) {
    const response = await ctx.request('GET', `/api${path}`, { token })
    read[path] = { status: response.status, body: normalized(await json(response), homepageId) }
    answers[path] = { ...(answers[path] as { status: number; body: unknown }), body: normalized(answers[path]?.body, homepageId) }
  }
  return read
}

describe.each(['content.tar.gz', 'content.tar'])('import of a Strapi archive (%s)', (archive) => {
  let ctx: TestContext
  let token: string
  let first: Awaited<ReturnType<typeof importArchive>>

  beforeAll(async () => {
    ctx = await createTestContext({ rest: { findOneShape: 'object' } })
    token = await ctx.token()
    first = await importArchive(ctx.services, fixture(archive), { concurrency: 8 })
  })

  it('writes every version of the archive and the locales of its i18n configuration', async () => {
    expect(first.differences).toEqual([])
    expect(first.counts).toEqual({
      'api::article.article': { written: 14, unchanged: 0 },
      'api::author.author': { written: 3, unchanged: 0 },
      'api::homepage.homepage': { written: 3, unchanged: 0 },
      'api::tag.tag': { written: 3, unchanged: 0 },
    })
    const locales = (await json(await ctx.request('GET', '/api/i18n/locales'))) as { code: string; isDefault: boolean }[]
    expect(locales.map((locale) => locale.code).sort()).toEqual(['de', 'en', 'fr'])
    expect(locales.find((locale) => locale.isDefault)?.code).toBe('en')
  })

  it('answers every read the peer answered, as the peer answered it', async () => {
    const read = await readAll(ctx, token)
    for (const [path, expected] of Object.entries(answers)) expect({ path, ...read[path] }).toEqual({ path, ...expected })
  })

  it('changes nothing on a second run', async () => {
    const before = await readAll(ctx, token)
    const second = await importArchive(ctx.services, fixture(archive))
    expect(Object.values(second.counts).map((count) => count.written)).toEqual([0, 0, 0, 0])
    expect(await readAll(ctx, token)).toEqual(before)
  })

  it('gives new documents ids above the imported ones', async () => {
    const created = await json(await ctx.request('POST', '/api/tags', { token, body: { data: { name: 'New', slug: 'new' } } }))
    expect(created.data.id).toBeGreaterThan(3)
  })
})

describe('import of an archive whose schemas differ', () => {
  it('lists every difference and writes nothing', async () => {
    const [article, author, homepage, tag] = ['article', 'author', 'homepage', 'tag'].map((name) => shippedTypes.find((type) => type.singularName === name) as ContentType)
    const changed: ContentType = { ...(article as ContentType), draftAndPublish: false, attributes: { ...(article as ContentType).attributes, subtitle: { type: 'string', localized: true } } }
    const ctx = await createTestContext({}, {}, [changed, author as ContentType, homepage as ContentType])
    const report = await importArchive(ctx.services, fixture('content.tar.gz'))
    expect(report.differences).toEqual([
      'api::article.article.draftAndPublish: archive true, project false',
      'api::article.article.subtitle: an attribute of the project, not in the archive',
      `${(tag as ContentType).uid}: in the archive, not a content type of the project (add its schema.json to the project's content types)`,
    ])
    const token = await ctx.token()
    expect((await json(await ctx.request('GET', '/api/articles?status=draft', { token }))).data).toEqual([])
    expect((await json(await ctx.request('GET', '/api/i18n/locales'))).map((locale: { code: string }) => locale.code)).toEqual(['en'])
  })
})
