// `openapi-fetch`, the usual typed client for an OpenAPI document, against the API over real HTTP
// on loopback, as the recipe of docs/clients.md sets it up: `qs` as its query serializer, so nested filters,
// sort arrays and pagination reach the API as it parses them. Without it, a nested filter is refused.
import createClient from 'openapi-fetch'
import qs from 'qs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createServerApp } from '../../lib/server-app.js'
import { createTestContext, type TestContext } from '../support/context.js'
import { startServer, type TestServer } from '../support/server.js'

// The client is used untyped here (no generated `paths`): the recipe's runtime behaviour is what is checked.
type Paths = Record<string, any>

describe('openapi-fetch with the qs query serializer (docs/clients.md recipe)', () => {
  let ctx: TestContext
  let server: TestServer
  let accessKey: string

  beforeAll(async () => {
    ctx = await createTestContext()
    await ctx.addLocales('fr')
    server = await startServer(createServerApp(ctx.services))
    accessKey = await ctx.token()
  })
  afterAll(() => server.close())

  it('creates in a locale, then lists with nested filters, a sort array and pagination', async () => {
    // Prepare
    const client = createClient<Paths>({
      baseUrl: server.url,
      headers: { Authorization: `Bearer ${accessKey}` },
      querySerializer: (query) => qs.stringify(query, { encodeValuesOnly: true }),
    })
    for (const [title, views] of [['Alpha', 5], ['Beta', 20], ['Gamma', 30], ['Delta', 40]] as const) {
      const { response } = await client.POST('/api/articles', { params: { query: { locale: 'fr' } }, body: { data: { title, views } } })
      expect(response.status).toBe(200)
    }

    // Act
    const { data, error, response } = await client.GET('/api/articles', {
      params: { query: { locale: 'fr', filters: { views: { $gt: 10 } }, sort: ['title:desc'], 'pagination[pageSize]': 2 } },
    })

    // Assess
    expect(error).toBeUndefined()
    expect(response.status).toBe(200)
    expect(data.data.map((doc: { title: string }) => doc.title)).toEqual(['Gamma', 'Delta'])
    expect(data.meta.pagination).toEqual({ page: 1, pageSize: 2, pageCount: 2, total: 3 })
  })

  it('without the serializer, refuses the nested filter before sending anything', async () => {
    const client = createClient<Paths>({ baseUrl: server.url })
    await expect(client.GET('/api/articles', { params: { query: { filters: { views: { $gt: 10 } } } } })).rejects.toThrow(/Deeply-nested arrays\/objects aren.t supported/)
  })
})
