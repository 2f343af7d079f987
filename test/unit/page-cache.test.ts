// The page cache's bounds (lib/delivery/page-cache.ts): answers kept under a tag, the least
// recently used dropped first, at most `capacity` answers and `capacityBytes` bytes, whatever
// mix of replaced, refused and evicted answers came before.
import { describe, expect, it } from 'vitest'
import { PageCache } from '../../lib/delivery/page-cache.js'

const body = (bytes: number, fill = 1) => new Uint8Array(new ArrayBuffer(bytes)).fill(fill)

describe('PageCache', () => {
  it('answers a key only under the tag it was kept with', () => {
    const pages = new PageCache(10, 1000)
    pages.set('a', 't1', body(10))
    expect(pages.get('a', 't1')).toEqual(body(10))
    expect(pages.get('a', 't2')).toBeUndefined()
    expect(pages.holds('a')).toBe(true)
    expect(pages.holds('b')).toBe(false)
  })

  it.each([
    ['count', new PageCache(2, 1000), [1, 1, 1]],
    ['bytes', new PageCache(100, 100), [40, 40, 50]],
  ] as const)('drops the least recently used answers until it holds at most its %s', (_bound, pages, [a, b, c]) => {
    pages.set('a', 't', body(a))
    pages.set('b', 't', body(b))
    pages.get('a', 't')
    pages.set('c', 't', body(c))
    expect([pages.holds('a'), pages.holds('b'), pages.holds('c')]).toEqual([true, false, true])
    expect(pages.bytes).toBe(a + c)
  })

  it('drops every older answer for one that fills its bytes', () => {
    const pages = new PageCache(100, 100)
    pages.set('a', 't', body(40))
    pages.set('c', 't', body(50))
    pages.set('d', 't', body(100))
    expect([pages.holds('a'), pages.holds('c'), pages.holds('d')]).toEqual([false, false, true])
    expect(pages.bytes).toBe(100)
  })

  it('does not count a read under another tag as a use', () => {
    const pages = new PageCache(2, 1000)
    pages.set('a', 't', body(1))
    pages.set('b', 't', body(1))
    expect(pages.get('a', 'other')).toBeUndefined()
    pages.set('c', 't', body(1))
    expect([pages.holds('a'), pages.holds('b'), pages.holds('c')]).toEqual([false, true, true])
  })

  it('keeps no answer larger than its bytes, and drops what it kept for that key', () => {
    const pages = new PageCache(10, 100)
    pages.set('a', 't1', body(50))
    pages.set('a', 't2', body(101))
    expect(pages.holds('a')).toBe(false)
    expect(pages.bytes).toBe(0)
  })

  it('counts a replaced answer once', () => {
    const pages = new PageCache(10, 100)
    for (let i = 0; i < 50; i++) pages.set('a', `t${i}`, body(60, i))
    expect(pages.bytes).toBe(60)
    expect(pages.get('a', 't49')).toEqual(body(60, 49))
    pages.set('b', 't', body(40))
    expect([pages.holds('a'), pages.holds('b')]).toEqual([true, true])
  })

  it('holds at most its bytes and its count through random use, and its byte count is the sum of what it holds', () => {
    let seed = 7
    const random = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) % n)
    const pages = new PageCache(8, 500)
    const sizes = new Map<string, number>()
    for (let i = 0; i < 5000; i++) {
      const key = `k${random(20)}`
      const size = random(3) === 0 ? random(700) : random(120)
      pages.set(key, 't', body(size))
      sizes.set(key, size)
      if (random(4) === 0) pages.get(`k${random(20)}`, 't')
      const held = [...sizes.keys()].filter((k) => pages.holds(k))
      expect(held.length).toBeLessThanOrEqual(8)
      expect(pages.bytes).toBeLessThanOrEqual(500)
      expect(pages.bytes).toBe(held.reduce((sum, k) => sum + (sizes.get(k) as number), 0))
    }
  })

  it('keeps nothing when either bound is 0', () => {
    for (const pages of [new PageCache(0, 100), new PageCache(10, 0)]) {
      pages.set('a', 't', body(1))
      expect(pages.enabled).toBe(false)
      expect(pages.holds('a')).toBe(false)
    }
  })
})
