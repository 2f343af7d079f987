// A map bounded by its number of entries, the least recently used going first: for memos keyed
// by what callers send (a URL's query string), which must not grow without bound.

/** A Map of at most `capacity` entries; `get` counts as a use, `set` past the capacity evicts the least recently used. */
export class LruMap<K, V> {
  protected readonly entries = new Map<K, V>()

  constructor(private readonly capacity: number) {
    if (!Number.isSafeInteger(capacity) || capacity < 1) throw new Error(`LruMap capacity must be a positive integer, got ${capacity}`)
  }

  get size(): number {
    return this.entries.size
  }

  get(key: K): V | undefined {
    if (!this.entries.has(key)) return undefined
    const value = this.entries.get(key) as V
    this.entries.delete(key)
    this.entries.set(key, value)
    return value
  }

  set(key: K, value: V): void {
    this.entries.delete(key)
    this.entries.set(key, value)
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value as K)
  }

  delete(key: K): void {
    this.entries.delete(key)
  }

  clear(): void {
    this.entries.clear()
  }
}
