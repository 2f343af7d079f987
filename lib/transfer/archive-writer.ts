// Writes an archive in the layout of `strapi export --no-encrypt` (integration.md §21) as a stream:
// tar (tar-stream, the reader's library) through gzip unless the name ends in `.tar`. A tar entry
// names its size before its bytes, so JSON lines are gathered per folder up to CHUNK_BYTES and
// written as numbered files (`entities/entities_00001.jsonl`, ...), as Strapi splits its own: what
// is held at once is one chunk per folder and one asset, whatever the size of the table.
import { createWriteStream } from 'node:fs'
import { pipeline } from 'node:stream/promises'
import { createGzip } from 'node:zlib'
import * as tar from 'tar-stream'
import type { RecordStage } from './archive-reader.js'

/** Bytes of JSON lines per file of a folder (Strapi's default is larger; any size reads back). */
const CHUNK_BYTES = 8 * 1024 * 1024

export class ArchiveWriter {
  private readonly pack = tar.pack()
  private readonly done: Promise<void>
  private readonly chunks = new Map<RecordStage, { lines: string[]; bytes: number; files: number }>()

  constructor(path: string) {
    const file = createWriteStream(path)
    this.done = path.endsWith('.tar') ? pipeline(this.pack, file) : pipeline(this.pack, createGzip(), file)
    // A failed write ends the pipeline: the next entry rejects with its error (kept, not unhandled).
    this.done.catch(() => undefined)
  }

  /** Writes one file of the archive, `bytes` whole. */
  async file(name: string, bytes: Uint8Array | string): Promise<void> {
    const body = typeof bytes === 'string' ? Buffer.from(bytes, 'utf8') : Buffer.from(bytes)
    await new Promise<void>((resolve, reject) => {
      this.pack.entry({ name, size: body.length, mode: 0o644, mtime: new Date() }, body, (error) => (error ? reject(error) : resolve()))
    })
  }

  /** Adds one JSON line to `stage`'s files, writing a file when the folder's chunk is full. */
  async line(stage: RecordStage, record: unknown): Promise<void> {
    const text = `${JSON.stringify(record)}\n`
    let chunk = this.chunks.get(stage)
    if (chunk === undefined) this.chunks.set(stage, (chunk = { lines: [], bytes: 0, files: 0 }))
    chunk.lines.push(text)
    chunk.bytes += Buffer.byteLength(text)
    if (chunk.bytes >= CHUNK_BYTES) await this.flush(stage)
  }

  private async flush(stage: RecordStage): Promise<void> {
    const chunk = this.chunks.get(stage)
    if (chunk === undefined || chunk.lines.length === 0) return
    const lines = chunk.lines.join('')
    chunk.files += 1
    chunk.lines = []
    chunk.bytes = 0
    await this.file(`${stage}/${stage}_${String(chunk.files).padStart(5, '0')}.jsonl`, lines)
  }

  /** Writes what is gathered and ends the archive; resolves once the file is complete on disk. */
  async close(): Promise<void> {
    for (const stage of this.chunks.keys()) await this.flush(stage)
    this.pack.finalize()
    await this.done
  }

  /** Ends the archive after a failure (the file is left incomplete; the caller reports the error). */
  abort(error: Error): void {
    this.pack.destroy(error)
  }
}
