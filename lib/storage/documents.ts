// The document store: reads and writes of locale versions. Every write to a document is one
// transaction that moves the document's head item on condition of the revision read, checks the
// locale's registration item (registered, fallback epoch unchanged), and writes the versions,
// the copies the fallback chains serve and the counts of the lists that change (document-plan.ts).
// A lost race is retried here with a fresh read (bounded, jittered): the caller sees 200, or a
// 412 for a stale If-Match, never a 409 for independent writes.
import { createHash, randomInt } from 'node:crypto'
import { BatchGetCommand, GetCommand, QueryCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb'
import type { ContentType } from '../content-types.js'
import { badRequest, payloadTooLarge, serviceUnavailable } from '../errors.js'
import { ATTR, HEAD, META } from '../table.js'
import { ConditionFailed, guarded, TransactionConflict, transactWrite } from './client.js'
import { planWrites, type Chains, type DocumentState, type TransactItem } from './document-plan.js'
import { headKey, itemToVersion, servedKey, versionKey, versionProjection, versionToItem, type Version } from './items.js'
import { claimedAttribute, claimKey, claimWrites, uniqueAttributes } from './unique.js'

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789'

/** A new documentId: 24 random characters of [a-z0-9]. */
export function newDocumentId(): string {
  let id = ''
  for (let i = 0; i < 24; i++) id += ALPHABET[randomInt(ALPHABET.length)]
  return id
}

/** The fixed documentId of a single type's one document, derived from its uid. */
export function singleTypeDocumentId(type: ContentType): string {
  const digest = BigInt(`0x${createHash('sha256').update(type.uid).digest('hex')}`)
  return digest.toString(36).padStart(24, '0').slice(0, 24)
}

export const DOCUMENT_ID = /^[a-z0-9]{24}$/

/** What a write needs to know of the locale registry; refreshed when a guard says it is stale. */
export interface LocaleGuard {
  readonly epoch: number
  /** False while the registry was never stored (the built-in `en` only): no registration items exist yet. */
  readonly stored: boolean
  readonly chains: Chains
}

/** The locale registry as the store sees it: the cached view, and a fresh one after a failed guard. */
export interface LocaleGuards {
  current(): Promise<LocaleGuard>
  /** A fresh read after `locale`'s guard failed: 400 when it is no longer registered. */
  refresh(locale: string): Promise<LocaleGuard>
}

/**
 * A change to a document: given the document as read (fresh on every attempt), the versions it
 * should have afterwards and the version to answer with. It may throw an ApiError (404, 409, 412).
 */
export type Mutation<T> = (state: DocumentState, now: string) => { versions: readonly Version[]; result: T }

/** Attempts of one write before a 503: each lost race re-reads the document and re-applies the change. */
const WRITE_ATTEMPTS = 10

/** DynamoDB takes at most 4 MB in a transaction; JSON text overstates DynamoDB's sizes a little, which is the safe side. */
const MAX_TRANSACTION_BYTES = 4_000_000

/** DynamoDB takes at most 100 items in a transaction. */
const MAX_TRANSACTION_ITEMS = 100

export class DocumentStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly guards: LocaleGuards,
    private readonly now: () => string = () => new Date().toISOString(),
  ) {}

  /** One version, read strongly consistent; undefined when absent or of another type. */
  async getVersion(type: ContentType, documentId: string, locale: string): Promise<Version | undefined> {
    return this.getItem(type, versionKey(documentId, locale))
  }

  /** The version `locale`'s fallback chain serves, from its served copy (one strongly consistent read). */
  async getServed(type: ContentType, documentId: string, locale: string): Promise<Version | undefined> {
    return this.getItem(type, servedKey(documentId, locale))
  }

  private async getItem(type: ContentType, Key: Record<string, string>): Promise<Version | undefined> {
    const { Item } = await guarded(() => this.db.send(new GetCommand({ TableName: this.tableName, Key, ConsistentRead: true, ...versionProjection(type) })))
    return Item !== undefined && Item[ATTR.contentType] === type.uid ? itemToVersion(type, Item) : undefined
  }

  /**
   * A document as stored: head, versions by id ascending, served copies. One strongly consistent
   * Query of its partition, following every page (a document's versions may exceed 1 MB). The head
   * sorts first, so a read torn by a concurrent write shows an older head, and the write fails.
   */
  async getDocument(type: ContentType, documentId: string): Promise<DocumentState> {
    const items: Record<string, unknown>[] = []
    let start: Record<string, unknown> | undefined
    do {
      const page = await guarded(() => this.db.send(new QueryCommand({
        TableName: this.tableName,
        KeyConditionExpression: 'documentId = :d',
        ExpressionAttributeValues: { ':d': documentId },
        ConsistentRead: true,
        ExclusiveStartKey: start,
      })))
      items.push(...(page.Items ?? []))
      start = page.LastEvaluatedKey
    } while (start !== undefined)
    const mine = items.filter((item) => item[ATTR.contentType] === type.uid)
    const head = mine.find((item) => item.locale === HEAD)
    const versions = mine.filter((item) => item.locale !== HEAD && !String(item.locale).startsWith('~')).map((item) => itemToVersion(type, item))
    const served = new Map(mine.filter((item) => String(item.locale).startsWith('~')).map((item) => [
      String(item.locale).slice(1), { source: String(item[ATTR.source]), id: Number(item[ATTR.id]), rev: Number(item[ATTR.revision]) },
    ]))
    return { documentId, headRev: head === undefined ? undefined : Number(head[ATTR.revision]), versions: versions.sort((a, b) => a.id - b.id), served }
  }

  /** The next id of a content type (ids are unique per type across locales, increasing). */
  async nextId(type: ContentType): Promise<number> {
    const { Attributes: updated } = await guarded(() =>
      this.db.send(new UpdateCommand({
        TableName: this.tableName,
        Key: { documentId: META.sequence, locale: type.uid },
        UpdateExpression: 'ADD #n :one',
        ExpressionAttributeNames: { '#n': 'n' },
        ExpressionAttributeValues: { ':one': 1 },
        ReturnValues: 'UPDATED_NEW',
      })),
    )
    return Number(updated?.n)
  }

  /**
   * Applies `mutation` to a document in one transaction, guarded by the head revision and by
   * `guardLocale`'s registration item (registered, same fallback epoch). A lost race re-reads and
   * re-applies; a stale registry is refreshed first (the mutation then meets the new one). `first`
   * is the state the caller already read for its checks, used by the first attempt.
   */
  async write<T>(type: ContentType, documentId: string, guardLocale: string, mutation: Mutation<T>, first?: DocumentState, rewrite = false): Promise<T> {
    let state = first
    let guard = await this.guards.current()
    for (let attempt = 1; ; attempt++) {
      state ??= await this.getDocument(type, documentId)
      const now = this.now()
      const { versions, result } = mutation(state, now)
      const items = [
        this.headMove(type, state), this.localeCheck(guardLocale, guard),
        ...planWrites(type, this.tableName, state, versions, guard.chains, now, rewrite),
        ...claimWrites(type, this.tableName, documentId, state.versions, versions, rewrite),
      ]
      if (items.length > MAX_TRANSACTION_ITEMS) throw new Error(`a write of ${items.length} items exceeds one transaction`)
      // DynamoDB refuses a transaction over 4 MB (a 500 otherwise): a non-localized change to many large versions.
      if (Buffer.byteLength(JSON.stringify(items)) > MAX_TRANSACTION_BYTES) throw payloadTooLarge(MAX_TRANSACTION_BYTES)
      try {
        if (items.length > 2) await transactWrite(this.db, { TransactItems: items }, 1)
        return result
      } catch (error) {
        if (error instanceof ConditionFailed) {
          // Another document holds a unique value: a 400, as Strapi's `This attribute must be unique`.
          const taken = items.map((item, index) => (error.failedAt(index) ? claimedAttribute(item) : undefined)).find((name) => name !== undefined)
          if (taken !== undefined) throw notUnique(taken)
          if (error.failedAt(1)) guard = await this.guards.refresh(guardLocale)
        } else if (!(error instanceof TransactionConflict)) throw error
      }
      if (attempt >= WRITE_ATTEMPTS) throw serviceUnavailable()
      state = undefined
      await new Promise((resolve) => setTimeout(resolve, randomInt(5, 15 * 2 ** Math.min(attempt, 5))))
    }
  }

  /**
   * The first of `base`, `base-1`, `base-2`, ... that no document but `documentId` holds as
   * `attribute` in `locale` (a uid derived from its target field, as Strapi makes them). The
   * write's own claim still decides: a value taken meanwhile is a 400.
   */
  async availableUid(type: ContentType, attribute: string, locale: string, base: string, documentId: string): Promise<string> {
    for (let from = 0; from < 1000; from += 25) {
      const candidates = Array.from({ length: 25 }, (_, i) => (from + i === 0 ? base : `${base}-${from + i}`))
      const keys = candidates.map((value) => claimKey(type, attribute, locale, value))
      const taken = new Map<string, string>()
      let pending: Record<string, unknown>[] = keys
      while (pending.length > 0) {
        const answer = await guarded(() => this.db.send(new BatchGetCommand({ RequestItems: { [this.tableName]: { Keys: pending, ConsistentRead: true } } })))
        for (const item of answer.Responses?.[this.tableName] ?? []) taken.set(String(item.locale), String(item.owner))
        pending = (answer.UnprocessedKeys?.[this.tableName]?.Keys ?? []) as Record<string, unknown>[]
      }
      const free = candidates.find((_, i) => [undefined, documentId].includes(taken.get(keys[i]?.locale ?? '')))
      if (free !== undefined) return free
    }
    throw notUnique(attribute)
  }

  /**
   * Refuses a new version before anything is written: 413 when its item is too large, 400 when
   * another document holds one of its unique values. The write's own claims still decide a race.
   */
  async checkNew(type: ContentType, version: Version): Promise<void> {
    versionToItem(type, version)
    const claims = uniqueAttributes(type).filter((name) => version.attributes[name] !== null && version.attributes[name] !== undefined)
    if (claims.length === 0) return
    const Keys = claims.map((name) => claimKey(type, name, version.locale, version.attributes[name]))
    const answer = await guarded(() => this.db.send(new BatchGetCommand({ RequestItems: { [this.tableName]: { Keys, ConsistentRead: true } } })))
    const taken = (answer.Responses?.[this.tableName] ?? []).find((item) => item.owner !== version.documentId)
    if (taken !== undefined) throw notUnique(String(taken.attribute))
  }

  private headMove(type: ContentType, state: DocumentState): TransactItem {
    const Key = headKey(state.documentId)
    if (state.headRev === undefined) {
      return { Put: { TableName: this.tableName, Item: { ...Key, [ATTR.contentType]: type.uid, [ATTR.revision]: 1 }, ConditionExpression: 'attribute_not_exists(documentId)' } }
    }
    return {
      Update: {
        TableName: this.tableName,
        Key,
        UpdateExpression: 'SET #rev = #rev + :one',
        ConditionExpression: '#rev = :rev',
        ExpressionAttributeNames: { '#rev': ATTR.revision },
        ExpressionAttributeValues: { ':rev': state.headRev, ':one': 1 },
      },
    }
  }

  /** The locale is still registered and the fallback chains are those this write was planned with. */
  private localeCheck(locale: string, { epoch, stored }: LocaleGuard): TransactItem {
    // Before any registry is stored, the built-in one holds: the check is that none was stored meanwhile.
    if (!stored) {
      return { ConditionCheck: { TableName: this.tableName, Key: { documentId: META.config, locale: 'locales' }, ConditionExpression: 'attribute_not_exists(documentId)' } }
    }
    return {
      ConditionCheck: {
        TableName: this.tableName,
        Key: { documentId: META.locale, locale },
        ConditionExpression: 'epoch = :epoch',
        ExpressionAttributeValues: { ':epoch': epoch },
      },
    }
  }
}

/** The 400 of a value another document holds (Strapi's message and shape). */
function notUnique(attribute: string) {
  const message = 'This attribute must be unique'
  return badRequest(message, { errors: [{ path: [attribute], message, name: 'ValidationError' }] })
}
