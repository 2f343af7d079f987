// How a reader sees the items of a wide write (a change too large for one DynamoDB transaction,
// see commit.ts beside this file) before every item is rewritten. The writer marks each item it
// will rewrite later with the change's id (`pend`), then commits the change on the document's head
// (`chg`: what every marked version takes), then rewrites the marked items in chunks and marks
// the change done on the head. A marked item is read as the change makes it once the head names the
// change (it committed), and as stored otherwise (not committed yet, or never: its writer lost a
// race or died before the commit). So a reader sees all of a change or none of it, at any moment.
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb'
import { ATTR, HEAD, parseList, versionList, type Status } from '../../table.js'
import { batchGetItems } from '../client.js'

type Item = Record<string, unknown>

/** A wide change as the head stores it while it is being applied. */
export interface WideChange {
  readonly id: string
  /** When it was made: the `updatedAt` (and a published version's `publishedAt`) of every version it changes. */
  readonly at: string
  /**
   * The statuses whose marked versions take `values` (the stored non-localized values; null clears
   * one) with their revision moved on by one. A marked version of another status keeps its content
   * (only its publication state key moves).
   */
  readonly statuses: readonly Status[]
  readonly values: Record<string, unknown>
  /** The reindex's rewrite: every marked item is put again as it reads (with today's keys). */
  readonly rewrite?: boolean
  /** Set once every marked item was rewritten; the head keeps the change for readers of items read before that. */
  readonly done?: boolean
}

/** The change a head item holds, if any. */
export function changeOf(head: Item | undefined): WideChange | undefined {
  return head?.[ATTR.change] as WideChange | undefined
}

const isCopy = (item: Item) => String(item.locale).startsWith('~')

/** A version item as the committed `change` makes it. */
export function overlayVersion(item: Item, change: WideChange): Item {
  const { status } = parseList(String(item.locale))
  const next = stripMark(item)
  if (!change.statuses.includes(status)) return next
  for (const [name, value] of Object.entries(change.values)) {
    if (value === null) delete next[name]
    else next[name] = value
  }
  next[ATTR.revision] = Number(item[ATTR.revision]) + 1
  next.updatedAt = change.at
  if (status === 'published') next.publishedAt = change.at
  return next
}

/** A served copy holding `source` (a version item), under the copy's own key and index partition. */
export function copyOf(copy: Item, source: Item): Item {
  const { locale: sourceList, [ATTR.publication]: _state, [ATTR.listKey]: _list, ...content } = stripMark(source)
  return { ...content, locale: copy.locale, [ATTR.listKey]: copy[ATTR.listKey], [ATTR.source]: parseList(String(sourceList)).locale }
}

function stripMark(item: Item): Item {
  const { [ATTR.pending]: _pending, [ATTR.placeholder]: _placeholder, ...rest } = item
  return rest
}

/**
 * A mark names its change and, on a copy, the locale whose version the copy holds once the change
 * commits (`<id>:<locale>`; `<id>:` when the item goes, a version too). An item holds a set of
 * marks: writers racing to mark it each add theirs, and only the one whose change commits counts.
 */
export interface Mark {
  readonly id: string
  readonly next?: string
}

/** The stored form of a mark. */
export function markText(mark: Mark): string {
  return mark.next === undefined ? mark.id : `${mark.id}:${mark.next}`
}

/** The marks an item holds. */
export function marksOf(item: Item): Mark[] {
  const stored = item[ATTR.pending]
  const texts = stored instanceof Set ? [...stored] : Array.isArray(stored) ? stored : []
  return texts.map((text) => {
    const colon = String(text).indexOf(':')
    return colon < 0 ? { id: String(text) } : { id: String(text).slice(0, colon), next: String(text).slice(colon + 1) }
  })
}

const isMarked = (item: Item) => item[ATTR.pending] !== undefined || item[ATTR.placeholder] === true

/** The key of the version `copy` holds under `mark`; undefined when it goes. */
function sourceKey(copy: Item, mark: Mark): { documentId: string; locale: string } | undefined {
  if (mark.next === undefined || mark.next === '') return undefined
  return { documentId: String(copy.documentId), locale: versionList(mark.next, parseList(String(copy.locale)).status) }
}

/**
 * `items` as readers see them: a marked item whose change the document's head (`changes`) names is
 * read as that change makes it (a copy as the version it will hold, from `sources`, itself
 * resolved), any other item as stored; a copy the change will create (a placeholder) does not
 * exist before the change commits, and one it removes does not exist after.
 */
export function resolveItems(items: readonly Item[], changes: (documentId: string) => WideChange | undefined, sources: (key: { documentId: string; locale: string }) => Item | undefined): Item[] {
  return items.flatMap((item) => {
    const resolved = resolveItem(item, changes, sources)
    return resolved === undefined ? [] : [resolved]
  })
}

function resolveItem(item: Item, changes: (documentId: string) => WideChange | undefined, sources: (key: { documentId: string; locale: string }) => Item | undefined): Item | undefined {
  if (!isMarked(item)) return item
  const change = changes(String(item.documentId))
  const mark = change === undefined ? undefined : marksOf(item).find((candidate) => candidate.id === change.id)
  if (mark === undefined) return item[ATTR.placeholder] === true ? undefined : stripMark(item)
  if (mark.next === '') return undefined
  if (!isCopy(item)) return overlayVersion(item, change as WideChange)
  const key = sourceKey(item, mark)
  const source = key === undefined ? undefined : sources(key)
  const version = source === undefined ? undefined : resolveItem(source, changes, () => undefined)
  return version === undefined ? undefined : copyOf(item, version)
}

/**
 * `items` (versions and copies read by any reader) as readers must see them (resolveItems): when
 * some are marked, their documents' heads and the versions their marked copies may hold are read
 * in one strongly consistent `BatchGetItem` (per 100 keys). Unmarked items cost nothing.
 */
export async function settlePending(db: DynamoDBDocumentClient, tableName: string, items: Item[]): Promise<Item[]> {
  if (!items.some(isMarked)) return items
  const keys = new Map<string, { documentId: string; locale: string }>()
  for (const item of items.filter(isMarked)) {
    const documentId = String(item.documentId)
    keys.set(`${documentId} ${HEAD}`, { documentId, locale: HEAD })
    for (const mark of isCopy(item) ? marksOf(item) : []) {
      const source = sourceKey(item, mark)
      if (source !== undefined) keys.set(`${source.documentId} ${source.locale}`, source)
    }
  }
  const read = await batchGetItems(db, tableName, [...keys.values()], undefined, true)
  const byKey = new Map(read.map((item) => [`${String(item.documentId)} ${String(item.locale)}`, item]))
  return resolveItems(items, (documentId) => changeOf(byKey.get(`${documentId} ${HEAD}`)), (key) => byKey.get(`${key.documentId} ${key.locale}`))
}
