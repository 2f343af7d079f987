// Writes through an inverse side (`mappedBy`, content-model.md §16): `author.articles` stores
// nothing; connecting an article there sets that article's `author`, disconnecting (or leaving it
// out of a `set`) clears it. Each linked or unlinked source is written as its own document write
// (one transaction each, through the same group commit as any write), after the write of the
// document itself.
import { isExclusive, type ContentType, type Relation } from '../content-types.js'
import type { Services } from '../services.js'
import type { Version } from '../storage/items.js'
import type { Status } from '../table.js'
import { linkedFrom } from './sources.js'
import { listFor, targetOf } from './targets.js'
import { connected, linkIds, linkValue, type LinkOp } from './write.js'

/** Parallel document writes at a time. */
const CONCURRENCY = 8

/**
 * The statuses of the owning type's versions an inverse write changes: a type without draft &
 * publish links at once, so both of a draft & publish owner's versions follow it; otherwise the
 * write's own (a publishing write both, a draft write the draft).
 */
function ownerStatuses(owner: ContentType, writer: ContentType, publish: boolean): readonly Status[] {
  if (!owner.draftAndPublish) return ['published']
  return !writer.draftAndPublish || publish ? ['draft', 'published'] : ['draft']
}

/**
 * Writes `change` to the `attribute` links of each of `sources` (documents of `owner`) in `code`,
 * on their versions of `statuses`, as one document write each (nothing when the links are as asked).
 */
async function relink(services: Services, owner: ContentType, attribute: string, code: string, statuses: readonly Status[], jobs: readonly (readonly [string, (links: unknown) => unknown])[]): Promise<void> {
  const owning = owner.relations[attribute] as Relation
  for (let i = 0; i < jobs.length; i += CONCURRENCY) {
    await Promise.all(jobs.slice(i, i + CONCURRENCY).map(([source, next]) => services.documents.write(owner, source, code, (state, now) => {
      const versions = state.versions.map((version: Version) => {
        if (version.locale !== code || !statuses.includes(version.status)) return version
        const value = next(version.attributes[attribute] ?? null)
        if (JSON.stringify(value) === JSON.stringify(version.attributes[attribute] ?? null)) return version
        if (owning.many && linkIds(value).length > services.config.rest.relations.maxLinks) return version
        // A link, not a publication: a published version keeps its publishedAt.
        return { ...version, rev: version.rev + 1, updatedAt: now, attributes: { ...version.attributes, [attribute]: value } }
      })
      return { versions, result: undefined }
    })))
  }
}

/**
 * The "one" side of an exclusive relation (a bidirectional oneToOne, a oneToMany) moves its
 * targets (content-model.md §16): each target `ops` link to `documentId` is unlinked from any
 * other document of `type` that linked it, in the same locale and statuses.
 */
export async function releaseTargets(services: Services, type: ContentType, documentId: string, locale: string, publish: boolean, ops: Readonly<Record<string, LinkOp>>): Promise<void> {
  const statuses = ownerStatuses(type, type, publish)
  for (const [name, op] of Object.entries(ops)) {
    const relation = type.relations[name] as Relation
    if (!isExclusive(relation)) continue
    const jobs: (readonly [string, (links: unknown) => unknown])[] = []
    for (const { documentId: target } of connected(op)) {
      const holders = await linkedFrom(services, type, name, target, statuses.map((status) => listFor(type, locale, status, locale)), services.config.rest.maxScan)
      for (const holder of new Set(holders.map((version) => version.documentId))) {
        if (holder !== documentId) jobs.push([holder, (links: unknown) => linkValue(relation, linkIds(links).filter((id) => id !== target))])
      }
    }
    await relink(services, type, name, locale, statuses, jobs)
  }
}

/** Applies the inverse sides of `ops` for the document `documentId` of `type`, written in `locale`. */
export async function writeInverse(services: Services, type: ContentType, documentId: string, locale: string, publish: boolean, ops: Readonly<Record<string, LinkOp>>): Promise<void> {
  for (const [name, op] of Object.entries(ops)) {
    const relation = type.relations[name] as Relation
    if (relation.mappedBy === undefined) continue
    const owner = targetOf(services, type, name)
    const attribute = relation.mappedBy
    const owning = owner.relations[attribute] as Relation
    const code = owner.localized ? locale : await services.locales.defaultCode()
    const statuses = ownerStatuses(owner, type, publish)
    const link = new Set(connected(op).map((target) => target.documentId))
    const unlink = new Set<string>()
    if (op.kind === 'edit') {
      for (const target of op.disconnect) if (!link.has(target.documentId)) unlink.add(target.documentId)
    } else {
      const lists = statuses.map((status) => listFor(owner, code, status, code))
      const current = await linkedFrom(services, owner, attribute, documentId, lists, services.config.rest.maxScan)
      for (const source of current) if (!link.has(source.documentId)) unlink.add(source.documentId)
    }
    const change = (linking: boolean) => (values: unknown): unknown => {
      const ids = linkIds(values)
      if (linking) return ids.includes(documentId) ? values : linkValue(owning, owning.many ? [...ids, documentId] : [documentId])
      return ids.includes(documentId) ? linkValue(owning, ids.filter((id) => id !== documentId)) : values
    }
    await relink(services, owner, attribute, code, statuses, [...[...link].map((id) => [id, change(true)] as const), ...[...unlink].map((id) => [id, change(false)] as const)])
    // The owning side is exclusive (a bidirectional oneToOne): the document itself holds one target.
    if (isExclusive(owning) && !relation.many && link.size > 0) {
      const others = await linkedFrom(services, owner, attribute, documentId, statuses.map((status) => listFor(owner, code, status, code)), services.config.rest.maxScan)
      const kept = [...link][0]
      await relink(services, owner, attribute, code, statuses, [...new Set(others.map((version) => version.documentId))].filter((id) => id !== kept).map((id) => [id, change(false)] as const))
    }
  }
}
