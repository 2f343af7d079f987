// Relations attacked (content-model.md §16): the ETags of populated answers (the tag of a populated
// get one names its version, so If-Match works with it, and its body, so If-None-Match revalidates
// the targets too); a page of 40 documents each with 30 links, 1,200 in all (maxDocuments before anything is
// returned; a window of them read in one batched call per level).
import { beforeAll, describe, expect, it } from 'vitest'
import { createPeer, createSeeder, createTestContext, json, type TestContext } from '../support/context.js'
import { createDocumentClient } from '../../lib/storage/client.js'

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

describe('a page of 40 documents each with 30 links (1,200 targets, past maxDocuments of 1,000)', () => {
  it('is a 400 past maxDocuments before anything is returned; a window of it costs one batched read per level', async () => {
    const seeder = createSeeder(ctx)
    const tags: string[] = []
    for (let i = 0; i < 30; i += 10) {
      const made = await Promise.all(Array.from({ length: 10 }, (_, k) => seeder.request('POST', '/api/tags', { token: key, body: { data: { name: `bulk ${i + k}` } } })))
      for (const response of made) tags.push((await json(response)).data.documentId)
    }
    // One after another: writes in parallel that link the same targets check the same items, so
    // their transactions conflict and retry, which only slows the setup down on a loaded machine.
    for (let i = 0; i < 40; i += 1) expect((await seeder.request('POST', '/api/articles', { token: key, body: { data: { title: `page ${i}`, tags } } })).status).toBe(200)
    const page = '/api/articles?filters[title][$startsWith]=page&pagination[pageSize]=40'
    const refused = await call('GET', `${page}&populate=tags`)
    expect(refused.status).toBe(400)
    expect((await json(refused)).error.message).toMatch(/maxDocuments|1000/)
    // Another process, its DynamoDB calls counted: the populated level is one BatchGetItem (30 distinct tags).
    const db = createDocumentClient({ region: 'us-east-1', endpoint: ctx.endpoint })
    const peer = createPeer(ctx, {}, db)
    await peer.request('GET', '/api/articles?pagination[pageSize]=1', { token: key })
    const calls: string[] = []
    // The BatchGetItems that ask for tags (by their documentIds), whatever else they carry.
    const tagReads: number[] = []
    const tagIds = new Set(tags)
    db.middlewareStack.add((next: any, context: any) => async (args: any) => {
      calls.push(context.commandName)
      if (context.commandName === 'BatchGetItemCommand') {
        const keys = Object.values(args.input.RequestItems as Record<string, { Keys: { documentId: string }[] }>).flatMap((each) => each.Keys)
        const asked = keys.filter((each) => tagIds.has(each.documentId)).length
        if (asked > 0) tagReads.push(asked)
      }
      return next(args)
    }, { step: 'initialize', name: 'count-calls' })
    const windowed = await peer.request('GET', `${page}&populate[tags][limit]=20&populate[tags][fields][0]=name`, { token: key })
    expect(windowed.status).toBe(200)
    const body = await json(windowed)
    expect(body.data).toHaveLength(40)
    expect(body.data.every((article: any) => article.tags.length === 20 && article.tags[0].documentId === tags[0])).toBe(true)
    expect(tagReads).toEqual([30])
    expect(calls.filter((name) => name === 'ScanCommand')).toEqual([])
  }, 600_000)
})
