// Files as the admin pages show them (content-model.md §19): a summary of the upload API's file
// object (name, type, thumbnail), the library's pages read through the upload API, and the files
// a populated version already names (so a picker shows the chosen ones without another read).
import { mediaKindOf } from '../media/links.js'
import type { ApiClient } from './api-client.js'

/** A file as a picker or the library grid shows it. */
export interface FileSummary {
  readonly id: number
  readonly documentId: string
  readonly name: string
  readonly mime: string
  readonly alternativeText: string
  readonly caption: string
  /** The `thumbnail` format's URL, else the file's own for an image; none for other files. */
  readonly thumbnail: string | undefined
  readonly url: string
  readonly size: number
}

const isFile = (value: any): boolean => typeof value === 'object' && value !== null && typeof value.documentId === 'string' && typeof value.mime === 'string' && typeof value.url === 'string'

/** The summary of an upload API file object. */
export function summaryOf(file: Record<string, any>): FileSummary {
  const mime = String(file.mime)
  const thumbnail = typeof file.formats?.thumbnail?.url === 'string' ? file.formats.thumbnail.url : mime.startsWith('image/') ? String(file.url) : undefined
  return {
    id: Number(file.id), documentId: String(file.documentId), name: String(file.name ?? ''), mime,
    alternativeText: typeof file.alternativeText === 'string' ? file.alternativeText : '',
    caption: typeof file.caption === 'string' ? file.caption : '',
    thumbnail, url: String(file.url), size: Number(file.size ?? 0),
  }
}

/** Every file object found anywhere in `value` (a populated version), by documentId. */
export function filesIn(value: unknown, found = new Map<string, FileSummary>()): Map<string, FileSummary> {
  if (Array.isArray(value)) for (const item of value) filesIn(item, found)
  else if (isFile(value)) found.set((value as { documentId: string }).documentId, summaryOf(value as Record<string, any>))
  else if (typeof value === 'object' && value !== null) for (const item of Object.values(value)) filesIn(item, found)
  return found
}

/** True when `file` is of a kind `allowedTypes` accepts (every kind without it). */
export function allowedFile(allowedTypes: readonly string[] | undefined, file: FileSummary): boolean {
  return allowedTypes === undefined || allowedTypes.includes(mediaKindOf(file.mime))
}

/** One page of the library, newest first: `limit` files from `start`, and whether more follow. */
export async function readLibrary(api: ApiClient, start: number, limit: number): Promise<{ files: FileSummary[]; more: boolean; problem: string | undefined }> {
  const query = new URLSearchParams({ sort: 'createdAt:desc', 'pagination[start]': String(start), 'pagination[limit]': String(limit + 1) })
  const answer = await api.call('GET', `/api/upload/files?${query}`)
  if (answer.status !== 200 || !Array.isArray(answer.body)) return { files: [], more: false, problem: answer.status === 404 ? 'This deployment takes no uploads.' : `The upload API answered ${answer.status}` }
  const files = (answer.body as Record<string, any>[]).map(summaryOf)
  return { files: files.slice(0, limit), more: files.length > limit, problem: undefined }
}

/** Uploads `files` through the upload API; the created files, or the API's answer when it refused. */
export async function uploadFiles(api: ApiClient, files: readonly File[], info?: { alternativeText?: string; caption?: string }): Promise<{ files: FileSummary[] } | { status: number; message: string }> {
  const body = new FormData()
  for (const file of files) body.append('files', file, file.name)
  if (info !== undefined) body.append('fileInfo', JSON.stringify(files.map(() => info)))
  const answer = await api.call('POST', '/api/upload', body)
  if (answer.status !== 201) return { status: answer.status, message: typeof answer.body?.error?.message === 'string' ? answer.body.error.message : `The upload API answered ${answer.status}` }
  return { files: (answer.body as Record<string, any>[]).map(summaryOf) }
}
