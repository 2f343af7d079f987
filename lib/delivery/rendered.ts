// The JSON of documents, kept beside the versions it shows (issue 34): a list answer whose
// documents come from their versions alone (nothing populated, or components only: no other
// document read) is made of each document's UTF-8 JSON, joined, and each is made once per version
// and shape. Entries are keyed by the version object itself: a version is never changed in place
// (a write makes a new one, storage/items.ts), and the documents kept in the process
// (storage/lists/kept.ts) are the same objects from one answer to the next while their lists
// have not moved, so an entry is only ever found by an answer showing that very version; the JSON
// of a version read for one answer only (not kept) is made and not kept. Bounded by bytes, the
// least recently used version going first.
import { UTF8 } from '../http.js'
import { LruMap } from '../lru-map.js'
import type { Version } from '../storage/items.js'

/** Fixed cost counted per version besides its JSON: the map entries. */
const ENTRY_OVERHEAD = 200

type Shapes = ReadonlyMap<string, Uint8Array<ArrayBuffer>>

/** Bytes counted for a version's JSON in every shape kept. */
const weigh = (shapes: Shapes) => [...shapes].reduce((sum, [shape, json]) => sum + ENTRY_OVERHEAD + shape.length + json.byteLength, 0)

export class RenderedDocuments {
  private readonly entries: LruMap<Version, Shapes>

  /** `capacity` in bytes of JSON; 0 keeps nothing. `keeps` says which versions are found again (the process's kept versions). */
  constructor(private readonly capacity: number, private readonly keeps: (version: Version) => boolean = () => true) {
    this.entries = LruMap.byWeight({ maxWeight: capacity, weigh })
  }

  get enabled(): boolean {
    return this.capacity > 0
  }

  /** Bytes held now (for tests). */
  get size(): number {
    return this.entries.weight
  }

  /** The JSON of `version` in `shape`, when kept (a use: kept longest). */
  get(version: Version, shape: string): Uint8Array<ArrayBuffer> | undefined {
    return this.entries.peek(version)?.has(shape) === true ? this.entries.get(version)?.get(shape) : undefined
  }

  /** The JSON of `document`, the answer of `version` in `shape`, kept when it fits. */
  set(version: Version, shape: string, document: unknown): Uint8Array<ArrayBuffer> {
    const json = UTF8.encode(JSON.stringify(document))
    const alone = new Map([[shape, json]])
    // One shape larger than the whole bound is not kept, and leaves the version's others as they were.
    if (this.keeps(version) && weigh(alone) <= this.capacity) this.entries.set(version, new Map([...(this.entries.peek(version) ?? []), ...alone]))
    return json
  }
}

const OPEN = UTF8.encode('{"data":[')
const COMMA = UTF8.encode(',')

/** `{"data":[...documents],"meta":meta}` from each document's JSON: the bytes JSON.stringify gives the whole. */
export function joinedAnswer(documents: readonly Uint8Array[], meta: unknown): Uint8Array<ArrayBuffer> {
  const close = UTF8.encode(`],"meta":${JSON.stringify(meta)}}`)
  const parts = [OPEN, ...documents.flatMap((json, i) => (i === 0 ? [json] : [COMMA, json])), close]
  const body = new Uint8Array(parts.reduce((sum, part) => sum + part.byteLength, 0))
  let at = 0
  for (const part of parts) {
    body.set(part, at)
    at += part.byteLength
  }
  return body
}
