// LruMap: the bounded memo of what callers send (list queries by query string, lib/content-app.ts).
import { describe, expect, it } from 'vitest'
import { LruMap } from '../../lib/lru-map.js'

describe('LruMap', () => {
  it('keeps at most its capacity, the least recently used going first', () => {
    const map = new LruMap<string, number>(2)
    map.set('a', 1)
    map.set('b', 2)
    map.set('c', 3)
    expect(map.size).toBe(2)
    expect([map.get('a'), map.get('b'), map.get('c')]).toEqual([undefined, 2, 3])
  })

  it('counts a get as a use: the entry read last stays', () => {
    const map = new LruMap<string, number>(2)
    map.set('a', 1)
    map.set('b', 2)
    expect(map.get('a')).toBe(1)
    map.set('c', 3)
    expect([map.get('a'), map.get('b'), map.get('c')]).toEqual([1, undefined, 3])
  })

  it('replaces the value of a key set again without growing', () => {
    const map = new LruMap<string, number>(2)
    map.set('a', 1)
    map.set('a', 2)
    expect([map.size, map.get('a')]).toEqual([1, 2])
  })

  it('refuses a capacity that is not a positive integer', () => {
    for (const capacity of [0, -1, 1.5, Number.NaN]) expect(() => new LruMap(capacity)).toThrow(/positive integer/)
  })
})
