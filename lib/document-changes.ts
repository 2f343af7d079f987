// The document rules of a write, as pure functions from a document's versions to its versions
// after the change (the store applies them to a fresh read on every attempt of a write).
import type { Attributes } from './body.js'
import type { ContentType } from './content-types.js'
import { applyChanges, type Version } from './storage/items.js'

/** A change's versions afterwards, and the version to answer with. */
export interface Change {
  readonly versions: readonly Version[]
  readonly result: Version
}

/**
 * A partial update of `target`: non-localized values go to every version, so all versions agree.
 * Nothing is written when nothing changes: the answer is the version as it is.
 */
export function updateVersions(type: ContentType, versions: readonly Version[], target: Version, changes: Attributes, now: string): Change {
  const shared = Object.fromEntries(Object.entries(changes).filter(([name]) => type.attributes[name]?.localized === false))
  const changed = (version: Version, values: Attributes) =>
    Object.entries(values).some(([name, value]) => JSON.stringify(version.attributes[name] ?? null) !== JSON.stringify(value))
  if (!changed(target, changes)) return { versions, result: target }
  const next = versions.map((version) =>
    version === target ? applyChanges(version, changes, now) : changed(version, shared) ? applyChanges(version, shared, now) : version,
  )
  return { versions: next, result: next.find((version) => version.locale === target.locale) as Version }
}

/**
 * A new version in `locale` (a new document when `versions` is empty): unset attributes are null,
 * non-localized values are copied from an existing version.
 */
export function addVersion(type: ContentType, documentId: string, versions: readonly Version[], locale: string, id: number, attributes: Attributes, now: string): Change {
  const blank = Object.fromEntries(Object.keys(type.attributes).map((name) => [name, null]))
  const source = versions[0]
  const inherited = source === undefined ? {} : Object.fromEntries(Object.entries(source.attributes).filter(([name]) => type.attributes[name]?.localized === false))
  const version: Version = {
    documentId, locale, id, rev: 1, createdAt: now, updatedAt: now, publishedAt: now,
    attributes: { ...blank, ...attributes, ...inherited },
  }
  return { versions: [...versions, version], result: version }
}
