// Images at upload (content-model.md §19), with sharp: the size, Strapi's resized `formats` (each
// breakpoint the image is larger than, and a thumbnail within 245×156), and the original without
// its EXIF data (GPS location included) unless configured to keep it. Done once, at upload.
import sharp from 'sharp'

/** Raster types sharp reads and resizes (Strapi resizes the same ones). */
const RESIZABLE: ReadonlySet<string> = new Set(['image/jpeg', 'image/png', 'image/webp', 'image/tiff', 'image/gif', 'image/avif'])
/** Strapi's thumbnail box. */
const THUMBNAIL = { width: 245, height: 156 }

/** One resized copy's bytes and size, before it is stored. */
export interface Resized {
  readonly name: string
  readonly bytes: Buffer
  readonly width: number
  readonly height: number
}

/** An image as stored: its (possibly cleaned) bytes, size and copies. */
export interface ProcessedImage {
  readonly bytes: Uint8Array
  readonly width: number | null
  readonly height: number | null
  readonly formats: readonly Resized[]
}

/** True for the types whose formats are made. */
export function isResizable(mime: string): boolean {
  return RESIZABLE.has(mime)
}

/**
 * The stored form of an image of `mime`: without EXIF when it has some and `keepLocation` is off
 * (re-encoded, oriented as its EXIF said), its width and height, and a copy for each breakpoint it
 * is wider or taller than plus the thumbnail. Other types pass through with no size.
 */
export async function processImage(bytes: Uint8Array, mime: string, breakpoints: Readonly<Record<string, number>>, keepLocation: boolean): Promise<ProcessedImage> {
  if (!isResizable(mime)) return { bytes, width: null, height: null, formats: [] }
  const animated = mime === 'image/gif' || mime === 'image/webp'
  const meta = await sharp(bytes, { animated }).metadata()
  const cleaned = meta.exif !== undefined && !keepLocation ? await sharp(bytes, { animated }).autoOrient().toBuffer() : bytes
  const { width, height } = cleaned === bytes ? meta : await sharp(cleaned, { animated }).metadata()
  const size = { width: width ?? 0, height: meta.pages !== undefined && meta.pageHeight !== undefined ? meta.pageHeight : (height ?? 0) }
  const wanted: { name: string; box: { width: number; height: number } }[] = []
  if (size.width > THUMBNAIL.width || size.height > THUMBNAIL.height) wanted.push({ name: 'thumbnail', box: THUMBNAIL })
  for (const [name, breakpoint] of Object.entries(breakpoints)) {
    if (size.width > breakpoint || size.height > breakpoint) wanted.push({ name, box: { width: breakpoint, height: breakpoint } })
  }
  const formats = await Promise.all(wanted.map(async ({ name, box }) => {
    const { data, info } = await sharp(cleaned, { animated }).resize({ ...box, fit: 'inside', withoutEnlargement: true }).toBuffer({ resolveWithObject: true })
    return { name, bytes: data, width: info.width, height: info.pageHeight ?? info.height }
  }))
  return { bytes: cleaned, width: size.width, height: size.height, formats }
}
