// A map bounded by its number of entries, and optionally by the total weight of its values (their
// bytes), the least recently used going first: for memos keyed by what callers send (a URL's query
// string), which must not grow without bound.

/**
 * How heavy the values may be together, and how heavy one is. `weigh` is asked again when a value
 * leaves, so it must give a value the same weight each time (values are not changed in place).
 */
export interface WeightBound<V> {
  readonly maxWeight: number
  readonly weigh: (value: V) => number
}

/**
 * A Map of at most `capacity` entries (and at most `bound.maxWeight` of weight); `get` counts as a
 * use, `set` past a bound evicts the least recently used; a value heavier than the whole bound is
 * not kept.
 */
export class LruMap<K, V> {
  protected readonly entries = new Map<K, V>()
  private held = 0

  constructor(private readonly capacity: number, private readonly bound?: WeightBound<V>) {
    if (!Number.isSafeInteger(capacity) || capacity < 1) throw new Error(`LruMap capacity must be a positive integer, got ${capacity}`)
  }

  /** A map bounded by the weight of its values alone, not by their number. */
  static byWeight<K, V>(bound: WeightBound<V>): LruMap<K, V> {
    return new LruMap<K, V>(Number.MAX_SAFE_INTEGER, bound)
  }

  get size(): number {
    return this.entries.size
  }

  /** The weight of the values kept (0 without a weight bound). */
  get weight(): number {
    return this.held
  }

  has(key: K): boolean {
    return this.entries.has(key)
  }

  /** The value of `key`, not counted as a use. */
  peek(key: K): V | undefined {
    return this.entries.get(key)
  }

  get(key: K): V | undefined {
    if (!this.entries.has(key)) return undefined
    const value = this.entries.get(key) as V
    this.entries.delete(key)
    this.entries.set(key, value)
    return value
  }

  set(key: K, value: V): void {
    this.delete(key)
    const weight = this.bound?.weigh(value) ?? 0
    if (this.bound !== undefined && weight > this.bound.maxWeight) return
    this.entries.set(key, value)
    this.held += weight
    while (this.entries.size > this.capacity || (this.bound !== undefined && this.held > this.bound.maxWeight)) this.delete(this.entries.keys().next().value as K)
  }

  delete(key: K): void {
    if (!this.entries.has(key)) return
    if (this.bound !== undefined) this.held -= this.bound.weigh(this.entries.get(key) as V)
    this.entries.delete(key)
  }

  clear(): void {
    this.entries.clear()
    this.held = 0
  }
}
