// A write's body as an operation reads it: attributes, derived uids and relation operations,
// checked before anything is written (content-model.md §14, §16, §19).
import { hashPasswords, parseBody, uidsToDerive, type Attributes, type BodyMode } from '../body.js'
import { writeWithDerivedUids, type DerivedUid } from '../derived-uids.js'
import { settleComponents } from '../components/entries.js'
import { checkRequiredMedia, resolveMediaValues } from '../media/links.js'
import { parseLinkOps, resolveLinks, type LinkOp } from '../relations/write.js'
import { checkComponentTargets, checkTargets } from '../relations/targets.js'
import type { Version } from '../storage/items.js'
import { versionList } from '../table.js'
import { bodyStatusOf, type Scope } from './context.js'

/** A write's parsed body: its attributes, the uids left to derive, and its relation operations by relation name. */
export interface WriteBody {
  readonly attributes: Attributes
  readonly derived: readonly DerivedUid[]
  readonly links: Record<string, LinkOp>
}

/**
 * Parses a write's body: its attributes, the `uid`s it leaves unset to derive from their target
 * fields (drawn by `writeDerived`), and its relation operations, whose targets must exist (§16).
 * A write that does not publish (`publish` false) may leave `required` attributes empty (§15).
 */
export async function writeBodyOf(scope: Scope, body: unknown, mode: BodyMode, locale: string, publish: boolean, current?: Version): Promise<WriteBody> {
  const { type, services } = scope
  // Media attributes name files by id or documentId: their documentIds from here on (content-model.md
  // §19), inside components too, which the body's checks read.
  const sent = typeof body === 'object' && body !== null ? (body as { data?: unknown }).data : undefined
  const data = await resolveMediaValues(services, type, sent)
  const attributes = parseBody(data === sent ? body : { ...(body as object), data }, type, mode, { draft: type.draftAndPublish && !publish })
  // A draft may lack required media, as any required attribute (§15).
  if (!type.draftAndPublish || publish) checkRequiredMedia(type, data, mode === 'create')
  const links = parseLinkOps(data as Record<string, unknown>, type)
  // Links that cannot apply to the version as read (a position relative to a target not linked,
  // too many) are a 400 before ids are drawn; the write applies them again to what it reads.
  resolveLinks(type, links, current, services.config.rest.relations.maxLinks)
  // So are component entries' unknown ids and their relations' operations (content-model.md §18).
  settleComponents(type, attributes, current, current === undefined ? [] : [current], services.config.rest.relations.maxLinks)
  const derived = uidsToDerive(type, mode, body, attributes)
  await checkTargets(services, type, links, locale)
  await checkComponentTargets(services, type, attributes, locale)
  await hashPasswords(attributes)
  return { attributes, derived, links }
}

/**
 * Runs `write` with the body's derived uids set to values free in `locale` (in both lists of a draft
 * & publish type: the write may publish), drawn again when a parallel write took one (derived-uids.ts).
 */
export function writeDerived<T>(scope: Scope, body: WriteBody, locale: string, documentId: string, write: () => Promise<T>): Promise<T> {
  const { type, services } = scope
  const lists = (type.draftAndPublish ? (['draft', 'published'] as const) : (['published'] as const)).map((status) => versionList(locale, status))
  return writeWithDerivedUids(body.derived, body.attributes, (uid, skip) => services.documents.availableUid(type, uid.name, lists, uid.base, documentId, skip), write)
}
