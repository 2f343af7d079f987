// Reads an archive of `strapi export --no-encrypt` (integration.md §21) as a stream: a `.tar` or a
// `.tar.gz` (told apart by gzip's magic bytes, not by the name), whose `schemas/`, `entities/`,
// `links/` and `configuration/` entries are JSON lines, `metadata.json` one JSON object and
// `assets/` files. Nothing is held but the line being read: the caller's handler is awaited before
// the next line is read, so an archive larger than memory is read at the pace of its consumer.
import { createReadStream } from 'node:fs'
import { open } from 'node:fs/promises'
import { Readable } from 'node:stream'
import { StringDecoder } from 'node:string_decoder'
import { createGunzip } from 'node:zlib'
import * as tar from 'tar-stream'

/** The folders of an archive that hold JSON lines. */
export const RECORD_STAGES = ['schemas', 'entities', 'links', 'configuration'] as const
export type RecordStage = (typeof RECORD_STAGES)[number]

/** What a pass over an archive does with what it finds; a missing handler skips that part unread. */
export interface ArchiveHandlers {
  /** One JSON line of `stage`'s files. */
  readonly record?: Partial<Record<RecordStage, (record: unknown) => void | Promise<void>>>
  readonly metadata?: (metadata: unknown) => void
  /** A file under `assets/` (its path below `assets/`), for the media step: read it or leave it. */
  readonly asset?: (path: string, content: Readable) => Promise<void>
}

/** A problem with the archive itself (not a tar, a line that is not JSON): named with where it is. */
export class ArchiveError extends Error {
  override readonly name = 'ArchiveError'
}

async function isGzip(path: string): Promise<boolean> {
  const file = await open(path, 'r')
  try {
    const head = Buffer.alloc(2)
    const { bytesRead } = await file.read(head, 0, 2, 0)
    return bytesRead === 2 && head[0] === 0x1f && head[1] === 0x8b
  } finally {
    await file.close()
  }
}

/** Reads the archive at `path` once, top to bottom, calling `handlers` for what they ask. */
export async function readArchive(path: string, handlers: ArchiveHandlers): Promise<void> {
  const extract = tar.extract()
  const source = createReadStream(path)
  const input = (await isGzip(path)) ? source.pipe(createGunzip()) : source
  const fail = (error: Error) => extract.destroy(new ArchiveError(`${path}: not a readable Strapi archive (${error.message})`))
  source.on('error', fail)
  input.on('error', fail)
  input.pipe(extract)
  for await (const item of extract) {
    // tar-stream's entries are streamx streams: read here by async iteration only.
    const entry = item as unknown as AsyncIterable<Buffer> & { header: tar.Header; resume(): void }
    const name = entry.header.name.replace(/^\.\//, '')
    const stage = RECORD_STAGES.find((candidate) => name.startsWith(`${candidate}/`) && name.endsWith('.jsonl'))
    const onRecord = stage === undefined ? undefined : handlers.record?.[stage]
    if (onRecord !== undefined) await readLines(entry, name, onRecord)
    else if (name === 'metadata.json' && handlers.metadata !== undefined) handlers.metadata(parseJson(await readAll(entry), name, 1))
    else if (name.startsWith('assets/') && entry.header.type === 'file' && handlers.asset !== undefined) await handlers.asset(name.slice('assets/'.length), Readable.from(entry))
    else entry.resume()
  }
}

async function readAll(entry: AsyncIterable<Buffer>): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of entry) chunks.push(chunk)
  return Buffer.concat(chunks).toString('utf8')
}

/** Calls `onRecord` with each JSON line of `entry`, awaited one after the other (lines may span chunks). */
async function readLines(entry: AsyncIterable<Buffer>, name: string, onRecord: (record: unknown) => void | Promise<void>): Promise<void> {
  const decoder = new StringDecoder('utf8')
  let rest = ''
  let line = 0
  const emit = async (text: string) => {
    line += 1
    if (text.trim() !== '') await onRecord(parseJson(text, name, line))
  }
  for await (const chunk of entry) {
    const lines = (rest + decoder.write(chunk)).split('\n')
    rest = lines.pop() ?? ''
    for (const text of lines) await emit(text)
  }
  await emit(rest + decoder.end())
}

function parseJson(text: string, name: string, line: number): unknown {
  try {
    return JSON.parse(text)
  } catch (error) {
    throw new ArchiveError(`${name}, line ${line}: not JSON (${error instanceof Error ? error.message : String(error)})`)
  }
}
