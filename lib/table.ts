// The DynamoDB table, declared once: attribute names, key schema and indexes. The runtime
// (lib/storage), the CDK stack (infra/) and the tests all import this; nothing here imports the
// AWS SDK or CDK.
import { SYSTEM_FIELDS, sortableFields, type ContentType } from './content-types.js'

/** Base table keys: one item per locale version, `documentId` + `locale`. */
export const PARTITION_KEY = 'documentId'
export const SORT_KEY = 'locale'

/** Storage-only attributes of a document item (never returned to clients). */
export const ATTR = {
  /** `<uid>#<list>`: partition key of every list index (`<list>` is a locale or `~<locale>`). */
  listKey: 'listKey',
  /** The content type uid the document belongs to. */
  contentType: 'contentType',
  /** Revision of the version, bumped on every write; the ETag and optimistic-concurrency token. */
  revision: 'rev',
  /** Integer id; sort key of the `byId` index. */
  id: 'id',
  /** Map of every filterable value of the version, projected into the slot indexes. */
  values: 'f',
  /** On a served copy (fallback list), the locale of the version it copies. */
  source: 'src',
  /**
   * Draft & publish types: `<uid>#<list>#<state>`, partition key of `byPublication` (the version's
   * list and its publication state, see PUBLICATION_STATES). Own versions only, not served copies.
   */
  publication: 'ps',
  /**
   * On a version or served copy that a wide write (lib/storage/wide/) will rewrite after its
   * commit: the set of marks of the changes that mean to (`<id>`, `<id>:<locale>` on a copy: the
   * version it will hold). Readers overlay what a change set once the document's head names it (it
   * committed); until then, or when it never does, the item reads as stored.
   */
  pending: 'pend',
  /** On a marked served copy the change creates: no copy exists until the change commits (no index keys either). */
  placeholder: 'ph',
  /** On a document's head: the wide change committed there and not yet applied to every item (lib/storage/wide/). */
  change: 'chg',
} as const

/** A version's status (content-model.md §15); types without draft & publish have published versions only. */
export type Status = 'published' | 'draft'

/** List names of drafts start with this: `draft:<locale>` (a locale code never holds a ':'). */
const DRAFT_PREFIX = 'draft:'

/** The list of `locale`'s versions of `status`: the code for published versions, `draft:<code>` for drafts. */
export function versionList(locale: string, status: Status): string {
  return status === 'draft' ? `${DRAFT_PREFIX}${locale}` : locale
}

/** The locale and status of a list (a served list's `~` left out). */
export function parseList(list: string): { locale: string; status: Status; served: boolean } {
  const served = list.startsWith('~')
  const own = served ? list.slice(1) : list
  return own.startsWith(DRAFT_PREFIX) ? { locale: own.slice(DRAFT_PREFIX.length), status: 'draft', served } : { locale: own, status: 'published', served }
}

/**
 * Publication states of a locale version (its draft and published version share one), as the
 * `byPublication` index partitions them: `n` never published, no locale of the document either;
 * `N` never published, another locale is; `m` published, the draft differs; `u` published, equal.
 */
export type PublicationState = 'n' | 'N' | 'm' | 'u'

/** The list of `list`'s versions in publication state `state` (its count item and `byPublication` partition). */
export function publicationList(list: string, state: PublicationState): string {
  return `${list}#${state}`
}

/** Names no content-type attribute may use. */
export const RESERVED_NAMES: ReadonlySet<string> = new Set<string>([...SYSTEM_FIELDS, ...Object.values(ATTR), 'n'])

/**
 * Generic sort-key slots. Each list index `slot<i>` is partitioned on `listKey` and sorted on the
 * item's `k<i>`: the order-preserving key of the field a type assigns to slot i. Slots are
 * generic, so adding an attribute or a content type never changes an index definition; only the
 * keys written into the items (see `indexedFields` and the reindex command).
 */
export const SLOT_COUNT = 16

/** The key attribute of slot `i`. */
export function slotKey(slot: number): string {
  return `k${slot}`
}

/** The index of slot `i`. */
export function slotIndex(slot: number): string {
  return `slot${slot}`
}

/**
 * The fields of `type` that have an index, in slot order: `id`, the system timestamps and
 * `documentId`, then its scalar attributes in schema order (append new attributes at the end, or
 * reindex). Past SLOT_COUNT fields, the rest sort and filter through the bounded scan.
 */
export function indexedFields(type: ContentType): string[] {
  return sortableFields(type).filter((field) => field !== 'locale').slice(0, SLOT_COUNT)
}

/**
 * `byId`: a locale's versions in `id` order with every attribute, so the default page is one Query.
 * `byPublication`: the same, partitioned by publication state too (draft & publish types only), so
 * a page of `publicationFilter` is one Query per state.
 */
export const INDEX = { byId: 'byId', byPublication: 'byPublication' } as const

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

/** What a slot index entry carries besides the keys: the id (ties) and every filterable value. */
export const SLOT_PROJECTION: readonly string[] = [ATTR.id, ATTR.values]

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
      name: INDEX.byPublication,
      partitionKey: { name: ATTR.publication, type: 'S' },
      sortKey: { name: ATTR.id, type: 'N' },
      projection: { type: 'ALL' },
    },
    ...Array.from({ length: SLOT_COUNT }, (_, slot): IndexDeclaration => ({
      name: slotIndex(slot),
      partitionKey: { name: ATTR.listKey, type: 'S' },
      sortKey: { name: slotKey(slot), type: 'S' },
      projection: { type: 'INCLUDE', attributes: SLOT_PROJECTION },
    })),
  ],
}

/**
 * The table's change stream: every item's image before and after each change, which webhooks
 * are derived from (lib/webhooks/, integration.md §20).
 */
export const STREAM_VIEW_TYPE = 'NEW_AND_OLD_IMAGES'

/** Default table name when none is configured. */
export const DEFAULT_TABLE_NAME = 'content'

/**
 * Items that are not documents live under partition keys that start with `#`, which a documentId
 * (`[a-z0-9]{24}`) never does.
 */
export const META = {
  /** Id sequence of a content type: `{ documentId: '#seq', locale: <uid> }`. */
  sequence: '#seq',
  /** Count and revision of a list: `{ documentId: '#count', locale: '<uid>#<list>' }`. */
  count: '#count',
  /** Settings: the locale registry (`locales`) and the public role (`role#public`). */
  config: '#config',
  /** Which key version the slot indexes are complete for: `{ documentId: '#index', locale: 'state' }`. */
  index: '#index',
  /** API tokens: `{ documentId: '#token', locale: <hash of the access key> }`. */
  token: '#token',
  /** One item per registered locale, `{ documentId: '#locale', locale: <code>, epoch }`. */
  locale: '#locale',
  /**
   * A unique attribute's value claimed by a document in one locale:
   * `{ documentId: '#unique', locale: '<uid>#<attribute>#<locale>#<digest of the value>', owner }`.
   */
  unique: '#unique',
  /**
   * Webhooks (lib/webhooks/): `hook#<id>` a webhook, `log#<id>#<slot>` its delivery log (a ring of
   * LOG_SIZE attempts), `cursor#<shard>` how far the local stream consumer has read.
   */
  webhook: '#webhook',
  /** A signed-in session of the admin web interface: `{ documentId: '#session', locale: <digest of its id>, ttl }`. */
  session: '#session',
  /** Failed admin sign-ins in a window: `{ documentId: '#sign-in', locale: 'client#<address>' or 'all', n, ends, ttl }`. */
  signIn: '#sign-in',
} as const

/**
 * The table's time-to-live attribute (epoch seconds): DynamoDB deletes an item some time after it
 * passes (hours to days), so readers check it themselves. Only the short-lived items above carry it.
 */
export const TTL_ATTRIBUTE = 'ttl'

/** Sort key of a document's head item, moved by every write to the document. */
export const HEAD = '#head'

/**
 * A type's pseudo-list of wide commits (wide/commit.ts): its count item's revision moves with every
 * commit of a write past one transaction, in the commit's own transaction. Such a commit changes
 * versions that readers get by key (resolving the marks) before their lists' count items move
 * (as each part is applied), so what is validated by the revisions of another type's lists (a
 * populated answer, kept targets) is validated by this one too.
 */
export const WIDE_CHANGES = '#wide'

/**
 * The list of a locale's versions is named by the locale (`draft:<locale>` for drafts); the served
 * list of a fallback locale by `~<list>`.
 */
export function servedList(list: string): string {
  return `~${list}`
}

/** The index partition of a content type's list (a locale, or a served list). */
export function listKey(uid: string, list: string): string {
  return `${uid}#${list}`
}
