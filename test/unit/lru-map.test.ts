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

  it('holds at most its weight bound, drops what is heavier than all of it, and keeps its weight as the sum of what it holds', () => {
    const map = new LruMap<string, string>(10, { maxWeight: 5, weigh: (value) => value.length })
    map.set('a', 'xx')
    map.set('b', 'yy')
    map.set('a', 'xxx')
    expect([map.weight, map.get('a'), map.get('b')]).toEqual([5, 'xxx', 'yy'])
    map.set('c', 'z')
    // 'a' was read before 'b', so it goes first.
    expect([map.weight, map.has('a'), map.has('b'), map.has('c')]).toEqual([3, false, true, true])
    map.set('a', 'toolong')
    expect([map.weight, map.has('a'), map.get('c')]).toEqual([3, false, 'z'])
    expect(map.peek('c')).toBe('z')
    map.clear()
    expect([map.size, map.weight]).toEqual([0, 0])
  })

  it('refuses a capacity that is not a positive integer', () => {
    for (const capacity of [0, -1, 1.5, Number.NaN]) expect(() => new LruMap(capacity)).toThrow(/positive integer/)
  })
})
