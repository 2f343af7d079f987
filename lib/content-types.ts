// The content-type registry: every content type is declared here once. Runtime, infra, tests and
// the benchmark read it; adding a type is one entry below plus a five-line functions/<name>.ts.

export type ScalarAttributeType =
  | 'string' | 'text' | 'email' | 'uid' | 'enumeration'
  | 'integer' | 'biginteger' | 'float' | 'decimal' | 'boolean'
  | 'date' | 'time' | 'datetime'

export type AttributeType = ScalarAttributeType | 'blocks' | 'json'

export interface Attribute {
  readonly type: AttributeType
  /** Each locale version has its own value (true) or all versions share one (false). */
  readonly localized: boolean
  readonly required?: boolean
  /** Maximum length in Unicode code points (string types; `string` defaults to 255). */
  readonly maxLength?: number
  /** Allowed values of an `enumeration`. */
  readonly enum?: readonly string[]
}

export interface ContentType {
  /** Strapi-style unique id, e.g. `api::article.article`; permissions are named after it. */
  readonly uid: string
  readonly kind: 'collection' | 'single'
  readonly singularName: string
  readonly pluralName: string
  /** Attributes in schema order (the order fields appear in responses). */
  readonly attributes: Readonly<Record<string, Attribute>>
}

/** System fields every document has; attribute names may not reuse them or storage's own names. */
export const SYSTEM_FIELDS = ['id', 'documentId', 'createdAt', 'updatedAt', 'publishedAt', 'locale'] as const

export const SCALAR_TYPES: ReadonlySet<AttributeType> = new Set<AttributeType>([
  'string', 'text', 'email', 'uid', 'enumeration', 'integer', 'biginteger', 'float', 'decimal',
  'boolean', 'date', 'time', 'datetime',
])

export const article: ContentType = {
  uid: 'api::article.article',
  kind: 'collection',
  singularName: 'article',
  pluralName: 'articles',
  attributes: {
    title: { type: 'string', localized: true },
    body: { type: 'blocks', localized: true },
    slug: { type: 'string', localized: true },
    views: { type: 'integer', localized: false },
    category: { type: 'string', localized: false },
  },
}

export const homepage: ContentType = {
  uid: 'api::homepage.homepage',
  kind: 'single',
  singularName: 'homepage',
  pluralName: 'homepages',
  attributes: {
    title: { type: 'string', localized: true },
    tagline: { type: 'string', localized: true },
  },
}

/** Every content type the deployment serves, keyed by singular name. */
export const contentTypes = { article, homepage } as const satisfies Record<string, ContentType>

export type ContentTypeName = keyof typeof contentTypes

/** The path segment a type is served under: plural for collections, singular for single types. */
export function routeName(type: ContentType): string {
  return type.kind === 'collection' ? type.pluralName : type.singularName
}

/** Sortable fields of a type: the system fields plus its scalar attributes. */
export function sortableFields(type: ContentType): string[] {
  const scalars = Object.entries(type.attributes)
    .filter(([, attribute]) => SCALAR_TYPES.has(attribute.type))
    .map(([name]) => name)
  return [...SYSTEM_FIELDS, ...scalars]
}
