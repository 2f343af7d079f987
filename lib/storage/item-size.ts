// Item sizes as DynamoDB counts them (developer guide, "DynamoDB item sizes and formats"): attribute
// names plus values; strings in UTF-8 bytes; numbers 1 byte per two significant digits (leading and
// trailing zeros trimmed) plus 1; binary its raw bytes; booleans and nulls 1 byte; lists and maps 3
// bytes plus 1 per element plus the elements (a map's element: its name and value); a set the sum
// of its elements.

/** Significant digits of a number as DynamoDB stores it: sign, point, exponent, leading and trailing zeros dropped. */
function significantDigits(value: number | bigint): number {
  const text = typeof value === 'bigint' ? value.toString() : value.toExponential().replace(/e.*$/, '')
  const digits = text.replace(/[-.]/g, '').replace(/^0+/, '').replace(/0+$/, '')
  return Math.max(1, digits.length)
}

function valueSize(value: unknown): number {
  if (value === null || value === undefined || typeof value === 'boolean') return 1
  if (typeof value === 'string') return Buffer.byteLength(value)
  if (typeof value === 'number' || typeof value === 'bigint') return Math.ceil(significantDigits(value) / 2) + 1
  if (value instanceof Uint8Array) return value.byteLength
  if (value instanceof Set) return [...value].reduce((sum: number, element) => sum + valueSize(element), 0)
  if (Array.isArray(value)) return 3 + value.reduce((sum: number, element) => sum + 1 + valueSize(element), 0)
  if (typeof value === 'object') {
    return 3 + Object.entries(value).reduce((sum, [name, element]) => sum + 1 + Buffer.byteLength(name) + valueSize(element), 0)
  }
  return Buffer.byteLength(String(value))
}

/** The size of one item: what DynamoDB's 400 KB limit and its capacity units count. */
export function itemBytes(item: Record<string, unknown>): number {
  return Object.entries(item).reduce((sum, [name, value]) => (value === undefined ? sum : sum + Buffer.byteLength(name) + valueSize(value)), 0)
}

/** The total size of index entries (or items): what a Query reading all of them reads. */
export function keysBytes(items: readonly Record<string, unknown>[]): number {
  return items.reduce((sum, item) => sum + itemBytes(item), 0)
}

/**
 * The size of a request's JSON text (a transaction's items, a head's change), a binary value
 * counted as its bytes (DynamoDB's own request limits count it so; the SDK sends it as base64).
 */
export function requestBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value, function (this: Record<string, unknown>, name: string, inner: unknown) {
    const raw = this[name]
    return raw instanceof Uint8Array ? 'x'.repeat(raw.byteLength) : inner
  }))
}
