// The bundles' stand-ins for `mnemonist/lru-cache` (functions/lru-cache.ts) and `@smithy/core/checksum`
// (functions/sha256.ts) keep the contract the SDK uses of the packages they replace.
import { Sha256 as SmithySha256 } from '@smithy/core/checksum'
import MnemonistLru from 'mnemonist/lru-cache.js'
import { describe, expect, it } from 'vitest'
import LRUCache from '../../functions/lru-cache.js'
import { Sha256 } from '../../functions/sha256.js'

describe('the SHA-256 shim', () => {
  it.each([
    ['a hash of text', undefined, ['abc', '']],
    ['a hash of bytes in parts', undefined, [new Uint8Array([1, 2, 3]), new TextEncoder().encode('héllo')]],
    ['an HMAC with a text secret', 'secret', ['AWS4-HMAC-SHA256\n20260101T000000Z']],
    ['an HMAC with a byte secret', new Uint8Array(32).fill(7), ['aws4_request']],
  ] as const)('digests as the SDK\'s Sha256: %s', async (_name, secret, parts) => {
    // Prepare
    const ours = new Sha256(secret)
    const theirs = new SmithySha256(secret)

    // Act
    for (const part of parts) {
      ours.update(part)
      theirs.update(part as Uint8Array)
    }

    // Assess
    expect(await ours.digest()).toEqual(await theirs.digest())
  })

  it('resets, and refuses an update after an HMAC digest as the SDK\'s does', async () => {
    const hash = new Sha256()
    hash.update('x')
    hash.reset()
    hash.update('abc')
    expect(Buffer.from(await hash.digest()).toString('hex')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad')
    const hmac = new Sha256('k')
    await hmac.digest()
    expect(() => hmac.update('more')).toThrow('Attempted to update an already finished hash.')
  })
})

describe('the LRU cache shim', () => {
  /** The same operations on both caches; what each get, peek and has answered, and the sizes. */
  function run(cache: { get(k: string): unknown; set(k: string, v: number): unknown; has(k: string): boolean; peek(k: string): unknown; clear(): void; size: number }) {
    const seen: unknown[] = []
    cache.set('a', 1)
    cache.set('b', 2)
    cache.set('c', 3)
    seen.push(cache.get('a'))
    cache.set('d', 4) // evicts b, the least recently used
    seen.push(cache.has('b'), cache.peek('c'), cache.size)
    cache.set('e', 5) // evicts c: peek did not make it recent
    seen.push(cache.has('c'), cache.get('a'), cache.get('missing'))
    cache.set('a', 10)
    seen.push(cache.get('a'), cache.size)
    cache.clear()
    seen.push(cache.size, cache.get('a'))
    return seen
  }

  it('keeps, evicts and answers as mnemonist\'s LRUCache', () => {
    expect(run(new LRUCache<string, number>(3))).toEqual(run(new MnemonistLru<string, number>(3)))
  })
})
