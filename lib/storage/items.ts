// Mapping between stored items and API documents, and the small pieces of DynamoDB syntax the
// document store builds (keys, update expressions).
import type { Attributes } from '../body.js'
import { FILE_UID, isPrivate, ownedRelations, publicAttributes, type ContentType } from '../content-types.js'
import { payloadTooLarge } from '../errors.js'
import { collatorFor } from '../query/sort.js'
import { ATTR, HEAD, META, indexedFields, listKey, parseList, publicationList, servedList, slotKey, versionList, type PublicationState, type Status } from '../table.js'
import { indexKey, keyKindOf } from './index-keys.js'
import { filterableValue } from '../components/values.js'
import { itemBytes } from './item-size.js'
import { packJson, unpackJson } from './packed-json.js'

/** One stored locale version, as read from the table. */
export interface Version {
  readonly documentId: string
  readonly locale: string
  /** `draft` or `published` (types without draft & publish: always `published`). */
  readonly status: Status
  readonly id: number
  readonly rev: number
  readonly createdAt: string
  readonly updatedAt: string
  /** When it was last published; null for a draft. */
  readonly publishedAt: string | null
  /**
   * Attribute values as the API shows them (blocks and json decoded), and the links of each owning
   * relation under its name: a to-one's target documentId or null, a to-many's in link order or
   * null when none (content-model.md §16).
   */
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

/** The key of a version: the document, and its list (the locale, `draft:<locale>` for a draft). */
export function versionKey(documentId: string, locale: string, status: Status = 'published') {
  return { documentId, locale: versionList(locale, status) }
}

/** The list a version belongs to. */
export function listOf(version: Pick<Version, 'locale' | 'status'>): string {
  return versionList(version.locale, version.status)
}

/** The count item of a list (a locale, or `~<locale>` for a served list). */
export function countKey(uid: string, list: string) {
  return { documentId: META.count, locale: listKey(uid, list) }
}

/** The key of a document's head item. */
export function headKey(documentId: string) {
  return { documentId, locale: HEAD }
}

/** The key of the copy of the version of `status` that `locale`'s fallback chain serves for a document. */
export function servedKey(documentId: string, locale: string, status: Status = 'published') {
  return { documentId, locale: servedList(versionList(locale, status)) }
}

/** Every filterable value of a version, as the `f` map of its items (nulls and private values left out). */
export function filterValues(type: ContentType, version: Version): Record<string, unknown> {
  const values: Record<string, unknown> = { locale: version.locale, createdAt: version.createdAt, updatedAt: version.updatedAt }
  if (version.publishedAt !== null) values.publishedAt = version.publishedAt
  for (const [name, attribute] of Object.entries(type.attributes)) {
    const value = version.attributes[name]
    if (!JSON_TEXT_TYPES.has(attribute.type) && !isPrivate(attribute) && value !== null && value !== undefined) values[name] = value
  }
  // A to-one's link too (one documentId): a filter through it is checked on index entries
  // (lib/relations/filters.ts). A to-many's links would make every entry as large as its links;
  // its filters are resolved into documentIds instead.
  for (const name of ownedRelations(type)) {
    const value = version.attributes[name]
    if (typeof value === 'string') values[name] = value
  }
  // Components' filterable values (not zones', which no filter reaches: content-model.md §18).
  for (const [name, field] of Object.entries(type.components)) {
    const value = filterableValue(field, version.attributes[name])
    if (value !== undefined) values[name] = value
  }
  return values
}

/** The slot keys of a version in a list sorted with `collation`'s string order. */
export function slotKeys(type: ContentType, version: Version, collation: string): Record<string, string> {
  const collator = collatorFor(collation)
  const valueOf = (field: string): unknown =>
    field === 'id' ? version.id : field === 'documentId' ? version.documentId : field in type.attributes ? version.attributes[field] : (version as unknown as Record<string, unknown>)[field]
  return Object.fromEntries(indexedFields(type).map((field, slot) => [slotKey(slot), indexKey(keyKindOf(type, field), valueOf(field), collator)]))
}

/** The stored form of an attribute value. */
export function encodeValue(type: ContentType, name: string, value: unknown): unknown {
  const attribute = type.attributes[name]
  // Components too: a version's components are one JSON text each, whatever their nesting,
  // compressed when large (packed-json.ts).
  const text = attribute !== undefined ? JSON_TEXT_TYPES.has(attribute.type) : Object.hasOwn(type.components, name)
  return text && value !== null ? packJson(value) : value
}

/** Reads a stored item of `type` into a Version. */
export function itemToVersion(type: ContentType, item: Record<string, unknown>): Version {
  // A served copy (fallback list) is keyed `~<list>` and names its version's locale in `src`.
  const list = parseList(String(item.locale))
  const attributes: Attributes = {}
  for (const [name, attribute] of Object.entries(type.attributes)) {
    const raw = item[name]
    attributes[name] = raw === undefined || raw === null ? null : JSON_TEXT_TYPES.has(attribute.type) ? unpackJson(raw as string | Uint8Array) : raw
  }
  for (const name of ownedRelations(type)) {
    const raw = item[name]
    attributes[name] = raw === undefined || (Array.isArray(raw) && raw.length === 0) ? null : raw
  }
  for (const name of Object.keys(type.components)) {
    const raw = item[name]
    if (raw === undefined || raw === null) attributes[name] = null
    else decodedOnUse(attributes, name, raw as string | Uint8Array)
  }
  return {
    documentId: item.documentId as string,
    locale: (item[ATTR.source] ?? list.locale) as string,
    status: list.status,
    id: Number(item[ATTR.id]),
    rev: Number(item[ATTR.revision]),
    createdAt: item.createdAt as string,
    updatedAt: item.updatedAt as string,
    publishedAt: (item.publishedAt ?? null) as string | null,
    attributes,
  }
}

/**
 * Sets `attributes[name]` to the value stored as `raw`, decoded when first read: a component or
 * zone (often the largest part of a version: a landing's zone is about 20 KB of JSON) is shown only
 * when populated, so a page without populate, a `fields` selection or a relation's targets never
 * pay for inflating and parsing it. To every reader (a property read, a spread, `Object.entries`,
 * JSON.stringify) it is the decoded value; an assignment replaces it.
 */
function decodedOnUse(attributes: Attributes, name: string, raw: string | Uint8Array): void {
  const settle = (value: unknown) => Object.defineProperty(attributes, name, { value, writable: true, enumerable: true, configurable: true })
  Object.defineProperty(attributes, name, {
    enumerable: true,
    configurable: true,
    get: () => {
      const value = unpackJson(raw)
      settle(value)
      return value
    },
    set: settle,
  })
}

/** A read's projection: the names it asks for, each behind a placeholder (some are reserved words). */
export interface Projection {
  readonly ProjectionExpression: string
  readonly ExpressionAttributeNames: Record<string, string>
}

const projections = new Map<string, Projection>()

/**
 * What a read of whole versions asks for: every field `itemToVersion` (and the type check of a
 * read) uses, without the slot keys and the `f` map, which are for the indexes only and would about
 * double what DynamoDB sends and the SDK decodes for each document.
 */
export function versionProjection(type: ContentType, extra: readonly string[] = []): Projection {
  const cacheKey = `${type.uid} ${extra.join(' ')}`
  let projection = projections.get(cacheKey)
  if (projection === undefined) {
    // With a list's count fields (`n`, `at`; `rev` and `locale` are there already): a page's
    // BatchGet may carry its list's count item (storage/lists/reader.ts, Validator).
    // With a wide write's marks (lib/storage/wide/overlay.ts), which readers resolve.
    const names = ['documentId', 'locale', ATTR.source, ATTR.contentType, ATTR.id, ATTR.revision, 'createdAt', 'updatedAt', 'publishedAt', 'n', 'at', ATTR.pending, ATTR.placeholder, ...Object.keys(type.attributes), ...ownedRelations(type), ...Object.keys(type.components), ...extra]
    const unique = [...new Set(names)]
    projection = {
      ProjectionExpression: unique.map((_, i) => `#v${i}`).join(', '),
      ExpressionAttributeNames: Object.fromEntries(unique.map((name, i) => [`#v${i}`, name])),
    }
    projections.set(cacheKey, projection)
  }
  return projection
}

/**
 * The stored item of a version, with its list-index keys: in its own list, or, given `servedIn`, as
 * the copy that locale's fallback chain serves (sorted with that locale's collation). A version of
 * a draft & publish type carries its publication state (`byPublication`).
 */
export function versionToItem(type: ContentType, version: Version, servedIn?: string, state?: PublicationState): Record<string, unknown> {
  const list = servedIn === undefined ? listOf(version) : servedList(versionList(servedIn, version.status))
  const item: Record<string, unknown> = {
    documentId: version.documentId,
    locale: list,
    ...(state === undefined || servedIn !== undefined ? {} : { [ATTR.publication]: listKey(type.uid, publicationList(list, state)) }),
    ...(servedIn === undefined ? {} : { [ATTR.source]: version.locale }),
    [ATTR.listKey]: listKey(type.uid, list),
    [ATTR.contentType]: type.uid,
    [ATTR.id]: version.id,
    [ATTR.revision]: version.rev,
    createdAt: version.createdAt,
    updatedAt: version.updatedAt,
    ...(version.publishedAt === null ? {} : { publishedAt: version.publishedAt }),
  }
  for (const [name, value] of Object.entries(version.attributes)) {
    if (value !== null && value !== undefined) item[name] = encodeValue(type, name, value)
  }
  Object.assign(item, slotKeys(type, version, servedIn ?? version.locale))
  item[ATTR.values] = filterValues(type, version)
  if (itemBytes(item) > MAX_ITEM_BYTES) throw payloadTooLarge(MAX_ITEM_BYTES)
  return item
}

/** Every value of a version by field name (attributes and system fields): what a filter is evaluated on. */
export function versionValues(version: Version): Record<string, unknown> {
  const { attributes, ...system } = version
  // Attributes last: one may be named `status` (content-model.md §14), the version's status is not a field.
  return { ...system, ...attributes }
}

/** The API shape of a version: id, documentId, public attributes in schema order, timestamps, locale. */
export function toDocument(type: ContentType, version: Version): Record<string, unknown> {
  const document: Record<string, unknown> = { id: version.id, documentId: version.documentId }
  for (const name of publicAttributes(type)) document[name] = version.attributes[name] ?? null
  document.createdAt = version.createdAt
  document.updatedAt = version.updatedAt
  document.publishedAt = version.publishedAt
  // Files are shown in Strapi's shape, which has no locale (content-model.md §19).
  if (type.uid !== FILE_UID) document.locale = version.locale
  return document
}

/** A version with `changes` applied and its timestamps and revision moved on (a draft stays unpublished). */
export function applyChanges(version: Version, changes: Attributes, now: string): Version {
  return {
    ...version,
    rev: version.rev + 1,
    updatedAt: now,
    publishedAt: version.status === 'draft' ? null : now,
    attributes: { ...version.attributes, ...changes },
  }
}
