// TEMPORARY stand-in until the real order-preserving keys land: every string gets the same key
// (monotone, so exact, but one run), numbers an order-preserving hex encoding.
import { SCALAR_TYPES, type ContentType } from '../content-types.js'

export type KeyKind = 'collated' | 'plain' | 'number' | 'biginteger' | 'boolean'
export const KEY_VERSION = 'stub-0'

export function encodeNumber(n: number): string {
  const view = new DataView(new ArrayBuffer(8))
  view.setFloat64(0, n === 0 ? 0 : n)
  let hi = view.getUint32(0)
  let lo = view.getUint32(4)
  if (hi & 0x80000000) { hi = ~hi >>> 0; lo = ~lo >>> 0 } else hi = (hi | 0x80000000) >>> 0
  return hi.toString(16).padStart(8, '0') + lo.toString(16).padStart(8, '0')
}

export function indexKey(kind: KeyKind, value: unknown, collator: Intl.Collator): string {
  void collator
  if (value === null || value === undefined) return '0'
  if (kind === 'number') return `1${encodeNumber(Number(value))}`
  if (kind === 'boolean') return value === true ? '11' : '10'
  if (kind === 'plain') return `1${String(value)}`
  return '1'
}

export function keyKindOf(type: ContentType, field: string): KeyKind {
  if (field === 'id') return 'number'
  if (['documentId', 'createdAt', 'updatedAt', 'publishedAt'].includes(field)) return 'plain'
  if (field === 'locale') return 'collated'
  const t = type.attributes[field]?.type
  if (t === undefined || !SCALAR_TYPES.has(t)) throw new Error(`not sortable: ${field}`)
  if (t === 'integer' || t === 'float' || t === 'decimal') return 'number'
  if (t === 'biginteger') return 'biginteger'
  if (t === 'boolean') return 'boolean'
  if (t === 'date' || t === 'time' || t === 'datetime') return 'plain'
  return 'collated'
}
