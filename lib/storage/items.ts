// Mapping between stored items and API documents, and the small pieces of DynamoDB syntax the
// document store builds (keys, update expressions).
import type { Attributes } from '../body.js'
import type { ContentType } from '../content-types.js'
import { payloadTooLarge } from '../errors.js'
import { ATTR, META, listKey } from '../table.js'

/** One stored locale version, as read from the table. */
export interface Version {
  readonly documentId: string
  readonly locale: string
  readonly id: number
  readonly rev: number
  readonly createdAt: string
  readonly updatedAt: string
  readonly publishedAt: string
  /** Attribute values as the API shows them (blocks and json decoded). */
  readonly attributes: Attributes
}

/** A version as an ETag names it: `"<id>.<rev>"`. */
export interface VersionTag {
  readonly id: number
  readonly rev: number
}

/** Attribute types stored as JSON text: any nesting and any number fit, and nothing is coerced. */
const JSON_TEXT_TYPES = new Set(['blocks', 'json'])

/** Largest item we write; DynamoDB refuses items over 400 KB. */
const MAX_ITEM_BYTES = 380 * 1024

export function versionKey(documentId: string, locale: string) {
  return { documentId, locale }
}

export function countKey(uid: string, locale: string) {
  return { documentId: META.count, locale: listKey(uid, locale) }
}

/** The stored form of an attribute value. */
export function encodeValue(type: ContentType, name: string, value: unknown): unknown {
  const attribute = type.attributes[name]
  return attribute !== undefined && JSON_TEXT_TYPES.has(attribute.type) && value !== null ? JSON.stringify(value) : value
}

/** Reads a stored item of `type` into a Version. */
export function itemToVersion(type: ContentType, item: Record<string, unknown>): Version {
  const attributes: Attributes = {}
  for (const [name, attribute] of Object.entries(type.attributes)) {
    const raw = item[name]
    attributes[name] = raw === undefined || raw === null ? null : JSON_TEXT_TYPES.has(attribute.type) ? JSON.parse(raw as string) : raw
  }
  return {
    documentId: item.documentId as string,
    locale: item.locale as string,
    id: Number(item[ATTR.id]),
    rev: Number(item[ATTR.revision]),
    createdAt: item.createdAt as string,
    updatedAt: item.updatedAt as string,
    publishedAt: item.publishedAt as string,
    attributes,
  }
}

/** The stored item of a version. */
export function versionToItem(type: ContentType, version: Version): Record<string, unknown> {
  const item: Record<string, unknown> = {
    documentId: version.documentId,
    locale: version.locale,
    [ATTR.listKey]: listKey(type.uid, version.locale),
    [ATTR.contentType]: type.uid,
    [ATTR.id]: version.id,
    [ATTR.revision]: version.rev,
    createdAt: version.createdAt,
    updatedAt: version.updatedAt,
    publishedAt: version.publishedAt,
  }
  for (const [name, value] of Object.entries(version.attributes)) {
    if (value !== null && value !== undefined) item[name] = encodeValue(type, name, value)
  }
  if (Buffer.byteLength(JSON.stringify(item)) > MAX_ITEM_BYTES) throw payloadTooLarge(MAX_ITEM_BYTES)
  return item
}

/** The API shape of a version: id, documentId, attributes in schema order, timestamps, locale. */
export function toDocument(type: ContentType, version: Version): Record<string, unknown> {
  const document: Record<string, unknown> = { id: version.id, documentId: version.documentId }
  for (const name of Object.keys(type.attributes)) document[name] = version.attributes[name] ?? null
  document.createdAt = version.createdAt
  document.updatedAt = version.updatedAt
  document.publishedAt = version.publishedAt
  document.locale = version.locale
  return document
}

/** A version with `changes` applied and its timestamps and revision moved on. */
export function applyChanges(version: Version, changes: Attributes, now: string): Version {
  return {
    ...version,
    rev: version.rev + 1,
    updatedAt: now,
    publishedAt: now,
    attributes: { ...version.attributes, ...changes },
  }
}

/**
 * An UpdateItem for `changes` on a version: SET the values, REMOVE the nulls, move timestamps
 * and revision, on condition that the version exists (and has revision `expectedRev` if given).
 */
export function updateFor(type: ContentType, tableName: string, version: Version, changes: Attributes, now: string, expectedRev?: number) {
  // The updated item must fit too: a 413 here, not DynamoDB's ValidationException (a 500).
  versionToItem(type, applyChanges(version, changes, now))
  const names: Record<string, string> = { '#rev': ATTR.revision, '#pk': 'documentId' }
  const values: Record<string, unknown> = { ':now': now, ':one': 1 }
  const sets = ['updatedAt = :now', 'publishedAt = :now', '#rev = #rev + :one']
  const removes: string[] = []
  Object.entries(changes).forEach(([name, value], i) => {
    names[`#a${i}`] = name
    if (value === null) removes.push(`#a${i}`)
    else {
      values[`:a${i}`] = encodeValue(type, name, value)
      sets.push(`#a${i} = :a${i}`)
    }
  })
  let condition = 'attribute_exists(#pk)'
  if (expectedRev !== undefined) {
    values[':rev'] = expectedRev
    condition += ' AND #rev = :rev'
  }
  return {
    TableName: tableName,
    Key: versionKey(version.documentId, version.locale),
    UpdateExpression: `SET ${sets.join(', ')}${removes.length > 0 ? ` REMOVE ${removes.join(', ')}` : ''}`,
    ConditionExpression: condition,
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  }
}
