// Find one (content-api.md; delivery.md §11–12): the version of a document in a locale and status,
// or with `locale=*` every version of that status, populated as asked.
import type { Caller } from '../access.js'
import type { Populated } from '../answers/document.js'
import { badRequest, notFound } from '../errors.js'
import { WILDCARD } from '../locales.js'
import { crossesRelations, matchesFilter, type Filter } from '../query/filters.js'
import type { ReadQuery } from '../query/parse.js'
import { ownListsOf, resolveRelations } from '../relations/filters.js'
import { versionIn } from '../document-changes.js'
import { DOCUMENT_ID } from '../storage/documents.js'
import { versionValues, type Version } from '../storage/items.js'
import type { Status } from '../table.js'
import { localeOf, readable, readStatusOf, relationLocaleOf, type Asker, type Scope } from './context.js'
import { BODY_TAGGED, populatorOf } from './populate.js'

export interface FindOneInput {
  readonly asker: Asker
  readonly documentId: string
  readonly query: ReadQuery
  /** `locale=*` is accepted (a collection type's get one). */
  readonly wildcard: boolean
}

/**
 * What a get one found: one version, or with `locale=*` every version of the status (`all`).
 * `populated` is defined when the answer is populated or filtered through relations: its ETag is
 * then its body's, since the targets' changes move it.
 */
export type FoundOne =
  | { readonly kind: 'one'; readonly version: Version; readonly populated: Populated | undefined }
  | { readonly kind: 'all'; readonly versions: readonly Version[]; readonly populated: Populated | undefined }

/** Finds what a get one (or a single type's GET) answers: 404 when nothing matches. */
export async function findOne(scope: Scope, input: FindOneInput): Promise<FoundOne> {
  const { type, services } = scope
  const { asker, query, documentId } = input
  const locale = await localeOf(scope, query.locale, input.wildcard)
  const linked = await relationLocaleOf(scope, query.locale, locale)
  const status = await readStatusOf(scope, asker, query.status)
  const fallback = query.fallback !== false
  const populator = populatorOf(scope, asker.who, query.populate, status, fallback) ?? (crossesRelations(query.filters) ? BODY_TAGGED : undefined)
  const filter = await resolvedFilter(scope, asker.who, query.filters, linked, status, fallback)
  if (!DOCUMENT_ID.test(documentId)) throw notFound()
  if (locale !== WILDCARD) {
    const version = await readVersion(scope, documentId, locale, status, fallback, filter)
    // The targets follow the request's locale, not the one the version was found in.
    return { kind: 'one', version, populated: await populator?.([version], linked) }
  }
  if (services.config.rest.findOneShape === 'object') throw badRequest("locale '*' needs api.rest.findOneShape 'array'")
  const versions = (await services.documents.getDocument(type, documentId)).versions
    .filter((version) => version.status === status && (filter === undefined || matchesFilter(filter, versionValues(version), WILDCARD, type)))
  if (versions.length === 0) throw notFound()
  return { kind: 'all', versions, populated: await populator?.(versions, WILDCARD) }
}

/** A read's filter with its relation conditions resolved (lib/relations/filters.ts). */
export async function resolvedFilter(scope: Scope, who: Caller, filter: Filter | undefined, locale: string, status: Status, fallback: boolean): Promise<Filter | undefined> {
  if (!crossesRelations(filter)) return filter
  const within = { services: scope.services, locale, status, fallback, may: readable(who, status) }
  return resolveRelations(within, scope.type, filter, await ownListsOf(within, scope.type))
}

/**
 * The version of `status` a read answers: in `locale`, or with `fallback` the first along its
 * chain (from the served copy, or the document's versions while the served list is being
 * rebuilt); 404 when none, or when it does not match `filter`.
 */
async function readVersion(scope: Scope, documentId: string, locale: string, status: Status, fallback: boolean, filter: Filter | undefined): Promise<Version> {
  const { type, services: { locales, documents } } = scope
  const chain = fallback ? await locales.chainOf(locale) : undefined
  let version: Version | undefined
  if (chain === undefined) version = await documents.getVersion(type, documentId, locale, status)
  else if (await locales.servedReady(locale)) version = await documents.getServed(type, documentId, locale, status)
  else {
    const { versions } = await documents.getDocument(type, documentId)
    version = chain.map((code) => versionIn(versions, code, status)).find((found) => found !== undefined)
  }
  if (version === undefined || (filter !== undefined && !matchesFilter(filter, versionValues(version), locale, type))) throw notFound()
  return version
}
