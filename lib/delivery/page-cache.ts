// List answers kept in the process, keyed by the normalized request and valid only under the tag
// they were made with: a repeated list costs the one small read that computes the tag. They are
// kept encoded (UTF-8), as they are sent: a hit is not encoded again. One cache serves every type
// of the process, bounded in answers and in bytes (a zone page of 25 is about 430 KB, a page of 100
// up to `api.rest.maxResponseBytes`): without the byte bound, distinct large pages could hold
// hundreds of MB in a Lambda function of 512 MB.

/** A bounded map of answers by key, each valid for one tag; the least recently used goes first. */
export class PageCache {
  private readonly entries = new Map<string, { tag: string; body: Uint8Array<ArrayBuffer> }>()
  private held = 0

  constructor(private readonly capacity: number, private readonly capacityBytes: number) {}

  /** False when the cache keeps nothing (either bound 0). */
  get enabled(): boolean {
    return this.capacity > 0 && this.capacityBytes > 0
  }

  /** Bytes of the answers kept. */
  get bytes(): number {
    return this.held
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

  /** Keeps `body` for `key` under `tag` (replacing what was kept for it), unless it alone is past the byte bound. */
  set(key: string, tag: string, body: Uint8Array<ArrayBuffer>): void {
    if (!this.enabled) return
    this.drop(key)
    if (body.byteLength > this.capacityBytes) return
    this.entries.set(key, { tag, body })
    this.held += body.byteLength
    while (this.entries.size > this.capacity || this.held > this.capacityBytes) this.drop(this.entries.keys().next().value as string)
  }

  private drop(key: string): void {
    const entry = this.entries.get(key)
    if (entry === undefined) return
    this.entries.delete(key)
    this.held -= entry.body.byteLength
  }
}
