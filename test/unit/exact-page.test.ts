// exactPage: a page in exact order from entries read in key order, sorting only the runs it needs.
import { describe, expect, it } from 'vitest'
import { exactPage } from '../../lib/storage/lists.js'

interface E { readonly sortKey: string; readonly value: number; readonly id: number }

/** A small deterministic PRNG (mulberry32). */
function random(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const exact = (a: E, b: E) => a.value - b.value || a.id - b.id
const reversed = (a: E, b: E) => exact(b, a)

/**
 * Entries as an index returns them: in order of a coarse key (value / width, so several values
 * share a key), ties on the key in random order.
 */
function indexOrder(rnd: () => number, count: number, width: number, descending: boolean): E[] {
  const entries = Array.from({ length: count }, (_, id) => {
    const value = Math.floor(rnd() * count)
    return { sortKey: String(Math.floor(value / width)).padStart(8, '0'), value, id, shuffle: rnd() }
  })
  entries.sort((a, b) => (a.sortKey < b.sortKey ? -1 : a.sortKey > b.sortKey ? 1 : a.shuffle - b.shuffle))
  if (descending) entries.reverse()
  return entries.map(({ sortKey, value, id }) => ({ sortKey, value, id }))
}

describe('exactPage', () => {
  it('gives the page a full sort gives, for any offset, limit and run length, ascending and descending', () => {
    const rnd = random(7)
    for (let round = 0; round < 400; round++) {
      const count = 1 + Math.floor(rnd() * 120)
      const width = 1 + Math.floor(rnd() * 30)
      const descending = rnd() < 0.5
      const compare = descending ? reversed : exact
      const entries = indexOrder(rnd, count, width, descending)
      const offset = Math.floor(rnd() * (count + 5))
      const limit = 1 + Math.floor(rnd() * 30)
      const expected = [...entries].sort(compare).slice(offset, offset + limit)
      expect(exactPage(entries, offset, limit, compare), `round ${round}`).toEqual(expected)
    }
  })

  it('leaves the entries before the run the page starts in unsorted', () => {
    // Keys a < b; the two a-entries are out of exact order, and the page starts in the b run.
    const entries: E[] = [
      { sortKey: 'a', value: 2, id: 1 }, { sortKey: 'a', value: 1, id: 2 },
      { sortKey: 'b', value: 4, id: 3 }, { sortKey: 'b', value: 3, id: 4 },
    ]
    const compared: number[][] = []
    const page = exactPage(entries, 2, 2, (a, b) => (compared.push([a.id, b.id]), exact(a, b)))
    expect(page.map((e) => e.id)).toEqual([4, 3])
    expect(compared.flat()).not.toContain(1)
    expect(compared.flat()).not.toContain(2)
  })
})
