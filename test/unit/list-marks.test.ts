// ListMarks: run starts kept per list order and revision, at most one per MARK_STRIDE positions,
// within a total capacity (pure logic; the reads that use them are in test/integration/list-marks).
import { describe, expect, it } from 'vitest'
import { ListMarks, MARK_STRIDE } from '../../lib/storage/lists/marks.js'

/** Entries in key order with the given keys; `id` is the position in the array. */
const entries = (keys: readonly string[]) => keys.map((k, id) => ({ k, id }))
const keyOf = (item: Record<string, unknown>) => ({ id: item.id })
/** `n` entries with distinct keys. */
const distinct = (n: number) => entries(Array.from({ length: n }, (_, i) => String(i).padStart(6, '0')))

describe('ListMarks', () => {
  it('keeps run starts a stride apart, each resuming after the entry before it', () => {
    const marks = new ListMarks(1000)
    marks.record('o', 7, 0, distinct(100), 'k', keyOf)
    expect(marks.nearest('o', 24)).toBeUndefined()
    for (const [position, mark] of [[25, 25], [49, 25], [50, 50], [99, 75]] as const) {
      expect(marks.nearest('o', position)).toEqual({ revision: 7, mark: { position: mark, last: { id: mark - 1 } } })
    }
  })

  it('never marks inside a run of equal keys', () => {
    const marks = new ListMarks(1000)
    // Runs: 40 × a, 40 × b, 40 × c: the only run starts are 40 and 80.
    const keys = [...Array(40).fill('a'), ...Array(40).fill('b'), ...Array(40).fill('c')]
    marks.record('o', 1, 0, entries(keys), 'k', keyOf)
    expect(marks.nearest('o', 39)).toBeUndefined()
    expect(marks.nearest('o', 79)?.mark.position).toBe(40)
    expect(marks.nearest('o', 119)?.mark).toEqual({ position: 80, last: { id: 79 } })
  })

  it('counts positions from where a read resumed', () => {
    const marks = new ListMarks(1000)
    marks.record('o', 1, 0, distinct(60), 'k', keyOf)
    // A second read from the mark at 50, of 60 entries: positions 50..109.
    const resumed = distinct(60).map((item) => ({ ...item, id: item.id + 50 }))
    marks.record('o', 1, 50, resumed, 'k', keyOf)
    expect(marks.nearest('o', 109)?.mark).toEqual({ position: 100, last: { id: 99 } })
    expect(marks.nearest('o', 80)?.mark.position).toBe(75)
  })

  it('keeps marks apart by order, drops an order\'s marks when its revision moves, never for an older one', () => {
    const marks = new ListMarks(1000)
    marks.record('a', 1, 0, distinct(60), 'k', keyOf)
    marks.record('b', 1, 0, distinct(30), 'k', keyOf)
    expect(marks.nearest('a', 59)?.mark.position).toBe(50)
    expect(marks.nearest('b', 59)?.mark.position).toBe(25)
    marks.record('a', 2, 0, distinct(30), 'k', keyOf)
    expect(marks.nearest('a', 59)).toEqual({ revision: 2, mark: { position: 25, last: { id: 24 } } })
    // A slow read of revision 1 ends after them: revisions only grow, so 2's marks stay.
    marks.record('a', 1, 0, distinct(60), 'k', keyOf)
    expect(marks.nearest('a', 59)).toEqual({ revision: 2, mark: { position: 25, last: { id: 24 } } })
  })

  it('holds at most `capacity` marks, forgetting the least recently used order first', () => {
    const marks = new ListMarks(4)
    marks.record('a', 1, 0, distinct(3 * MARK_STRIDE), 'k', keyOf) // 2 marks
    marks.record('b', 1, 0, distinct(3 * MARK_STRIDE), 'k', keyOf) // 2 more
    expect(marks.nearest('a', 100)).toBeDefined() // a is now the most recently used
    marks.record('c', 1, 0, distinct(2 * MARK_STRIDE), 'k', keyOf) // 1 more: b goes
    expect(marks.nearest('b', 100)).toBeUndefined()
    expect(marks.nearest('a', 100)?.mark.position).toBe(50)
    expect(marks.nearest('c', 100)?.mark.position).toBe(25)
  })

  it('keeps nothing with capacity 0', () => {
    const marks = new ListMarks(0)
    marks.record('o', 1, 0, distinct(100), 'k', keyOf)
    expect(marks.nearest('o', 99)).toBeUndefined()
  })
})
