// Which DynamoDB call of a list request reads what, for tests that hold or fail one of them.
import { INDEX, META, slotIndex } from '../../lib/table.js'

/**
 * A default-order page read: one Query of `byId` (its documents whole), or of `slot0` (its entries,
 * when the process keeps the list's documents: lib/storage/lists/kept.ts).
 */
export function isPageRead(command: string | undefined, input: object): boolean {
  const index = (input as { IndexName?: string }).IndexName
  return command === 'QueryCommand' && (index === INDEX.byId || index === slotIndex(0))
}

/** A read of the count items alone (the validator read on its own): a GetItem, or a BatchGetItem of count keys only. */
export function isCountRead(command: string | undefined, input: object): boolean {
  if (command === 'GetItemCommand') return String((input as { Key?: { documentId?: string } }).Key?.documentId) === META.count
  if (command !== 'BatchGetItemCommand') return false
  const keys = Object.values((input as { RequestItems?: Record<string, { Keys: { documentId: string }[] }> }).RequestItems ?? {}).flatMap((request) => request.Keys)
  return keys.length > 0 && keys.every((key) => key.documentId === META.count)
}
