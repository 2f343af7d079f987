// What every document operation shares: the content type it acts on with the process's services
// (an operation's scope), who asks, and the first steps of most operations (locale, status, the
// document a path names). Nothing here knows HTTP: the routes (lib/content-app.ts), the admin
// interface and later importers and webhook payloads call the operations alike.
import type { Caller } from '../access.js'
import { FILE_UID, typeByUid, type ContentType } from '../content-types.js'
import { ApiError, notFound } from '../errors.js'
import { WILDCARD } from '../locales.js'
import type { Services } from '../services.js'
import type { DocumentState } from '../storage/document-plan.js'
import { DOCUMENT_ID } from '../storage/documents.js'
import type { Status } from '../table.js'
import type { PublicationFilter } from '../query/parse.js'

/** The content type an operation acts on, the services it uses, and the types relations reach. */
export interface Scope {
  readonly type: ContentType
  readonly services: Services
  readonly typeOf: (uid: string) => ContentType
}

/** The scope of `type` in `services`. */
export function scopeOf(type: ContentType, services: Services): Scope {
  return { type, services, typeOf: (uid) => typeByUid(services.types, uid) as ContentType }
}

/**
 * Who asks: the caller as authorized for the operation, and a check of one more action made
 * afresh (a refusal by a cached public role is read again; see AccessService.authorize).
 */
export interface Asker {
  readonly who: Caller
  readonly authorize: (...actions: string[]) => Promise<Caller>
}

/** An asker that holds what `who` holds, checked in memory (an importer's or a test's caller). */
export function askerOf(who: Caller, type: ContentType): Asker {
  return { who, authorize: async (...actions) => (who.requireAny(type, ...actions), who) }
}

/**
 * The request's locale: as `requested` asks (`*` where `wildcard`), or the default locale for a
 * type that is not localized, whose one version ignores `locale` (content-model.md §14).
 */
export function localeOf(scope: Scope, requested: string | undefined, wildcard = false): Promise<string> {
  const { locales } = scope.services
  return scope.type.localized ? locales.resolve(requested, wildcard) : locales.defaultCode()
}

/**
 * The locale a request's relations are read in (populate, filters, sort; content-model.md §16): its
 * own (`own`, from localeOf), except for a type that is not localized, whose one version ignores
 * `locale` but whose links show their targets in the locale asked (an unknown or `*` one is
 * ignored, as for the version itself).
 */
export async function relationLocaleOf(scope: Scope, requested: string | undefined, own: string): Promise<string> {
  if (scope.type.localized || requested === undefined || requested === WILDCARD) return own
  try {
    return await scope.services.locales.resolve(requested, false)
  } catch (error) {
    if (error instanceof ApiError && error.status === 400) return own
    throw error
  }
}

/** The status a write's body goes to: the draft of a draft & publish type, else the (only) published version. */
export function bodyStatusOf(type: ContentType): Status {
  return type.draftAndPublish ? 'draft' : 'published'
}

/** What `who` may read through relations in `status` (populate, filters); files through media attributes, as in Strapi, always. */
export function readable(who: Caller, status: Status): (target: ContentType) => boolean {
  return (target) => target.uid === FILE_UID || (who.holds(target, 'find') && (status !== 'draft' || !target.draftAndPublish || who.holds(target, 'findDrafts')))
}

/**
 * The status a read asks for (content-model.md §15): published unless `status=draft`, which
 * needs `findDrafts` (the caller of a draft answer marks it private), as `publicationFilter` does
 * (any value tells which documents have drafts or unpublished changes); 503 on an upgraded table
 * whose drafts the reindex has not created yet.
 */
export async function readStatusOf(scope: Scope, asker: Asker, requested: Status | undefined, publicationFilter?: PublicationFilter): Promise<Status> {
  if (requested !== 'draft' && publicationFilter === undefined) return 'published'
  await asker.authorize('findDrafts')
  if (!(await scope.services.locales.draftsReady())) throw new ApiError(503, 'ServiceUnavailableError', 'Drafts are being created by the upgrade of this table (npm run admin -- reindex); retry after it completes', {}, { 'Retry-After': '5' })
  return requested ?? 'published'
}

/**
 * Finds the document a path names: 404 for a malformed id, another type's id, no versions (of
 * any status). A document stored before draft & publish gets its drafts first.
 */
export async function loadDocument(scope: Scope, documentId: string): Promise<DocumentState> {
  if (!DOCUMENT_ID.test(documentId)) throw notFound()
  const { documents } = scope.services
  const document = await documents.getDocument(scope.type, documentId)
  if (document.versions.length === 0) throw notFound()
  return documents.ensureDrafts(scope.type, document)
}
