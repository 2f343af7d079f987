// Links of a version whose target has no version in the page's locale (content-model.md §16: a
// deleted locale version of a target keeps the links; read from that locale they resolve to
// nothing, so the populated read leaves them out). The page shows them as such, each with a link to
// create that localization, and a to-one's form keeps the link instead of clearing it.
import { routeName, type ContentType } from '../content-types.js'
import type { Services } from '../services.js'
import type { ApiClient } from './api-client.js'
import { hasDraftAndPublish, labelAttribute } from './types.js'

/** A linked document: its documentId and label (relation-links.ts's Linkable, which imports this). */
interface Linkable {
  readonly documentId: string
  readonly label: string
}

/** At most this many missing links are named per relation (the rest are kept, unnamed). */
const MAX_MISSING = 100

/**
 * By relation name, the targets `linked` (the version's stored links) holds that `shown` (the
 * populated read in this locale) lacks, labelled from another locale: one read of the version by
 * key, and one list read per relation that has any.
 */
export async function missingLinks(services: Services, api: ApiClient, type: ContentType, documentId: string, locale: string, relations: readonly { name: string; target: ContentType; shown: readonly Linkable[] }[]): Promise<Map<string, Linkable[]>> {
  const missing = new Map<string, Linkable[]>()
  if (relations.length === 0) return missing
  const version = await services.documents.getVersion(type, documentId, locale, hasDraftAndPublish(type) ? 'draft' : 'published')
  if (version === undefined) return missing
  await Promise.all(relations.map(async ({ name, target, shown }) => {
    const stored = version.attributes[name]
    const ids = (typeof stored === 'string' ? [stored] : Array.isArray(stored) ? (stored as string[]) : []).filter((id) => !shown.some((pick) => pick.documentId === id)).slice(0, MAX_MISSING)
    if (ids.length > 0) missing.set(name, await labelsElsewhere(api, target, ids))
  }))
  return missing
}

/** Labels of `ids` from any of their target's locales (`locale=*`), in `ids` order. */
async function labelsElsewhere(api: ApiClient, target: ContentType, ids: readonly string[]): Promise<Linkable[]> {
  const label = labelAttribute(target)
  const query = new URLSearchParams({ locale: '*', 'pagination[pageSize]': String(MAX_MISSING * 4), 'fields[0]': label ?? 'documentId', 'fields[1]': 'locale' })
  if (hasDraftAndPublish(target)) query.set('status', 'draft')
  ids.forEach((id, index) => query.set(`filters[documentId][$in][${index}]`, id))
  const answer = await api.call('GET', `/api/${routeName(target)}?${query}`)
  const found = answer.status === 200 ? (answer.body.data as Record<string, any>[]) : []
  return ids.map((documentId) => {
    const named = found.find((document) => document.documentId === documentId && label !== undefined && typeof document[label] === 'string' && document[label] !== '')
    return { documentId, label: named === undefined || label === undefined ? '' : String(named[label]) }
  })
}
