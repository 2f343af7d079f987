// Bodies over HTTP (behaviour.md §6): numbers are kept exactly or refused, and `data: {}` is valid.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestContext, json, tableSnapshot, type TestContext } from '../support/context.js'

let ctx: TestContext
let key: string

beforeAll(async () => {
  ctx = await createTestContext()
  key = await ctx.token()
  await ctx.addLocales('fr')
})
afterAll(() => ctx.db.destroy())

const blocksWith = (number: string) =>
  `{"data":{"title":"T","body":[{"type":"paragraph","children":[{"type":"text","text":"x","n":${number}}]}]}}`

describe('numbers', () => {
  it.each(['1e309', '123456789012345678901234567890'])('answers 400 for %s inside blocks and writes nothing', async (number) => {
    const before = await tableSnapshot(ctx)
    const response = await ctx.request('POST', '/api/articles', { token: key, body: blocksWith(number) })
    expect(response.status).toBe(400)
    expect((await json(response)).error.message).toContain(number)
    expect(await tableSnapshot(ctx)).toBe(before)
  })

  it('answers 400 for an integer attribute that a double rounds', async () => {
    const response = await ctx.request('POST', '/api/articles', { token: key, body: '{"data":{"views":1.0000000000000001}}' })
    expect(response.status).toBe(400)
  })

  it('keeps a number a double holds, inside blocks, as sent', async () => {
    const response = await ctx.request('POST', '/api/articles', { token: key, body: blocksWith('12345678901234567e-5') })
    expect(response.status).toBe(200)
    const { documentId } = (await json(response)).data
    const read = await json(await ctx.request('GET', `/api/articles/${documentId}`, { token: key }))
    expect(read.data[0].body[0].children[0].n).toBe(123456789012.34567)
  })
})

describe('data: {}', () => {
  it('creates a document with every attribute null', async () => {
    const response = await ctx.request('POST', '/api/articles', { token: key, body: { data: {} } })
    expect(response.status).toBe(200)
    expect((await json(response)).data).toMatchObject({ title: null, body: null, slug: null, views: null, category: null, locale: 'en' })
  })

  it('creates a localization with localized attributes null and the others inherited', async () => {
    const created = await json(await ctx.request('POST', '/api/articles', { token: key, body: { data: { title: 'T', views: 7 } } }))
    const response = await ctx.request('PUT', `/api/articles/${created.data.documentId}?locale=fr`, { token: key, body: { data: {} } })
    expect(response.status).toBe(200)
    expect((await json(response)).data).toMatchObject({ title: null, views: 7, locale: 'fr' })
  })

  it('updates nothing with a 200', async () => {
    const created = await json(await ctx.request('POST', '/api/articles', { token: key, body: { data: { title: 'T', views: 7 } } }))
    const response = await ctx.request('PUT', `/api/articles/${created.data.documentId}`, { token: key, body: { data: {} } })
    expect(response.status).toBe(200)
    expect((await json(response)).data).toMatchObject({ title: 'T', views: 7 })
  })
})
