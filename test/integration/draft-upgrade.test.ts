// Upgrading a table stored before draft & publish (content-model.md §15, issue 22 point 5): its
// versions are published versions without drafts. Published reads stay right throughout; drafts
// are created by the first write to a document, or by the resumable reindex for every document,
// after which draft reads and publicationFilter are served (503 before, never a wrong answer).
import { PutCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb'
import { beforeEach, describe, expect, it } from 'vitest'
import type { Version } from '../../lib/storage/items.js'
import { emptyDocument, planWrites } from '../../lib/storage/document-plan.js'
import { headKey } from '../../lib/storage/items.js'
import { KEY_VERSION } from '../../lib/storage/index-keys.js'
import { newDocumentId } from '../../lib/storage/documents.js'
import { Reindexer } from '../../lib/storage/reindex.js'
import { META } from '../../lib/table.js'
import { createTestContext, expectStorageInvariants, json, scanTable, type TestContext } from '../support/context.js'
import { article } from '../support/types.js'

/** The article type as it was stored before draft & publish: published versions only, no publication states. */
const before = { ...article, draftAndPublish: false }

describe('upgrading a table to draft & publish', () => {
  let ctx: TestContext
  let key: string
  const legacy: { documentId: string; titles: Record<string, string> }[] = []

  /** Writes `count` documents (every third also in fr) as the code before draft & publish stored them. */
  async function seedLegacy(count: number): Promise<void> {
    legacy.length = 0
    const at = '2025-06-01T00:00:00.000Z'
    for (let i = 0; i < count; i++) {
      const documentId = newDocumentId()
      const locales = i % 3 === 0 ? ['en', 'fr'] : ['en']
      const versions: Version[] = locales.map((locale, l) => ({
        documentId, locale, status: 'published', id: 1000 + i * 2 + l, rev: 1, createdAt: at, updatedAt: at, publishedAt: at,
        attributes: { title: `${locale} ${String(i).padStart(2, '0')}`, body: null, slug: null, views: i, category: 'legacy' },
      }))
      const items = planWrites(before, ctx.config.tableName, emptyDocument(documentId), versions, new Map(), at)
      await ctx.db.send(new TransactWriteCommand({ TransactItems: [{ Put: { TableName: ctx.config.tableName, Item: { ...headKey(documentId), contentType: article.uid, rev: 1 } } }, ...items] }))
      legacy.push({ documentId, titles: Object.fromEntries(versions.map((version) => [version.locale, String(version.attributes.title)])) })
    }
    // The id sequence past the seeded ids, and the reindex state of a table whose drafts were never created.
    await ctx.db.send(new PutCommand({ TableName: ctx.config.tableName, Item: { documentId: META.sequence, locale: article.uid, n: 1000 + count * 2 } }))
    await ctx.db.send(new PutCommand({ TableName: ctx.config.tableName, Item: { documentId: META.index, locale: 'state', keyVersion: KEY_VERSION, at } }))
  }

  const titles = async (query: string, token?: string) => {
    const response = await ctx.request('GET', `/api/articles?${query}`, { token })
    expect(response.status).toBe(200)
    const body = await json(response)
    return { titles: body.data.map((doc: { title: string }) => doc.title) as string[], total: body.meta.pagination.total as number }
  }
  const publishedEn = () => legacy.map((doc) => doc.titles.en as string).sort()

  beforeEach(async () => {
    ctx = await createTestContext()
    key = await ctx.token('full-access')
    await ctx.addLocales('fr')
    await seedLegacy(12)
  })

  it('keeps published reads right, refuses draft reads with 503 until the drafts exist, and creates them on the first write', async () => {
    expect(await titles('sort=title&pagination[pageSize]=100')).toEqual({ titles: publishedEn(), total: 12 })
    for (const query of ['status=draft', 'publicationFilter=modified']) {
      const refused = await ctx.request('GET', `/api/articles?${query}`, { token: key })
      expect(refused.status).toBe(503)
      expect(refused.headers.get('retry-after')).not.toBeNull()
    }
    expect((await ctx.request('GET', `/api/articles/${legacy[0]!.documentId}?status=draft`, { token: key })).status).toBe(503)
    // A draft write to a document stored before: its drafts are created (equal to its published versions), then written.
    const target = legacy[0]!
    const put = await ctx.request('PUT', `/api/articles/${target.documentId}?status=draft`, { token: key, body: { data: { title: 'edited draft' } } })
    expect(put.status).toBe(200)
    expect((await json(put)).data).toMatchObject({ title: 'edited draft', publishedAt: null, views: 0 })
    expect((await titles('sort=title&pagination[pageSize]=100')).titles).toEqual(publishedEn())
    await expectStorageInvariants(ctx)
  })

  it('creates every draft with the resumable reindex, published reads right at every step, then serves drafts and publication states', async () => {
    const stepper = new Reindexer(ctx.db, ctx.config.tableName, ctx.services.documents, ctx.services.locales, ctx.services.types, 5)
    let step = await stepper.step(undefined)
    for (let guard = 0; !step.done && guard < 200; guard++) {
      expect(await titles('sort=title&pagination[pageSize]=100')).toEqual({ titles: publishedEn(), total: 12 })
      expect((await titles('locale=fr&pagination[pageSize]=100')).total).toBe(4)
      step = await stepper.step(step.cursor ?? undefined)
    }
    expect(step.done).toBe(true)
    expect(await titles('status=draft&sort=title&pagination[pageSize]=100', key)).toEqual({ titles: publishedEn(), total: 12 })
    expect((await titles('status=draft&locale=fr&pagination[pageSize]=100', key)).total).toBe(4)
    expect((await titles('publicationFilter=unmodified&pagination[pageSize]=100', key)).total).toBe(12)
    expect((await titles('publicationFilter=modified', key)).total).toBe(0)
    // Drafts have their own ids; the published ones keep theirs (clients holding them are unaffected).
    const items = await scanTable(ctx)
    const drafts = items.filter((item) => String(item.locale).startsWith('draft:'))
    expect(drafts).toHaveLength(16)
    expect(new Set(drafts.map((item) => item.id)).size).toBe(16)
    expect(drafts.every((item) => Number(item.id) > 1000 + 12 * 2)).toBe(true)
    const edited = await ctx.request('PUT', `/api/articles/${legacy[1]!.documentId}?status=draft`, { token: key, body: { data: { title: 'changed' } } })
    expect(edited.status).toBe(200)
    expect((await titles('publicationFilter=modified', key)).titles).toEqual(['en 01'])
    await expectStorageInvariants(ctx)
  })
})
