// A Lambda function's init (services.warm): the locale registry, the index state and the public
// role read ahead in one BatchGetItem, each given to the first read of its key only, and the
// reads made on their own when that call fails. On DynamoDB Local, calls counted at the client.
import { beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { Caller } from '../../lib/access.js'
import { createServices } from '../../lib/services.js'
import { createDocumentClient } from '../../lib/storage/client.js'
import { META } from '../../lib/table.js'
import { ADMIN_TOKEN, createTestContext, type TestContext } from '../support/context.js'

let ctx: TestContext
beforeAll(async () => {
  ctx = await createTestContext()
  await ctx.addLocales('fr')
})

interface Call { command: string; keys: string[] }
let calls: Call[]
let failBatch: boolean

/** A process of its own on `on`'s table (caches kept for a minute, as a deployment keeps them) on a client whose calls are counted. */
function freshProcess(on: TestContext = ctx) {
  const db = createDocumentClient({ region: 'us-east-1', endpoint: on.endpoint })
  db.middlewareStack.add((next, context) => async (args) => {
    const input = args.input as { Key?: Record<string, unknown>; RequestItems?: Record<string, { Keys: Record<string, unknown>[] }> }
    const keys = input.Key !== undefined ? [input.Key] : Object.values(input.RequestItems ?? {}).flatMap((request) => request.Keys ?? [])
    const command = (context.commandName ?? '').replace(/Command$/, '')
    calls.push({ command, keys: keys.map((key) => `${String(key.documentId)}|${String(key.locale)}`).sort() })
    if (failBatch && command === 'BatchGetItem') throw Object.assign(new Error('throttled'), { name: 'ProvisionedThroughputExceededException' })
    return next(args)
  }, { step: 'initialize', name: 'countCalls' })
  return createServices(db, { ...on.config, cacheTtlMs: 60_000 }, { adminToken: ADMIN_TOKEN, tokenHashSecret: 'x'.repeat(32) }, on.services.types)
}

beforeEach(() => {
  calls = []
  failBatch = false
})

describe('services.warm (a Lambda function\'s init)', () => {
  it('reads the registry, the index state and the public role in one strongly consistent call; the reads it fills make none', async () => {
    const services = freshProcess()
    await services.warm()
    expect(calls).toEqual([{ command: 'BatchGetItem', keys: [`${META.config}|locales`, `${META.config}|role#public`, `${META.index}|state`].sort() }])
    calls.length = 0
    expect((await services.locales.list()).map((locale) => locale.code).sort()).toEqual(['en', 'fr'])
    expect(await services.locales.indexTrusted()).toBe(true)
    expect(await services.access.identify(undefined)).toBeInstanceOf(Caller)
    expect(calls).toEqual([])
  })

  it('leaves the index state out for a function that lists no documents (the locales function may read #config and #token only)', async () => {
    const services = freshProcess()
    await services.warm({ indexState: false })
    expect(calls).toEqual([{ command: 'BatchGetItem', keys: [`${META.config}|locales`, `${META.config}|role#public`].sort() }])
    expect(calls.flatMap((call) => call.keys).some((key) => key.startsWith(META.index))).toBe(false)
  })

  it('gives what it read to the first read of each key only: a read after it, past the cache, sees a later change', async () => {
    // A process whose caches keep nothing, so that every read after init goes to the table.
    const db = createDocumentClient({ region: 'us-east-1', endpoint: ctx.endpoint })
    const services = createServices(db, { ...ctx.config, cacheTtlMs: 0 }, { adminToken: ADMIN_TOKEN, tokenHashSecret: 'x'.repeat(32) }, ctx.services.types)
    await services.warm()
    expect((await services.locales.list()).map((locale) => locale.code)).not.toContain('de')
    await ctx.addLocales('de')
    expect((await services.locales.list()).map((locale) => locale.code)).toContain('de')
  })

  it('reads each item on its own when the call ahead fails, and still fills the caches', async () => {
    const services = freshProcess()
    failBatch = true
    await services.warm()
    expect(calls.map((call) => call.command).sort()).toEqual(['BatchGetItem', 'GetItem', 'GetItem', 'GetItem'])
    calls.length = 0
    expect((await services.locales.list()).length).toBeGreaterThan(1)
    expect(await services.locales.indexTrusted()).toBe(true)
    expect(calls).toEqual([])
  })

  it('takes an item the call ahead did not find as absent, without reading it again (a table that never stored a registry)', async () => {
    const bare = await createTestContext() // no locale added: its registry is the built-in one, never stored
    const services = freshProcess(bare)
    await services.warm({ indexState: false }) // (a fresh table's first read of the index state writes it)
    expect(calls.map((call) => call.command)).toEqual(['BatchGetItem'])
    expect((await services.locales.list()).map((locale) => locale.code)).toEqual(['en'])
    expect(calls).toHaveLength(1)
  })
})
