// The DynamoDB table, declared once: attribute names, key schema and indexes. The runtime
// (lib/storage), the CDK stack (infra/) and the tests all import this; nothing here imports the
// AWS SDK or CDK.
import { contentTypes, SCALAR_TYPES, SYSTEM_FIELDS } from './content-types.js'

/** Base table keys: one item per locale version, `documentId` + `locale`. */
export const PARTITION_KEY = 'documentId'
export const SORT_KEY = 'locale'

/** Storage-only attributes of a document item (never returned to clients). */
export const ATTR = {
  /** `<uid>#<locale>`: partition key of both list indexes. */
  listKey: 'listKey',
  /** The content type uid the document belongs to. */
  contentType: 'contentType',
  /** Revision of the version, bumped on every write; the ETag and optimistic-concurrency token. */
  revision: 'rev',
  /** Integer id; sort key of both list indexes. */
  id: 'id',
} as const

/** Names no content-type attribute may use. */
export const RESERVED_NAMES: ReadonlySet<string> = new Set<string>([...SYSTEM_FIELDS, ...Object.values(ATTR)])

/**
 * `byId`: a locale's versions in `id` order with every attribute (projection ALL), so the default
 * page of a list is one Query. `sortKeys`: the same keys with only the sortable fields projected,
 * so sorting and deep offsets read small key entries, and only the page's documents are fetched.
 */
export const INDEX = {
  byId: 'byId',
  sortKeys: 'sortKeys',
} as const

/** Sortable fields of every content type, projected into the `sortKeys` index. */
export const SORT_KEYS_PROJECTION: readonly string[] = [
  ...new Set([
    ...SYSTEM_FIELDS.filter((field) => field !== PARTITION_KEY && field !== SORT_KEY && field !== ATTR.id),
    ...Object.values(contentTypes).flatMap((type) =>
      Object.entries(type.attributes)
        .filter(([, attribute]) => SCALAR_TYPES.has(attribute.type))
        .map(([name]) => name),
    ),
  ]),
]

export interface KeyAttribute {
  readonly name: string
  readonly type: 'S' | 'N'
}

export interface IndexDeclaration {
  readonly name: string
  readonly partitionKey: KeyAttribute
  readonly sortKey: KeyAttribute
  readonly projection: { readonly type: 'ALL' } | { readonly type: 'INCLUDE'; readonly attributes: readonly string[] }
}

export interface TableDeclaration {
  readonly partitionKey: KeyAttribute
  readonly sortKey: KeyAttribute
  readonly indexes: readonly IndexDeclaration[]
}

export const TABLE: TableDeclaration = {
  partitionKey: { name: PARTITION_KEY, type: 'S' },
  sortKey: { name: SORT_KEY, type: 'S' },
  indexes: [
    {
      name: INDEX.byId,
      partitionKey: { name: ATTR.listKey, type: 'S' },
      sortKey: { name: ATTR.id, type: 'N' },
      projection: { type: 'ALL' },
    },
    {
      name: INDEX.sortKeys,
      partitionKey: { name: ATTR.listKey, type: 'S' },
      sortKey: { name: ATTR.id, type: 'N' },
      projection: { type: 'INCLUDE', attributes: [...SORT_KEYS_PROJECTION, ATTR.revision] },
    },
  ],
}

/** Default table name when none is configured. */
export const DEFAULT_TABLE_NAME = 'content'

/**
 * Items that are not documents live under partition keys that start with `#`, which a documentId
 * (`[a-z0-9]{24}`) never does.
 */
export const META = {
  /** Id sequence of a content type: `{ documentId: '#seq', locale: <uid> }`. */
  sequence: '#seq',
  /** Number of versions of a type in a locale: `{ documentId: '#count', locale: '<uid>#<locale>' }`. */
  count: '#count',
  /** The locale registry: one item `{ documentId: '#config', locale: 'locales' }`. */
  config: '#config',
  /** API tokens: `{ documentId: '#token', locale: <hash of the access key> }`. */
  token: '#token',
} as const

/** The list-index partition of a content type in a locale. */
export function listKey(uid: string, locale: string): string {
  return `${uid}#${locale}`
}
