// Item sizes as DynamoDB counts them (developer guide, "Item sizes and formats"): attribute names
// plus values; strings in UTF-8 bytes; numbers 1 byte per two significant digits plus 1; booleans
// and nulls 1 byte; lists and maps 3 bytes plus 1 per element plus the elements.
function valueSize(value: unknown): number {
  if (value === null || value === undefined || typeof value === 'boolean') return 1
  if (typeof value === 'string') return Buffer.byteLength(value)
  if (typeof value === 'number' || typeof value === 'bigint') {
    const digits = String(value).replace(/[-.]|e.*$/gi, '').replace(/^0+/, '').replace(/0+$/, '')
    return Math.ceil(Math.max(1, digits.length) / 2) + 1
  }
  if (Array.isArray(value)) return 3 + value.reduce((sum: number, element) => sum + 1 + valueSize(element), 0)
  if (typeof value === 'object') {
    return 3 + Object.entries(value).reduce((sum, [name, element]) => sum + 1 + Buffer.byteLength(name) + valueSize(element), 0)
  }
  return Buffer.byteLength(String(value))
}

/** The size of one item. */
export function itemBytes(item: Record<string, unknown>): number {
  return Object.entries(item).reduce((sum, [name, value]) => sum + Buffer.byteLength(name) + valueSize(value), 0)
}

/** The total size of index entries (or items): what a Query reading all of them reads. */
export function keysBytes(items: readonly Record<string, unknown>[]): number {
  return items.reduce((sum, item) => sum + itemBytes(item), 0)
}
