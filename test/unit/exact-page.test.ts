// exactPage: a page in exact order from entries read in key order, sorting only the runs it needs.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { exactPage } from '../../lib/storage/lists/reader.js'

interface E { readonly sortKey: string; readonly value: number; readonly id: number }

const exact = (a: E, b: E) => a.value - b.value || a.id - b.id
const reversed = (a: E, b: E) => exact(b, a)

/**
 * Entries as an index returns them: in order of a coarse key (value / width, so several values
 * share a key), ties on the key in the order given (an arbitrary one).
 */
function indexOrder(values: readonly number[], width: number, descending: boolean): E[] {
  const entries = values.map((value, id) => ({ sortKey: String(Math.floor(value / width)).padStart(8, '0'), value, id }))
  entries.sort((a, b) => (a.sortKey < b.sortKey ? -1 : a.sortKey > b.sortKey ? 1 : 0))
  return descending ? entries.reverse() : entries
}

describe('exactPage', () => {
  it('gives the page a full sort gives, for any offset, limit and run length, ascending and descending', () => {
    const values = fc.array(fc.integer({ min: 0, max: 120 }), { minLength: 1, maxLength: 120 })
    fc.assert(fc.property(values, fc.integer({ min: 1, max: 30 }), fc.boolean(), fc.nat(125), fc.integer({ min: 1, max: 30 }), (drawn, width, descending, offset, limit) => {
      const compare = descending ? reversed : exact
      const entries = indexOrder(drawn, width, descending)
      const expected = [...entries].sort(compare).slice(offset, offset + limit)
      expect(exactPage(entries, offset, limit, compare)).toEqual(expected)
    }), { numRuns: 400 })
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
