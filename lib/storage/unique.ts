// Unique attributes (content-model.md §14): each value a version holds is claimed by an item of its
// own, put on condition that no other document holds it, in the same transaction as the write that
// sets the value. Two parallel writes of one value: one transaction wins, the other fails its
// condition and is answered 400, whatever the timing. Pure: no SDK calls here.
import { createHash } from 'node:crypto'
import type { ContentType } from '../content-types.js'
import { META } from '../table.js'
import type { TransactItem } from './document-plan.js'
import { listOf, type Version } from './items.js'

/** Attributes whose values must be unique per locale: `unique: true`, and every `uid` (as Strapi). */
export function uniqueAttributes(type: ContentType): string[] {
  return Object.entries(type.attributes).filter(([, attribute]) => attribute.unique === true || attribute.type === 'uid').map(([name]) => name)
}

/** The key of the claim on `value` of `attribute` in `locale`. */
export function claimKey(type: ContentType, attribute: string, locale: string, value: unknown) {
  const digest = createHash('sha256').update(JSON.stringify(value)).digest('base64url')
  return { documentId: META.unique, locale: `${type.uid}#${attribute}#${locale}#${digest}` }
}

interface Claim {
  readonly key: { documentId: string; locale: string }
  readonly attribute: string
  readonly value: unknown
}

function claimsOf(type: ContentType, versions: readonly Version[], names: readonly string[]): Map<string, Claim> {
  const claims = new Map<string, Claim>()
  for (const version of versions) {
    for (const attribute of names) {
      const value = version.attributes[attribute]
      if (value === null || value === undefined) continue
      const key = claimKey(type, attribute, listOf(version), value)
      claims.set(key.locale, { key, attribute, value })
    }
  }
  return claims
}

/**
 * The claim writes that take a document's versions from `before` to `after`: puts (on condition
 * that no other document holds the value) for values it newly holds, deletes for values it no
 * longer holds. `rewrite` puts every claim again (the reindex).
 */
export function claimWrites(type: ContentType, tableName: string, documentId: string, before: readonly Version[], after: readonly Version[], rewrite = false): TransactItem[] {
  const names = uniqueAttributes(type)
  if (names.length === 0) return []
  const held = claimsOf(type, before, names)
  const wanted = claimsOf(type, after, names)
  const items: TransactItem[] = []
  for (const [id, claim] of wanted) {
    if (held.has(id) && !rewrite) continue
    items.push({
      Put: {
        TableName: tableName,
        Item: { ...claim.key, owner: documentId, attribute: claim.attribute, value: JSON.stringify(claim.value) },
        ConditionExpression: 'attribute_not_exists(documentId) OR #owner = :owner',
        ExpressionAttributeNames: { '#owner': 'owner' },
        ExpressionAttributeValues: { ':owner': documentId },
      },
    })
  }
  for (const [id, claim] of held) {
    if (!wanted.has(id)) items.push({ Delete: { TableName: tableName, Key: claim.key } })
  }
  return items
}

/** The attribute whose value another document holds, when `item` is a claim whose condition failed. */
export function claimedAttribute(item: TransactItem | undefined): string | undefined {
  const put = item?.Put
  return put !== undefined && put.Item?.documentId === META.unique ? String(put.Item.attribute) : undefined
}
