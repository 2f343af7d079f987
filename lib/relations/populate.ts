// Populating a page (content-model.md §16): level by level, each level's targets read in batched
// key reads (`BatchGetItem`, 100 keys a call, in parallel), never one call per link. A version's
// owning links are stored on it, so its targets are keys; an inverse side asks the index of links
// (sources.ts); `localizations` reads each document's partition.
import { documentAnswer, type Populated } from '../answers/document.js'
import { typeByUid, type ContentType } from '../content-types.js'
import { linkRequests, shownValue, type Linked } from '../components/populate.js'
import { typeBelowField } from '../components/types.js'
import { badRequest, forbidden, queryDetails } from '../errors.js'
import { crossesRelations, matchesFilter } from '../query/filters.js'
import { sortComparator } from '../query/sort.js'
import type { Services } from '../services.js'
import { versionValues, type Version } from '../storage/items.js'
import { servedList, versionList, type Status } from '../table.js'
import { LOCALIZATIONS, type PopulateNode, type PopulateTree } from './populate-query.js'
import { checkReadThrough } from './dependencies.js'
import { ownListsOf, resolveRelations } from './filters.js'
import { linkedFrom } from './sources.js'
import { listFor, targetOf } from './targets.js'
import { linkIds } from './write.js'

/** What every level of one answer shares. */
export interface PopulateContext {
  readonly services: Services
  /** The request's status: targets with draft & publish show theirs. */
  readonly status: Status
  /** The request's fallback is on (delivery.md §12): targets follow the chain of their locale. */
  readonly fallback: boolean
  /** True when the caller may read `type` in the request's status. */
  readonly may: (type: ContentType) => boolean
  /** Populated documents left before api.rest.populate.maxDocuments is exceeded. */
  left: number
  /** Reads versions by key, one `BatchGetItem` for what a level asks at once (DocumentStore.batchReader). */
  readonly read: ReturnType<Services['documents']['batchReader']>
}


/**
 * 403 for a relation named in populate whose target the caller may not read (`*` leaves those out,
 * see below): the tree as checked, which is `tree` itself when the caller may read all of it (so
 * what is derived from a tree, its key, is derived once per parsed tree).
 */
export function checkAccess(ctx: PopulateContext, type: ContentType, tree: PopulateTree): PopulateTree {
  const kept = new Map<string, PopulateNode>()
  let same = true
  for (const [name, node] of tree) {
    const field = type.components[name]
    if (field !== undefined) {
      // A component is part of its version: only the relations inside it reach other types.
      const checked = checkComponentAccess(ctx, typeBelowField(field), node)
      if (checked !== node) same = false
      kept.set(name, checked)
      continue
    }
    const target = name === LOCALIZATIONS ? type : targetOf(ctx.services, type, name)
    if (!ctx.may(target)) {
      if (!node.wildcard) throw forbidden()
      same = false
      continue
    }
    checkReadThrough(ctx.services, target, { filter: node.filters }, ctx.may)
    const below = checkAccess(ctx, target, node.populate)
    if (below !== node.populate) same = false
    kept.set(name, below === node.populate ? node : { ...node, populate: below })
  }
  return same ? tree : kept
}

/** checkAccess of a component's node: its level below, and each of a zone's fragments. */
function checkComponentAccess(ctx: PopulateContext, below: ContentType, node: PopulateNode): PopulateNode {
  const populate = checkAccess(ctx, below, node.populate)
  const on = node.on === undefined ? undefined : new Map([...node.on].map(([uid, fragment]) => [uid, checkComponentAccess(ctx, below, fragment)] as const))
  const same = populate === node.populate && (on === undefined || [...on].every(([uid, fragment]) => fragment === node.on?.get(uid)))
  return same ? node : { ...node, populate, ...(on === undefined ? {} : { on }) }
}

/**
 * What the relations inside `versions`' components show, as `tree` asks: each relation's targets
 * read in one batch per target type and node (then the levels below them), never one call per link.
 */
async function linkedInComponents(ctx: PopulateContext, type: ContentType, versions: readonly Version[], tree: PopulateTree, locale: string): Promise<Linked> {
  const requests = versions.flatMap((version) => linkRequests(type, version.attributes, tree))
  const groups = new Map<PopulateNode, { target: ContentType; ids: Set<string> }>()
  for (const { relation, node, ids } of requests) {
    const group = groups.get(node) ?? { target: typeByUid(ctx.services.types, relation.target) as ContentType, ids: new Set<string>() }
    for (const id of ids) group.ids.add(id)
    groups.set(node, group)
  }
  const shown = new Map<PopulateNode, Map<string, Record<string, unknown>>>()
  await Promise.all([...groups].map(async ([node, { target, ids }]) => {
    const found = await readTargets(ctx, target, [...ids], locale)
    const kept = [...found.values()].filter((one) => node.filters === undefined || matchesFilter(node.filters, versionValues(one), locale, target))
    spend(ctx, kept.length)
    const nested = node.populate.size === 0 ? undefined : await populate(ctx, target, kept, node.populate, locale)
    shown.set(node, new Map(kept.map((one) => [one.documentId, documentAnswer(target, one, node.fields, nested)])))
  }))
  return ({ node, ids }) => ids.flatMap((id) => {
    const document = shown.get(node)?.get(id)
    return document === undefined ? [] : [document]
  })
}

function spend(ctx: PopulateContext, documents: number): void {
  ctx.left -= documents
  if (ctx.left < 0) {
    const max = ctx.services.config.rest.populate.maxDocuments
    throw badRequest(`This answer would hold more than ${max} populated documents (api.rest.populate.maxDocuments): populate fewer relations, or narrow them with populate[<relation>][limit], [filters] or [fields]`, queryDetails('populate', 'populate', 'populate', { maxDocuments: max }))
  }
}

/**
 * The versions `target` shows for `documentIds` to a reader in `locale`: each document's version in
 * the request's status, along the fallback chain when on (from the served copies once ready).
 */
export async function readTargets(ctx: Pick<PopulateContext, 'services' | 'status' | 'fallback' | 'read'>, target: ContentType, documentIds: readonly string[], locale: string): Promise<Map<string, Version>> {
  const { locales } = ctx.services
  const documents = { getVersions: ctx.read }
  const found = new Map<string, Version>()
  if (documentIds.length === 0) return found
  const defaultLocale = await locales.defaultCode()
  const code = target.localized ? locale : defaultLocale
  const status: Status = target.draftAndPublish ? ctx.status : 'published'
  const chain = ctx.fallback && target.localized ? await locales.chainOf(code) : undefined
  if (chain === undefined) {
    for (const version of await documents.getVersions(target, documentIds.map((documentId) => ({ documentId, list: listFor(target, code, status, defaultLocale) })))) found.set(version.documentId, version)
    return found
  }
  if (await locales.servedReady(code)) {
    const list = servedList(versionList(code, status))
    for (const version of await documents.getVersions(target, documentIds.map((documentId) => ({ documentId, list })))) found.set(version.documentId, version)
    return found
  }
  const versions = await documents.getVersions(target, chain.flatMap((each) => documentIds.map((documentId) => ({ documentId, list: versionList(each, status) }))))
  for (const each of chain) for (const version of versions) if (version.locale === each && !found.has(version.documentId)) found.set(version.documentId, version)
  return found
}

/** A to-many's documents as a node shows them: filtered, ordered, then its window (or their count). */
function window(node: PopulateNode, target: ContentType, versions: readonly Version[], collation: string): Version[] | number {
  let shown = node.filters === undefined ? [...versions] : versions.filter((version) => matchesFilter(node.filters!, versionValues(version), collation, target))
  if (node.count) return shown.length
  if (node.sort.length > 0) {
    const compare = sortComparator(node.sort, target, collation)
    shown = shown.map((version) => ({ version, values: versionValues(version) })).sort((a, b) => compare(a.values, b.values)).map(({ version }) => version)
  }
  return shown.slice(node.start, node.start + node.limit)
}

/**
 * The populated fields of each of `versions` (of `type`, all read in `locale`, or each in its own
 * with `locale` undefined), as `tree` asks, and the levels below. `occurs` is how many times each
 * version is rendered in the answer (1 when absent: the page): a level read once per distinct
 * document is shown once per occurrence, so maxDocuments is charged per occurrence.
 */
export async function populate(ctx: PopulateContext, type: ContentType, versions: readonly Version[], tree: PopulateTree, locale?: string, occurs?: ReadonlyMap<Version, number>): Promise<Populated> {
  const result = new Map<Version, Record<string, unknown>>(versions.map((version) => [version, {}]))
  if (locale === undefined) {
    // `locale=*`: each version's targets in its own locale.
    const byLocale = new Map<string, Version[]>()
    for (const version of versions) byLocale.set(version.locale, [...(byLocale.get(version.locale) ?? []), version])
    for (const [code, group] of byLocale) for (const [version, fields] of await populate(ctx, type, group, tree, code, occurs)) result.set(version, fields)
    return result
  }
  // Filled in tree order (relations in schema order, then `localizations`), whatever order the reads end in.
  for (const fields of result.values()) for (const name of tree.keys()) fields[name] = null
  if ([...tree.keys()].some((name) => Object.hasOwn(type.components, name))) {
    const linked = await linkedInComponents(ctx, type, versions, tree, locale)
    for (const [version, fields] of result) {
      for (const [name, node] of tree) {
        const field = type.components[name]
        if (field !== undefined) fields[name] = shownValue(field, version.attributes[name], node, linked)
      }
    }
  }
  await Promise.all([...tree].filter(([name]) => !Object.hasOwn(type.components, name)).map(async ([name, asked]) => {
    const relation = type.relations[name]
    const target = relation === undefined ? type : targetOf(ctx.services, type, name)
    // A populate filter through relations is resolved as a list's is (filters.ts).
    const scope = { services: ctx.services, locale, status: ctx.status, fallback: ctx.fallback, may: ctx.may }
    const node = crossesRelations(asked.filters) ? { ...asked, filters: await resolveRelations(scope, target, asked.filters, await ownListsOf(scope, target)) } : asked
    // Each source's shown targets (a to-one's as a list of at most one), or a count.
    const shown = new Map<Version, Version[] | number>()
    if (name === LOCALIZATIONS) {
      // Every other registered locale's version of the same status, by key, with the level's other reads.
      const codes = await ctx.services.locales.expand('*')
      const all = await ctx.read(type, versions.flatMap((version) => codes.filter((code) => code !== version.locale).map((code) => ({ documentId: version.documentId, list: versionList(code, version.status) }))))
      for (const version of versions) shown.set(version, window(node, type, all.filter((other) => other.documentId === version.documentId && other.status === version.status && other.locale !== version.locale), locale))
    } else if (relation?.mappedBy === undefined) {
      const targets = await readTargets(ctx, target, [...new Set(versions.flatMap((version) => linkIds(version.attributes[name])))], locale)
      for (const version of versions) {
        const linked = linkIds(version.attributes[name]).flatMap((id) => targets.get(id) ?? [])
        shown.set(version, relation?.many === true ? window(node, target, linked, locale) : linked.filter((one) => node.filters === undefined || matchesFilter(node.filters, versionValues(one), locale, target)))
      }
    } else {
      const defaultLocale = await ctx.services.locales.defaultCode()
      const code = target.localized ? locale : defaultLocale
      const status: Status = target.draftAndPublish ? ctx.status : 'published'
      const chain = (ctx.fallback && target.localized ? await ctx.services.locales.chainOf(code) : undefined) ?? [code]
      const maxScan = ctx.services.config.rest.maxScan
      await Promise.all(versions.map(async (version) => {
        // Candidates from every list along the chain; each shown as the chain serves it, kept when that version links here.
        const candidates = await linkedFrom(ctx.services, target, relation.mappedBy as string, version.documentId, chain.map((each) => versionList(each, status)), maxScan)
        const served = chain.length === 1 ? new Map(candidates.map((candidate) => [candidate.documentId, candidate])) : await readTargets(ctx, target, [...new Set(candidates.map((candidate) => candidate.documentId))], locale)
        const order = new Map(candidates.map((candidate, i) => [candidate.documentId, i]))
        const linked = [...served.values()].filter((one) => linkIds(one.attributes[relation.mappedBy as string]).includes(version.documentId))
          .sort((a, b) => (order.get(a.documentId) ?? 0) - (order.get(b.documentId) ?? 0))
        shown.set(version, relation.many ? window(node, target, linked, locale) : linked.slice(0, 1).filter((one) => node.filters === undefined || matchesFilter(node.filters, versionValues(one), locale, target)))
      }))
    }
    // Each target as often as the answer renders it: once per occurrence of each source showing it.
    const below = new Map<Version, number>()
    for (const [version, value] of shown) {
      if (typeof value !== 'number') for (const one of value) below.set(one, (below.get(one) ?? 0) + (occurs?.get(version) ?? 1))
    }
    spend(ctx, [...below.values()].reduce((sum, n) => sum + n, 0))
    const nested = node.populate.size === 0 ? undefined : await populate(ctx, target, [...below.keys()], node.populate, locale, below)
    const documentOf = (one: Version) => documentAnswer(target, one, node.fields, nested)
    for (const [version, value] of shown) {
      const fields = result.get(version) as Record<string, unknown>
      if (typeof value === 'number') fields[name] = { count: value }
      else if (relation !== undefined && !relation.many) fields[name] = value[0] === undefined ? null : documentOf(value[0])
      else fields[name] = value.map(documentOf)
    }
  }))
  return result
}
