// The lists an answer read through relations depends on (content-model.md §16): every list of a
// type it reads through `populate`, a relation filter or a relation sort, in the locales and
// status the request reads that type in. Each list's count item moves its revision with every
// change to its versions (storage/document-plan.ts, countUpdate), so these lists' heads, read with
// the request's own, validate a populated or relation-filtered answer as a plain list's validate
// its page: a 304, or a page cached in the process (delivery/page-cache.ts), without reading it.
import type { ContentType } from '../content-types.js'
import { forbidden } from '../errors.js'
import type { Filter } from '../query/filters.js'
import type { SortEntry } from '../query/sort.js'
import type { Services } from '../services.js'
import type { TypeList } from '../storage/lists/validator.js'
import { servedList, versionList, WIDE_CHANGES, type Status } from '../table.js'
import { LOCALIZATIONS, type PopulateTree } from './populate-query.js'
import { isComponentType, typeBelowField } from '../components/types.js'
import { targetOf } from './targets.js'

/** What a request reads through relations. */
export interface ReadThrough {
  readonly tree?: PopulateTree | undefined
  readonly filter?: Filter | undefined
  readonly sort?: readonly SortEntry[]
  /** The request's locale code, or `*`. */
  readonly locale: string
  readonly status: Status
  readonly fallback: boolean
}

/**
 * The types `read` reaches from `type`, each with true when it is read in every locale
 * (`localizations`) rather than along the request's locale.
 */
export function typesReadThrough(services: Pick<Services, 'types'>, type: ContentType, read: Pick<ReadThrough, 'tree' | 'filter' | 'sort'>): Map<ContentType, boolean> {
  const reached = new Map<ContentType, boolean>()
  const add = (target: ContentType, everyLocale: boolean) => reached.set(target, (reached.get(target) ?? false) || everyLocale)
  const walkFilter = (from: ContentType, filter: Filter | undefined): void => {
    if (filter === undefined) return
    switch (filter.kind) {
      case 'and':
      case 'or': return filter.filters.forEach((inner) => walkFilter(from, inner))
      case 'not': return walkFilter(from, filter.filter)
      case 'relation': {
        // Resolving it reads the source's lists too (to confirm a to-many's links); a component's are its type's.
        if (!isComponentType(from)) add(from, false)
        const target = targetOf(services, from, filter.field)
        add(target, false)
        return walkFilter(target, filter.filter)
      }
      case 'component': {
        const field = from.components[filter.field]
        return field === undefined ? undefined : walkFilter(typeBelowField(field), filter.filter)
      }
      default: return
    }
  }
  const walkTree = (from: ContentType, tree: PopulateTree | undefined): void => {
    for (const [name, node] of tree ?? []) {
      const field = from.components[name]
      if (field !== undefined) {
        // Part of the version: only the relations inside reach other types.
        for (const each of [node, ...(node.on?.values() ?? [])]) walkTree(typeBelowField(field), each.populate)
        continue
      }
      const target = name === LOCALIZATIONS ? from : targetOf(services, from, name)
      add(target, name === LOCALIZATIONS)
      walkFilter(target, node.filters)
      walkTree(target, node.populate)
    }
  }
  walkTree(type, read.tree)
  walkFilter(type, read.filter)
  for (const entry of read.sort ?? []) {
    let from = type
    for (const name of entry.field.split('.').slice(0, -1)) {
      if (from.relations[name] === undefined) break
      from = targetOf(services, from, name)
      add(from, false)
    }
  }
  return reached
}

/**
 * 403 unless `may` holds for every type `read` reaches through a filter or a sort (the targets,
 * nested ones included): checked before an answer is served, cached or not. Populate has its
 * own check (relations/populate.ts, checkAccess), where `*` leaves out what the caller may not read.
 */
export function checkReadThrough(services: Pick<Services, 'types'>, type: ContentType, read: Pick<ReadThrough, 'filter' | 'sort'>, may: (type: ContentType) => boolean): void {
  for (const target of typesReadThrough(services, type, read).keys()) if (!may(target)) throw forbidden()
}

/**
 * The lists of every type `read` reaches: in the status the request reads it in (its own where it
 * has draft & publish, published otherwise), in the default locale for a type that is not
 * localized, else along the request's locale (its chain with fallback, and its served list once
 * ready), or in every locale for `*` and `localizations`.
 */
export async function listsReadThrough(services: Services, type: ContentType, read: ReadThrough): Promise<TypeList[]> {
  const { locales } = services
  const reached = typesReadThrough(services, type, read)
  if (reached.size === 0) return []
  const every = await locales.expand('*')
  const along = read.locale === '*' ? every : read.fallback ? ((await locales.chainOf(read.locale)) ?? [read.locale]) : [read.locale]
  const defaultLocale = await locales.defaultCode()
  const result: TypeList[] = []
  for (const [target, everyLocale] of reached) {
    // Its wide commits change versions read by key before their lists move (WIDE_CHANGES).
    result.push({ uid: target.uid, list: WIDE_CHANGES })
    const status: Status = target.draftAndPublish ? read.status : 'published'
    const codes = !target.localized ? [defaultLocale] : everyLocale ? every : along
    for (const code of codes) {
      result.push({ uid: target.uid, list: versionList(code, status) })
      if (read.fallback && target.localized && (await locales.servedReady(code))) result.push({ uid: target.uid, list: servedList(versionList(code, status)) })
    }
  }
  return result
}
