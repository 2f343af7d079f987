// The query parameters and request headers: locale (behaviour.md §2), sort (§3), pagination (§4),
// filters (delivery.md §10), fields (§11), fallback (§12), If-None-Match / If-Match (§13). Shared
// ones are components; sort, filters and fields depend on the type's fields.
import type { RestConfig } from '../config.js'
import { PUBLICATION_FILTERS } from '../query/parse.js'
import { publicRelations, sortableFields, type AttributeType, type ContentType } from '../content-types.js'
import { BIGINTEGER, closed, ref, selectableFields, typeName, type Schema } from './schemas.js'

const locale = (wildcard: string): Schema => ({
  name: 'locale',
  in: 'query',
  description: `A registered locale code, matched case-insensitively; omitted or empty means the default locale. An unregistered code is a 400 listing the available ones. ${wildcard}`,
  schema: { type: 'string', maxLength: 35, examples: ['fr', 'en-US'] },
})

const paginationParameter = (key: string, description: string, schema: Schema): Schema => ({
  name: `pagination[${key}]`,
  in: 'query',
  description: `${description}. Page style (page, pageSize) and offset style (start, limit) must not be mixed: 400 PaginationError.`,
  schema,
})

/** Parameter components shared by every type. */
export function sharedParameters(rest: Pick<RestConfig, 'defaultLimit' | 'maxLimit'>): Record<string, Schema> {
  const clamped = `; above ${rest.maxLimit} (api.rest.maxLimit) it is clamped`
  return {
    Locale: locale('`*` is a 400 here.'),
    LocaleOrAll: locale('`*` selects every locale version (no fallback then).'),
    PaginationPage: paginationParameter('page', 'Page number', { type: 'integer', minimum: 1, default: 1 }),
    PaginationPageSize: paginationParameter('pageSize', `Entries per page${clamped}`, { type: 'integer', minimum: 1, default: rest.defaultLimit }),
    PaginationStart: paginationParameter('start', 'Index of the first entry', { type: 'integer', minimum: 0, default: 0 }),
    PaginationLimit: paginationParameter('limit', `Entries to return; -1 means as many as allowed${clamped}`, {
      type: 'integer', anyOf: [{ minimum: 1 }, { const: -1 }], default: rest.defaultLimit,
    }),
    PaginationWithCount: paginationParameter('withCount', 'Include total (and pageCount); accepts true|false|1|0|t|f', { type: 'boolean', default: true }),
    Fallback: {
      name: 'fallback',
      in: 'query',
      description: 'Fall back along the locale\'s fallback chain when the document has no version in it. A 400 with locale=*.',
      schema: { type: 'boolean', default: true },
    },
    Status: {
      name: 'status',
      in: 'query',
      description: 'Draft & publish types: which version a read shows (drafts need the findDrafts permission and are never cached publicly), or, on POST and PUT, `draft` to write the draft only (without it the draft is written and published). Other types ignore it.',
      schema: { type: 'string', enum: ['published', 'draft'], default: 'published' },
    },
    PublicationFilter: {
      name: 'publicationFilter',
      in: 'query',
      description: 'Draft & publish types: keeps the documents in a publication state (Strapi\'s names; the `-document` ones consider every locale of the document); `status` still decides which version is shown. Reads a locale\'s own versions (no fallback).',
      schema: { type: 'string', enum: [...PUBLICATION_FILTERS] },
    },
    PublicationLocale: locale('`*` acts on every locale of the document that the action applies to (404 only when none does); the answer is then an array.'),
    Search: {
      name: '_q',
      in: 'query',
      description: 'Search: keeps the versions in which a searchable text attribute contains this text, ignoring case (numeric attributes equal to it when it is a number); joins `filters` by AND. Bounded by api.rest.maxScan like any unindexed filter.',
      schema: { type: 'string' },
    },
    DocumentId: { name: 'documentId', in: 'path', required: true, schema: ref('DocumentId') },
    IfNoneMatch: {
      name: 'If-None-Match',
      in: 'header',
      description: 'An ETag (or a list, or *): when it holds the current one, 304 Not Modified without a body',
      schema: { type: 'string' },
    },
    IfMatch: {
      name: 'If-Match',
      in: 'header',
      description: 'Write only if the version still has one of these ETags (`*`: if it exists); otherwise 412',
      schema: { type: 'string', examples: ['"12.3"'] },
    },
  }
}

/** Names joined for a regular expression. */
const alternatives = (names: readonly string[]) => names.map((name) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')

/** `sort`: one field, a comma list, or an array, each `field[:asc|:desc]`. */
function sortParameter(type: ContentType): Schema {
  const entry = `\\s*(${alternatives(sortableFields(type))})\\s*(:\\s*([Aa][Ss][Cc]|[Dd][Ee][Ss][Cc])\\s*)?`
  const item = { type: 'string', pattern: `^${entry}(,${entry})*$` }
  return {
    name: 'sort',
    in: 'query',
    description: `Sort on one or more of: ${sortableFields(type).join(', ')}. \`sort=title:desc,views\` or \`sort[0]=title:desc&sort[1]=views\` (also \`sort[title]=desc\`). Ascending by default; ties by id ascending; nulls first ascending.`,
    schema: { anyOf: [item, { type: 'array', items: item, maxItems: 100 }] },
    examples: { one: { value: 'title:desc' } },
  }
}

/** `fields`: the fields to answer besides id and documentId; a comma list or an array. */
function fieldsParameter(type: ContentType): Schema {
  const names = [...selectableFields(type), '*']
  const list = `^\\s*(${alternatives(names)})\\s*(,\\s*(${alternatives(names)})\\s*)*$`
  return {
    name: 'fields',
    in: 'query',
    description: `Answer only these fields (plus id and documentId): \`fields=title,slug\` or \`fields[0]=title&fields[1]=slug\`; \`*\` selects all. Sort, filters and ETags are unaffected.`,
    schema: { anyOf: [{ type: 'string', pattern: list }, { type: 'array', items: { enum: names }, minItems: 1 }] },
  }
}

/** The filter kinds, by the type of the values a field compares. */
const FILTER_KINDS = {
  String: { type: 'string' },
  Integer: { type: 'integer' },
  BigInteger: { type: 'string', pattern: BIGINTEGER },
  Number: { type: 'number' },
  Boolean: { type: 'boolean', description: 'true|false|1|0|t|f' },
  Date: { type: 'string', format: 'date' },
  Time: { type: 'string', description: 'ISO 8601 time' },
  DateTime: { type: 'string', format: 'date-time' },
} satisfies Record<string, Schema>
type FilterKind = keyof typeof FILTER_KINDS

const KIND_OF: Record<AttributeType, FilterKind | undefined> = {
  string: 'String', text: 'String', richtext: 'String', email: 'String', uid: 'String', enumeration: 'String',
  integer: 'Integer', biginteger: 'BigInteger', float: 'Number', decimal: 'Number', boolean: 'Boolean',
  date: 'Date', time: 'Time', datetime: 'DateTime', blocks: undefined, json: undefined, password: undefined,
}

/** The filter kind of each filterable field of `type` (the sortable fields). */
function filterKinds(type: ContentType): Record<string, FilterKind> {
  const system: Record<string, FilterKind> = { id: 'Integer', documentId: 'String', locale: 'String', createdAt: 'DateTime', updatedAt: 'DateTime', publishedAt: 'DateTime' }
  const kinds: Record<string, FilterKind> = {}
  for (const field of sortableFields(type)) {
    const kind = system[field] ?? KIND_OF[type.attributes[field]?.type ?? 'json']
    if (kind !== undefined) kinds[field] = kind
  }
  return kinds
}

const STRING_OPERATORS = ['$eqi', '$nei', '$contains', '$notContains', '$containsi', '$notContainsi', '$startsWith', '$startsWithi', '$endsWith', '$endsWithi']
const MAX_VALUES = 100

/** One value, or a list of them (meaning any of them). */
const oneOrMany = (value: Schema): Schema[] => [value, { type: 'array', items: value, maxItems: MAX_VALUES }]

/** The operators object of one filter kind (delivery.md §10 table). */
function operatorsSchema(kind: FilterKind): Schema {
  const value = FILTER_KINDS[kind]
  const any = { anyOf: oneOrMany(value) }
  const flag = { type: 'boolean', description: 'false, 0, f or empty mean false; anything else true' }
  const properties: Record<string, Schema> = {
    $eq: any, $ne: any, $lt: value, $lte: value, $gt: value, $gte: value,
    $in: any, $notIn: any, $between: { type: 'array', items: value, minItems: 2, maxItems: 2 },
    $null: flag, $notNull: flag,
    $not: { anyOf: [value, ref(`${kind}FilterOperators`)] },
  }
  if (kind === 'String') for (const operator of STRING_OPERATORS) properties[operator] = value
  return closed(properties, [], { minProperties: 1 })
}

/** Filter schemas of `type`: its filters object, and the operator objects of the kinds it uses. */
export function filterSchemas(type: ContentType): Record<string, Schema> {
  const name = `${typeName(type)}Filters`
  const kinds = filterKinds(type)
  const conditions = { type: 'array', items: { anyOf: [ref(name), { type: 'array', items: ref(name) }] } }
  const schemas: Record<string, Schema> = {
    [name]: closed({
      ...Object.fromEntries(Object.entries(kinds).map(([field, kind]) => [field, { anyOf: [...oneOrMany(FILTER_KINDS[kind]), ref(`${kind}FilterOperators`)] }])),
      $and: conditions,
      $or: conditions,
      $not: ref(name),
    }, [], {
      description: 'Conditions ANDed together: `field=value` ($eq), `field[$op]=value`, $and/$or (arrays of filters), $not. At most 50 conditions, 100 values per $in/$notIn, nesting 5 deep.',
    }),
  }
  for (const kind of new Set(Object.values(kinds))) schemas[`${kind}FilterOperators`] = operatorsSchema(kind)
  return schemas
}

function filtersParameter(type: ContentType): Schema {
  return {
    name: 'filters',
    in: 'query',
    style: 'deepObject',
    explode: true,
    description: 'Strapi v5 filters in bracket syntax, nested as qs reads them: `filters[title][$containsi]=news`, `filters[$or][0][views][$gt]=10`. Values are read as the field\'s type; a value that does not fit is a 400.',
    schema: ref(`${typeName(type)}Filters`),
  }
}

/** `populate` (content-model.md §16): the relations (and `localizations`) to show, in every form Strapi takes. */
function populateParameter(type: ContentType): Schema {
  const names = [...publicRelations(type), ...(type.localized ? ['localizations'] : [])]
  return {
    name: 'populate',
    in: 'query',
    style: 'deepObject',
    explode: true,
    description: `Show relations: \`populate=*\` (every relation one level, plus localizations), names (\`populate=${names.slice(0, 2).join(',') || 'author,tags'}\`, \`populate[0]=…\`, dot paths), or per relation an object with \`fields\`, \`filters\`, \`sort\`, nested \`populate\` (at most 5 levels), and on a to-many \`start\`, \`limit\` (100 unless asked) and \`count\`. Targets follow the request's locale (with fallback) and status. Populatable here: ${names.join(', ') || 'nothing'}. Answers with populate carry an ETag of their body.`,
    schema: { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }, { type: 'object' }] },
  }
}

/** The type-specific parameters of `type`, inline: sort (collections), filters, fields, populate. */
export function typeParameters(type: ContentType): { sort: Schema; filters: Schema; fields: Schema; populate: Schema } {
  return { sort: sortParameter(type), filters: filtersParameter(type), fields: fieldsParameter(type), populate: populateParameter(type) }
}
