// JSON Schemas (draft 2020-12, as OpenAPI 3.1 uses) of what the content routes exchange, derived
// from the content-type registry: attribute values as lib/body.ts checks them, documents in the
// field order of behaviour.md §6, request bodies and the `{ data, meta }` envelopes.
import type { RestConfig } from '../config.js'
import { publicAttributes, publicRelations, SYSTEM_FIELDS, typeByUid, type Attribute, type ContentType, type Relation } from '../content-types.js'
import { DOCUMENT_ID } from '../storage/documents.js'
import { componentFieldSchema } from './component-refs.js'

/** A JSON Schema (or any OpenAPI object) as plain data. */
export type Schema = Record<string, unknown>

/** A reference to `#/components/<section>/<name>`. */
export const ref = (name: string, section = 'schemas'): Schema => ({ $ref: `#/components/${section}/${name}` })

/** An object schema that allows no other properties. */
export const closed = (properties: Record<string, Schema>, required: readonly string[] = [], extra: Schema = {}): Schema =>
  ({ type: 'object', ...extra, ...(required.length > 0 ? { required: [...required] } : {}), properties, additionalProperties: false })

/** The component-name stem of a type: `article` is `Article`, `blog-post` is `BlogPost`. */
export function typeName(type: ContentType): string {
  return type.singularName.split(/[-_]/).map((part) => part.charAt(0).toUpperCase() + part.slice(1)).join('')
}

/** Largest magnitude of a float or decimal (DynamoDB's number range, as lib/body.ts enforces). */
const NUMBER_MAGNITUDE = 9.9e125
const TIME = '^([01]\\d|2[0-3]):[0-5]\\d(:[0-5]\\d(\\.\\d{1,3})?)?$'
export const BIGINTEGER = '^-?\\d{1,19}$'
const dateTime: Schema = { type: 'string', format: 'date-time' }

/** The schema of a non-null value of `attribute` in a body or a response, with its declared options. */
export function attributeSchema(attribute: Attribute): Schema {
  const schema = baseSchema(attribute)
  const { minLength, min, max, regex } = attribute
  if (minLength !== undefined) schema.minLength = minLength
  // A biginteger is a string: its bounds are told, not checked by a JSON Schema keyword.
  if (attribute.type === 'biginteger' && (min !== undefined || max !== undefined)) schema.description = `${String(schema.description)}, from ${min ?? '-2^63'} to ${max ?? '2^63-1'}`
  else {
    if (min !== undefined) schema.minimum = min
    if (max !== undefined) schema.maximum = max
  }
  if (regex !== undefined) {
    if (schema.pattern === undefined) schema.pattern = regex
    else schema.allOf = [{ pattern: regex }]
  }
  if (attribute.default !== undefined && attribute.type !== 'password') schema.default = attribute.default
  return schema
}

function baseSchema(attribute: Attribute): Schema {
  const text = (defaultMax?: number) => {
    const maxLength = attribute.maxLength ?? defaultMax
    return maxLength === undefined ? { type: 'string' } : { type: 'string', maxLength }
  }
  switch (attribute.type) {
    case 'string': return text(255)
    case 'text':
    case 'richtext': return { ...text(), ...(attribute.type === 'richtext' ? { description: 'Markdown' } : {}) }
    case 'password': return { ...text(), writeOnly: true, description: 'Write-only: stored as a salted hash, never returned' }
    case 'email': return { ...text(255), format: 'email' }
    case 'uid': return { ...text(255), pattern: '^[A-Za-z0-9\\-_.~]*$' }
    case 'enumeration': return { type: 'string', enum: [...(attribute.enum ?? [])] }
    case 'integer': return { type: 'integer', format: 'int32', minimum: -2147483648, maximum: 2147483647 }
    case 'biginteger': return { type: 'string', pattern: BIGINTEGER, description: 'A 64-bit integer as a string of digits' }
    case 'float':
    case 'decimal': return { type: 'number', format: 'double', minimum: -NUMBER_MAGNITUDE, maximum: NUMBER_MAGNITUDE }
    case 'boolean': return { type: 'boolean' }
    case 'date': return { type: 'string', format: 'date' }
    case 'time': return { type: 'string', pattern: TIME, description: 'HH:mm, HH:mm:ss or HH:mm:ss.SSS' }
    case 'datetime': return dateTime
    case 'blocks': return { type: 'array', items: ref('Block'), description: 'Rich text: an array of blocks' }
    case 'json': return { description: 'Any JSON value, nested at most 32 levels deep' }
  }
}

/** `schema` that also accepts null (a type list, or null added to an enum). */
export function nullable(schema: Schema): Schema {
  if (schema.type === undefined) return schema
  const result: Schema = { ...schema, type: [schema.type, 'null'] }
  if (Array.isArray(schema.enum)) result.enum = [...schema.enum, null]
  return result
}

/** A selectable document field: every attribute plus the system fields (behaviour.md §6, delivery.md §11). */
export function selectableFields(type: ContentType): string[] {
  return [...SYSTEM_FIELDS, ...publicAttributes(type)]
}

/** One locale version as answered, properties in response order; `fields` may leave any but id and documentId out. */
function documentSchema(type: ContentType, types: readonly ContentType[]): Schema {
  const attributes = Object.fromEntries(publicAttributes(type).map((name) => [name, nullable(attributeSchema(type.attributes[name] as Attribute))]))
  return closed({
    id: { type: 'integer', minimum: 1, description: 'This locale version\'s own id' },
    documentId: ref('DocumentId'),
    ...attributes,
    createdAt: dateTime,
    updatedAt: dateTime,
    publishedAt: type.draftAndPublish ? { ...nullable(dateTime), description: 'When this version was last published; null on a draft' } : dateTime,
    locale: { type: 'string', description: 'The locale code of this version (with fallback: the locale it was found in)' },
    ...populatedSchemas(type, types),
  }, ['id', 'documentId'], {
    description: `One locale version of a ${type.singularName}. Without \`fields\` every property is present, in this order; attributes without a value are null. Relations${type.localized ? ' and `localizations`' : ''} appear only when \`populate\` asks for them.`,
  })
}

/** A populated relation's property: the target document(s), `{ count }` for a counted to-many (content-model.md §16). */
function populatedSchemas(type: ContentType, types: readonly ContentType[]): Record<string, Schema> {
  const properties: Record<string, Schema> = {}
  for (const name of publicRelations(type)) {
    const relation = type.relations[name] as Relation
    const target = ref(typeName(typeByUid(types, relation.target) ?? type))
    properties[name] = relation.many
      ? { anyOf: [{ type: 'array', items: target, description: 'In link order; at most 100 unless populate[…][limit] asks' }, closed({ count: count('Links (populate[…][count]=true)') }, ['count'])], description: `Only with populate: the linked ${relation.target} documents in the request's locale and status` }
      : { anyOf: [target, { type: 'null' }], description: `Only with populate: the linked ${relation.target} document in the request's locale and status, or null` }
  }
  for (const [name, field] of Object.entries(type.components)) properties[name] = { ...componentFieldSchema(field), description: 'Only with populate (populate=* shows it one level)' }
  if (type.localized) properties.localizations = { type: 'array', items: { type: 'object', description: 'Another locale version (same status): its id, documentId, locale and scalar fields' }, description: 'Only with populate=localizations or populate=*' }
  return properties
}

/** A relation's value in a write: documentIds, or the connect / disconnect / set object. */
function relationInputSchema(relation: Relation): Schema {
  const target = { anyOf: [ref('DocumentId'), closed({ documentId: ref('DocumentId'), locale: { type: 'string' } }, ['documentId'])] }
  const position = { type: 'object', description: 'One of { before: id }, { after: id }, { start: true }, { end: true }' }
  const connectItem = relation.many ? { anyOf: [ref('DocumentId'), closed({ documentId: ref('DocumentId'), locale: { type: 'string' }, position }, ['documentId'])] } : target
  const items = (item: Schema) => ({ anyOf: [item, { type: 'array', items: item }] })
  const operations = closed({ connect: items(connectItem), disconnect: items(target), set: items(target) }, [], { description: 'set replaces every link and goes alone; connect adds (or moves, with position), disconnect removes' })
  return relation.many
    ? { anyOf: [{ type: 'array', items: target, description: 'The links, in order (= set)' }, operations, { type: 'null' }] }
    : { anyOf: [ref('DocumentId'), closed({ documentId: ref('DocumentId'), locale: { type: 'string' } }, ['documentId']), operations, { type: 'null' }] }
}


/**
 * The `{ data: { ...attributes } }` body of a create (`required` attributes must be there) or an
 * update. A draft & publish type's drafts may be incomplete (§15): `required` holds when publishing only.
 */
function requestSchema(type: ContentType, mode: 'create' | 'update'): Schema {
  const properties: Record<string, Schema> = {}
  const writable = Object.entries(type.attributes).filter(([, attribute]) => attribute.writable !== false)
  const enforced = (attribute: Attribute) => attribute.required === true && !type.draftAndPublish
  for (const [name, attribute] of writable) {
    properties[name] = enforced(attribute) ? attributeSchema(attribute) : nullable(attributeSchema(attribute))
    if (attribute.required === true && type.draftAndPublish) properties[name] = { ...properties[name], description: 'Required to publish (a status=draft write may leave it empty)' }
    if (attribute.unique === true || attribute.type === 'uid') properties[name] = { ...properties[name], description: 'Unique per locale' }
    if (attribute.type === 'uid' && attribute.targetField !== undefined) properties[name] = { ...properties[name], description: `Unique per locale; derived from ${attribute.targetField} when not sent` }
  }
  for (const [name, relation] of Object.entries(type.relations)) properties[name] = { ...relationInputSchema(relation), description: `Links to ${relation.target} documents of this locale (content-model.md §16)` }
  for (const [name, field] of Object.entries(type.components)) properties[name] = { anyOf: [componentFieldSchema(field), { type: 'null' }], description: 'Replaces the whole value; entries sent with their id are kept (content-model.md §18)' }
  properties.locale = { description: 'Ignored: the `locale` query parameter decides' }
  properties.publishedAt = { description: type.draftAndPublish ? 'Ignored: publication follows `status` and the publish action; null is a 400 unless status=draft' : 'Ignored' }
  const derived = (attribute: Attribute) => attribute.default !== undefined || (attribute.type === 'uid' && attribute.targetField !== undefined)
  const required = mode === 'create' ? writable.filter(([, a]) => enforced(a) && !derived(a)).map(([name]) => name) : []
  const data = closed(properties, required)
  const localized = Object.entries(type.attributes).filter(([, a]) => a.localized).map(([name]) => name)
  const description = mode === 'create'
    ? 'The attributes of a new document; those not sent are null. Values are checked without coercion.'
    : `Only the attributes sent change; null clears one. A body that creates a new localization may hold localized attributes only (${localized.join(', ') || 'none'}).`
  return { type: 'object', description, required: ['data'], properties: { data } }
}

const EMPTY_META = closed({}, [], { description: 'Always {}' })

const envelope = (data: Schema, meta: Schema): Schema => closed({ data, meta }, ['data', 'meta'])

const withPagination = (pagination: Schema): Schema => closed({ pagination }, ['pagination'])

/** The component schemas of one content type: its document, bodies and envelopes. */
export function contentTypeSchemas(type: ContentType, rest: Pick<RestConfig, 'findOneShape'>, types: readonly ContentType[] = [type]): Record<string, Schema> {
  const name = typeName(type)
  const document = ref(name)
  const schemas: Record<string, Schema> = {
    [name]: documentSchema(type, types),
    [`${name}UpdateRequest`]: requestSchema(type, 'update'),
    [`${name}Response`]: envelope(document, EMPTY_META),
  }
  if (type.kind === 'collection') {
    schemas[`${name}CreateRequest`] = requestSchema(type, 'create')
    schemas[`${name}ListResponse`] = envelope({ type: 'array', items: document }, withPagination(ref('Pagination')))
    schemas[`${name}FindOneResponse`] = rest.findOneShape === 'object'
      ? envelope(document, EMPTY_META)
      : envelope({ type: 'array', items: document, minItems: 1, description: 'The version (every version with locale=*)' }, withPagination(ref('PagePagination')))
  }
  return schemas
}

const count = (description: string): Schema => ({ type: 'integer', minimum: 0, description })

/** Schemas every type shares: blocks and pagination metadata. */
export function sharedSchemas(rest: Pick<RestConfig, 'maxLimit'>): Record<string, Schema> {
  const size = (description: string): Schema => ({ type: 'integer', minimum: 1, maximum: rest.maxLimit, description })
  const total = count('Entries matching the request; omitted when withCount=false')
  return {
    DocumentId: { type: 'string', pattern: DOCUMENT_ID.source, description: 'Shared by every locale version of a document' },
    Block: {
      type: 'object',
      required: ['type', 'children'],
      properties: {
        type: { type: 'string', examples: ['paragraph', 'heading'] },
        children: { type: 'array', items: { type: 'object', required: ['type'], properties: { type: { type: 'string' }, text: { type: 'string' } } } },
      },
    },
    PagePagination: closed({
      page: { type: 'integer', minimum: 1 },
      pageSize: size('The page size used (clamped to api.rest.maxLimit)'),
      pageCount: count('ceil(total / pageSize); omitted when withCount=false'),
      total,
    }, ['page', 'pageSize']),
    OffsetPagination: closed({
      start: { type: 'integer', minimum: 0 },
      limit: size('The limit used (clamped to api.rest.maxLimit; -1 asks for the maximum)'),
      total,
    }, ['start', 'limit']),
    Pagination: { oneOf: [ref('PagePagination'), ref('OffsetPagination')], description: 'Page style, or offset style when pagination[start] or pagination[limit] was given' },
  }
}
