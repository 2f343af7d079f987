// Capacity by DynamoDB's rules, computed from the items and index entries a call reads and writes
// (developer guide, "Read/write capacity mode" and "Global secondary indexes: provisioned
// throughput"). Reads: 4 KB units (a Query's or Scan's page summed, then rounded up; a GetItem's or
// BatchGet's item each), half when eventually consistent, twice in a transaction, at least one unit
// per call or item. Writes: 1 KB units of the larger of the old and the new item, twice in a
// transaction; plus each index entry put, updated or removed at its projected size (a moved index key
// is a delete and a put), at standard rates: DynamoDB propagates index writes asynchronously, outside
// the transaction. Pure: the bench's probe (capacity-probe.ts) gathers the items.
import type { IndexDeclaration } from '../lib/table.js'
import { PARTITION_KEY, SORT_KEY, HEAD } from '../lib/table.js'
import { itemBytes } from '../lib/storage/item-size.js'

export type Item = Record<string, unknown>

const READ_UNIT = 4096
const WRITE_UNIT = 1024

/** Read units of reading `bytes` in one item or one page. */
export function readUnits(bytes: number, consistency: 'eventual' | 'strong' | 'transactional'): number {
  const units = Math.max(1, Math.ceil(bytes / READ_UNIT))
  return consistency === 'eventual' ? units / 2 : consistency === 'transactional' ? units * 2 : units
}

/** Write units of writing an item of `bytes`. */
export function writeUnits(bytes: number, transactional = false): number {
  const units = Math.max(1, Math.ceil(bytes / WRITE_UNIT))
  return transactional ? units * 2 : units
}

/** The entry `item` has in `index` (the table's keys, the index's keys and what it projects), or undefined when the item lacks an index key. */
export function indexEntry(item: Item | undefined, index: IndexDeclaration): Item | undefined {
  if (item === undefined) return undefined
  const keys = [index.partitionKey.name, index.sortKey.name]
  if (keys.some((key) => item[key] === undefined)) return undefined
  if (index.projection.type === 'ALL') return item
  const projected = [PARTITION_KEY, SORT_KEY, ...keys, ...(index.projection.type === 'INCLUDE' ? index.projection.attributes : [])]
  return Object.fromEntries(projected.filter((name) => item[name] !== undefined).map((name) => [name, item[name]]))
}

const same = (a: unknown, b: unknown) => JSON.stringify(a, (_k, v: unknown) => (v instanceof Set ? [...v].sort() : v)) === JSON.stringify(b, (_k, v: unknown) => (v instanceof Set ? [...v].sort() : v))

/** Write units one index spends when an item goes from `before` to `after` (either absent). */
export function indexWriteUnits(before: Item | undefined, after: Item | undefined, index: IndexDeclaration): number {
  const old = indexEntry(before, index)
  const now = indexEntry(after, index)
  if (old === undefined && now === undefined) return 0
  if (old === undefined) return writeUnits(itemBytes(now!))
  if (now === undefined) return writeUnits(itemBytes(old))
  const moved = old[index.partitionKey.name] !== now[index.partitionKey.name] || old[index.sortKey.name] !== now[index.sortKey.name]
  if (moved) return writeUnits(itemBytes(old)) + writeUnits(itemBytes(now))
  return same(old, now) ? 0 : writeUnits(Math.max(itemBytes(old), itemBytes(now)))
}

/** One item a write call put, updated, deleted or checked: its state before and after. */
export interface ItemChange {
  readonly before: Item | undefined
  readonly after: Item | undefined
  /** A ConditionCheck of a transaction: charged as a transactional write of the item, no index touched. */
  readonly check?: boolean
}

export interface WriteCost {
  /** Units of the table's own items. */
  readonly table: number
  /** Units of index entries. */
  readonly indexes: number
}

/** What a write call costs: its items (twice in a transaction) and their index entries. */
export function writeCost(changes: readonly ItemChange[], transactional: boolean, indexes: readonly IndexDeclaration[]): WriteCost {
  let table = 0
  let index = 0
  for (const { before, after, check } of changes) {
    table += writeUnits(Math.max(before === undefined ? 0 : itemBytes(before), after === undefined ? 0 : itemBytes(after)), transactional)
    if (check === true) continue
    for (const declaration of indexes) index += indexWriteUnits(before, after, declaration)
  }
  return { table, indexes: index }
}

/** A document's version item (not its head, nor a count, sequence, claim or settings item). */
export function isVersion(item: Item | undefined): boolean {
  if (item === undefined) return false
  return !String(item[PARTITION_KEY]).startsWith('#') && item[SORT_KEY] !== HEAD
}

/**
 * The floor of a write: the version items it stores or removes, in standard 1 KB units, and one
 * unit per index entry whose key appears, moves (two) or goes: the bytes it must store and index
 * with entries that carry keys alone. Heads, counts, claims and condition checks are left out.
 */
export function writeFloor(changes: readonly ItemChange[], indexes: readonly IndexDeclaration[]): number {
  let units = 0
  for (const { before, after, check } of changes) {
    if (check === true || !(isVersion(before) || isVersion(after))) continue
    units += writeUnits(itemBytes(after ?? before!))
    const keysOnly = indexes.map((declaration): IndexDeclaration => ({ ...declaration, projection: { type: 'INCLUDE', attributes: [] } }))
    for (const declaration of keysOnly) {
      const old = indexEntry(before, declaration)
      const now = indexEntry(after, declaration)
      const moved = old !== undefined && now !== undefined && !same(old, now)
      units += moved ? 2 : old === undefined && now === undefined ? 0 : old !== undefined && now !== undefined ? 0 : 1
    }
  }
  return units
}
