// List answers kept in the process, keyed by the normalized request and valid only under the tag
// they were made with: a repeated list costs the one small read that computes the tag. They are
// kept encoded (UTF-8), as they are sent: a hit is not encoded again.

/** A bounded map of answers by key, each valid for one tag; the least recently used goes first. */
export class PageCache {
  private readonly entries = new Map<string, { tag: string; body: Uint8Array<ArrayBuffer> }>()

  constructor(private readonly capacity: number) {}

  /** False when the cache keeps nothing (capacity 0). */
  get enabled(): boolean {
    return this.capacity > 0
  }

  /** The stored answer for `key` if it was made under `tag`. */
  get(key: string, tag: string): Uint8Array<ArrayBuffer> | undefined {
    const entry = this.entries.get(key)
    if (entry === undefined || entry.tag !== tag) return undefined
    this.entries.delete(key)
    this.entries.set(key, entry)
    return entry.body
  }

  /** True when an answer for `key` is stored, under any tag. */
  holds(key: string): boolean {
    return this.entries.has(key)
  }

  set(key: string, tag: string, body: Uint8Array<ArrayBuffer>): void {
    if (this.capacity === 0) return
    this.entries.delete(key)
    this.entries.set(key, { tag, body })
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value as string)
  }
}
