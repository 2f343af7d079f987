// Reading a document's locale versions for the editors' pages, through the content API: one GET
// per registered locale (without fallback), which also gives each version's ETag for `If-Match`,
// and works for collection and single types and either `findOneShape`. With draft & publish, the
// draft and the published version of each locale.
import { routeName, type ContentType } from '../content-types.js'
import type { ApiClient } from './api-client.js'
import { hasDraftAndPublish } from './types.js'

export interface Locale {
  readonly code: string
  readonly name: string
  readonly isDefault: boolean
  readonly fallback: string | null
}

/** One locale version as the API returns it, and its ETag. */
export interface VersionView {
  readonly document: Record<string, any>
  readonly etag: string | undefined
}

/** A document's versions by locale: the editable one (the draft with draft & publish), and the published one. */
export interface DocumentView {
  readonly editable: ReadonlyMap<string, VersionView>
  readonly published: ReadonlyMap<string, VersionView>
}

/**
 * Whether the API serves drafts (content-model.md §15: `status=draft`), asked once per process: a
 * type's schema may say `draftAndPublish` before the API implements it, and the pages must not
 * offer what the API would refuse. An API without it answers `status` with a 400.
 */
export function draftsProbe(api: ApiClient, types: readonly ContentType[]): () => Promise<boolean> {
  let known: boolean | undefined
  return async () => {
    const type = types.find((candidate) => hasDraftAndPublish(candidate))
    if (known !== undefined || type === undefined) return known ?? false
    const answer = await api.call('GET', `/api/${routeName(type)}?status=draft`)
    if (answer.status < 500) known = answer.status !== 400
    return known ?? false
  }
}

/** `type` as the pages should treat it: without draft & publish when the API does not serve drafts. */
export async function effectiveType(type: ContentType, drafts: () => Promise<boolean>): Promise<ContentType> {
  return hasDraftAndPublish(type) && !(await drafts()) ? ({ ...type, draftAndPublish: false } as ContentType) : type
}

/** The API path of a document (`/api/articles/<id>`, or `/api/homepage` for a single type). */
export function documentPath(type: ContentType, documentId: string | undefined): string {
  return type.kind === 'single' || documentId === undefined ? `/api/${routeName(type)}` : `/api/${routeName(type)}/${documentId}`
}

/** The registered locales, default first. */
export async function localesOf(api: ApiClient): Promise<Locale[]> {
  const locales = (await api.call('GET', '/admin/i18n/locales')).body.data as Locale[]
  return [...locales].sort((a, b) => Number(b.isDefault) - Number(a.isDefault))
}

async function versionsIn(api: ApiClient, path: string, locales: readonly Locale[], status: string | undefined): Promise<Map<string, VersionView>> {
  const found = await Promise.all(locales.map(async (locale) => {
    const query = new URLSearchParams({ locale: locale.code, fallback: 'false', ...(status === undefined ? {} : { status }) })
    const answer = await api.call('GET', `${path}?${query}`)
    if (answer.status !== 200) return undefined
    const data = Array.isArray(answer.body.data) ? answer.body.data[0] : answer.body.data
    return data === undefined ? undefined : ([locale.code, { document: data, etag: answer.etag }] as const)
  }))
  return new Map(found.filter((entry) => entry !== undefined))
}

/** Every locale version of a document. */
export async function readDocument(api: ApiClient, type: ContentType, documentId: string | undefined, locales: readonly Locale[]): Promise<DocumentView> {
  const path = documentPath(type, documentId)
  if (!hasDraftAndPublish(type)) {
    const versions = await versionsIn(api, path, locales, undefined)
    return { editable: versions, published: versions }
  }
  const [editable, published] = await Promise.all([versionsIn(api, path, locales, 'draft'), versionsIn(api, path, locales, 'published')])
  return { editable, published }
}

/**
 * Which locales of a collection document have a version (and with draft & publish, which are
 * published): one `locale=*` read per status, for the rows of a list.
 */
export async function readVersionsOf(api: ApiClient, type: ContentType, documentId: string): Promise<DocumentView> {
  const read = async (status: string | undefined) => {
    const query = new URLSearchParams({ locale: '*', ...(status === undefined ? {} : { status }) })
    const answer = await api.call('GET', `${documentPath(type, documentId)}?${query}`)
    const versions = answer.status === 200 ? (answer.body.data as Record<string, any>[]) : []
    return new Map(versions.map((version) => [String(version.locale), { document: version, etag: undefined }]))
  }
  if (!hasDraftAndPublish(type)) {
    const versions = await read(undefined)
    return { editable: versions, published: versions }
  }
  const [editable, published] = await Promise.all([read('draft'), read('published')])
  return { editable, published }
}

/** A version's publication state, for types with draft & publish. */
export function statusOf(view: DocumentView, locale: string): 'published' | 'modified' | 'draft' | undefined {
  const draft = view.editable.get(locale)?.document
  const published = view.published.get(locale)?.document
  if (draft === undefined) return undefined
  if (published === undefined) return 'draft'
  return typeof draft.updatedAt === 'string' && typeof published.publishedAt === 'string' && draft.updatedAt > published.publishedAt ? 'modified' : 'published'
}
