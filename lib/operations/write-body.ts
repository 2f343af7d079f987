// A write's body as an operation reads it: attributes, derived uids and relation operations,
// checked before anything is written (content-model.md §14, §16).
import { parseBody, uidsToDerive, type Attributes, type BodyMode } from '../body.js'
import { parseLinkOps, resolveLinks, type LinkOp } from '../relations/write.js'
import { checkComponentTargets, checkTargets } from '../relations/targets.js'
import type { Version } from '../storage/items.js'
import { versionList } from '../table.js'
import { bodyStatusOf, type Scope } from './context.js'

/** A write's parsed body: its attributes and its relation operations by relation name. */
export interface WriteBody {
  readonly attributes: Attributes
  readonly links: Record<string, LinkOp>
}

/**
 * Parses a write's body: its attributes, each `uid` it leaves unset derived from its target
 * field (unique in `locale`), and its relation operations, whose targets must exist (§16).
 */
export async function writeBodyOf(scope: Scope, body: unknown, mode: BodyMode, locale: string, documentId: string, current?: Version): Promise<WriteBody> {
  const { type, services } = scope
  const attributes = parseBody(body, type, mode)
  const links = parseLinkOps((body as { data: Record<string, unknown> }).data, type)
  // Links that cannot apply to the version as read (a position relative to a target not linked,
  // too many) are a 400 before ids are drawn; the write applies them again to what it reads.
  resolveLinks(type, links, current, services.config.rest.relations.maxLinks)
  for (const { name, base } of uidsToDerive(type, mode, body, attributes)) {
    attributes[name] = await services.documents.availableUid(type, name, versionList(locale, bodyStatusOf(type)), base, documentId)
  }
  await checkTargets(services, type, links, locale)
  await checkComponentTargets(services, type, attributes, locale)
  return { attributes, links }
}
