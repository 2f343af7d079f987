import { beforeAll, describe, expect, it } from 'vitest'
import { createTestContext, json, type TestContext } from '../support/context.js'

describe('smoke', () => {
  let ctx: TestContext
  let key: string
  beforeAll(async () => {
    ctx = await createTestContext()
    key = await ctx.token()
  })

  it('creates an article in the default locale and reads it back', async () => {
    const created = await ctx.request('POST', '/api/articles', { token: key, body: { data: { title: 'Hello' } } })
    expect(created.status).toBe(200)
    const { data } = await json(created)
    expect(data.locale).toBe('en')
    const read = await json(await ctx.request('GET', `/api/articles/${data.documentId}`))
    expect(read.data[0].title).toBe('Hello')
  })
})
