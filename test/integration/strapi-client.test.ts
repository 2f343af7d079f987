// Strapi's own client library, `@strapi/client`, against the API over real HTTP on loopback: the
// compatibility promise (same query syntax, same envelopes) checked by a client we did not write.
import { strapi } from '@strapi/client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createServerApp } from '../../lib/server-app.js'
import { createTestContext, type TestContext } from '../support/context.js'
import { startServer, type TestServer } from '../support/server.js'

type Client = ReturnType<typeof strapi>

describe('@strapi/client', () => {
  let ctx: TestContext
  let server: TestServer
  let client: Client

  beforeAll(async () => {
    ctx = await createTestContext()
    await ctx.addLocales('fr', 'de')
    server = await startServer(createServerApp(ctx.services))
    client = strapi({ baseURL: `${server.url}/api`, auth: await ctx.token() })
  })
  afterAll(() => server.close())

  it('creates, localizes, lists with sort and pagination, reads and deletes a collection document', async () => {
    const articles = client.collection('articles')
    const created = await articles.create({ title: 'Banana', views: 3 })
    expect(created.data).toMatchObject({ title: 'Banana', views: 3, locale: 'en' })
    await articles.create({ title: 'apple', views: 3 })
    const documentId = created.data.documentId

    const fr = await articles.update(documentId, { title: 'Banane' }, { locale: 'fr' })
    expect(fr.data).toMatchObject({ documentId, locale: 'fr', title: 'Banane', views: 3 })

    const page = await articles.find({ locale: 'en', sort: ['views:desc', 'title'], pagination: { page: 1, pageSize: 1 } })
    expect(page.data.map((doc) => doc.title)).toEqual(['apple'])
    expect(page.meta.pagination).toEqual({ page: 1, pageSize: 1, pageCount: 2, total: 2 })

    const one = await articles.findOne(documentId, { locale: 'fr' })
    expect(one.data).toEqual([fr.data])

    await articles.delete(documentId, { locale: 'fr' })
    expect((await articles.find({ locale: 'fr' })).meta.pagination?.total).toBe(0)
  })

  it('filters and selects fields with find({ filters, fields }) and findOne(id, { fields })', async () => {
    const articles = client.collection('articles')
    const a = await articles.create({ title: 'Filtered one', slug: 'filtered-one', views: 10, category: 'guides' })
    await articles.create({ title: 'Filtered two', slug: 'filtered-two', views: 20, category: 'news' })
    await articles.create({ title: 'Other', slug: 'other', views: 30, category: 'guides' })

    const bySlug = await articles.find({ filters: { slug: { $eq: 'filtered-one' } }, fields: ['title', 'views'] })
    expect(bySlug.data).toEqual([{ id: a.data.id, documentId: a.data.documentId, title: 'Filtered one', views: 10 }])
    expect(bySlug.meta.pagination?.total).toBe(1)

    const logical = await articles.find({
      filters: { $and: [{ title: { $startsWith: 'Filtered' } }, { $or: [{ category: { $eq: 'news' } }, { views: { $lt: 15 } }] }] },
      sort: 'views:desc',
      fields: ['slug'],
    })
    expect(logical.data.map((doc) => doc.slug)).toEqual(['filtered-two', 'filtered-one'])

    const one = await articles.findOne(a.data.documentId, { fields: ['title'] })
    expect(one.data).toEqual([{ id: a.data.id, documentId: a.data.documentId, title: 'Filtered one' }])
  })

  it('writes and reads a single type', async () => {
    const home = client.single('homepage')
    const written = await home.update({ title: 'Welcome' })
    expect(written.data).toMatchObject({ title: 'Welcome', locale: 'en' })
    await home.update({ title: 'Willkommen' }, { locale: 'de' })
    expect((await home.find({ locale: 'de' })).data).toMatchObject({ title: 'Willkommen', documentId: written.data.documentId })
    await home.delete({ locale: 'de' })
    await expect(home.find({ locale: 'de' })).rejects.toThrow(/404/)
  })

  it('surfaces the error envelope of a bad request', async () => {
    const failure = await client.collection('articles').find({ locale: 'xx' }).catch((error: unknown) => error)
    expect(failure).toBeInstanceOf(Error)
    const response = (failure as { response?: Response }).response
    expect(response?.status).toBe(400)
    expect(await response?.json()).toMatchObject({ data: null, error: { status: 400, name: 'ValidationError' } })
  })
})
