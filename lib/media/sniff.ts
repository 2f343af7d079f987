// What a file is, decided from its bytes (content-model.md §19): its magic numbers for binary
// formats (the `file-type` library knows about a hundred), a look at the text for the rest. Never
// from the name or the client's Content-Type: a `.png` that holds HTML is HTML here.
import { fileTypeFromBuffer } from 'file-type'

/** A file's type as sniffed: its MIME type and the extension stored names take (with the dot). */
export interface Sniffed {
  readonly mime: string
  readonly ext: string
}

/** How much of a file the text checks read: an SVG or HTML file says so within it. */
const TEXT_WINDOW = 4096

/** Extensions of the types whose usual one is not file-type's (`jpg` for JPEG, as Strapi names them). */
const EXTENSION: Readonly<Record<string, string>> = { 'image/jpeg': '.jpg', 'image/svg+xml': '.svg', 'text/html': '.html', 'text/plain': '.txt', 'application/xml': '.xml' }

/**
 * Types that a browser would run when served as they are from the API's origin (scripts, markup,
 * PDF's scripts aside): they are served as downloads in a sandbox (lib/media/delivery.ts).
 */
const ACTIVE: ReadonlySet<string> = new Set(['image/svg+xml', 'text/html', 'application/xhtml+xml', 'application/xml', 'text/xml', 'application/javascript', 'text/javascript'])

/** True for types served only as sandboxed downloads, never inline (SVG, HTML, XML, scripts). */
export function isActive(mime: string): boolean {
  return ACTIVE.has(mime)
}

/** The type of `bytes`: binary formats by magic number, then SVG, HTML, XML or plain UTF-8 text; `application/octet-stream` otherwise. */
export async function sniff(bytes: Uint8Array): Promise<Sniffed> {
  const found = await fileTypeFromBuffer(bytes)
  // file-type names any `<?xml` document XML; an SVG or XHTML one is what it holds.
  if (found !== undefined && found.mime !== 'application/xml') return { mime: found.mime, ext: EXTENSION[found.mime] ?? `.${found.ext}` }
  const text = textOf(bytes.subarray(0, TEXT_WINDOW))
  if (text === undefined) return { mime: 'application/octet-stream', ext: '.bin' }
  const mime = markupOf(text) ?? 'text/plain'
  return { mime, ext: EXTENSION[mime] as string }
}

/** The start of `bytes` as text when it is UTF-8 without control characters other than whitespace. */
function textOf(bytes: Uint8Array): string | undefined {
  let text: string
  try {
    // The window may cut a character in two: drop up to 3 trailing bytes of an incomplete one.
    text = new TextDecoder('utf-8', { fatal: false }).decode(bytes)
  } catch {
    return undefined
  }
  const body = text.replace(/\uFFFD{1,3}$/, '')
  // eslint-disable-next-line no-control-regex
  if (body.includes('\uFFFD') || /[\u0000-\u0008\u000E-\u001F\u007F]/.test(body)) return undefined
  return body.replace(/^\uFEFF/, '')
}

/** SVG, HTML or other XML, as a browser would take the text; undefined for plain text. */
function markupOf(text: string): string | undefined {
  const head = text.trimStart().toLowerCase()
  if (/<svg[\s>]/.test(head)) return 'image/svg+xml'
  if (/^<!doctype html|<html[\s>]|<script[\s>]|<body[\s>]|<head[\s>]|<iframe[\s>]/.test(head)) return 'text/html'
  if (head.startsWith('<?xml') || head.startsWith('<')) return 'application/xml'
  return undefined
}
