import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestContext, json, type TestContext } from '../support/context.js'

let ctx: TestContext
let key: string
const req = (method: string, path: string, body?: unknown) => ctx.request(method, path, { body, token: key })

beforeAll(async () => {
  ctx = await createTestContext()
  key = await ctx.token()
  await ctx.addLocales('fr')
})

describe('relations smoke', () => {
  it('links and populates', async () => {
    const author = (await json(await req('POST', '/api/authors', { data: { name: 'Ada', email: 'ada@example.com' } }))).data
    const t1 = (await json(await req('POST', '/api/tags', { data: { name: 'One' } }))).data
    const t2 = (await json(await req('POST', '/api/tags', { data: { name: 'Two' } }))).data
    const created = await req('POST', '/api/articles?populate=*', { data: { title: 'Hello', author: author.documentId, tags: [t1.documentId, t2.documentId] } })
    const body = await json(created)
    console.log(JSON.stringify(body, null, 1))
    expect(created.status).toBe(200)
    const one = await json(await req('GET', `/api/articles/${body.data.documentId}?populate=*`))
    console.log(JSON.stringify(one, null, 1))
    const list = await json(await req('GET', `/api/articles?populate[tags][fields][0]=name&populate[author][populate]=articles`))
    console.log(JSON.stringify(list, null, 1))
    const inv = await json(await req('GET', `/api/authors/${author.documentId}?populate=articles`))
    console.log(JSON.stringify(inv, null, 1))
    const tagInv = await json(await req('GET', `/api/tags?populate[articles][count]=true`))
    console.log(JSON.stringify(tagInv, null, 1))
    const bad = await req('POST', '/api/articles', { data: { title: 'x', author: 'abcdefghijklmnopqrstuvwx' } })
    console.log(bad.status, await bad.text())
    const a2 = await req('PUT', `/api/authors/${author.documentId}?populate=articles`, { data: { articles: { disconnect: [body.data.documentId] } } })
    console.log(a2.status, await a2.text())
    const after = await json(await req('GET', `/api/articles/${body.data.documentId}?populate=author`))
    console.log(JSON.stringify(after))
  })
})
