// The process's cache of populated documents (lib/storage/lists/kept.ts) as pure logic: what it
// serves, keeps and forgets, with a reader that records what it is asked (the integration tests
// in test/integration/kept-versions.test.ts run it on DynamoDB Local through HTTP).
import { describe, expect, it } from 'vitest'
import type { ContentType } from '../../lib/content-types.js'
import { KeptVersions, type VersionReader } from '../../lib/storage/lists/kept.js'
import type { Version } from '../../lib/storage/items.js'
import type { ListState } from '../../lib/storage/lists/validator.js'
import { SETTLE_MS } from '../../lib/storage/lists/validator.js'
import { listKey, WIDE_CHANGES } from '../../lib/table.js'

const AUTHOR = { uid: 'api::author.author' } as ContentType
const settledState = (revision: number): ListState => ({ revision, changedAt: Date.now() - SETTLE_MS - 1 })
/** A validator's list states: the authors' en list at `state`, and the type's wide commits at `wide`. */
const listsAt = (state: ListState, wide: ListState = settledState(0)) => new Map([[listKey(AUTHOR.uid, 'en'), state], [listKey(AUTHOR.uid, WIDE_CHANGES), wide]])

function version(documentId: string, name: string): Version {
  return { documentId, locale: 'en', status: 'published', id: 1, rev: 1, createdAt: '', updatedAt: '', publishedAt: null, attributes: { name } }
}

/** A reader over `stored` (documentId to name, in the list `en`) that records each key it is asked. */
function storeOf(stored: Map<string, string>) {
  const asked: string[] = []
  const read: VersionReader = async (_type, keys) => {
    asked.push(...keys.map((key) => `${key.documentId} ${key.list}`))
    return keys.flatMap((key) => (key.list === 'en' && stored.has(key.documentId) ? [version(key.documentId, stored.get(key.documentId) as string)] : []))
  }
  return { asked, read }
}

const names = (versions: readonly Version[]) => versions.map((one) => `${one.documentId}:${String(one.attributes.name)}`)
const keys = (...ids: string[]) => ids.map((documentId) => ({ documentId, list: 'en' }))

describe('KeptVersions', () => {
  it('serves a key from memory while its list keeps the revision it was read at, and reads it again once the list moves', async () => {
    const stored = new Map([['a', 'Ann'], ['b', 'Bob']])
    const { asked, read } = storeOf(stored)
    const cache = new KeptVersions(1_000_000)
    let state = settledState(7)
    const reader = () => cache.reader(read, listsAt(state))
    expect(names(await reader()(AUTHOR, keys('a', 'b')))).toEqual(['a:Ann', 'b:Bob'])
    expect(asked).toEqual(['a en', 'b en'])
    stored.set('a', 'Anna')
    expect(names(await reader()(AUTHOR, keys('b', 'a')))).toEqual(['b:Bob', 'a:Ann'])
    expect(asked).toHaveLength(2)
    state = settledState(8)
    expect(names(await reader()(AUTHOR, keys('a', 'b')))).toEqual(['a:Anna', 'b:Bob'])
    expect(asked).toEqual(['a en', 'b en', 'a en', 'b en'])
  })

  it('reads every key of a type again once its wide commits move, its lists unmoved (a wide write commits before its lists move)', async () => {
    const stored = new Map([['a', 'Ann']])
    const { asked, read } = storeOf(stored)
    const cache = new KeptVersions(1_000_000)
    await cache.reader(read, listsAt(settledState(5), settledState(0)))(AUTHOR, keys('a'))
    stored.set('a', 'Anna')
    expect(names(await cache.reader(read, listsAt(settledState(5), settledState(0)))(AUTHOR, keys('a')))).toEqual(['a:Ann'])
    expect(names(await cache.reader(read, listsAt(settledState(5), settledState(1)))(AUTHOR, keys('a')))).toEqual(['a:Anna'])
    expect(asked).toHaveLength(2)
  })

  it('keeps a document absent from its list as absent, until the list moves', async () => {
    const stored = new Map<string, string>()
    const { asked, read } = storeOf(stored)
    const cache = new KeptVersions(1_000_000)
    let state = settledState(1)
    const reader = () => cache.reader(read, listsAt(state))
    expect(await reader()(AUTHOR, keys('c'))).toEqual([])
    stored.set('c', 'Cy')
    expect(await reader()(AUTHOR, keys('c'))).toEqual([])
    expect(asked).toHaveLength(1)
    state = settledState(2)
    expect(names(await reader()(AUTHOR, keys('c')))).toEqual(['c:Cy'])
  })

  it('keeps nothing read within SETTLE_MS of its list\'s or its type\'s wide commits\' last change, nor of a list or type the validator did not read', async () => {
    const { asked, read } = storeOf(new Map([['a', 'Ann']]))
    const cache = new KeptVersions(1_000_000)
    const recent = cache.reader(read, listsAt({ revision: 3, changedAt: Date.now() - SETTLE_MS + 500 }))
    await recent(AUTHOR, keys('a'))
    await recent(AUTHOR, keys('a'))
    const recentWide = cache.reader(read, listsAt(settledState(3), { revision: 1, changedAt: Date.now() - SETTLE_MS + 500 }))
    await recentWide(AUTHOR, keys('a'))
    await recentWide(AUTHOR, keys('a'))
    const unknown = cache.reader(read, new Map())
    await unknown(AUTHOR, keys('a'))
    await unknown(AUTHOR, keys('a'))
    const noWide = cache.reader(read, new Map([[listKey(AUTHOR.uid, 'en'), settledState(3)]]))
    await noWide(AUTHOR, keys('a'))
    await noWide(AUTHOR, keys('a'))
    expect(asked).toHaveLength(8)
    expect(cache.size).toBe(0)
  })

  it('stays within its capacity in bytes, the least recently used going first; capacity 0 keeps nothing', async () => {
    const stored = new Map(Array.from({ length: 50 }, (_, i) => [`d${i}`, 'x'.repeat(1000)] as const))
    const { asked, read } = storeOf(stored)
    const cache = new KeptVersions(5_000)
    const reader = cache.reader(read, listsAt(settledState(1)))
    for (let i = 0; i < 50; i += 1) {
      await reader(AUTHOR, keys(`d${i}`, 'd0'))
      expect(cache.size).toBeLessThanOrEqual(5_000)
    }
    // d0, used at every step, was kept; d1, used once long ago, was dropped.
    asked.length = 0
    await reader(AUTHOR, keys('d0', 'd1'))
    expect(asked).toEqual(['d1 en'])
    const off = new KeptVersions(0)
    expect(off.reader(read, listsAt(settledState(1)))).toBe(read)
  })
})
