// Webhook events from the table's change stream (integration.md §20): one event per changed
// version (document, locale, status), named as Strapi names them, derived from the committed
// item images and never from a request. Only version items count: heads, served copies (`~`),
// counters and settings (`#...`) are not versions, and a version item rewritten without a new
// revision (a publication-state move, a wide write's mark, a reindex) is no change of content.
import { FILE_UID, typeByUid, type ContentType } from '../content-types.js'
import { documentAnswer } from '../answers/document.js'
import { itemToVersion } from '../storage/items.js'
import { ATTR, HEAD, parseList, versionList, type Status } from '../table.js'

type Item = Record<string, unknown>

/** One record of the stream, its images unmarshalled. */
export interface StreamChange {
  readonly eventName: 'INSERT' | 'MODIFY' | 'REMOVE'
  /** The record's sequence number in its shard: with the shard, the record's identity. */
  readonly sequenceNumber: string
  readonly oldImage?: Item
  readonly newImage?: Item
}

/** A change of one version's content. */
export interface VersionChange {
  readonly type: ContentType
  readonly documentId: string
  readonly locale: string
  readonly status: Status
  readonly kind: 'created' | 'changed' | 'removed'
  readonly before?: Item
  readonly after?: Item
}

/** A webhook event, ready to send: its name, the document it is about, and Strapi's body (`entry` or, for files, `media`). */
export interface EntryEvent {
  readonly event: string
  readonly documentId: string
  readonly body: { event: string; createdAt: string; model?: string; uid?: string; entry?: Record<string, unknown>; media?: Record<string, unknown> }
}

/** The version change a record is, or undefined when it changes no version's content. */
export function versionChangeOf(record: StreamChange, types: readonly ContentType[]): VersionChange | undefined {
  const image = record.newImage ?? record.oldImage
  if (image === undefined) return undefined
  const documentId = String(image.documentId)
  const list = String(image.locale)
  if (documentId.startsWith('#') || list === HEAD || list.startsWith('~') || image[ATTR.placeholder] !== undefined) return undefined
  const type = typeByUid(types, String(image[ATTR.contentType]))
  if (type === undefined) return undefined
  const { locale, status } = parseList(list)
  const base = { type, documentId, locale, status, before: record.oldImage, after: record.newImage }
  if (record.eventName === 'INSERT') return { ...base, kind: 'created' }
  if (record.eventName === 'REMOVE') return { ...base, kind: 'removed' }
  const revision = (item: Item | undefined) => Number(item?.[ATTR.revision])
  return revision(record.oldImage) === revision(record.newImage) ? undefined : { ...base, kind: 'changed' }
}

/**
 * What a name depends on beyond one record: the other items of the document as the same commit
 * left them (the batch's other records first, then a read of the table).
 */
export interface Neighbours {
  /** The item of `documentId`'s `list` as the batch or the table has it after `change`, or null when none. */
  itemAfter(change: VersionChange, list: string): Promise<Item | null>
}

const state = (item: Item | undefined) => String(item?.[ATTR.publication] ?? '').slice(-1)

/** Strapi's name for a version change (integration.md §20). */
export async function eventNameOf(change: VersionChange, neighbours: Neighbours): Promise<string> {
  const { type, kind, status, locale } = change
  if (type.uid === FILE_UID) return kind === 'created' ? 'media.create' : kind === 'changed' ? 'media.update' : 'media.delete'
  if (!type.draftAndPublish) return kind === 'created' ? 'entry.create' : kind === 'changed' ? 'entry.update' : 'entry.delete'
  if (status === 'published') {
    if (kind !== 'removed') return 'entry.publish'
    // Unpublish removes the published version only; a delete removes the draft with it.
    return (await neighbours.itemAfter(change, versionList(locale, 'draft'))) === null ? 'entry.delete' : 'entry.unpublish'
  }
  if (kind !== 'changed') return kind === 'created' ? 'entry.create' : 'entry.delete'
  // A draft that differed from its published version and now equals it: a discard, unless the
  // same write published it (an update with publication gives the published version the draft's time).
  if (state(change.before) === 'm' && state(change.after) === 'u') {
    const published = await neighbours.itemAfter(change, versionList(locale, 'published'))
    if (published === null || published.updatedAt !== change.after?.updatedAt) return 'entry.draft-discard'
  }
  return 'entry.update'
}

/**
 * The event of a version change: the version as a full-access read shows it (the removed one for
 * a removal), through the API's own answer builder.
 */
export async function entryEventOf(change: VersionChange, neighbours: Neighbours, createdAt: string): Promise<EntryEvent> {
  const event = await eventNameOf(change, neighbours)
  const image = (change.kind === 'removed' ? change.before : change.after) as Item
  const entry = documentAnswer(change.type, itemToVersion(change.type, image), undefined)
  // Files (content-model.md §19) are media events, whose body holds the file as `media`, as Strapi's.
  const body = change.type.uid === FILE_UID ? { event, createdAt, media: entry } : { event, createdAt, model: change.type.singularName, uid: change.type.uid, entry }
  return { event, documentId: change.documentId, body }
}
