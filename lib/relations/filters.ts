// Filters through relations (content-model.md §16), resolved before a list is read: the targets
// matching a relation's conditions are found through their own type's indexes (a list read of the
// target type with those conditions), then each relation condition becomes a set of documentIds
// the source's links (or, for an inverse side, the source's own documentId) must meet. When such a
// condition must hold for every match, the sources are also found through the index of links
// (storage/links.ts), so the list reads those documents by key: O(matches), not O(list).
import type { ComponentField, ContentType } from '../content-types.js'
import { typeBelowField } from '../components/types.js'
import { forbidden } from '../errors.js'
import { crossesRelations, type Filter } from '../query/filters.js'
import type { Services } from '../services.js'
import type { Version } from '../storage/items.js'
import { overBudget } from '../storage/lists/reader.js'
import { servedList, versionList, type Status } from '../table.js'
import { targetOf } from './targets.js'
import { linkIds } from './write.js'

/** Who reads, where: what every relation condition of one request shares. */
export interface FilterScope {
  readonly services: Services
  /** The request's locale code, or `*`. */
  readonly locale: string
  readonly status: Status
  /** The request's fallback is on: targets are read as the locale's chain serves them. */
  readonly fallback: boolean
  /** True when the caller may read `type` in the request's status. */
  readonly may: (type: ContentType) => boolean
}

type Relation = Extract<Filter, { kind: 'relation' }>

/** The lists of `target` a reader in the scope sees (every locale's for `*`). */
async function listsOf(scope: FilterScope, target: ContentType): Promise<string[]> {
  const { locales } = scope.services
  const status: Status = target.draftAndPublish ? scope.status : 'published'
  if (!target.localized) return [versionList(await locales.defaultCode(), status)]
  if (scope.locale === '*') return (await locales.expand('*')).map((code) => versionList(code, status))
  if (scope.fallback && (await locales.chainOf(scope.locale)) !== undefined && (await locales.servedReady(scope.locale))) return [servedList(versionList(scope.locale, status))]
  return [versionList(scope.locale, status)]
}

/** The own lists (no served copies) links of `type` are indexed under, for the scope. */
export async function ownListsOf(scope: FilterScope, type: ContentType): Promise<string[]> {
  const { locales } = scope.services
  const status: Status = type.draftAndPublish ? scope.status : 'published'
  if (!type.localized) return [versionList(await locales.defaultCode(), status)]
  const chain = scope.locale === '*' ? await locales.expand('*') : scope.fallback ? ((await locales.chainOf(scope.locale)) ?? [scope.locale]) : [scope.locale]
  return chain.map((code) => versionList(code, status))
}

/** The scope's read of `target`'s lists for `filter` (every match: within api.rest.maxScan), and its validator. */
async function targetRead(scope: FilterScope, target: ContentType, filter: Filter | undefined) {
  const { lists, locales, config } = scope.services
  if (!scope.may(target)) throw forbidden()
  const names = await listsOf(scope, target)
  const resolved = await resolveRelations(scope, target, filter, await ownListsOf(scope, target))
  const maxScan = config.rest.maxScan
  const request = { lists: names, collation: scope.locale, sort: [], filter: resolved, offset: 0, limit: maxScan, maxScan, trusted: await locales.indexTrusted(), startedAt: Date.now() }
  return { request, validator: lists.validator(target, names) }
}

/** Every version of `target` the scope sees that matches `filter` (every one when undefined), within api.rest.maxScan. */
async function matching(scope: FilterScope, target: ContentType, filter: Filter | undefined): Promise<Version[]> {
  const { request, validator } = await targetRead(scope, target, filter)
  const page = await scope.services.lists.list(target, request, validator)
  if (page.total > page.versions.length) throw overBudget(request.maxScan)
  return page.versions
}

/** The documentIds of `target` the scope sees that match `filter`, from index entries alone (no document read). */
async function matchingIds(scope: FilterScope, target: ContentType, filter: Filter | undefined): Promise<string[]> {
  const { request, validator } = await targetRead(scope, target, filter)
  return scope.services.lists.documentIdsMatching(target, request, validator)
}

/** Where a relation condition is: the type (or component) holding the relation, and for one inside components the type owning them and the path of component attributes down to it. */
interface Level {
  readonly type: ContentType
  readonly owner?: { readonly type: ContentType; readonly path: string }
}

/** One relation condition resolved: the `linked` node, and the sources it admits when known (for a read by key). */
async function resolveOne(scope: FilterScope, level: Level, node: Relation, sourceLists: readonly string[]): Promise<{ filter: Filter; sources?: string[] }> {
  const { type, owner } = level
  const relation = type.relations[node.field]
  const target = targetOf(scope.services, type, node.field)
  if (relation?.mappedBy !== undefined) {
    // An inverse side: the sources are what the matching targets link (read whole, for their links).
    const targets = await matching(scope, target, node.filter)
    const ids = new Set(targets.flatMap((version) => linkIds(version.attributes[relation.mappedBy as string])))
    return node.empty === undefined ? { filter: { kind: 'linked', field: 'documentId', ids, none: false }, sources: [...ids] } : { filter: { kind: 'linked', field: 'documentId', ids, none: node.empty } }
  }
  const ids = new Set(await matchingIds(scope, target, node.filter))
  // A to-one's link is on every index entry, and so are the links of a component's entry (to-many
  // ones too, components/values.ts): checked there. `$null` needs no sources.
  if (!relation?.many || owner !== undefined) {
    if (node.empty !== undefined) return { filter: { kind: 'linked', field: node.field, ids, none: node.empty } }
    const sources = await indexedSources(scope, owner?.type ?? type, owner === undefined ? node.field : `${owner.path}.${node.field}`, ids, sourceLists)
    return { filter: { kind: 'linked', field: node.field, ids, none: false }, ...(sources === undefined ? {} : { sources }) }
  }
  // A to-many's links are not on index entries: the sources that link a matching target, found
  // through the index of links and confirmed on their versions, become documentIds.
  const candidates = await indexedSources(scope, type, node.field, ids, sourceLists)
  if (candidates === undefined) throw overBudget(scope.services.config.rest.maxScan)
  const confirmed = new Set<string>()
  const lists = await listsOf(scope, type)
  const versions = await scope.services.documents.getVersions(type, lists.flatMap((list) => candidates.map((documentId) => ({ documentId, list }))))
  for (const version of versions) if (linkIds(version.attributes[node.field]).some((id) => ids.has(id))) confirmed.add(version.documentId)
  if (node.empty !== undefined) return { filter: { kind: 'linked', field: 'documentId', ids: confirmed, none: node.empty } }
  return { filter: { kind: 'linked', field: 'documentId', ids: confirmed, none: false }, sources: [...confirmed] }
}

/** Targets whose links are read at once (each within what is left of the budget, so a refused request reads boundedly more). */
const TARGETS_AT_ONCE = 16

/** The sources the index of links names for links from `type`'s `field` to any of `targets`; undefined past api.rest.maxScan. */
async function indexedSources(scope: FilterScope, type: ContentType, field: string, targets: ReadonlySet<string>, sourceLists: readonly string[]): Promise<string[] | undefined> {
  const budget = scope.services.config.rest.maxScan
  const sources = new Set<string>()
  const ids = [...targets]
  for (let i = 0; i < ids.length; i += TARGETS_AT_ONCE) {
    const left = budget - sources.size
    const found = await Promise.all(ids.slice(i, i + TARGETS_AT_ONCE).map((id) => scope.services.links.sources(id, type.uid, field, sourceLists, left)))
    for (const source of found.flat()) sources.add(source.documentId)
    if (sources.size > budget) return undefined
  }
  return [...sources]
}

/**
 * `filter` with its relation conditions resolved (`sourceLists`: the own lists of `type` the
 * request reads, where its links are indexed). When a relation condition holds for the whole
 * filter (alone, or in its top-level `$and`), the sources it admits lead it as `documentId $in`,
 * so the list reads them by key.
 */
export async function resolveRelations(scope: FilterScope, type: ContentType, filter: Filter | undefined, sourceLists: readonly string[]): Promise<Filter | undefined> {
  if (filter === undefined) return undefined
  let sources: string[] | undefined
  const walk = async (node: Filter, top: boolean, level: Level): Promise<Filter> => {
    switch (node.kind) {
      case 'condition':
      case 'linked':
        return node
      case 'component': {
        // Relations inside components (content-model.md §18): resolved on the entry's level, their
        // sources found in the index of links under the component path.
        if (!crossesRelations(node.filter)) return node
        const field = level.type.components[node.field] as ComponentField
        const owner = level.owner === undefined ? { type: level.type, path: node.field } : { type: level.owner.type, path: `${level.owner.path}.${node.field}` }
        return { kind: 'component', field: node.field, filter: await walk(node.filter, top, { type: typeBelowField(field), owner }) }
      }
      case 'not':
        return { kind: 'not', filter: await walk(node.filter, false, level) }
      case 'and':
        return { kind: 'and', filters: await Promise.all(node.filters.map((inner) => walk(inner, top, level))) }
      case 'or':
        return { kind: 'or', filters: await Promise.all(node.filters.map((inner) => walk(inner, false, level))) }
      case 'relation': {
        const resolved = await resolveOne(scope, level, node, sourceLists)
        if (top && resolved.sources !== undefined && (sources === undefined || resolved.sources.length < sources.length)) sources = resolved.sources
        return resolved.filter
      }
    }
  }
  const resolved = await walk(filter, true, { type })
  if (sources === undefined || sources.length > scope.services.config.rest.maxScan) return resolved
  return { kind: 'and', filters: [{ kind: 'condition', field: 'documentId', operator: '$in', values: sources }, resolved] }
}

