// The stored form of JSON-text values (lib/storage/packed-json.ts), how sizes count it
// (item-size.ts), the webhook stream's reading of it from a Lambda event (base64 text), and
// component values decoded only when read.
import { describe, expect, it } from 'vitest'
import { marshall } from '@aws-sdk/util-dynamodb'
import { loadContentTypes } from '../../lib/schema/load.js'
import { itemBytes, requestBytes } from '../../lib/storage/item-size.js'
import { encodeValue, itemToVersion } from '../../lib/storage/items.js'
import { packJson, PACK_FROM_BYTES, unpackJson } from '../../lib/storage/packed-json.js'
import { toConsumerRecord } from '../../lib/storage/stream-reader.js'
import { documentAnswer } from '../../lib/answers/document.js'

const zone = Array.from({ length: 8 }, (_, i) => ({ __component: 'blocks.text', id: i + 1, body: `Paragraph ${i}: ${'the zone reads back equal, '.repeat(20)}`, columns: i }))

describe('packJson and unpackJson', () => {
  it('keeps JSON text under 1 KB as it is', () => {
    const value = { a: [1, 2, 3], b: 'é'.repeat(300) }
    expect(Buffer.byteLength(JSON.stringify(value))).toBeLessThan(PACK_FROM_BYTES)
    expect(packJson(value)).toBe(JSON.stringify(value))
  })

  it('compresses JSON text from 1 KB on into a plain Uint8Array that reads back equal', () => {
    const packed = packJson(zone)
    expect(packed).toBeInstanceOf(Uint8Array)
    expect(Buffer.isBuffer(packed)).toBe(false)
    expect((packed as Uint8Array).byteLength).toBeLessThan(Buffer.byteLength(JSON.stringify(zone)) / 4)
    expect(unpackJson(packed)).toEqual(zone)
  })

  it('reads values stored as JSON text (items written before)', () => {
    expect(unpackJson(JSON.stringify(zone))).toEqual(zone)
    expect(unpackJson('null')).toBeNull()
  })
})

describe('sizes of items and requests holding binary values', () => {
  it('counts a binary value as its bytes, not as JSON text of its numbers', () => {
    const packed = packJson(zone) as Uint8Array
    expect(itemBytes({ blocks: packed })).toBe('blocks'.length + packed.byteLength)
    expect(requestBytes({ Put: { Item: { blocks: packed } } })).toBe(JSON.stringify({ Put: { Item: { blocks: '' } } }).length + packed.byteLength)
    expect(requestBytes([Buffer.from('abc')])).toBe(JSON.stringify(['abc']).length)
  })
})

describe('stream records with packed values', () => {
  const [page] = loadContentTypes(new URL('../fixtures/components-project/src/api/', import.meta.url).pathname).filter((type) => type.singularName === 'page')
  const item = { documentId: 'a'.repeat(24), locale: 'en', id: 1, rev: 1, createdAt: 'x', updatedAt: 'x', title: 'T', blocks: encodeValue(page!, 'blocks', zone) }

  it('reads a Lambda event record, whose binary values are base64 text, as the Streams client does', () => {
    expect(item.blocks).toBeInstanceOf(Uint8Array)
    const attributes = marshall(item) as Record<string, any>
    const lambda = { ...attributes, blocks: { B: Buffer.from(attributes.blocks.B).toString('base64') } }
    for (const image of [attributes, lambda]) {
      const record = toConsumerRecord({ eventName: 'INSERT', dynamodb: { SequenceNumber: '1', NewImage: image as never } })
      expect(itemToVersion(page!, record.newImage!).attributes.blocks).toEqual(zone)
    }
  })
})

describe('component values read from items', () => {
  const [page] = loadContentTypes(new URL('../fixtures/components-project/src/api/', import.meta.url).pathname).filter((type) => type.singularName === 'page')
  const stored = (blocks: unknown) => ({ documentId: 'b'.repeat(24), locale: 'en', id: 2, rev: 1, createdAt: 'x', updatedAt: 'x', title: 'T', blocks })

  it('are the stored values to every reader: a read, a spread, the entries and JSON text', () => {
    const { attributes } = itemToVersion(page!, stored(encodeValue(page!, 'blocks', zone)))
    expect(Object.keys(attributes)).toContain('blocks')
    expect({ ...attributes }.blocks).toEqual(zone)
    expect(Object.fromEntries(Object.entries(attributes)).blocks).toEqual(zone)
    expect(JSON.parse(JSON.stringify(attributes)).blocks).toEqual(zone)
    expect(attributes.blocks).toBe(attributes.blocks) // decoded once, then kept
    attributes.blocks = []
    expect(attributes.blocks).toEqual([])
  })

  it('are decoded only when read: an answer that does not show them never inflates them', () => {
    // Bytes that are no DEFLATE stream: decoding them throws, so an answer that decoded would fail.
    const version = itemToVersion(page!, stored(new Uint8Array([0xff, 0xff, 0xff, 0xff])))
    expect(documentAnswer(page!, version, undefined)).toMatchObject({ documentId: 'b'.repeat(24), title: 'T' })
    expect(() => version.attributes.blocks).toThrow()
  })
})
