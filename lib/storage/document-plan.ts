// What one write to a document must store, as a pure function of the document as read and its
// versions after the change: the versions to put or delete, the copies the fallback chains serve
// (`~<locale>` items, see delivery.md §12), and the count and revision of every list that changes.
// The caller adds the guards (head item, locale registration) and sends it as one transaction.
import type { TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb'
import type { ContentType } from '../content-types.js'
import { conflict } from '../errors.js'
import { ATTR, listKey, parseList, publicationList, servedList, versionList, type PublicationState, type Status } from '../table.js'
import { countKey, listOf, servedKey, versionKey, versionToItem, type Version } from './items.js'
import type { Mark, WideChange } from './wide/overlay.js'

/** A document as read: its head revision, its versions and the versions its served copies copy. */
export interface DocumentState {
  readonly documentId: string
  /** Revision of the head item; undefined when the document has none yet. */
  readonly headRev: number | undefined
  /** Every version, by id ascending. */
  readonly versions: readonly Version[]
  /**
   * Per served list with a copy (the fallback locale's list: `fr`, or `draft:fr` for drafts): the
   * locale, id and revision of the version copied.
   */
  readonly served: ReadonlyMap<string, { readonly source: string; readonly id: number; readonly rev: number }>
  /** Draft & publish types: the publication state each version was stored with, by its list (none before the upgrade). */
  readonly states: ReadonlyMap<string, PublicationState>
  /**
   * Present when items of the document are marked by a wide write (lib/storage/wide/): the change
   * its head holds (`done` once applied everywhere), the document as stored (marked items as they
   * are; the fields above show it as readers see it), and the marks of each marked item by sort key
   * (a placeholder whose marks are all gone holds none).
   */
  readonly wide?: { readonly change: WideChange | undefined; readonly stored: DocumentState; readonly marks: ReadonlyMap<string, readonly Mark[]> }
}

/** A document that has no item yet. */
export function emptyDocument(documentId: string): DocumentState {
  return { documentId, headRev: undefined, versions: [], served: new Map(), states: new Map() }
}

/** The statuses a type's versions have. */
export function statusesOf(type: ContentType): readonly Status[] {
  return type.draftAndPublish ? ['published', 'draft'] : ['published']
}

/** True when a draft and a published version hold the same values (publishing would change nothing). */
export function sameValues(a: Version, b: Version): boolean {
  return Object.keys({ ...a.attributes, ...b.attributes }).every((name) => JSON.stringify(a.attributes[name] ?? null) === JSON.stringify(b.attributes[name] ?? null))
}

/** How many published versions have no draft (a document stored before draft & publish). */
export function missingDrafts(type: ContentType, versions: readonly Version[]): number {
  if (!type.draftAndPublish) return 0
  return versions.filter((version) => version.status === 'published' && !versions.some((draft) => draft.status === 'draft' && draft.locale === version.locale)).length
}

/** `versions` with a draft equal to each published version that has none, taking `ids` in turn. */
export function withDrafts(type: ContentType, versions: readonly Version[], ids: readonly number[]): Version[] {
  if (missingDrafts(type, versions) > ids.length) throw conflict('The document changed while its drafts were being created; retry')
  let next = 0
  const drafts = versions
    .filter((version) => version.status === 'published' && !versions.some((draft) => draft.status === 'draft' && draft.locale === version.locale))
    .map((version): Version => ({ ...version, status: 'draft', id: ids[next++] as number, rev: 1, publishedAt: null }))
  return [...versions, ...drafts]
}

/** The publication state of `version` among a document's `versions` (see PublicationState). */
export function publicationState(versions: readonly Version[], version: Version): PublicationState {
  const other = versions.find((candidate) => candidate.locale === version.locale && candidate.status !== version.status)
  if (version.status === 'published') return other !== undefined && sameValues(other, version) ? 'u' : 'm'
  if (other !== undefined) return sameValues(other, version) ? 'u' : 'm'
  return versions.some((candidate) => candidate.status === 'published') ? 'N' : 'n'
}

/** Fallback chains of the locales that have one: `fr-CA` → [`fr-CA`, `fr`, `en`]. */
export type Chains = ReadonlyMap<string, readonly string[]>

type Item = Record<string, unknown>
export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number]

/** The version a chain serves: the first locale along it that has one. */
export function servedVersion(versions: readonly Version[], chain: readonly string[]): Version | undefined {
  for (const locale of chain) {
    const version = versions.find((candidate) => candidate.locale === locale)
    if (version !== undefined) return version
  }
  return undefined
}

const same = (a: Version | undefined, b: Version | undefined) => a?.locale === b?.locale && a?.status === b?.status && a?.id === b?.id && a?.rev === b?.rev

/**
 * The writes that take `state` to `next` (versions after the change), in `tableName`: puts and
 * deletes of versions and served copies, and one count update per list whose content changes
 * (its `n` moves by the versions added or removed, its `rev` and `at` on any change). `rewrite`
 * puts every version and copy again, with the keys of today's layout (the reindex).
 */
export function planWrites(type: ContentType, tableName: string, state: DocumentState, next: readonly Version[], chains: Chains, now: string, rewrite = false): TransactItem[] {
  const { items, lists } = planChanges(type, tableName, state, next, chains, rewrite)
  return [...items, ...countUpdates(type, tableName, lists, now)]
}

/** The count updates of `lists` (list → versions added or removed): one item per list, whatever its delta. */
export function countUpdates(type: ContentType, tableName: string, lists: ReadonlyMap<string, number>, now: string): TransactItem[] {
  return [...lists].map(([list, delta]) => ({ Update: countUpdate(type, tableName, list, delta, now) }))
}

/**
 * As planWrites, with the lists whose count moves kept apart (list → delta), so that a transaction
 * holding the changes of several documents updates each count item once.
 */
export function planChanges(type: ContentType, tableName: string, state: DocumentState, next: readonly Version[], chains: Chains, rewrite = false): { items: TransactItem[]; lists: Map<string, number> } {
  const steps = planSteps(type, tableName, state, next, chains, rewrite)
  return { items: steps.map((step) => step.item), lists: listDeltas(steps) }
}

/** The count moves of `steps`, by list. */
export function listDeltas(steps: readonly Step[]): Map<string, number> {
  const lists = new Map<string, number>()
  for (const step of steps) for (const [list, delta] of step.lists) lists.set(list, (lists.get(list) ?? 0) + delta)
  return lists
}

/**
 * One item a write puts, updates or deletes, with the count moves it makes (list → delta) and
 * what it is: a version put whole (`old` undefined for a new one), a version whose publication
 * state key alone moves, a version deleted, or a served copy (holding `source`'s version
 * afterwards, `''` when it goes; `created` when the document had none).
 */
export type Step = { readonly item: TransactItem; readonly key: { readonly documentId: string; readonly locale: string }; readonly lists: readonly (readonly [string, number])[] } & (
  | { readonly kind: 'version'; readonly old: Version | undefined; readonly next: Version }
  | { readonly kind: 'state'; readonly old: Version }
  | { readonly kind: 'delete'; readonly old: Version }
  | { readonly kind: 'copy'; readonly source: string; readonly created: boolean }
)

/** planChanges, item by item (what a write too large for one transaction commits in parts). */
export function planSteps(type: ContentType, tableName: string, state: DocumentState, next: readonly Version[], chains: Chains, rewrite = false): Step[] {
  const steps: Step[] = []
  const before = new Map(state.versions.map((version) => [listOf(version), version]))
  const after = new Map(next.map((version) => [listOf(version), version]))
  // A state partition's count moves when a version enters or leaves it; changes within it move
  // the list's revision, which publicationFilter's validator reads too.
  const moves = (list: string, was: PublicationState | undefined, is: PublicationState | undefined): [string, number][] =>
    was === is ? [] : [...(was === undefined ? [] : [[publicationList(list, was), -1] as [string, number]]), ...(is === undefined ? [] : [[publicationList(list, is), 1] as [string, number]])]
  for (const [list, version] of after) {
    const old = before.get(list)
    const was = old === undefined ? undefined : state.states.get(list)
    const is = type.draftAndPublish ? publicationState(next, version) : undefined
    if (same(old, version) && was === is && !rewrite) continue
    const key = versionKey(version.documentId, version.locale, version.status)
    if (old !== undefined && same(old, version) && was !== undefined && is !== undefined && !rewrite) {
      // Only the publication state moved (the other status changed): the state key alone, which
      // writes `byPublication` but none of the slot indexes a whole put would rewrite.
      // The list itself shows nothing new: only the two state partitions move.
      steps.push({ kind: 'state', old, key, lists: moves(list, was, is), item: { Update: { TableName: tableName, Key: key, UpdateExpression: 'SET #ps = :ps', ExpressionAttributeNames: { '#ps': ATTR.publication }, ExpressionAttributeValues: { ':ps': listKey(type.uid, publicationList(list, is)) } } } })
    } else {
      steps.push({ kind: 'version', old, next: version, key, lists: [[list, old === undefined ? 1 : 0], ...moves(list, was, is)], item: { Put: { TableName: tableName, Item: versionToItem(type, version, undefined, is) } } })
    }
  }
  for (const [list, old] of before) {
    if (after.has(list)) continue
    const key = versionKey(old.documentId, old.locale, old.status)
    steps.push({ kind: 'delete', old, key, lists: [[list, -1], ...moves(list, state.states.get(list), undefined)], item: { Delete: { TableName: tableName, Key: key } } })
  }
  const copy = (locale: string, status: Status, served: Version | undefined, created: boolean): Step => {
    const key = servedKey(state.documentId, locale, status)
    const list = servedList(versionList(locale, status))
    if (served === undefined) return { kind: 'copy', source: '', created, key, lists: [[list, -1]], item: { Delete: { TableName: tableName, Key: key } } }
    return { kind: 'copy', source: served.locale, created, key, lists: [[list, created ? 1 : 0]], item: { Put: { TableName: tableName, Item: versionToItem(type, served, locale) } } }
  }
  for (const status of statusesOf(type)) {
    const own = next.filter((version) => version.status === status)
    for (const [locale, chain] of chains) {
      const copied = state.served.get(versionList(locale, status))
      const served = servedVersion(own, chain)
      if (served === undefined) {
        if (copied !== undefined) steps.push(copy(locale, status, undefined, false))
        continue
      }
      if (!rewrite && copied !== undefined && copied.source === served.locale && copied.id === served.id && copied.rev === served.rev) continue
      steps.push(copy(locale, status, served, copied === undefined))
    }
  }
  // Copies kept for a locale that no longer has a chain (its fallback removed, or it was deleted).
  for (const list of state.served.keys()) {
    const { locale, status } = parseList(list)
    if (chains.has(locale) && statusesOf(type).includes(status)) continue
    steps.push(copy(locale, status, undefined, false))
  }
  return steps
}

/** Moves a list's count by `delta` and its revision on; `at` records when, for cache settling. */
export function countUpdate(type: ContentType, tableName: string, list: string, delta: number, now: string) {
  return {
    TableName: tableName,
    Key: countKey(type.uid, list) as Item,
    UpdateExpression: 'ADD #n :delta, #rev :one SET #at = :at',
    ExpressionAttributeNames: { '#n': 'n', '#rev': ATTR.revision, '#at': 'at' },
    ExpressionAttributeValues: { ':delta': delta, ':one': 1, ':at': Date.parse(now) },
  }
}
