// What each kind of function may do with the table: exactly the DynamoDB actions its code path
// sends (transactions need the action of each item they hold), on the table and the indexes it
// queries, and, by the partition key (`dynamodb:LeadingKeys`), which items it may write or read.
// Read from lib/storage: documents.ts, lists/reader.ts, settings.ts, and lib/table.ts's META keys.
import { Effect, PolicyStatement } from 'aws-cdk-lib/aws-iam'
import { META, TABLE } from '../lib/table.js'

/** Partition key of the per-locale registration items (read in ConditionChecks, written by admin). */
export const LOCALE_KEY = META.locale

/** Actions that write an item; a Deny on these with LeadingKeys keeps a function off those partitions. */
export const WRITE_ACTIONS = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'] as const

export interface TableAccess {
  /** Actions on the base table. */
  readonly actions: readonly string[]
  /** Query on every index lib/table.ts declares. */
  readonly queriesIndexes: boolean
  /** Partition keys (StringLike patterns) the function may never write. */
  readonly denyWrites: readonly string[]
  /** When set, the only partition keys (StringLike patterns) the function may touch at all. */
  readonly onlyKeys?: readonly string[]
  /** Write actions allowed on these partition keys (StringLike patterns) only. */
  readonly writesTo?: { readonly actions: readonly string[]; readonly keys: readonly string[] }
}

/**
 * A content type's function: documents, `#seq`, `#count`, `#unique` (claims of unique values); reads
 * `#config`, `#token`, `#locale` but never writes them, nor the admin web interface's sessions and
 * sign-in counters (`#session`, `#sign-in`).
 */
export const CONTENT_ACCESS: TableAccess = {
  actions: [
    'dynamodb:GetItem', // versions, counts, locale registry, public role, token by hash
    'dynamodb:BatchGetItem', // a sorted page's documents, counts across locales
    'dynamodb:Query', // all versions of one document (base table)
    'dynamodb:PutItem', // new versions and document heads (in transactions)
    'dynamodb:UpdateItem', // id sequence, updates, count items
    'dynamodb:DeleteItem', // deleted versions and heads (in transactions), links a write removed (`#link:`)
    'dynamodb:BatchWriteItem', // the links of a document being created (`#link:` items)
    'dynamodb:ConditionCheckItem', // the locale written to is registered (`#locale` items)
  ],
  queriesIndexes: true,
  denyWrites: [`${META.token}*`, `${META.config}*`, `${LOCALE_KEY}*`, `${META.session}*`, `${META.signIn}*`],
}

/** `GET /api/i18n/locales` and `/api/openapi.json`: reads the registry and public role (`#config`) and the caller's token. */
export const LOCALES_ACCESS: TableAccess = {
  actions: [
    'dynamodb:BatchGetItem', // the registry and the public role, in one read at init
    'dynamodb:GetItem',
  ],
  queriesIndexes: false,
  denyWrites: [],
  onlyKeys: [META.config, META.token],
}

/**
 * The administration API (locale registry, public role, API tokens, backfills of documents) and the
 * admin web interface, whose editors' pages read and write documents through the content apps.
 */
export const ADMIN_ACCESS: TableAccess = {
  actions: [
    'dynamodb:GetItem', // registry, public role, documents, a web interface session
    'dynamodb:BatchGetItem', // the admin web interface's list pages (a sorted page's documents)
    'dynamodb:Query', // token list, a document's versions (base table), sessions to end (sign out everywhere)
    'dynamodb:Scan', // the reindex walks the table (POST /admin/reindex), a page a call
    'dynamodb:PutItem', // registry, public role, new tokens, `#locale` items, sessions, sign-in windows
    'dynamodb:UpdateItem', // token id sequence, reindexed documents, sign-in counts
    'dynamodb:DeleteItem', // revoked tokens, `#locale` items, links (the web interface's writes), ended sessions
    'dynamodb:BatchWriteItem', // the links of a document the web interface creates (`#link:` items)
    'dynamodb:ConditionCheckItem', // a removed locale holds no versions; `#seq`, `#count` unchanged
  ],
  queriesIndexes: true,
  denyWrites: [],
}

/**
 * The webhook functions (integration.md §20): read any item (a stream record's event name may
 * depend on the document's other versions) and the webhooks; write only the `#webhook` partition
 * (delivery logs, the attempt counter).
 */
export const WEBHOOK_ACCESS: TableAccess = {
  actions: ['dynamodb:GetItem', 'dynamodb:Query'],
  queriesIndexes: false,
  denyWrites: [],
  writesTo: { actions: ['dynamodb:PutItem', 'dynamodb:UpdateItem'], keys: [META.webhook] },
}

/** The IAM statements granting `access` on the table `tableArn`. */
export function tableStatements(tableArn: string, access: TableAccess): PolicyStatement[] {
  const onlyKeys = access.onlyKeys === undefined ? undefined : { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [...access.onlyKeys] } }
  const statements = [new PolicyStatement({ effect: Effect.ALLOW, actions: [...access.actions], resources: [tableArn], conditions: onlyKeys })]
  if (access.queriesIndexes) {
    statements.push(new PolicyStatement({
      effect: Effect.ALLOW,
      actions: ['dynamodb:Query'],
      resources: TABLE.indexes.map((index) => `${tableArn}/index/${index.name}`),
    }))
  }
  if (access.writesTo !== undefined) {
    statements.push(new PolicyStatement({
      effect: Effect.ALLOW,
      actions: [...access.writesTo.actions],
      resources: [tableArn],
      conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [...access.writesTo.keys] } },
    }))
  }
  if (access.denyWrites.length > 0) {
    statements.push(new PolicyStatement({
      effect: Effect.DENY,
      actions: [...WRITE_ACTIONS],
      resources: [tableArn],
      conditions: { 'ForAnyValue:StringLike': { 'dynamodb:LeadingKeys': [...access.denyWrites] } },
    }))
  }
  return statements
}
