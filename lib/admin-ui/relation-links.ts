// The relations of a document page (content-model.md §16), read and written through the content
// API: the version's current links (one get-one with `populate`, each relation's target label
// only), the candidates of each owning side (one bounded list read of the target per relation, in
// the page's locale, narrowed by `_q`), and the `data` a submitted form writes for them. An inverse
// side is read from its owning type's list filtered on the owning relation, drafts included: a
// populate from a source without draft & publish shows only published owners.
import { publicRelations, routeName, typeByUid, type ContentType, type Relation } from '../content-types.js'
import { messageOf, type ApiClient } from './api-client.js'
import type { Services } from '../services.js'
import type { Form } from './form.js'
import { missingLinks } from './relation-missing.js'
import { hasDraftAndPublish, labelAttribute } from './types.js'

/** Candidates a picker lists at most (narrowed with its search field). */
export const MAX_CANDIDATES = 100
/** Current links a to-many shows at most; the rest are kept (writes connect and disconnect). */
export const MAX_SHOWN_LINKS = 100

/** A linked or candidate document: its documentId and label (its target's first text attribute). */
export interface Linkable {
  readonly documentId: string
  readonly label: string
}

/** One relation of a document page, with what its picker shows. */
export interface RelationView {
  readonly name: string
  readonly relation: Relation
  readonly target: ContentType
  /** Owning sides with a collection target get a picker; inverse sides are shown read-only. */
  readonly editable: boolean
  /** The current links, in link order (at most MAX_SHOWN_LINKS), and whether there are more. */
  readonly linked: readonly Linkable[]
  readonly more: boolean
  /** The candidates (editable sides only), their total, the search text, a problem reading them. */
  readonly candidates: readonly Linkable[]
  readonly total: number
  readonly search: string
  readonly problem: string | undefined
  /** Linked targets without a version in the page's locale (labelled from another), shown as such. */
  readonly missing: readonly Linkable[]
}

/** Form names: the to-one select, a to-many's remove and add checkboxes; the search query name. */
export const relationField = (name: string) => `r.${name}`
export const removeField = (name: string) => `r.${name}.remove`
export const addField = (name: string) => `r.${name}.add`
export const searchParam = (name: string) => `find.${name}`
/** A to-one select's value that keeps its current link (a target without this locale's version). */
export const KEEP = 'keep:'

const pickOf = (target: ContentType) => {
  const label = labelAttribute(target)
  return (document: Record<string, any>): Linkable => ({
    documentId: String(document.documentId),
    label: label === undefined || document[label] === null || document[label] === undefined ? '' : String(document[label]),
  })
}

/** The relations of `type` a page shows: public ones whose target type is served (media have their own picker). */
export function shownRelations(types: readonly ContentType[], type: ContentType): { name: string; relation: Relation; target: ContentType }[] {
  return publicRelations(type).flatMap((name) => {
    const relation = type.relations[name] as Relation
    if (relation.media !== undefined) return []
    const target = typeByUid(types, relation.target)
    return target === undefined ? [] : [{ name, relation, target }]
  })
}

/**
 * Every shown relation of the version of `path` (undefined: a version not written yet) in `locale`:
 * one get-one populating them all, plus one list read of candidates per editable relation.
 */
export async function readRelations(api: ApiClient, types: readonly ContentType[], type: ContentType, path: string | undefined, documentId: string | undefined, locale: string, query: Record<string, string>, services?: Services): Promise<RelationView[]> {
  const shown = shownRelations(types, type)
  if (shown.length === 0) return []
  const owners = (relation: Relation, target: ContentType) => relation.mappedBy !== undefined && target.kind === 'collection' && documentId !== undefined
  const populated = shown.filter(({ relation, target }) => !owners(relation, target))
  const [version, candidates, owning] = await Promise.all([
    path === undefined || populated.length === 0 ? undefined : readLinked(api, type, path, locale, populated),
    Promise.all(shown.map(({ name, relation, target }) => (relation.mappedBy === undefined && target.kind === 'collection' ? readCandidates(api, target, locale, (query[searchParam(name)] ?? '').trim()) : undefined))),
    Promise.all(shown.map(({ relation, target }) => (owners(relation, target) && path !== undefined ? readCandidates(api, target, locale, '', [`filters[${relation.mappedBy}][documentId][$eq]`, documentId as string]) : undefined))),
  ])
  // Links the populated read left out: targets without a version in this locale.
  const linkedOf = (name: string, target: ContentType) => {
    const value = version?.[name]
    return value === null || value === undefined ? [] : (Array.isArray(value) ? value : [value]).map(pickOf(target))
  }
  const localizedTargets = populated.filter(({ target }) => target.localized)
  const missing = services === undefined || documentId === undefined || version === undefined || localizedTargets.length === 0
    ? new Map<string, Linkable[]>()
    : await missingLinks(services, api, type, documentId, locale, localizedTargets.map(({ name, target }) => ({ name, target, shown: linkedOf(name, target) })))
  return shown.map(({ name, relation, target }, index) => {
    const value = version?.[name]
    const found = candidates[index]
    const owned = owning[index]
    const linked = owned !== undefined ? owned.items : value === null || value === undefined ? [] : (Array.isArray(value) ? value : [value]).map(pickOf(target))
    return {
      name, relation, target,
      editable: found !== undefined,
      linked: linked.slice(0, MAX_SHOWN_LINKS),
      more: linked.length > MAX_SHOWN_LINKS || (owned !== undefined && owned.total > owned.items.length),
      candidates: found?.items ?? [],
      total: found?.total ?? 0,
      search: (query[searchParam(name)] ?? '').trim(),
      problem: found?.problem,
      missing: missing.get(name) ?? [],
    }
  })
}

/** The version with its relations populated: the target's label and documentId only. */
async function readLinked(api: ApiClient, type: ContentType, path: string, locale: string, shown: readonly { name: string; relation: Relation; target: ContentType }[]): Promise<Record<string, any> | undefined> {
  const query = new URLSearchParams({ locale, fallback: 'false', ...(hasDraftAndPublish(type) ? { status: 'draft' } : {}) })
  for (const { name, relation, target } of shown) {
    query.set(`populate[${name}][fields][0]`, labelAttribute(target) ?? 'documentId')
    // One more than shown: enough to say there are more.
    if (relation.many) query.set(`populate[${name}][limit]`, String(MAX_SHOWN_LINKS + 1))
  }
  const answer = await api.call('GET', `${path}?${query}`)
  if (answer.status !== 200) return undefined
  return Array.isArray(answer.body.data) ? answer.body.data[0] : answer.body.data
}

/** At most MAX_CANDIDATES documents of `target` in `locale` (drafts included), by label, optionally filtered. */
async function readCandidates(api: ApiClient, target: ContentType, locale: string, search: string, filter?: readonly [string, string]): Promise<{ items: Linkable[]; total: number; problem: string | undefined }> {
  const label = labelAttribute(target)
  const query = new URLSearchParams({ locale, fallback: 'false', 'pagination[pageSize]': String(MAX_CANDIDATES), 'fields[0]': label ?? 'documentId', sort: `${label ?? 'documentId'}:asc` })
  // Every version of a draft & publish target has a draft, and a link needs only that.
  if (hasDraftAndPublish(target)) query.set('status', 'draft')
  if (search !== '') query.set('_q', search)
  if (filter !== undefined) query.set(filter[0], filter[1])
  const answer = await api.call('GET', `/api/${routeName(target)}?${query}`)
  if (answer.status !== 200) return { items: [], total: 0, problem: messageOf(answer) }
  return { items: (answer.body.data as Record<string, any>[]).map(pickOf(target)), total: Number(answer.body.meta?.pagination?.total ?? 0), problem: undefined }
}

/** What a submitted picker holds: a to-one's choice ('' for none), a to-many's removals and additions. */
export interface Picked {
  readonly one: string | undefined
  readonly remove: readonly string[]
  readonly add: readonly string[]
}

/** The picks of a submitted form, by relation (only the pickers the form held). */
export function pickedOf(types: readonly ContentType[], type: ContentType, form: Form): Map<string, Picked> {
  const picked = new Map<string, Picked>()
  for (const { name, relation } of shownRelations(types, type)) {
    if (relation.mappedBy !== undefined) continue
    if (!relation.many && form.has(relationField(name))) picked.set(name, { one: form.text(relationField(name)) ?? '', remove: [], add: [] })
    if (relation.many) picked.set(name, { one: undefined, remove: form.all(removeField(name)), add: form.all(addField(name)) })
  }
  return picked
}

/**
 * The relation values of a write's `data`: a to-one its documentId or null, a to-many
 * `{ connect, disconnect }` of what was ticked (links the page did not show are kept).
 */
export function linkData(types: readonly ContentType[], type: ContentType, form: Form, creating: boolean): Record<string, unknown> {
  const data: Record<string, unknown> = {}
  for (const [name, picked] of pickedOf(types, type, form)) {
    if (picked.one !== undefined) {
      // The current link to a target without this locale's version: left as it is.
      if (picked.one.startsWith(KEEP)) continue
      if (picked.one !== '' || !creating) data[name] = picked.one === '' ? null : picked.one
      continue
    }
    const remove = new Set(picked.remove)
    const add = picked.add.filter((id) => !remove.has(id))
    if (add.length === 0 && remove.size === 0) continue
    data[name] = { ...(add.length > 0 ? { connect: add } : {}), ...(remove.size > 0 ? { disconnect: [...remove] } : {}) }
  }
  return data
}
