// What one write to a document must store, as a pure function of the document as read and its
// versions after the change: the versions to put or delete, the copies the fallback chains serve
// (`~<locale>` items, see delivery.md §12), and the count and revision of every list that changes.
// The caller adds the guards (head item, locale registration) and sends it as one transaction.
import type { TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb'
import type { ContentType } from '../content-types.js'
import { ATTR } from '../table.js'
import { countKey, servedKey, versionKey, versionToItem, type Version } from './items.js'

/** A document as read: its head revision, its versions and the versions its served copies copy. */
export interface DocumentState {
  readonly documentId: string
  /** Revision of the head item; undefined when the document has none yet. */
  readonly headRev: number | undefined
  /** Every version, by id ascending. */
  readonly versions: readonly Version[]
  /** Per fallback locale with a served copy: the locale, id and revision of the version copied. */
  readonly served: ReadonlyMap<string, { readonly source: string; readonly id: number; readonly rev: number }>
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

const same = (a: Version | undefined, b: Version | undefined) => a?.locale === b?.locale && a?.id === b?.id && a?.rev === b?.rev

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
  const items: TransactItem[] = []
  const lists = new Map<string, number>()
  const touch = (list: string, delta: number) => lists.set(list, (lists.get(list) ?? 0) + delta)
  const before = new Map(state.versions.map((version) => [version.locale, version]))
  const after = new Map(next.map((version) => [version.locale, version]))
  for (const [locale, version] of after) {
    const old = before.get(locale)
    if (same(old, version) && !rewrite) continue
    items.push({ Put: { TableName: tableName, Item: versionToItem(type, version) } })
    touch(locale, old === undefined ? 1 : 0)
  }
  for (const [locale, old] of before) {
    if (after.has(locale)) continue
    items.push({ Delete: { TableName: tableName, Key: versionKey(old.documentId, old.locale) } })
    touch(locale, -1)
  }
  for (const [locale, chain] of chains) {
    const copied = state.served.get(locale)
    const served = servedVersion(next, chain)
    if (served === undefined) {
      if (copied === undefined) continue
      items.push({ Delete: { TableName: tableName, Key: servedKey(state.documentId, locale) } })
      touch(`~${locale}`, -1)
      continue
    }
    if (!rewrite && copied !== undefined && copied.source === served.locale && copied.id === served.id && copied.rev === served.rev) continue
    items.push({ Put: { TableName: tableName, Item: versionToItem(type, served, locale) } })
    touch(`~${locale}`, copied === undefined ? 1 : 0)
  }
  // Copies kept for a locale that no longer has a chain (its fallback removed, or it was deleted).
  for (const locale of state.served.keys()) {
    if (chains.has(locale)) continue
    items.push({ Delete: { TableName: tableName, Key: servedKey(state.documentId, locale) } })
    touch(`~${locale}`, -1)
  }
  return { items, lists }
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
