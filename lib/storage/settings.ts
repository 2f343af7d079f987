// Settings items of the table: the locale registry, the public role and API tokens. Each registry
// is one small item written with an optimistic revision check, so concurrent admin calls cannot
// overwrite each other.
import { BatchGetCommand, DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb'
import { conflict } from '../errors.js'
import { META } from '../table.js'
import { ConditionFailed, conditionalWrite, guarded, transactWrite } from './client.js'
import { countKey } from './items.js'

export interface LocaleEntry {
  readonly id: number
  readonly name: string
  readonly code: string
  readonly isDefault: boolean
  readonly createdAt: string
  readonly updatedAt: string
  /** The locale whose version is served where this one has none (delivery.md §12), or null. */
  readonly fallback: string | null
}

/** Items in one DynamoDB transaction. */
const TRANSACTION_ITEMS = 100

export interface LocaleRegistry {
  readonly locales: readonly LocaleEntry[]
  /** Revision of the stored item; 0 when nothing is stored yet (the built-in default). */
  readonly rev: number
  /** Moves whenever a fallback chain changes: every write checks it on its locale's item. */
  readonly epoch: number
  /** Highest locale id ever given: ids are never reused. */
  readonly lastId: number
  /** Locales whose served list is complete for the current chains (rebuilt by the reindex). */
  readonly servedReady: readonly string[]
}

export interface StoredToken {
  readonly id: number
  readonly name: string
  readonly type: 'read-only' | 'full-access' | 'custom'
  readonly permissions: readonly string[]
  readonly createdAt: string
  /** What the token is for ('' when not given). */
  readonly description: string
  /** Milliseconds from creation to expiry, and that instant; null for a token that never expires. */
  readonly lifespan: number | null
  readonly expiresAt: string | null
  /** HMAC of the access key: the token's sort key. Never returned to clients. */
  readonly hash: string
}

/** The registry moved on since it was read (another admin change won): re-read and re-apply. */
export class RegistryChanged extends Error {}

const LOCALES_KEY = { documentId: META.config, locale: 'locales' }
const PUBLIC_ROLE_KEY = { documentId: META.config, locale: 'role#public' }
const INDEX_STATE_KEY = { documentId: META.index, locale: 'state' }
const primeKey = (key: Record<string, unknown>) => `${String(key.documentId)}\u0000${String(key.locale)}`

export class SettingsStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  /** Items read ahead by withPrimed(), each given to the first get of its key (undefined: not stored). */
  private readonly primed = new Map<string, Record<string, unknown> | undefined>()

  /**
   * Runs `use` with the locale registry and the public role (and the index state, unless
   * `indexState` is false) read ahead in one strongly consistent `BatchGetItem`, each given to the
   * first get of its key while `use` runs (a cold start's reads in one call); after it, gets read
   * as usual. When that read fails, or leaves a key unprocessed, the gets read on their own.
   */
  async withPrimed<T>(use: () => Promise<T>, options: { indexState?: boolean } = {}): Promise<T> {
    const keys = options.indexState === false ? [LOCALES_KEY, PUBLIC_ROLE_KEY] : [LOCALES_KEY, INDEX_STATE_KEY, PUBLIC_ROLE_KEY]
    try {
      const { Responses, UnprocessedKeys } = await this.db.send(new BatchGetCommand({ RequestItems: { [this.tableName]: { Keys: keys, ConsistentRead: true } } }))
      const found = new Map((Responses?.[this.tableName] ?? []).map((item) => [primeKey(item), item]))
      const unprocessed = new Set((UnprocessedKeys?.[this.tableName]?.Keys ?? []).map(primeKey))
      for (const key of keys) if (!unprocessed.has(primeKey(key))) this.primed.set(primeKey(key), found.get(primeKey(key)))
    } catch {
      // Left to the gets, which report what they meet.
    }
    try {
      return await use()
    } finally {
      this.primed.clear()
    }
  }

  /** The item at `key`: the one withPrimed() read, once, else a strongly consistent GetItem. */
  private async item(key: { documentId: string; locale: string }): Promise<Record<string, unknown> | undefined> {
    const name = primeKey(key)
    if (this.primed.has(name)) {
      const item = this.primed.get(name)
      this.primed.delete(name)
      return item
    }
    const { Item } = await guarded(() => this.db.send(new GetCommand({ TableName: this.tableName, Key: key, ConsistentRead: true })))
    return Item
  }

  /** The stored locale registry, or undefined when none has been written yet. */
  async getLocales(): Promise<LocaleRegistry | undefined> {
    const Item = await this.item(LOCALES_KEY)
    if (Item === undefined) return undefined
    // DynamoDB maps do not keep key order; answer in the documented field order.
    const locales = (Item.locales as LocaleEntry[]).map(({ id, name, code, isDefault, createdAt, updatedAt, fallback }) => ({ id: Number(id), name, code, isDefault, createdAt, updatedAt, fallback: fallback ?? null }))
    return {
      locales,
      rev: Number(Item.rev),
      epoch: Number(Item.epoch ?? 0),
      lastId: Number(Item.lastId ?? Math.max(0, ...locales.map((locale) => locale.id))),
      servedReady: (Item.servedReady as string[] | undefined) ?? [],
    }
  }

  /**
   * Replaces the registry if it is still at `previous.rev` (409 otherwise). `unusedBy` lists
   * count-item locales (`uid`, `code`) that must hold no versions, checked in the same transaction.
   * The registration item of each locale added (or, with `rewriteItems`, of every locale) is put,
   * and of each locale removed deleted; when the fallback epoch moves, every item takes it. Past
   * what one transaction holds with the registry, the rest follow in transactions of their own:
   * a write planned with the old epoch in a locale not yet moved may still commit until then,
   * before this call returns (so before a reindex the caller runs); a crash between them leaves
   * items a write's failed check finds and has stored again (LocaleRegistryStore.refresh).
   */
  async putLocales(previous: LocaleRegistry, registry: Omit<LocaleRegistry, 'rev'>, unusedBy: readonly { uid: string; code: string }[] = [], rewriteItems = false): Promise<LocaleRegistry> {
    const next = { ...LOCALES_KEY, ...registry, rev: previous.rev + 1 }
    const codes = new Set(registry.locales.map((locale) => locale.code))
    const before = new Set(previous.locales.map((locale) => locale.code))
    const removed = previous.locales.filter((locale) => !codes.has(locale.code))
    const moved = rewriteItems || previous.rev === 0 || registry.epoch !== previous.epoch ? registry.locales : registry.locales.filter((locale) => !before.has(locale.code))
    const registryCondition = previous.rev === 0
      ? { ConditionExpression: 'attribute_not_exists(documentId)' }
      : { ConditionExpression: 'rev = :rev', ExpressionAttributeValues: { ':rev': previous.rev } }
    // Each registered locale's item carries the epoch every write checks; a removed one's goes.
    const items = moved.map((locale) => ({ Put: { TableName: this.tableName, Item: { documentId: META.locale, locale: locale.code, epoch: registry.epoch } } }))
    const first = [
      { Put: { TableName: this.tableName, Item: next, ...registryCondition } },
      ...removed.map((locale) => ({ Delete: { TableName: this.tableName, Key: { documentId: META.locale, locale: locale.code } } })),
      ...unusedBy.map(({ uid, code }) => ({
        ConditionCheck: {
          TableName: this.tableName,
          Key: countKey(uid, code),
          ConditionExpression: 'attribute_not_exists(n) OR n = :zero',
          ExpressionAttributeValues: { ':zero': 0 },
        },
      })),
    ]
    const room = Math.max(0, TRANSACTION_ITEMS - first.length)
    try {
      await transactWrite(this.db, { TransactItems: [...first, ...items.slice(0, room)] })
    } catch (error) {
      if (error instanceof ConditionFailed) {
        if (error.failedAt(0)) throw new RegistryChanged()
        throw conflict('This locale still has content in it')
      }
      throw error
    }
    for (let i = room; i < items.length; i += TRANSACTION_ITEMS) await transactWrite(this.db, { TransactItems: items.slice(i, i + TRANSACTION_ITEMS) })
    return { ...registry, rev: next.rev }
  }

  /**
   * The key version the slot indexes were last completely written with (by a reindex pass), and
   * whether every published version of a draft & publish type has its draft (true once a pass ran
   * with drafts, content-model.md §15); on a table that never held a document, both are recorded
   * at once. An undefined key version: not complete.
   */
  async getIndexVersion(current: string): Promise<{ keyVersion: string | undefined; drafts: boolean }> {
    const Item = await this.item(INDEX_STATE_KEY)
    if (Item !== undefined) return { keyVersion: String(Item.keyVersion), drafts: Item.drafts === true }
    // A table that has never counted a version holds no document: its (empty) indexes are complete.
    const { Items = [] } = await guarded(() => this.db.send(new QueryCommand({ TableName: this.tableName, KeyConditionExpression: 'documentId = :c', ExpressionAttributeValues: { ':c': META.count }, Limit: 1, ConsistentRead: true })))
    if (Items.length > 0) return { keyVersion: undefined, drafts: false }
    await conditionalWrite(async () => {
      await this.db.send(new PutCommand({ TableName: this.tableName, Item: { ...INDEX_STATE_KEY, keyVersion: current, drafts: true, at: new Date().toISOString() }, ConditionExpression: 'attribute_not_exists(documentId)' }))
    }, () => undefined)
    return this.getIndexVersion(current)
  }

  /** Records that every item was written with the slot keys of `keyVersion`, drafts included (the end of a reindex pass). */
  async putIndexVersion(keyVersion: string): Promise<void> {
    await guarded(() => this.db.send(new PutCommand({ TableName: this.tableName, Item: { ...INDEX_STATE_KEY, keyVersion, drafts: true, at: new Date().toISOString() } })))
  }

  /** True when `code`'s registration item exists with `epoch` (a registry stored before items existed has none). */
  async localeItemCurrent(code: string, epoch: number): Promise<boolean> {
    const { Item } = await guarded(() => this.db.send(new GetCommand({ TableName: this.tableName, Key: { documentId: META.locale, locale: code }, ConsistentRead: true })))
    return Item !== undefined && Number(Item.epoch) === epoch
  }

  /** One cheap read of a small known key (a health check): 503 when DynamoDB cannot be reached. */
  async ping(): Promise<void> {
    await guarded(() => this.db.send(new GetCommand({ TableName: this.tableName, Key: LOCALES_KEY, ProjectionExpression: 'rev' })))
  }

  /** The public role's stored actions, or undefined when never set. */
  async getPublicPermissions(): Promise<string[] | undefined> {
    const Item = await this.item(PUBLIC_ROLE_KEY)
    return Item === undefined ? undefined : (Item.permissions as string[])
  }

  /** Stores `permissions` as the public role unless one is stored already; returns the stored role. */
  async initPublicPermissions(permissions: readonly string[]): Promise<string[]> {
    const stored = await conditionalWrite(async () => {
      await this.db.send(new PutCommand({ TableName: this.tableName, Item: { ...PUBLIC_ROLE_KEY, permissions }, ConditionExpression: 'attribute_not_exists(documentId)' }))
      return true
    }, () => false)
    return stored ? [...permissions] : ((await this.getPublicPermissions()) ?? [...permissions])
  }

  async putPublicPermissions(permissions: readonly string[]): Promise<void> {
    await guarded(() => this.db.send(new PutCommand({ TableName: this.tableName, Item: { ...PUBLIC_ROLE_KEY, permissions } })))
  }

  /**
   * A token by the hash of its access key (one GetItem). Strongly consistent, so a token works as
   * soon as it is created and a revoked one is never read back from a stale replica.
   */
  async getTokenByHash(hash: string): Promise<StoredToken | undefined> {
    const { Item } = await guarded(() => this.db.send(new GetCommand({ TableName: this.tableName, Key: { documentId: META.token, locale: hash }, ConsistentRead: true })))
    return Item === undefined ? undefined : toToken(Item)
  }

  async listTokens(): Promise<StoredToken[]> {
    const items: Record<string, unknown>[] = []
    let start: Record<string, unknown> | undefined
    do {
      const page = await guarded(() => this.db.send(new QueryCommand({
        TableName: this.tableName,
        KeyConditionExpression: 'documentId = :t',
        ExpressionAttributeValues: { ':t': META.token },
        ConsistentRead: true,
        ExclusiveStartKey: start,
      })))
      items.push(...(page.Items ?? []))
      start = page.LastEvaluatedKey
    } while (start !== undefined)
    return items.map(toToken).sort((a, b) => a.id - b.id)
  }

  /** Stores a new token under the next token id. */
  async createToken(token: Omit<StoredToken, 'id'>): Promise<StoredToken> {
    const { Attributes } = await guarded(() => this.db.send(new UpdateCommand({
      TableName: this.tableName,
      Key: { documentId: META.sequence, locale: 'token' },
      UpdateExpression: 'ADD n :one',
      ExpressionAttributeValues: { ':one': 1 },
      ReturnValues: 'UPDATED_NEW',
    })))
    const stored: StoredToken = { ...token, id: Number(Attributes?.n) }
    await guarded(() => this.db.send(new PutCommand({
      TableName: this.tableName,
      Item: {
        documentId: META.token, locale: stored.hash, tokenId: stored.id, name: stored.name, type: stored.type, permissions: stored.permissions,
        createdAt: stored.createdAt, description: stored.description, lifespan: stored.lifespan, expiresAt: stored.expiresAt,
      },
      ConditionExpression: 'attribute_not_exists(documentId)',
    })))
    return stored
  }

  /** Deletes a token; false when it was already gone. */
  async deleteToken(hash: string): Promise<boolean> {
    return conditionalWrite(async () => {
      await this.db.send(new DeleteCommand({ TableName: this.tableName, Key: { documentId: META.token, locale: hash }, ConditionExpression: 'attribute_exists(documentId)' }))
      return true
    }, () => false)
  }
}

function toToken(item: Record<string, unknown>): StoredToken {
  return {
    id: Number(item.tokenId),
    name: item.name as string,
    type: item.type as StoredToken['type'],
    permissions: (item.permissions as string[] | undefined) ?? [],
    createdAt: item.createdAt as string,
    // Tokens stored before descriptions and expiry: none, never expiring.
    description: (item.description as string | undefined) ?? '',
    lifespan: item.lifespan === undefined || item.lifespan === null ? null : Number(item.lifespan),
    expiresAt: (item.expiresAt as string | null | undefined) ?? null,
    hash: item.locale as string,
  }
}
