// What a content type is, as the rest of the code sees it. Types are declared as Strapi schema.json
// files and read by lib/schema/ at start-up (one source for runtime, infra, OpenAPI, permissions
// and the benchmark); this module only describes them and answers questions about them.

export type ScalarAttributeType =
  | 'string' | 'text' | 'richtext' | 'email' | 'uid' | 'enumeration'
  | 'integer' | 'biginteger' | 'float' | 'decimal' | 'boolean'
  | 'date' | 'time' | 'datetime'

export type AttributeType = ScalarAttributeType | 'blocks' | 'json' | 'password'

export interface Attribute {
  readonly type: AttributeType
  /** Each locale version has its own value (true) or all versions share one (false). */
  readonly localized: boolean
  readonly required?: boolean
  /** No two versions of one locale hold the same value (enforced in the write's transaction). */
  readonly unique?: boolean
  /** Applied on create (and to a new localization's localized attributes) when not sent. */
  readonly default?: unknown
  /** Length bounds in Unicode code points (string types; `string` defaults to at most 255). */
  readonly minLength?: number
  readonly maxLength?: number
  /** Value bounds of number types (a biginteger's are compared exactly). */
  readonly min?: number
  readonly max?: number
  /** A JavaScript regular expression string values must match. */
  readonly regex?: string
  /** Allowed values of an `enumeration`. */
  readonly enum?: readonly string[]
  /** Never in an answer, not filterable, sortable or searchable (`password` always). */
  readonly private?: boolean
  /** False: a body may not set it (its value comes from `default` or a `uid`'s `targetField`). */
  readonly writable?: boolean
  /** False: left out of `_q` search. */
  readonly searchable?: boolean
  /** A `uid`'s source attribute: the uid is derived from it when not sent. */
  readonly targetField?: string
}

/** Strapi's relation kinds (content-model.md §16); `oneWay`/`manyWay` have no inverse. */
export type RelationKind = 'oneToOne' | 'oneToMany' | 'manyToOne' | 'manyToMany' | 'oneWay' | 'manyWay'

/**
 * A relation attribute. The owning side (no `mappedBy`) stores its links on each version: a
 * to-one the target's documentId, a to-many their documentIds in link order. An inverse side
 * (`mappedBy`) stores nothing: it is read from the owning side's links (lib/relations/).
 */
export interface Relation {
  readonly relation: RelationKind
  /** The target type's uid. */
  readonly target: string
  /** This side links many targets. */
  readonly many: boolean
  /** Owning side: the inverse attribute on the target, if any. */
  readonly inversedBy?: string
  /** Inverse side: the owning attribute on the target. */
  readonly mappedBy?: string
  /** Never in an answer, not populatable, filterable or sortable. */
  readonly private?: boolean
  /**
   * A media attribute (content-model.md §19): a one-way relation to files (`plugin::upload.file`),
   * written by file id or documentId, limited to `allowedTypes` (images, videos, audios, files).
   */
  readonly media?: { readonly allowedTypes?: readonly string[]; readonly required?: boolean }
}

/**
 * A component's schema (content-model.md §18): `src/components/<category>/<name>.json`, uid
 * `<category>.<name>`. Its values live inside the versions that hold them (lib/components/).
 */
export interface ComponentSchema {
  /** `<category>.<name>`. */
  readonly uid: string
  readonly displayName: string
  /** Scalar, text, json and password attributes, in schema order (each `localized` as its holder). */
  readonly attributes: Readonly<Record<string, Attribute>>
  /** One-way relations to api types (content-model.md §16). */
  readonly relations: Readonly<Record<string, Relation>>
  /** Nested components (never zones), in schema order. */
  readonly components: Readonly<Record<string, ComponentField>>
}

/**
 * A `component` or `dynamiczone` attribute: a version holds its value whole (an object, or an array
 * for a repeatable component and a zone), localized or shared as a whole.
 */
export interface ComponentField {
  readonly kind: 'component' | 'dynamiczone'
  /** Each locale version has its own value (true) or all versions share one (false). */
  readonly localized: boolean
  /** An array of entries: a repeatable component, and every zone. */
  readonly repeatable: boolean
  /** The component a `component` holds (one), or those a zone lists. */
  readonly components: readonly ComponentSchema[]
  readonly required?: boolean
  /** Bounds on the number of entries of a repeatable component or zone. */
  readonly min?: number
  readonly max?: number
}

export interface ContentType {
  /** Strapi-style unique id, `api::<api>.<name>`; permissions are named after it. */
  readonly uid: string
  readonly kind: 'collection' | 'single'
  readonly singularName: string
  readonly pluralName: string
  readonly displayName: string
  /** False: one version per document, in the default locale; `locale` in a query is ignored. */
  readonly localized: boolean
  /** `options.draftAndPublish` of the schema file (content-model.md §15). */
  readonly draftAndPublish: boolean
  /** Attributes in schema order (the order fields appear in responses), relations apart. */
  readonly attributes: Readonly<Record<string, Attribute>>
  /** Relation attributes in schema order (content-model.md §16). */
  readonly relations: Readonly<Record<string, Relation>>
  /** Component and dynamic-zone attributes in schema order (content-model.md §18). */
  readonly components: Readonly<Record<string, ComponentField>>
}

/** System fields every document has; attribute names may not reuse them or storage's own names. */
export const SYSTEM_FIELDS = ['id', 'documentId', 'createdAt', 'updatedAt', 'publishedAt', 'locale'] as const

/** Types with one comparable value: sortable, filterable, indexable. */
export const SCALAR_TYPES: ReadonlySet<AttributeType> = new Set<AttributeType>([
  'string', 'text', 'richtext', 'email', 'uid', 'enumeration', 'integer', 'biginteger', 'float', 'decimal',
  'boolean', 'date', 'time', 'datetime',
])

/** Text types `_q` searches (content-model.md §14). */
export const SEARCHABLE_TEXT_TYPES: ReadonlySet<AttributeType> = new Set<AttributeType>(['string', 'text', 'richtext', 'email', 'uid', 'enumeration'])

/** Number types `_q` compares with a numeric search text. */
export const NUMBER_TYPES: ReadonlySet<AttributeType> = new Set<AttributeType>(['integer', 'biginteger', 'float', 'decimal'])

/** True for attributes no answer shows and no query may name: `private: true`, and every password. */
export function isPrivate(attribute: Attribute): boolean {
  return attribute.private === true || attribute.type === 'password'
}

/** The path segment a type is served under: plural for collections, singular for single types. */
export function routeName(type: ContentType): string {
  return type.kind === 'collection' ? type.pluralName : type.singularName
}

const publicNames = new WeakMap<ContentType, readonly string[]>()

/** Attributes an answer may show, in schema order: every one but the private ones (kept per type). */
export function publicAttributes(type: ContentType): readonly string[] {
  let names = publicNames.get(type)
  if (names === undefined) {
    names = Object.entries(type.attributes).filter(([, attribute]) => !isPrivate(attribute)).map(([name]) => name)
    publicNames.set(type, names)
  }
  return names
}

/**
 * Sortable and filterable fields of a type: the system fields plus its public scalar attributes,
 * in schema order (index slots are given in this order, see lib/table.ts).
 */
export function sortableFields(type: ContentType): string[] {
  const scalars = Object.entries(type.attributes)
    .filter(([, attribute]) => SCALAR_TYPES.has(attribute.type) && !isPrivate(attribute))
    .map(([name]) => name)
  return [...SYSTEM_FIELDS, ...scalars]
}

export const FILE_UID = 'plugin::upload.file'

const fileAttribute = (type: AttributeType = 'string'): Attribute => ({ type, localized: false })

/**
 * Files as documents (content-model.md §19): the type `plugin::upload.file`, stored in the table as
 * any content type's documents are, not localized, without drafts, with Strapi's file attributes in
 * its order (the scalar ones get slot indexes: `mime`, `name`, `size`, ...). It is not one of the
 * deployment's types (no `/api/<plural>` routes: the upload API's, lib/media/), but relations
 * (media attributes) target it.
 */
export const FILE_TYPE: ContentType = {
  uid: FILE_UID,
  kind: 'collection',
  singularName: 'file',
  pluralName: 'files',
  displayName: 'File',
  localized: false,
  draftAndPublish: false,
  attributes: {
    name: fileAttribute(),
    alternativeText: fileAttribute('text'),
    caption: fileAttribute('text'),
    width: fileAttribute('integer'),
    height: fileAttribute('integer'),
    formats: fileAttribute('json'),
    hash: fileAttribute(),
    ext: fileAttribute(),
    mime: fileAttribute(),
    size: fileAttribute('float'),
    url: fileAttribute('text'),
    previewUrl: fileAttribute('text'),
    provider: fileAttribute(),
    provider_metadata: fileAttribute('json'),
  },
  relations: {},
  components: {},
}

/** The type of `uid` among `types` (or the file type, which media attributes target), or undefined. */
export function typeByUid(types: readonly ContentType[], uid: string): ContentType | undefined {
  return uid === FILE_UID ? FILE_TYPE : types.find((type) => type.uid === uid)
}

/** The owning side of a relation: it stores the links (every side without `mappedBy`). */
export function isOwning(relation: Relation): boolean {
  return relation.mappedBy === undefined
}

/**
 * True when a target may be linked by one source only through this owning side: a bidirectional
 * `oneToOne` or `oneToMany` (its "one" side), so linking it elsewhere unlinks it (§16). One-way
 * relations (no `inversedBy`) never make their targets exclusive, as in Strapi.
 */
export function isExclusive(relation: Relation): boolean {
  return isOwning(relation) && relation.inversedBy !== undefined && (relation.relation === 'oneToMany' || relation.relation === 'oneToOne')
}

/** Relations an answer may populate, in schema order (private ones left out). */
export function publicRelations(type: ContentType): string[] {
  return Object.entries(type.relations).filter(([, relation]) => relation.private !== true).map(([name]) => name)
}

const owned = new WeakMap<ContentType, readonly string[]>()

/** The relations whose links a version of `type` stores (its owning sides), in schema order. */
export function ownedRelations(type: ContentType): readonly string[] {
  let names = owned.get(type)
  if (names === undefined) {
    names = Object.entries(type.relations).filter(([, relation]) => isOwning(relation)).map(([name]) => name)
    owned.set(type, names)
  }
  return names
}

/** A type by uid (relation targets), for code that reads queries across types. */
export type TypeOf = (uid: string) => ContentType
