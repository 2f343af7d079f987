// Draft & publish (content-model.md §15) as a client sees it: writes with and without `status`,
// the publication actions, reads per status, and a brute-force view of every version of the
// documents a test made, to compare list answers and counts with.
import { expect } from 'vitest'
import { createPeer, type TestContext } from './context.js'
import { createDocumentClient } from '../../lib/storage/client.js'
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb'

export type Doc = Record<string, any>
export type Status = 'published' | 'draft'
export const STATUSES: readonly Status[] = ['published', 'draft']
export type ActionName = 'publish' | 'unpublish' | 'discard-draft'

/** Something that sends requests as TestContext.request does (the context, or a peer process). */
export type Requester = Pick<TestContext, 'request'>

/** `?a=b&c=d` from an object (values already encoded where needed), or '' when empty. */
export function queryOf(query: Record<string, string | number | undefined> = {}): string {
  const parts = Object.entries(query).filter(([, value]) => value !== undefined).map(([name, value]) => `${name}=${value}`)
  return parts.length === 0 ? '' : `?${parts.join('&')}`
}

/** The revision in an ETag `"<id>.<rev>"`. */
export const revOf = (etag: string | null) => Number(/^"\d+\.(\d+)"$/.exec(etag ?? '')?.[1])
/** The id in an ETag `"<id>.<rev>"`. */
export const idOfTag = (etag: string | null) => Number(/^"(\d+)\.\d+"$/.exec(etag ?? '')?.[1])

/**
 * A client of one content type's routes with one access key: `path` is `/api/articles` (collection)
 * or `/api/homepage` (single type). `via` sends through another process when given.
 */
export function draftClient(ctx: TestContext, key: string, path = '/api/articles') {
  const single = path === '/api/homepage'
  const itemPath = (documentId: string | undefined) => (single || documentId === undefined ? path : `${path}/${documentId}`)
  const send = (via: Requester, method: string, url: string, data?: unknown, headers: Record<string, string> = {}) =>
    via.request(method, url, { token: key, body: data === undefined ? undefined : { data }, headers })
  return {
    /** POST (collection) with optional `locale` and `status`. */
    post: (data: Doc, query: Record<string, string | undefined> = {}, via: Requester = ctx) => send(via, 'POST', `${path}${queryOf(query)}`, data),
    /** PUT of one version (documentId ignored for the single type). */
    put: (documentId: string | undefined, data: Doc, query: Record<string, string | undefined> = {}, headers: Record<string, string> = {}, via: Requester = ctx) =>
      send(via, 'PUT', `${itemPath(documentId)}${queryOf(query)}`, data, headers),
    /** DELETE of one version, or every version with `locale=*`. */
    del: (documentId: string | undefined, query: Record<string, string | undefined> = {}, headers: Record<string, string> = {}, via: Requester = ctx) =>
      send(via, 'DELETE', `${itemPath(documentId)}${queryOf(query)}`, undefined, headers),
    /** POST .../actions/<name>, with optional `locale`. */
    action: (documentId: string | undefined, name: ActionName, query: Record<string, string | undefined> = {}, headers: Record<string, string> = {}, via: Requester = ctx) =>
      send(via, 'POST', `${itemPath(documentId)}/actions/${name}${queryOf(query)}`, undefined, headers),
    /** GET of one version (collection: get one; single type: its GET). */
    get: (documentId: string | undefined, query: Record<string, string | undefined> = {}, headers: Record<string, string> = {}, via: Requester = ctx) =>
      send(via, 'GET', `${itemPath(documentId)}${queryOf(query)}`, undefined, headers),
    /** GET of the list with a raw query string (without `?`). */
    list: (query = '', headers: Record<string, string> = {}, via: Requester = ctx) => send(via, 'GET', `${path}${query === '' ? '' : `?${query}`}`, undefined, headers),
  }
}
export type DraftClient = ReturnType<typeof draftClient>

/** The `data` of a 200 answer (fails the test otherwise). */
export async function dataOf(response: Response, status = 200): Promise<any> {
  const text = await response.text()
  expect({ status: response.status, body: response.status === status ? '' : text }).toEqual({ status, body: '' })
  return (JSON.parse(text) as { data: unknown }).data
}

/** The one version a collection get one answers (array or object shape). */
export async function oneOf(response: Response): Promise<Doc> {
  const data = await dataOf(response)
  return Array.isArray(data) ? data[0] : data
}

/** Every version of `documentId` in `status` (get one with locale=*), by locale; {} on 404. */
export async function versionsOf(client: DraftClient, documentId: string, status: Status): Promise<Record<string, Doc>> {
  const response = await client.get(documentId, { locale: '*', status })
  if (response.status === 404) return {}
  const data: Doc[] = await dataOf(response)
  return Object.fromEntries(data.map((doc) => [doc.locale as string, doc]))
}

/** Every version of the documents, per status, read one document at a time (the brute force). */
export async function bruteForce(client: DraftClient, documentIds: Iterable<string>): Promise<Record<Status, Doc[]>> {
  const result: Record<Status, Doc[]> = { published: [], draft: [] }
  for (const documentId of documentIds) {
    for (const status of STATUSES) result[status].push(...Object.values(await versionsOf(client, documentId, status)))
  }
  return result
}

/** Every entry of a list query (all pages of 100), with the total the first page announced. */
export async function listAll(client: DraftClient, query: string): Promise<{ data: Doc[]; total: number }> {
  const data: Doc[] = []
  let total = -1
  for (let page = 1; ; page++) {
    const response = await client.list(`${query}${query === '' ? '' : '&'}pagination[pageSize]=100&pagination[page]=${page}`)
    expect(response.status).toBe(200)
    const body = await response.json() as { data: Doc[]; meta: { pagination: { total: number; pageCount: number } } }
    if (page === 1) total = body.meta.pagination.total
    data.push(...body.data)
    if (page >= body.meta.pagination.pageCount) break
  }
  return { data, total }
}

/** A short, comparable form of versions: `<documentId>/<locale>#<id>`, sorted. */
export const keysOf = (docs: readonly Doc[]) => docs.map((doc) => `${doc.documentId}/${doc.locale}#${doc.id}`).sort()

/**
 * Checks the lists of both statuses (in `locales` and `*`) against the brute force of the
 * documents `documentIds` (with `known`, every document of the table): same versions, totals exact, each list
 * showing versions of its own status only (publishedAt null exactly in drafts), and no published
 * version without its draft.
 */
export async function expectListsMatchBruteForce(
  client: DraftClient, documentIds: Iterable<string>, locales: readonly string[], label: unknown = '',
  /** Versions of other documents, read before and untouched since (not read again). */
  known: Record<Status, Doc[]> = { published: [], draft: [] },
): Promise<Record<Status, Doc[]>> {
  const read = await bruteForce(client, documentIds)
  const truth = { published: [...known.published, ...read.published], draft: [...known.draft, ...read.draft] }
  const draftKeys = new Set(truth.draft.map((doc) => `${doc.documentId}/${doc.locale}`))
  const orphans = truth.published.filter((doc) => !draftKeys.has(`${doc.documentId}/${doc.locale}`)).map((doc) => `${doc.documentId}/${doc.locale}`)
  expect({ label, orphans }).toEqual({ label, orphans: [] })
  for (const doc of truth.published) expect({ label, publishedAt: typeof doc.publishedAt }).toEqual({ label, publishedAt: 'string' })
  for (const doc of truth.draft) expect({ label, publishedAt: doc.publishedAt }).toEqual({ label, publishedAt: null })
  for (const status of STATUSES) {
    for (const locale of [...locales, '*']) {
      const expected = truth[status].filter((doc) => locale === '*' || doc.locale === locale)
      const { data, total } = await listAll(client, `status=${status}&locale=${locale}`)
      expect({ label, status, locale, total, keys: keysOf(data) }).toEqual({ label, status, locale, total: expected.length, keys: keysOf(expected) })
    }
  }
  return truth
}

/**
 * Another process on the context's table with a DynamoDB client of its own, so a test can hold
 * or count that process's DynamoDB calls alone (`db.middlewareStack`).
 */
export function isolatedPeer(ctx: TestContext): Requester & { db: DynamoDBDocumentClient } {
  const db = createDocumentClient({ region: 'us-east-1', endpoint: ctx.endpoint })
  return { request: createPeer(ctx, {}, db).request, db }
}
