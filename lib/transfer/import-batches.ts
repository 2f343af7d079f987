// The importer's second pass hands the store whole documents, many at once (integration.md §21,
// issue 39): the rows of one document are kept until its last one arrives (the first pass counted
// them), then the document joins its type's next batch; a batch is one read of its heads and a few
// transactions of several documents each (DocumentStore.writeMany). Rows of one document far apart
// in an archive are kept at most MAX_WAITING documents long: past it the oldest document is written
// with the rows it has, and its later rows update it (the import is keyed per version: same end).
import type { ContentType } from '../content-types.js'
import type { IncomingVersion } from '../operations/import-version.js'

/** Documents kept waiting for their further rows, at most (bounds the memory an archive needs). */
const MAX_WAITING = 20_000

/** Versions in one batch, at most. */
const BATCH_VERSIONS = 400

type Write = (type: ContentType, documents: IncomingVersion[][]) => Promise<boolean[][]>

interface Waiting {
  readonly type: ContentType
  readonly versions: IncomingVersion[]
  left: number
}

export class DocumentBatches {
  private readonly waiting = new Map<string, Waiting>()
  private readonly ready = new Map<ContentType, IncomingVersion[][]>()
  private readonly inFlight = new Set<Promise<void>>()
  private versionsInFlight = 0
  private failure: { error: unknown } | undefined

  /** `limit`: versions written at once; `written` is told each batch's results, per document and version. */
  constructor(
    private readonly write: Write,
    private readonly limit: number,
    private readonly written: (type: ContentType, results: boolean[][]) => void,
  ) {}

  /** Adds a row of the document `key`, which has `rows` rows in all; waits while too many are in flight. */
  async add(type: ContentType, key: string, rows: number, version: IncomingVersion): Promise<void> {
    const entry = this.waiting.get(key) ?? { type, versions: [], left: rows }
    entry.versions.push(version)
    entry.left -= 1
    if (entry.left <= 0) {
      this.waiting.delete(key)
      this.enqueue(entry)
    } else this.waiting.set(key, entry)
    if (this.waiting.size > MAX_WAITING) {
      const [oldest, kept] = this.waiting.entries().next().value as [string, Waiting]
      this.waiting.delete(oldest)
      this.enqueue(kept)
    }
    while (this.versionsInFlight >= this.limit && this.failure === undefined) await Promise.race(this.inFlight)
    if (this.failure !== undefined) throw this.failure.error
  }

  /** Writes every document still held, and waits for all writes. */
  async finish(): Promise<void> {
    for (const entry of this.waiting.values()) this.enqueue(entry)
    this.waiting.clear()
    for (const type of [...this.ready.keys()]) this.flush(type)
    while (this.inFlight.size > 0) await Promise.race(this.inFlight)
    if (this.failure !== undefined) throw this.failure.error
  }

  private enqueue(entry: Waiting): void {
    const batch = this.ready.get(entry.type) ?? []
    this.ready.set(entry.type, batch)
    batch.push(entry.versions)
    if (batch.reduce((sum, versions) => sum + versions.length, 0) >= Math.min(this.limit, BATCH_VERSIONS)) this.flush(entry.type)
  }

  private flush(type: ContentType): void {
    const documents = this.ready.get(type) ?? []
    this.ready.delete(type)
    if (documents.length === 0) return
    const size = documents.reduce((sum, versions) => sum + versions.length, 0)
    this.versionsInFlight += size
    const write = this.write(type, documents).then(
      (results) => this.written(type, results),
      (error: unknown) => void (this.failure ??= { error }),
    ).finally(() => {
      this.versionsInFlight -= size
      this.inFlight.delete(write)
    })
    this.inFlight.add(write)
  }
}
