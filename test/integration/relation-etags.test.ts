// ETags of answers with populated relations (content-model.md §16, delivery.md §13): the tag of a
// populated get one names its version (If-Match works with it) and its body (If-None-Match
// revalidates the targets too).
import { beforeAll, describe, expect, it } from 'vitest'
import { createTestContext, json, type TestContext } from '../support/context.js'

let ctx: TestContext
let key: string
const call = (method: string, path: string, body?: unknown, headers?: Record<string, string>) => ctx.request(method, path, { body, token: key, headers })

beforeAll(async () => {
  ctx = await createTestContext()
  key = await ctx.token()
})

describe('ETags of populated answers', () => {
  it('a populated get one: If-Match takes its tag, If-None-Match is a 304 until a target changes', async () => {
    const author = (await json(await call('POST', '/api/authors', { data: { name: 'Ann' } }))).data
    const article = (await json(await call('POST', '/api/articles', { data: { title: 'One', author: author.documentId } }))).data
    const path = `/api/articles/${article.documentId}?populate=author`
    const first = await call('GET', path)
    const tag = first.headers.get('etag') as string
    expect(tag).toMatch(/^"\d+\.\d+\.[A-Za-z0-9_-]+"$/)
    expect(tag.startsWith(`"${article.id}.`)).toBe(true)
    expect((await call('GET', path, undefined, { 'If-None-Match': tag })).status).toBe(304)
    // The author's name changes: same article version, another answer.
    expect((await call('PUT', `/api/authors/${author.documentId}`, { data: { name: 'Anna' } })).status).toBe(200)
    const second = await call('GET', path, undefined, { 'If-None-Match': tag })
    expect(second.status).toBe(200)
    expect((await json(second)).data[0].author.name).toBe('Anna')
    // The tag still names the article's version: a write guarded by it succeeds, then a stale one is a 412.
    expect((await call('PUT', `/api/articles/${article.documentId}`, { data: { title: 'Two' } }, { 'If-Match': tag })).status).toBe(200)
    expect((await call('PUT', `/api/articles/${article.documentId}`, { data: { title: 'Three' } }, { 'If-Match': tag })).status).toBe(412)
  })
})
