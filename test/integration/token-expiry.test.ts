// API tokens' description and expiry (issue 37), as Strapi's: a lifespan of 7, 30 or 90 days (in
// ms) or none; an expired token is refused with 401 by the content API, whatever it may do.
import { UpdateCommand } from '@aws-sdk/lib-dynamodb'
import { beforeEach, describe, expect, it } from 'vitest'
import { AccessService } from '../../lib/access.js'
import { SettingsStore } from '../../lib/storage/settings.js'
import { createTestContext, json, scanTable, TOKEN_HASH_SECRET, type TestContext } from '../support/context.js'

const DAY = 86_400_000

describe('API tokens: description and expiry', () => {
  let ctx: TestContext
  beforeEach(async () => {
    ctx = await createTestContext()
  })

  /** Moves a stored token's expiry to `at`, as time passing would. */
  async function expireAt(id: number, at: Date): Promise<void> {
    const item = (await scanTable(ctx)).find((entry) => entry.tokenId === id)
    await ctx.db.send(new UpdateCommand({ TableName: ctx.config.tableName, Key: { documentId: item?.documentId, locale: item?.locale }, UpdateExpression: 'SET expiresAt = :at', ExpressionAttributeValues: { ':at': at.toISOString() } }))
  }

  it('keeps a description and computes expiresAt from a 7, 30 or 90 day lifespan', async () => {
    for (const days of [7, 30, 90]) {
      const response = await ctx.admin('POST', '/admin/api-tokens', { name: `t${days}`, description: `for ${days} days`, type: 'read-only', lifespan: days * DAY })
      expect(response.status).toBe(201)
      const { data } = await json(response)
      expect(data).toMatchObject({ description: `for ${days} days`, lifespan: days * DAY })
      expect(Date.parse(data.expiresAt) - Date.parse(data.createdAt)).toBe(days * DAY)
    }
    const listed = (await json(await ctx.admin('GET', '/admin/api-tokens'))).data
    expect(listed.map((token: any) => [token.description, token.lifespan])).toEqual([['for 7 days', 7 * DAY], ['for 30 days', 30 * DAY], ['for 90 days', 90 * DAY]])
  })

  it('makes a token without lifespan (or with null) that never expires, with an empty description', async () => {
    for (const body of [{ name: 'a', type: 'full-access' }, { name: 'b', type: 'full-access', lifespan: null }]) {
      const { data } = await json(await ctx.admin('POST', '/admin/api-tokens', body))
      expect(data).toMatchObject({ description: '', lifespan: null, expiresAt: null })
    }
  })

  it.each([
    ['a lifespan of 1 day', { lifespan: DAY }],
    ['a lifespan in days', { lifespan: 7 }],
    ['a lifespan as text', { lifespan: String(7 * DAY) }],
    ['a description that is not text', { description: 42 }],
    ['a description past 1000 characters', { description: 'x'.repeat(1001) }],
  ])('answers 400 for %s, and writes nothing', async (_, extra) => {
    const before = await scanTable(ctx)
    const response = await ctx.admin('POST', '/admin/api-tokens', { name: 'x', type: 'read-only', ...extra })
    expect(response.status).toBe(400)
    expect((await json(response)).error.name).toBe('ValidationError')
    expect(await scanTable(ctx)).toEqual(before)
  })

  it('answers 401 to an expired token on the content API, and serves it until then', async () => {
    const { data } = await json(await ctx.admin('POST', '/admin/api-tokens', { name: 'week', type: 'full-access', lifespan: 7 * DAY }))
    expect((await ctx.request('GET', '/api/articles', { token: data.accessKey })).status).toBe(200)
    await expireAt(data.id, new Date(Date.now() - 1000))
    for (const [method, path] of [['GET', '/api/articles'], ['POST', '/api/articles'], ['GET', '/api/i18n/locales']] as const) {
      const refused = await ctx.request(method, path, { token: data.accessKey, body: method === 'POST' ? { data: { title: 'late' } } : undefined })
      expect({ method, path, status: refused.status }).toEqual({ method, path, status: 401 })
      expect((await json(refused)).error).toMatchObject({ status: 401, name: 'UnauthorizedError', message: 'Token expired' })
    }
    expect((await scanTable(ctx)).some((item) => item.title === 'late')).toBe(false)
    // Still listed (with its expiry), as Strapi lists expired tokens, until revoked.
    expect((await json(await ctx.admin('GET', '/admin/api-tokens'))).data[0]).toMatchObject({ name: 'week', expiresAt: expect.any(String) })
  })

  it('never serves a cached token past its expiry', async () => {
    let now = Date.parse('2026-01-01T00:00:00Z')
    const access = new AccessService(new SettingsStore(ctx.db, ctx.config.tableName), ctx.services.types, TOKEN_HASH_SECRET, 30 * DAY, () => now)
    const { accessKey } = await access.createToken({ name: 'cached', type: 'read-only', lifespan: 7 * DAY })
    now += 7 * DAY - 1
    await access.identify(`Bearer ${accessKey}`) // read, and cached (for at most 30 days)
    now += 1
    await expect(access.identify(`Bearer ${accessKey}`)).rejects.toMatchObject({ status: 401, message: 'Token expired' })
  })
})
