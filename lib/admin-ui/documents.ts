// Reading a document's locale versions for the editors' pages, through the content API: one GET
// per registered locale (without fallback), which also gives each version's ETag for `If-Match`,
// and works for collection and single types and either `findOneShape`. With draft & publish, the
// draft and the published version of each locale, and which drafts have unpublished changes.
import { routeName, type ContentType } from '../content-types.js'
import type { ApiClient } from './api-client.js'
import { populateForForm } from './components-form/populate.js'
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

/**
 * A document's versions by locale: the editable one (the draft with draft & publish), the
 * published one, and the locales whose draft differs from their published version.
 */
export interface DocumentView {
  readonly editable: ReadonlyMap<string, VersionView>
  readonly published: ReadonlyMap<string, VersionView>
  readonly modified: ReadonlySet<string>
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

async function versionsIn(api: ApiClient, type: ContentType, path: string, locales: readonly Locale[], status: string | undefined): Promise<Map<string, VersionView>> {
  const found = await Promise.all(locales.map(async (locale) => {
    const query = new URLSearchParams({ locale: locale.code, fallback: 'false', ...(status === undefined ? {} : { status }) })
    // Components and media are edited on the page: read whole (nested ones too).
    populateForForm(type, query)
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
    const versions = await versionsIn(api, type, path, locales, undefined)
    return { editable: versions, published: versions, modified: new Set() }
  }
  const [editable, published, listed] = await Promise.all([
    versionsIn(api, type, path, locales, 'draft'),
    versionsIn(api, type, path, locales, 'published'),
    type.kind === 'collection' && documentId !== undefined ? modifiedIn(api, type, documentId) : undefined,
  ])
  const modified = new Set([...editable].filter(([code, draft]) => {
    const live = published.get(code)
    // The API's own answer (collection types); a single type has no list: its values compared.
    return live !== undefined && (listed === undefined ? !sameContent(draft.document, live.document) : listed.has(code))
  }).map(([code]) => code))
  return { editable, published, modified }
}

/** The locales in which the API counts a collection document as modified (`publicationFilter=modified`), if it answers. */
async function modifiedIn(api: ApiClient, type: ContentType, documentId: string): Promise<Set<string> | undefined> {
  const query = new URLSearchParams({ locale: '*', status: 'draft', publicationFilter: 'modified', 'filters[documentId][$eq]': documentId, 'fields[0]': 'locale', 'pagination[pageSize]': '100' })
  const answer = await api.call('GET', `/api/${routeName(type)}?${query}`)
  return answer.status === 200 ? new Set((answer.body.data as Record<string, any>[]).map((version) => String(version.locale))) : undefined
}

/**
 * The versions of a page of collection documents (`rows`, the list's versions) in every locale,
 * for the rows of a list: at most three list reads per locale, each selecting the page's documents
 * by `documentId $in`, whatever the page's size. A row's own version is not read again. With draft
 * & publish, the publication states come from the API's `publicationFilter` (`never-published`,
 * `modified`), which reads the named documents by key; if it refuses, the published versions are
 * read instead and compared.
 */
export async function readVersionsOfPage(api: ApiClient, type: ContentType, rows: readonly Record<string, any>[], locales: readonly Locale[]): Promise<Map<string, DocumentView>> {
  const views = new Map(rows.map((row) => [String(row.documentId), { editable: new Map<string, VersionView>(), published: new Map<string, VersionView>(), modified: new Set<string>() }]))
  const read = async (locale: string, documentIds: readonly string[], extra: Record<string, string>) => {
    if (documentIds.length === 0) return []
    const query = new URLSearchParams({ locale, fallback: 'false', 'pagination[pageSize]': String(documentIds.length), ...extra })
    documentIds.forEach((id, index) => query.set(`filters[documentId][$in][${index}]`, id))
    const answer = await api.call('GET', `/api/${routeName(type)}?${query}`)
    return answer.status === 200 ? (answer.body.data as Record<string, any>[]) : undefined
  }
  const ids = (documents: readonly Record<string, any>[]) => new Set(documents.map((document) => String(document.documentId)))
  const all = [...views.keys()]
  const drafts = hasDraftAndPublish(type)
  await Promise.all(locales.map(async ({ code }) => {
    const own = rows.filter((row) => row.locale === code)
    const elsewhere = all.filter((id) => !own.some((row) => String(row.documentId) === id))
    const [fetched, neverPublished, modified] = await Promise.all([
      read(code, elsewhere, drafts ? { status: 'draft' } : {}),
      drafts ? read(code, all, { status: 'draft', publicationFilter: 'never-published', 'fields[0]': 'documentId' }) : [],
      drafts ? read(code, all, { status: 'draft', publicationFilter: 'modified', 'fields[0]': 'documentId' }) : [],
    ])
    const published = neverPublished === undefined || modified === undefined ? await read(code, all, { status: 'published' }) : undefined
    for (const document of [...own, ...(fetched ?? [])]) {
      const view = views.get(String(document.documentId))
      if (view === undefined) continue
      const version = { document, etag: undefined }
      view.editable.set(code, version)
      const id = String(document.documentId)
      if (published === undefined) {
        // The API's own states; without draft & publish, the version read is the published one.
        if (!ids(neverPublished ?? []).has(id)) view.published.set(code, version)
        if (ids(modified ?? []).has(id)) view.modified.add(code)
        continue
      }
      const live = published.find((candidate) => String(candidate.documentId) === id)
      if (live === undefined) continue
      view.published.set(code, { document: live, etag: undefined })
      if (modified === undefined ? !sameContent(document, live) : ids(modified).has(id)) view.modified.add(code)
    }
  }))
  return views
}

const SYSTEM = new Set(['id', 'documentId', 'locale', 'createdAt', 'updatedAt', 'publishedAt'])

/** True when a draft and its published version hold the same attribute values (as the API returns them). */
export function sameContent(draft: Record<string, any>, published: Record<string, any>): boolean {
  const values = (document: Record<string, any>) => JSON.stringify(Object.keys(document).filter((key) => !SYSTEM.has(key)).sort().map((key) => [key, document[key]]))
  return values(draft) === values(published)
}

/** A version's publication state, for types with draft & publish. */
export function statusOf(view: DocumentView, locale: string): 'published' | 'modified' | 'draft' | undefined {
  if (!view.editable.has(locale)) return undefined
  if (!view.published.has(locale)) return 'draft'
  return view.modified.has(locale) ? 'modified' : 'published'
}
