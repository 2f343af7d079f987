// The resumable backfill (`npm run admin -- reindex`, POST /admin/reindex): served lists rebuilt after
// a fallback change, and a table upgraded from the layout before slot indexes, never answering a
// wrong list while it runs.
import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb'
import { beforeEach, describe, expect, it } from 'vitest'
import { Reindexer } from '../../lib/storage/reindex.js'
import { createTestContext, expectStorageInvariants, json, scanTable, type TestContext } from '../support/context.js'

describe('reindex', () => {
  let ctx: TestContext
  let key: string
  beforeEach(async () => {
    ctx = await createTestContext()
    key = await ctx.token()
    await ctx.addLocales('fr', 'fr-CA')
  })

  const create = async (locale: string, title: string, documentId?: string) => {
    const path = documentId === undefined ? `/api/articles?locale=${locale}` : `/api/articles/${documentId}?locale=${locale}`
    const response = await ctx.request(documentId === undefined ? 'POST' : 'PUT', path, { token: key, body: { data: { title } } })
    expect(response.status).toBe(200)
    return (await json(response)).data as { documentId: string; title: string }
  }
  const titles = async (query: string) => (await json(await ctx.request('GET', `/api/articles?${query}`))).data.map((doc: { title: string; locale: string }) => `${doc.locale}:${doc.title}`)
  /** Runs every step through the admin API, as the CLI does; returns the number of steps. */
  const reindex = async () => {
    let cursor: string | undefined
    for (let steps = 1; ; steps++) {
      const response = await ctx.admin('POST', '/admin/reindex', cursor === undefined ? {} : { cursor })
      expect(response.status).toBe(200)
      const { data } = await json(response)
      if (data.done) return steps
      cursor = data.cursor
    }
  }

  it('serves a fallback list correctly before, during and after the rebuild of its served list', async () => {
    // Documents written before fr-CA had a fallback: they have no served copies yet.
    const en = await create('en', 'Banana')
    const fr = await create('fr', 'abricot')
    await create('fr', 'Cerise', en.documentId)
    await create('fr-CA', 'érable')
    await create('en', 'apple')
    expect((await ctx.admin('PUT', '/admin/i18n/locales/fr-CA', { fallback: 'fr' })).status).toBe(200)
    expect((await ctx.admin('PUT', '/admin/i18n/locales/fr', { fallback: 'en' })).status).toBe(200)
    const expected = ['fr:abricot', 'en:apple', 'fr:Cerise', 'fr-CA:érable']
    // Before the rebuild: read from the chain's own lists.
    expect(await titles('locale=fr-CA&sort=title')).toEqual(expected)
    expect((await json(await ctx.request('GET', `/api/articles/${fr.documentId}?locale=fr-CA`))).data[0].title).toBe('abricot')
    // During: step by step, three items of the table at a time, every list still right.
    const stepper = new Reindexer(ctx.db, ctx.config.tableName, ctx.services.documents, ctx.services.locales, ctx.services.types, 3)
    let step = await stepper.step(undefined)
    for (let guard = 0; !step.done && guard < 100; guard++) {
      expect(await titles('locale=fr-CA&sort=title')).toEqual(expected)
      step = await stepper.step(step.cursor ?? undefined)
    }
    expect(step.done).toBe(true)
    expect(await ctx.services.locales.servedReady('fr-CA')).toBe(true)
    // After: from the served list, the same answer; a copy per document served in fr-CA and fr.
    expect(await titles('locale=fr-CA&sort=title')).toEqual(expected)
    expect(await titles('locale=fr-CA&sort=title:desc')).toEqual([...expected].reverse())
    const copies = (await scanTable(ctx)).filter((item) => String(item.locale).startsWith('~'))
    expect(copies.filter((item) => item.locale === '~fr-CA')).toHaveLength(4)
    expect(copies.filter((item) => item.locale === '~fr')).toHaveLength(3)
    await expectStorageInvariants(ctx)
  })

  it('marks no served list ready when a fallback changed during the pass, and finishes on the next', async () => {
    await create('en', 'one')
    await ctx.admin('PUT', '/admin/i18n/locales/fr', { fallback: 'en' })
    const stepper = new Reindexer(ctx.db, ctx.config.tableName, ctx.services.documents, ctx.services.locales, ctx.services.types, 1)
    const first = await stepper.step(undefined)
    await ctx.admin('PUT', '/admin/i18n/locales/fr-CA', { fallback: 'fr' })
    let step = first
    while (step.cursor !== null && !step.done) step = await stepper.step(step.cursor)
    expect(step.done).toBe(true)
    expect(await ctx.services.locales.servedReady('fr-CA')).toBe(true)
    expect(await titles('locale=fr-CA')).toEqual(['en:one'])
  })

  it('upgrades documents stored without slot keys, heads or served copies, so sorted lists read the indexes', async () => {
    for (const title of ['b', 'c', 'a']) await create('en', title)
    // Strip what the slot layout added, as a table written before it would hold its items.
    const items = await scanTable(ctx)
    const old = items.filter((item) => !String(item.documentId).startsWith('#') && item.locale === 'en').map((item) => {
      const stripped = Object.fromEntries(Object.entries(item).filter(([name]) => !/^k\d+$/.test(name) && name !== 'f'))
      return { PutRequest: { Item: stripped } }
    })
    // ...and without the heads or the record of a completed index (the documents' id sequence exists).
    const gone = items.filter((item) => item.locale === '#head' || item.documentId === '#index')
    const deletes = gone.map((item) => ({ DeleteRequest: { Key: { documentId: item.documentId, locale: item.locale } } }))
    await ctx.db.send(new BatchWriteCommand({ RequestItems: { [ctx.config.tableName]: [...old, ...deletes] } }))
    // While not reindexed the slot indexes lack these documents: lists read the documents instead.
    expect(await ctx.services.locales.indexTrusted()).toBe(false)
    expect(await titles('sort=title')).toEqual(['en:a', 'en:b', 'en:c'])
    expect(await titles('sort=title:desc&filters[title][$ne]=b')).toEqual(['en:c', 'en:a'])
    expect(await reindex()).toBe(1)
    expect(await ctx.services.locales.indexTrusted()).toBe(true)
    expect(await titles('sort=title')).toEqual(['en:a', 'en:b', 'en:c'])
    expect((await scanTable(ctx)).filter((item) => item.locale === '#head')).toHaveLength(3)
  })

  it('answers 400 for a malformed cursor and 401 without the admin token', async () => {
    expect((await ctx.admin('POST', '/admin/reindex', { cursor: 'not-a-cursor' })).status).toBe(400)
    expect((await ctx.request('POST', '/admin/reindex', { body: {} })).status).toBe(401)
  })
})
