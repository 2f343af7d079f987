// Reads a `multipart/form-data` body (the upload API's) as it streams, with busboy: every part
// is bounded before it is buffered (a file past the size limit, too many files or fields, a field
// too long), so no request makes the process hold more than the limits allow.
import { Readable } from 'node:stream'
import busboy from 'busboy'
import { badRequest, payloadTooLarge, unsupportedMediaType } from '../errors.js'

/** One file part: the name the client gave and its bytes. */
export interface FilePart {
  readonly field: string
  readonly filename: string
  readonly bytes: Uint8Array
}

export interface Multipart {
  readonly files: readonly FilePart[]
  readonly fields: Readonly<Record<string, string[]>>
}

export interface MultipartLimits {
  /** Largest file part, in bytes. */
  readonly fileBytes: number
  /** Most file parts. */
  readonly files: number
}

/** Most text fields, and the longest one (a `fileInfo` array of JSON for many files). */
const MAX_FIELDS = 100
const MAX_FIELD_BYTES = 256 * 1024

/**
 * The parts of a multipart body: 415 for another Content-Type, 413 for a file past
 * `limits.fileBytes` (read no further), 400 for a malformed body or too many parts.
 */
export async function readMultipart(contentType: string | undefined, body: ReadableStream<Uint8Array> | null, limits: MultipartLimits): Promise<Multipart> {
  if (contentType === undefined || !/^multipart\/form-data\s*;/i.test(contentType)) throw unsupportedMediaType()
  let parser: busboy.Busboy
  try {
    parser = busboy({ headers: { 'content-type': contentType }, limits: { fileSize: limits.fileBytes, files: limits.files, fields: MAX_FIELDS, fieldSize: MAX_FIELD_BYTES, parts: limits.files + MAX_FIELDS } })
  } catch {
    throw badRequest('Invalid multipart body: the Content-Type has no boundary')
  }
  const files: FilePart[] = []
  const fields: Record<string, string[]> = {}
  const source = body === null ? Readable.from([]) : Readable.fromWeb(body as import('node:stream/web').ReadableStream<Uint8Array>)
  return new Promise<Multipart>((resolve, reject) => {
    let failed = false
    const fail = (error: unknown) => {
      if (failed) return
      failed = true
      source.unpipe(parser)
      source.destroy()
      reject(error)
    }
    parser.on('file', (field, stream, info) => {
      const chunks: Buffer[] = []
      stream.on('data', (chunk: Buffer) => chunks.push(chunk))
      stream.on('limit', () => fail(payloadTooLarge(limits.fileBytes)))
      stream.on('end', () => {
        if (!failed) files.push({ field, filename: info.filename ?? '', bytes: Buffer.concat(chunks) })
      })
    })
    parser.on('field', (name, value, info) => {
      if (info.valueTruncated) fail(badRequest(`Invalid multipart body: the field ${name} is longer than ${MAX_FIELD_BYTES} bytes`))
      else (fields[name] ??= []).push(value)
    })
    parser.on('filesLimit', () => fail(badRequest(`Too many files: at most ${limits.files} in one request`)))
    parser.on('fieldsLimit', () => fail(badRequest(`Too many fields: at most ${MAX_FIELDS} in one request`)))
    parser.on('partsLimit', () => fail(badRequest('Too many parts in the multipart body')))
    parser.on('error', () => fail(badRequest('Invalid multipart body')))
    parser.on('close', () => {
      if (!failed) resolve({ files, fields })
    })
    source.on('error', fail)
    source.pipe(parser)
  })
}
