// The bench's capacity model (bench/item-size.ts, bench/capacity-model.ts): item sizes and read and
// write units by the rules of DynamoDB's developer guide, worked out by hand here.
import { describe, expect, it } from 'vitest'
import { indexEntry, indexWriteUnits, readUnits, writeCost, writeFloor, writeUnits } from '../../bench/capacity-model.js'
import { itemBytes } from '../../lib/storage/item-size.js'
import type { IndexDeclaration } from '../../lib/table.js'

const byList: IndexDeclaration = { name: 'byList', partitionKey: { name: 'lk', type: 'S' }, sortKey: { name: 'id', type: 'N' }, projection: { type: 'ALL' } }
const slot: IndexDeclaration = { name: 'slot0', partitionKey: { name: 'lk', type: 'S' }, sortKey: { name: 'k0', type: 'S' }, projection: { type: 'INCLUDE', attributes: ['id', 'f'] } }

/** A version item of `documentId` + `locale` whose size is 24 + the body's length ('documentId' 10 + 2, 'locale' 6 + 2, 'body' 4). */
const version = (body: number, extra: Record<string, unknown> = {}) => ({ documentId: 'd1', locale: 'en', body: 'x'.repeat(body), ...extra })

describe('item size', () => {
  it('counts names and values: strings in UTF-8 bytes, binary raw, booleans and nulls 1 byte', () => {
    expect(itemBytes({ a: 'abc' })).toBe(4)
    expect(itemBytes({ t: 'é' })).toBe(3)
    expect(itemBytes({ b: new Uint8Array(10) })).toBe(11)
    expect(itemBytes({ b: true, z: null })).toBe(4)
  })

  it('sizes numbers at 1 byte per two significant digits plus 1, leading and trailing zeros trimmed', () => {
    expect(itemBytes({ n: 123 })).toBe(4)
    expect(itemBytes({ n: 1200 })).toBe(3)
    expect(itemBytes({ n: 0.0015 })).toBe(3)
    expect(itemBytes({ n: -1234567 })).toBe(6)
    expect(itemBytes({ n: 2 ** 53 + 2 })).toBe(1 + 8 + 1)
  })

  it('adds 3 bytes per list or map and 1 per element; a set is the sum of its elements', () => {
    expect(itemBytes({ m: { x: 'ab', y: 1 } })).toBe(1 + 3 + (1 + 1 + 2) + (1 + 1 + 2))
    expect(itemBytes({ l: ['a', 'bc'] })).toBe(1 + 3 + (1 + 1) + (1 + 2))
    expect(itemBytes({ l: [] })).toBe(4)
    expect(itemBytes({ s: new Set(['ab', 'c']) })).toBe(4)
  })
})

describe('read and write units', () => {
  it('reads in 4 KB units, at least one, half when eventually consistent, twice in a transaction', () => {
    expect(readUnits(0, 'strong')).toBe(1)
    expect(readUnits(4096, 'strong')).toBe(1)
    expect(readUnits(4097, 'strong')).toBe(2)
    expect(readUnits(4097, 'eventual')).toBe(1)
    expect(readUnits(100, 'eventual')).toBe(0.5)
    expect(readUnits(8192, 'transactional')).toBe(4)
  })

  it('writes in 1 KB units, at least one, twice in a transaction', () => {
    expect(writeUnits(0)).toBe(1)
    expect(writeUnits(1024)).toBe(1)
    expect(writeUnits(1025)).toBe(2)
    expect(writeUnits(1025, true)).toBe(4)
  })
})

describe('index entries', () => {
  it('project the table keys, the index keys and the included attributes; none without an index key', () => {
    const item = version(10, { lk: 'a#en', k0: 'b', id: 7, f: { t: 'x' }, title: 'T' })
    expect(indexEntry(item, slot)).toEqual({ documentId: 'd1', locale: 'en', lk: 'a#en', k0: 'b', id: 7, f: { t: 'x' } })
    expect(indexEntry(item, byList)).toBe(item)
    expect(indexEntry(version(10, { lk: 'a#en', id: 7 }), slot)).toBeUndefined()
  })

  it('cost a put when the item enters, a delete when it leaves, both when its key moves, nothing when nothing projected changes', () => {
    const before = version(10, { lk: 'a#en', k0: 'b', id: 7, f: { t: 'x' }, title: 'T' })
    expect(indexWriteUnits(undefined, before, slot)).toBe(1)
    expect(indexWriteUnits(before, undefined, slot)).toBe(1)
    expect(indexWriteUnits(before, { ...before, k0: 'c' }, slot)).toBe(2)
    expect(indexWriteUnits(before, { ...before, title: 'U' }, slot)).toBe(0)
    expect(indexWriteUnits(before, { ...before, f: { t: 'y' } }, slot)).toBe(1)
    expect(indexWriteUnits(before, { ...before, title: 'U' }, byList)).toBe(1)
  })

  it('are written at their projected size', () => {
    const big = version(3000, { lk: 'a#en', k0: 'b', id: 7 })
    expect(indexWriteUnits(undefined, big, byList)).toBe(3)
    expect(indexWriteUnits(undefined, big, slot)).toBe(1)
  })
})

describe('write cost and floor', () => {
  it('charges the larger of the old and new item, twice in a transaction, and index entries at standard rates', () => {
    const before = version(1500, { lk: 'a#en', id: 7 })
    const after = version(500, { lk: 'a#en', id: 7 })
    expect(writeCost([{ before, after }], true, [byList])).toEqual({ table: 4, indexes: 2 })
    expect(writeCost([{ before, after }], false, [byList])).toEqual({ table: 2, indexes: 2 })
  })

  it('charges a condition check as a transactional write of its item, no index touched', () => {
    const item = version(10, { lk: 'a#en', id: 7 })
    expect(writeCost([{ before: item, after: item, check: true }], true, [byList])).toEqual({ table: 2, indexes: 0 })
  })

  it('floors a write at its version items and one unit per index key that appears or goes, two per move', () => {
    const created = version(1500, { lk: 'a#en', id: 7, k0: 'b' })
    expect(writeFloor([{ before: undefined, after: created }], [byList, slot])).toBe(2 + 2)
    expect(writeFloor([{ before: created, after: { ...created, k0: 'c' } }], [byList, slot])).toBe(2 + 0 + 2)
    expect(writeFloor([{ before: undefined, after: { documentId: 'd1', locale: '#head', n: 1 } }], [byList])).toBe(0)
    expect(writeFloor([{ before: undefined, after: { documentId: '#count', locale: 'a#en', n: 1 } }], [byList])).toBe(0)
  })
})
