// A revoke while a lookup of the same token is in flight (behaviour.md §8): the lookup read the
// token before the revoke deleted it; it must not cache it, so the token stops working at once.
import { afterAll, beforeAll, expect, it } from 'vitest'
import { META } from '../../lib/table.js'
import { createTestContext, json, type TestContext } from '../support/context.js'
import { rounds } from '../support/rounds.js'

let ctx: TestContext
/** While set, a GetItem of an API token holds its answer until `release` is called. */
let hold: { read: () => void; released: Promise<void> } | undefined

beforeAll(async () => {
  ctx = await createTestContext({ cacheTtlMs: 60_000 })
  ctx.db.middlewareStack.add((next, context) => async (args) => {
    const result = await next(args)
    const isTokenRead = context.commandName === 'GetItemCommand' && JSON.stringify(args.input).includes(META.token)
    if (isTokenRead && hold !== undefined) {
      const current = hold
      hold = undefined
      current.read()
      await current.released
    }
    return result
  }, { step: 'initialize', name: 'holdTokenRead' })
})
afterAll(() => ctx.db.destroy())

it('rejects a token at once after a revoke that overlapped a lookup of it, every round', async () => {
  for (let round = 0; round < rounds(20); round++) {
    const key = await ctx.token('full-access')
    const tokens = (await json(await ctx.admin('GET', '/admin/api-tokens'))).data as { id: number }[]
    const id = Math.max(...tokens.map((token) => token.id))
    let release!: () => void
    const read = new Promise<void>((resolve) => {
      hold = { read: resolve, released: new Promise<void>((done) => (release = done)) }
    })
    const inFlight = ctx.request('GET', '/api/articles', { token: key })
    await read // the lookup has read the token item; its answer is held
    expect((await ctx.admin('DELETE', `/admin/api-tokens/${id}`)).status).toBe(204)
    release()
    await inFlight
    const after = await ctx.request('GET', '/api/articles', { token: key })
    expect({ round, status: after.status }).toEqual({ round, status: 401 })
  }
})
