// The document rules of a write, as pure functions from a document's versions to its versions
// after the change (the store applies them to a fresh read on every attempt of a write).
// Draft & publish (content-model.md §15): a locale has a draft and, once published, a published
// version; non-localized values are shared by the drafts, and by the published versions apart.
import { checkPublishable, type Attributes } from './body.js'
import type { ContentType } from './content-types.js'
import { conflict, notFound } from './errors.js'
import { sameValues } from './storage/document-plan.js'
import { applyChanges, type Version } from './storage/items.js'
import type { Status } from './table.js'

/** A change's versions afterwards, and the version to answer with. */
export interface Change {
  readonly versions: readonly Version[]
  readonly result: Version
}

/** The version of `status` in `locale`. */
export function versionIn(versions: readonly Version[], locale: string, status: Status): Version | undefined {
  return versions.find((version) => version.locale === locale && version.status === status)
}

const nonLocalized = (type: ContentType, values: Attributes): Attributes =>
  Object.fromEntries(Object.entries(values).filter(([name]) => (type.attributes[name] ?? type.components[name])?.localized === false))

const differs = (version: Version, values: Attributes) =>
  Object.entries(values).some(([name, value]) => JSON.stringify(version.attributes[name] ?? null) !== JSON.stringify(value ?? null))

/**
 * A partial update of `target`: its non-localized values go to every version of its status, so
 * they agree. Nothing is written when nothing changes: the answer is the version as it is.
 */
export function updateVersions(type: ContentType, versions: readonly Version[], target: Version, changes: Attributes, now: string): Change {
  const shared = nonLocalized(type, changes)
  if (!differs(target, changes)) return { versions, result: target }
  const next = versions.map((version) =>
    version === target ? applyChanges(version, changes, now) : version.status === target.status && differs(version, shared) ? applyChanges(version, shared, now) : version,
  )
  return { versions: next, result: next.find((version) => version.locale === target.locale && version.status === target.status) as Version }
}

/**
 * A new version of `status` in `locale` (a new document when `versions` is empty): unset
 * attributes are null, non-localized values are copied from a version of the same status.
 */
export function addVersion(type: ContentType, documentId: string, versions: readonly Version[], locale: string, status: Status, id: number, attributes: Attributes, now: string): Change {
  const blank = Object.fromEntries([...Object.keys(type.attributes), ...Object.keys(type.components)].map((name) => [name, null]))
  const source = versions.find((version) => version.status === status)
  const inherited = source === undefined ? {} : nonLocalized(type, source.attributes)
  const version: Version = {
    documentId, locale, status, id, rev: 1, createdAt: now, updatedAt: now, publishedAt: status === 'draft' ? null : now,
    attributes: { ...blank, ...attributes, ...inherited },
  }
  return { versions: [...versions, version], result: version }
}

/**
 * Publishes `locale`'s draft: the published version becomes a copy of it (keeping its id; a first
 * publication takes `newId`), and the draft's non-localized values go to every published version.
 * When the published version already equals the draft, nothing changes; a draft lacking a
 * `required` value is a 400.
 */
export function publishVersion(type: ContentType, versions: readonly Version[], locale: string, newId: number | undefined, now: string): Change {
  const draft = versionIn(versions, locale, 'draft')
  if (draft === undefined) throw notFound()
  const published = versionIn(versions, locale, 'published')
  if (published !== undefined && sameValues(draft, published)) return { versions, result: published }
  // A draft may be incomplete; what is published may not (§15): 400, nothing published.
  checkPublishable(type, draft.attributes)
  const id = published?.id ?? newId
  // A concurrent unpublish made this a first publication, which needs an id it was not given.
  if (id === undefined) throw conflict('The version was unpublished by a concurrent request; retry')
  const copy: Version = {
    ...draft, status: 'published', id, rev: (published?.rev ?? 0) + 1,
    createdAt: published?.createdAt ?? draft.createdAt, updatedAt: now, publishedAt: now,
  }
  const shared = nonLocalized(type, draft.attributes)
  const next = versions
    .filter((version) => version !== published)
    .map((version) => (version.status === 'published' && differs(version, shared) ? applyChanges(version, shared, now) : version))
  return { versions: [...next, copy], result: copy }
}

/** Removes `locale`'s published version; the draft stays. 404 when it was not published. */
export function unpublishVersion(versions: readonly Version[], locale: string): Change {
  const published = versionIn(versions, locale, 'published')
  const draft = versionIn(versions, locale, 'draft')
  if (published === undefined || draft === undefined) throw notFound()
  return { versions: versions.filter((version) => version !== published), result: draft }
}

/**
 * Resets `locale`'s draft to a copy of its published version; its non-localized values go to every
 * draft, so the drafts still agree. 404 when it was never published; nothing changes when equal.
 */
export function discardDraft(type: ContentType, versions: readonly Version[], locale: string, now: string): Change {
  const published = versionIn(versions, locale, 'published')
  const draft = versionIn(versions, locale, 'draft')
  if (published === undefined || draft === undefined) throw notFound()
  return updateVersions(type, versions, draft, published.attributes, now)
}

/**
 * A write of `status` (content-model.md §15): the draft is updated, or created in `locale` with
 * `ids.draft`; without `status=draft` it is then published (a first publication takes
 * `ids.published`). Types without draft & publish have published versions only, written as such.
 * The answer is the version written last.
 */
export function writeVersion(
  type: ContentType, documentId: string, versions: readonly Version[], locale: string, publish: boolean,
  attributes: Attributes, ids: { draft: number; published?: number }, now: string,
): Change {
  const status: Status = type.draftAndPublish ? 'draft' : 'published'
  const target = versionIn(versions, locale, status)
  const written = target !== undefined ? updateVersions(type, versions, target, attributes, now) : addVersion(type, documentId, versions, locale, status, ids.draft, attributes, now)
  if (!type.draftAndPublish || !publish) return written
  return publishVersion(type, written.versions, locale, ids.published, now)
}
