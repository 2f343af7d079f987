// Types from a Strapi project's schema files (test/fixtures/strapi-project), served over HTTP on
// DynamoDB Local: every attribute type and option of content-model.md §14, unique values under
// concurrency, private and write-only attributes, derived uids and non-localized types.
import { randomBytes, scryptSync } from 'node:crypto'
import { createHook } from 'node:async_hooks'
import { readFileSync } from 'node:fs'
import fc from 'fast-check'
import { beforeAll, describe, expect, it } from 'vitest'
import type { ContentType } from '../../lib/content-types.js'
import { loadContentTypes } from '../../lib/schema/load.js'
import { META } from '../../lib/table.js'
import { createTestContext, holdWrites, json, scanTable, tableSnapshot, type TestContext } from '../support/context.js'
import { rounds } from '../support/rounds.js'

/** CPU time (user + system) of this process's main thread, the event loop's, in ms: Linux's per-thread /proc counters (1/100 s). */
function threadCpuMs(): number {
  const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8')
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return (Number(fields[11]) + Number(fields[12])) * 10 // utime, stime (fields 14, 15 of stat)
}
const loopThreadCpu = (run: () => void) => {
  const start = threadCpuMs()
  run()
  return threadCpuMs() - start
}
const loopThreadCpuAsync = async (run: () => Promise<void>) => {
  const start = threadCpuMs()
  await run()
  return threadCpuMs() - start
}

const FIXTURE = new URL('../fixtures/strapi-project/src/api/', import.meta.url).pathname
const types: readonly ContentType[] = loadContentTypes(FIXTURE)

describe('a type from a Strapi schema file', () => {
  let ctx: TestContext
  let key: string
  const create = (data: Record<string, unknown>, locale = 'en') => ctx.request('POST', `/api/products?locale=${locale}`, { token: key, body: { data } })
  const errorsOf = async (response: Response) => {
    expect(response.status).toBe(400)
    const body = await json(response)
    expect(body.error.name).toBe('ValidationError')
    return body.error.details.errors as { path: string[]; message: string }[]
  }

  beforeAll(async () => {
    ctx = await createTestContext({}, {}, types)
    key = await ctx.token()
    await ctx.addLocales('fr')
  })

  it('creates a document with every attribute type, applying defaults and deriving the uid', async () => {
    const response = await create({
      name: 'Mon Café Crème', sku: 'ABC-123', summary: 'A short text', description: '# Markdown\n\nwith *emphasis*',
      body: [{ type: 'paragraph', children: [{ type: 'text', text: 'x' }] }], contact: 'shop@example.com', serial: '9007199254740993',
      price: 12.5, weight: 0.25, launch: '2026-03-01', opens: '09:30', updatedOn: '2026-03-01T10:00:00+02:00', specs: { colour: 'red' },
      secret: 'correct horse battery', cost: 3.75,
    })
    expect(response.status).toBe(200)
    const { data } = await json(response)
    expect(data).toMatchObject({
      name: 'Mon Café Crème', slug: 'mon-cafe-creme', sku: 'ABC-123', description: '# Markdown\n\nwith *emphasis*', serial: '9007199254740993',
      state: 'draft', stock: 0, featured: false, internalCode: 'N/A', updatedOn: '2026-03-01T08:00:00.000Z', specs: { colour: 'red' }, locale: 'en',
    })
    // Private attributes are never shown; a password is private.
    expect(Object.keys(data)).not.toContain('secret')
    expect(Object.keys(data)).not.toContain('cost')
  })

  it('stores a password as a salted scrypt hash, never as given', async () => {
    const { data } = await json(await create({ name: 'Hashed', secret: 'open sesame 123' }))
    const items = await scanTable(ctx)
    expect(JSON.stringify(items)).not.toContain('open sesame 123')
    const stored = items.find((item) => item.documentId === data.documentId && item.locale === 'en')?.secret as string
    const [scheme, n, r, p, salt, hash] = stored.split('$')
    expect(scheme).toBe('scrypt')
    expect(scryptSync('open sesame 123', Buffer.from(salt!, 'base64url'), 32, { N: Number(n), r: Number(r), p: Number(p) }).toString('base64url')).toBe(hash)
    // Another document with the same password gets another salt.
    const other = await json(await create({ name: 'Hashed too', secret: 'open sesame 123' }))
    const second = (await scanTable(ctx)).find((item) => item.documentId === other.data.documentId && item.locale === 'en')?.secret
    expect(second).not.toBe(stored)
  })

  // Issue 33, point 6: hashing with scryptSync ran on the event loop and held every other request of
  // the process behind it. Measured in CPU time of the loop's thread, not in wall-clock time (which a
  // busy machine stretches): 16 writes with a password against 16 without, in the same run.
  it('hashes passwords off the event loop: writes with a password cost its thread no more than writes without', async () => {
    // Prepare: one hash with the stored parameters, in CPU time of this thread (the least of three).
    const oneHash = Math.min(...[0, 1, 2].map(() => loopThreadCpu(() => scryptSync('calibration', randomBytes(16), 32, { N: 16384, r: 8, p: 1 }))))
    const pooled = new Set<number>()
    let completedInPool = 0
    const hook = createHook({
      init: (id, type) => { if (type === 'SCRYPTREQUEST') pooled.add(id) },
      before: (id) => { if (pooled.has(id)) completedInPool++ }, // a callback: the hash ran in libuv's thread pool
    })
    const writes = async (secret: (i: number) => Record<string, string>) => {
      const [read, ...responses] = await Promise.all([
        ctx.request('GET', '/api/products?pagination[pageSize]=1'),
        ...Array.from({ length: 16 }, (_, i) => create({ name: `Parallel ${i}`, ...secret(i) })),
      ])
      expect([read, ...responses].map((response) => response.status)).toEqual(Array(17).fill(200))
    }
    await writes(() => ({})) // warm
    // Act
    const without = await loopThreadCpuAsync(() => writes(() => ({})))
    hook.enable()
    const withPasswords = await loopThreadCpuAsync(() => writes((i) => ({ secret: `password number ${i}` })))
    hook.disable()
    // Assess: 16 hashes on the loop would cost it at least 16 × oneHash more.
    expect(completedInPool).toBe(16)
    expect({ without, withPasswords, oneHash, extraBelowEightHashes: withPasswords - without < 8 * oneHash }).toMatchObject({ extraBelowEightHashes: true })
  })

  it.each([
    ['name', { name: 'x' }, 'name must be at least 2 characters'],
    ['name', { name: 'x'.repeat(41) }, 'name must be at most 40 characters'],
    ['name', { sku: 'ABC-999' }, 'name must be defined.'],
    ['name', { name: null }, 'name must be a `string` type, but the final value was: `null`.'],
    ['name', { name: 7 }, 'name must be a `string` type, but the final value was: `7`.'],
    ['stock', { name: 'Types', stock: '42' }, 'stock must be a `number` type, but the final value was: `"42"`.'],
    ['stock', { name: 'Types', stock: 1.5 }, 'stock must be an integer'],
    ['sku', { name: 'Regex', sku: 'abc-123' }, 'sku must match the following: "/^[A-Z]{3}-\\d{3}$/"'],
    ['stock', { name: 'Bounds', stock: -1 }, 'stock must be greater than or equal to 0'],
    ['stock', { name: 'Bounds', stock: 10001 }, 'stock must be less than or equal to 10000'],
    ['serial', { name: 'Bounds', serial: '0' }, 'serial must be greater than or equal to 1'],
    ['weight', { name: 'Bounds', weight: 1000.5 }, 'weight must be less than or equal to 1000'],
    ['state', { name: 'Enum', state: 'sold' }, 'state must be one of the following values: draft, live, retired'],
    ['secret', { name: 'Short', secret: 'short' }, 'secret must be at least 8 characters'],
    ['internalCode', { name: 'Read only', internalCode: 'X' }, 'Invalid key internalCode'],
  ])('refuses %s in %j with a ValidationError at its path, writing nothing', async (path, data, message) => {
    const before = await tableSnapshot(ctx)
    const errors = await errorsOf(await create(data))
    expect(errors).toContainEqual({ path: [path], message, name: 'ValidationError' })
    expect(await tableSnapshot(ctx)).toBe(before)
  })

  it.each([
    ['fields', 'fields[0]=cost', 'Invalid key cost'],
    ['fields', 'fields=secret', 'Invalid key secret'],
    ['fields', 'fields[0]=*&fields[1]=name&fields[2]=secret', 'Invalid key secret'],
    ['fields', 'fields=*,cost', 'Invalid key cost'],
    ['filters', 'filters[cost][$eq]=3', 'Invalid key cost'],
    ['filters', 'filters[secret][$null]=true', 'Invalid key secret'],
    ['sort', 'sort=cost:desc', 'cost'],
  ])('refuses a private attribute in %s (%s)', async (param, query, message) => {
    const response = await ctx.request('GET', `/api/products?${query}`)
    expect(response.status).toBe(400)
    const body = await json(response)
    expect(body.error.message).toContain(message)
    expect(body.error.details.param).toBe(param)
  })

  it('leaves private attributes out of fields=* and fields[0]=*', async () => {
    for (const query of ['fields=*', 'fields[0]=*']) {
      const { data } = await json(await ctx.request('GET', `/api/products?${query}&pagination[pageSize]=1`))
      expect(Object.keys(data[0])).not.toContain('cost')
      expect(Object.keys(data[0])).toContain('internalCode')
    }
  })

  describe('unique values', () => {
    it('refuses a value another document holds in the locale, and frees it on change and delete', async () => {
      const first = await json(await create({ name: 'Unique one', sku: 'UNQ-001' }))
      expect(await errorsOf(await create({ name: 'Unique two', sku: 'UNQ-001' }))).toEqual([{ path: ['sku'], message: 'This attribute must be unique', name: 'ValidationError' }])
      // The document itself may write its own value again.
      expect((await ctx.request('PUT', `/api/products/${first.data.documentId}`, { token: key, body: { data: { sku: 'UNQ-001', stock: 5 } } })).status).toBe(200)
      expect((await ctx.request('PUT', `/api/products/${first.data.documentId}`, { token: key, body: { data: { sku: 'UNQ-002' } } })).status).toBe(200)
      expect((await create({ name: 'Unique two', sku: 'UNQ-001' })).status).toBe(200)
      expect((await create({ name: 'Unique three', sku: 'UNQ-002' })).status).toBe(400)
      expect((await ctx.request('DELETE', `/api/products/${first.data.documentId}`, { token: key })).status).toBe(204)
      expect((await create({ name: 'Unique three', sku: 'UNQ-002' })).status).toBe(200)
    })

    it('derives a uid free in its locale: the same name gets -1 in the same locale, itself in another', async () => {
      const one = await json(await create({ name: 'Twin Name' }))
      const two = await json(await create({ name: 'Twin Name' }))
      const french = await json(await create({ name: 'Twin Name' }, 'fr'))
      expect([one.data.slug, two.data.slug, french.data.slug]).toEqual(['twin-name', 'twin-name-1', 'twin-name'])
      // A uid sent as it is must be free.
      expect(await errorsOf(await create({ name: 'Other', slug: 'twin-name' }))).toEqual([{ path: ['slug'], message: 'This attribute must be unique', name: 'ValidationError' }])
    })

    it('keeps claims equal to the values held when two documents swap values at once, over many rounds', async () => {
      const a = (await json(await create({ name: 'Swap A', sku: 'SWA-001' }))).data.documentId as string
      const b = (await json(await create({ name: 'Swap B', sku: 'SWB-001' }))).data.documentId as string
      for (let round = 0; round < rounds(10); round++) {
        // Each document gets one write, so the barrier releases both together at its timeout: the two
        // transactions decide on the same reads.
        holdWrites(ctx, [a, b], 2, 300)
        const statuses = await Promise.all([
          ctx.request('PUT', `/api/products/${a}`, { token: key, body: { data: { sku: 'SWB-001', stock: round } } }),
          ctx.request('PUT', `/api/products/${b}`, { token: key, body: { data: { sku: 'SWA-001', stock: round } } }),
        ].map(async (response) => (await response).status))
        ctx.db.middlewareStack.remove('barrier')
        // Each value is still held by a document: neither swap can win while the other holds it.
        expect(statuses).toEqual([400, 400])
        const skus = await Promise.all([a, b].map(async (id) => (await json(await ctx.request('GET', `/api/products/${id}`))).data[0].sku))
        expect(skus).toEqual(['SWA-001', 'SWB-001'])
      }
      // Freed first, then taken: the swap goes through in three steps.
      expect((await ctx.request('PUT', `/api/products/${a}`, { token: key, body: { data: { sku: 'SWC-001' } } })).status).toBe(200)
      expect((await ctx.request('PUT', `/api/products/${b}`, { token: key, body: { data: { sku: 'SWA-001' } } })).status).toBe(200)
      expect((await ctx.request('PUT', `/api/products/${a}`, { token: key, body: { data: { sku: 'SWB-001' } } })).status).toBe(200)
    })

    it('refuses a localization that would inherit a shared unique value another document holds in that locale', async () => {
      const holder = (await json(await create({ name: 'Holder FR', sku: 'LOC-001' }, 'fr'))).data.documentId as string
      expect(holder).toBeTypeOf('string')
      // An en document with the same sku would be fine in en, and its fr localization would collide.
      const other = await json(await create({ name: 'Other EN', sku: 'LOC-001' }))
      expect(other.data.sku).toBe('LOC-001')
      const before = await tableSnapshot(ctx)
      const localized = await ctx.request('PUT', `/api/products/${other.data.documentId}?locale=fr`, { token: key, body: { data: { name: 'Autre' } } })
      expect(await errorsOf(localized)).toEqual([{ path: ['sku'], message: 'This attribute must be unique', name: 'ValidationError' }])
      expect(await tableSnapshot(ctx)).toBe(before)
    })

    it('lets one of many parallel writes of a value succeed, over many rounds (property)', async () => {
      let round = 0
      await fc.assert(fc.asyncProperty(fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 2, maxLength: 8 }), async (picks) => {
        round++
        const skus = picks.map((pick) => `P${String.fromCharCode(65 + (round % 26))}${String.fromCharCode(65 + Math.floor(round / 26))}-00${pick}`)
        const statuses = await Promise.all(skus.map((sku, i) => create({ name: `Parallel ${round}.${i}`, sku }).then((response) => response.status)))
        for (const sku of new Set(skus)) {
          const answers = statuses.filter((_, i) => skus[i] === sku)
          expect(answers.filter((status) => status === 200)).toHaveLength(1)
          expect(answers.filter((status) => status !== 200).every((status) => status === 400)).toBe(true)
        }
      }), { numRuns: 25 })
      // A brute-force reading of the table agrees: no two versions of one locale share a sku, and
      // the claims are exactly the values the versions hold.
      const items = await scanTable(ctx)
      const versions = items.filter((item) => !String(item.documentId).startsWith('#') && !String(item.locale).startsWith('#') && !String(item.locale).startsWith('~') && item.sku !== undefined)
      const held = versions.map((item) => `${item.locale}:${item.sku}`)
      expect(new Set(held).size).toBe(held.length)
      const claims = items.filter((item) => item.documentId === META.unique && item.attribute === 'sku').map((item) => `${String(item.locale).split('#')[2]}:${JSON.parse(item.value as string)}`)
      expect(claims.sort()).toEqual(held.sort())
    })
  })

  describe('_q search', () => {
    const search = async (query: string) => (await json(await ctx.request('GET', `/api/products?${query}&pagination[pageSize]=100`))).data as Record<string, unknown>[]
    beforeAll(async () => {
      for (const [name, extra] of [
        // Stocks far above any id this file reaches: a number in _q matches `id` too, so a stock of 42
        // once matched the file's 42nd document as well.
        ['Searchable Lamp', { summary: 'Warm LIGHT for desks', stock: 9042 }],
        ['Searchable Chair', { description: 'An *oak* chair', notes: 'light secret notes', stock: 7 }],
        ['Searchable Table', { contact: 'light@example.com', stock: 9043 }],
      ] as const) {
        expect((await create({ name, ...extra })).status).toBe(200)
      }
    })

    it('keeps versions in which a searchable text attribute contains the text, ignoring case', async () => {
      expect((await search('_q=light')).map((doc) => doc.name).sort()).toEqual(['Searchable Lamp', 'Searchable Table'])
      expect((await search('_q=OAK')).map((doc) => doc.name)).toEqual(['Searchable Chair'])
    })

    it('matches numeric attributes equal to a numeric text, and combines with filters, sort and pagination', async () => {
      expect((await search('_q=9042')).map((doc) => doc.name)).toEqual(['Searchable Lamp'])
      expect((await search('_q=searchable&filters[stock][$gt]=10&sort=stock:desc')).map((doc) => doc.name)).toEqual(['Searchable Table', 'Searchable Lamp'])
      const page = await json(await ctx.request('GET', '/api/products?_q=searchable&sort=name&pagination[page]=2&pagination[pageSize]=1'))
      expect(page.data.map((doc: { name: string }) => doc.name)).toEqual(['Searchable Lamp'])
      expect(page.meta.pagination).toEqual({ page: 2, pageSize: 1, pageCount: 3, total: 3 })
    })

    it('answers 400 for a _q that is not one text', async () => {
      const response = await ctx.request('GET', '/api/products?_q[0]=a&_q[1]=b')
      expect(response.status).toBe(400)
      expect((await json(response)).error.details).toMatchObject({ source: 'query', param: '_q' })
    })
  })
})

describe('a type that is not localized', () => {
  let ctx: TestContext
  let key: string

  beforeAll(async () => {
    ctx = await createTestContext({}, {}, types)
    key = await ctx.token()
    await ctx.addLocales('fr')
  })

  it('ignores locale in queries and answers in the default locale', async () => {
    const created = await ctx.request('POST', '/api/notes?locale=fr', { token: key, body: { data: { text: 'one', code: 'n-1' } } })
    expect(created.status).toBe(200)
    const { data } = await json(created)
    expect(data.locale).toBe('en')
    for (const query of ['', '?locale=fr', '?locale=xx-unknown', '?locale=*']) {
      const list = await json(await ctx.request('GET', `/api/notes${query}`))
      expect(list.data.map((doc: { documentId: string; locale: string }) => [doc.documentId, doc.locale])).toEqual([[data.documentId, 'en']])
    }
    const updated = await ctx.request('PUT', `/api/notes/${data.documentId}?locale=fr`, { token: key, body: { data: { text: 'two' } } })
    expect((await json(updated)).data).toMatchObject({ text: 'two', locale: 'en' })
    expect((await ctx.request('DELETE', `/api/notes/${data.documentId}?locale=fr`, { token: key })).status).toBe(204)
  })
})
