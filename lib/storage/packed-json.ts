// The stored form of JSON-text values (components, zones, blocks, json): the text itself when small,
// its raw DEFLATE compression as a Binary attribute when large. A landing's zone of 20 KB stores
// in about 3.5 KB: fewer bytes for DynamoDB to read and charge (RCU/WCU), to send and for the SDK to
// decode, as AWS's guidance for large attribute values suggests. Items written before keep their
// values as strings, and both forms read alike.
import { deflateRawSync, inflateRawSync } from 'node:zlib'

/** JSON text from this many UTF-8 bytes on is stored compressed (below, compression gains little). */
export const PACK_FROM_BYTES = 1024

/** The stored form of a JSON value: its text, or the text compressed (a Uint8Array, stored as Binary). */
export function packJson(value: unknown): string | Uint8Array {
  const text = JSON.stringify(value)
  const bytes = Buffer.byteLength(text)
  if (bytes < PACK_FROM_BYTES) return text
  const packed = deflateRawSync(text)
  // A plain Uint8Array (not a Buffer, whose toJSON would stand for it in JSON text): sizes and
  // comparisons see the same thing whether it was just made or read back through the SDK.
  return packed.byteLength < bytes ? new Uint8Array(packed.buffer, packed.byteOffset, packed.byteLength) : text
}

/** The value of a stored JSON-text attribute, in either form. */
export function unpackJson(stored: string | Uint8Array): unknown {
  return JSON.parse(typeof stored === 'string' ? stored : inflateRawSync(stored).toString('utf8'))
}
