// Import (integration.md §21): one locale version of one status, as another system holds it (a
// Strapi archive's entity), written with its documentId, id, timestamps and links kept. Keyed by
// documentId + locale + status: a version equal to the one stored writes nothing, so an import run
// twice, or rerun after a crash, ends in the state of one clean run. It goes through the store's
// write like every operation (one transaction with its counts, index keys and unique claims).
import type { Attributes } from '../body.js'
import { versionIn } from '../document-changes.js'
import type { Version } from '../storage/items.js'
import type { Status } from '../table.js'
import type { Scope } from './context.js'

/** A version to import: everything the store keeps of it but its revision. */
export interface IncomingVersion {
  readonly documentId: string
  readonly locale: string
  readonly status: Status
  readonly id: number
  readonly createdAt: string
  readonly updatedAt: string
  readonly publishedAt: string | null
  /** Every attribute of the type (unset ones null) and the links of each owning relation. */
  readonly attributes: Attributes
}

const sameVersion = (stored: Version, incoming: IncomingVersion) =>
  stored.id === incoming.id && stored.createdAt === incoming.createdAt && stored.updatedAt === incoming.updatedAt &&
  stored.publishedAt === incoming.publishedAt && Object.keys({ ...stored.attributes, ...incoming.attributes }).every(
    (name) => JSON.stringify(stored.attributes[name] ?? null) === JSON.stringify(incoming.attributes[name] ?? null),
  )

/** Writes `incoming` in place of its locale's version of its status; `false` when it was stored already. */
export async function importVersion(scope: Scope, incoming: IncomingVersion): Promise<boolean> {
  const { type, services: { documents } } = scope
  return documents.write(type, incoming.documentId, incoming.locale, (current) => {
    const stored = versionIn(current.versions, incoming.locale, incoming.status)
    if (stored !== undefined && sameVersion(stored, incoming)) return { versions: current.versions, result: false }
    const version: Version = { ...incoming, rev: (stored?.rev ?? 0) + 1 }
    return { versions: [...current.versions.filter((other) => other !== stored), version], result: true }
  })
}
