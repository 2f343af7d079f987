// Import (integration.md §21): locale versions of one status, as another system holds them (a
// Strapi archive's entities), written with their documentId, id, timestamps and links kept. Keyed by
// documentId + locale + status: a version equal to the one stored writes nothing, so an import run
// twice, or rerun after a crash, ends in the state of one clean run. They go through the store's
// writes like every operation (one transaction with the counts, index keys and unique claims), many
// documents at once (writeMany), each document's versions together.
import type { Attributes } from '../body.js'
import { versionIn } from '../document-changes.js'
import type { Mutation } from '../storage/document-commit.js'
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

/** Puts `incoming` in place of its locale's version of its status; `false` when it was stored already. */
function importMutation(incoming: IncomingVersion): Mutation<boolean> {
  return (current) => {
    const stored = versionIn(current.versions, incoming.locale, incoming.status)
    if (stored !== undefined && sameVersion(stored, incoming)) return { versions: current.versions, result: false }
    const version: Version = { ...incoming, rev: (stored?.rev ?? 0) + 1 }
    return { versions: [...current.versions.filter((other) => other !== stored), version], result: true }
  }
}

/**
 * Writes documents' versions (each list: versions of one document), many documents per
 * transaction; per version, `false` when it was stored already.
 */
export async function importDocuments(scope: Scope, documents: readonly (readonly IncomingVersion[])[]): Promise<boolean[][]> {
  const { type, services: { documents: store } } = scope
  const writes = documents.filter((versions) => versions.length > 0).map((versions) => ({
    documentId: (versions[0] as IncomingVersion).documentId,
    changes: versions.map((incoming) => ({ guardLocale: incoming.locale, mutation: importMutation(incoming) as Mutation<unknown> })),
  }))
  return (await store.writeMany(type, writes)) as boolean[][]
}
