// Files for the media tests, made with sharp (exact sizes, EXIF with a GPS position), and the
// multipart requests a client sends to the upload API.
import sharp from 'sharp'
import type { TestContext } from './context.js'

/** A PNG of `width` × `height` pixels. */
export function png(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#3366cc' } }).png().toBuffer()
}

/** A JPEG of `width` × `height` pixels whose EXIF holds a GPS position (and a camera make). */
export function jpegWithLocation(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#cc6633' } })
    .jpeg()
    .withExif({ IFD0: { Make: 'TestCam' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '48/1 51/1 2400/100', GPSLongitudeRef: 'E', GPSLongitude: '2/1 21/1 300/100' } })
    .toBuffer()
}

/** A file part: bytes, the name the client gives, and the Content-Type it claims. */
export interface Part {
  readonly bytes: Uint8Array
  readonly name: string
  readonly type?: string
}

/** A multipart body of `files` (each a `files` part) and `fileInfo` (one JSON field per entry). */
export function uploadForm(files: readonly Part[], fileInfo: readonly unknown[] = []): FormData {
  const form = new FormData()
  for (const file of files) form.append('files', new Blob([file.bytes], { type: file.type ?? 'application/octet-stream' }), file.name)
  for (const info of fileInfo) form.append('fileInfo', JSON.stringify(info))
  return form
}

/** Sends `form` to the upload API (`path`, default `/api/upload`) with `token`. */
export function sendForm(ctx: Pick<TestContext, 'app'>, form: FormData, token?: string, path = '/api/upload'): Promise<Response> {
  return Promise.resolve(ctx.app.request(path, { method: 'POST', body: form, headers: token === undefined ? {} : { Authorization: `Bearer ${token}` } }))
}
