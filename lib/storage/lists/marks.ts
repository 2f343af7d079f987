// Where runs of equal keys start in a list's index order, remembered in the process under the
// list's revision. A later page of the same order, at the same revision, resumes reading at the
// nearest mark at or before it instead of reading again every entry in front of it: a walk through
// a sorted list (a crawler, page after page) costs the pages it reads, not the sum of their
// offsets. A mark is exact only for the revision it was read at, and only once the list had
// settled (its indexes caught up with its last write, see SETTLE_MS) when it was read: the reader
// (reader.ts) records and uses marks under those two conditions only.

type Item = Record<string, unknown>

/** A place in one list order: `position` entries come before the run that starts there. */
export interface Mark {
  readonly position: number
  /**
   * The index key of the entry just before that run (where a read resumes, as ExclusiveStartKey),
   * with its id and slot key; undefined at position 0.
   */
  readonly last: Item | undefined
}

/** The marks of one list order, valid under one revision of the list. */
interface OrderMarks {
  readonly revision: number
  /** Ascending by position. */
  readonly marks: Mark[]
}

/**
 * Positions closer than this to a kept mark are not kept: a page resumes at most this many entries
 * early (the default page size, so a walk page by page resumes where the last page ended).
 */
export const MARK_STRIDE = 25

/**
 * The marks of many list orders, bounded by the number of marks kept in all (`capacity`; 0 keeps
 * none); the least recently used order goes first.
 */
export class ListMarks {
  private readonly orders = new Map<string, OrderMarks>()
  private size = 0

  constructor(private readonly capacity: number) {}

  /** The last mark at or before `position` in `order`, with the revision it holds under. */
  nearest(order: string, position: number): { revision: number; mark: Mark } | undefined {
    const entry = this.orders.get(order)
    if (entry === undefined) return undefined
    this.orders.delete(order)
    this.orders.set(order, entry)
    const at = lastAtOrBefore(entry.marks, position)
    return at === -1 ? undefined : { revision: entry.revision, mark: entry.marks[at] as Mark }
  }

  /**
   * Records the run starts among `items`, read in `order` from position `from` (0, or a mark valid
   * under `revision`) with nothing skipped: the items are that order's entries `from`,
   * `from + 1`, … in a row, `sortKey` naming their key attribute. Marks of an older revision are
   * dropped first; a read of an older revision than the kept one (a slow request) keeps nothing.
   */
  record(order: string, revision: number, from: number, items: readonly Item[], sortKey: string, keyOf: (item: Item) => Item): void {
    if (this.capacity === 0 || items.length < 2) return
    let entry = this.orders.get(order)
    if (entry !== undefined && entry.revision > revision) return
    if (entry !== undefined && entry.revision !== revision) {
      this.forget(order)
      entry = undefined
    }
    entry ??= { revision, marks: [] }
    this.orders.delete(order)
    this.orders.set(order, entry)
    const { marks } = entry
    for (let i = 1; i < items.length; i++) {
      const item = items[i] as Item
      const previous = items[i - 1] as Item
      if (item[sortKey] === previous[sortKey]) continue
      const position = from + i
      const at = lastAtOrBefore(marks, position)
      // Every order starts with a run at position 0, read without a mark.
      if (position - (marks[at]?.position ?? 0) < MARK_STRIDE) continue
      const next = marks[at + 1]
      if (next !== undefined && next.position - position < MARK_STRIDE) continue
      marks.splice(at + 1, 0, { position, last: keyOf(previous) })
      this.size += 1
    }
    while (this.size > this.capacity) {
      const oldest = this.orders.keys().next().value as string
      this.forget(oldest)
    }
  }

  private forget(order: string): void {
    this.size -= this.orders.get(order)?.marks.length ?? 0
    this.orders.delete(order)
  }
}

/** Index of the last mark with a position at or before `position`, or -1. */
function lastAtOrBefore(marks: readonly Mark[], position: number): number {
  let lo = 0
  let hi = marks.length
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if ((marks[mid] as Mark).position <= position) lo = mid + 1
    else hi = mid
  }
  return lo - 1
}
