// List answers kept in the process, keyed by the normalized request and valid only under the tag
// they were made with: a repeated list costs the one small read that computes the tag. They are
// kept encoded (UTF-8), as they are sent: a hit is not encoded again. One cache serves every type
// of the process, bounded in answers and in bytes (a zone page of 25 is about 430 KB, a page of 100
// up to `api.rest.maxResponseBytes`): without the byte bound, distinct large pages could hold
// hundreds of MB in a Lambda function of 512 MB.
import { LruMap } from '../lru-map.js'

type Entry = { tag: string; body: Uint8Array<ArrayBuffer> }

/** A bounded map of answers by key, each valid for one tag; the least recently used goes first. */
export class PageCache {
  /** Undefined when the cache keeps nothing (either bound 0). */
  private readonly entries: LruMap<string, Entry> | undefined

  constructor(capacity: number, capacityBytes: number) {
    this.entries = capacity > 0 && capacityBytes > 0 ? new LruMap(capacity, { maxWeight: capacityBytes, weigh: (entry) => entry.body.byteLength }) : undefined
  }

  /** False when the cache keeps nothing (either bound 0). */
  get enabled(): boolean {
    return this.entries !== undefined
  }

  /** Bytes of the answers kept. */
  get bytes(): number {
    return this.entries?.weight ?? 0
  }

  /** The stored answer for `key` if it was made under `tag`. */
  get(key: string, tag: string): Uint8Array<ArrayBuffer> | undefined {
    // Only an answer under `tag` counts as a use.
    if (this.entries?.peek(key)?.tag !== tag) return undefined
    return this.entries.get(key)?.body
  }

  /** True when an answer for `key` is stored, under any tag. */
  holds(key: string): boolean {
    return this.entries?.has(key) ?? false
  }

  /** Keeps `body` for `key` under `tag` (replacing what was kept for it), unless it alone is past the byte bound. */
  set(key: string, tag: string, body: Uint8Array<ArrayBuffer>): void {
    this.entries?.set(key, { tag, body })
  }
}
