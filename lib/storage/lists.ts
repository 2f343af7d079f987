// List reads. Their cost follows the page, not the table: the default order is one Query of the
// `byId` index plus the locale's count item; a later page in id order reads the small `sortKeys`
// entries from whichever end of the index is nearer; any other order reads every `sortKeys` entry,
// sorts them in memory and fetches only the page's documents with one BatchGet.
import { BatchGetCommand, GetCommand, QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb'
import type { ContentType } from '../content-types.js'
import { idOrder, sortComparator, type SortEntry } from '../query/sort.js'
import { INDEX, listKey } from '../table.js'
import { serviceUnavailable } from '../errors.js'
import { guarded } from './client.js'
import { countKey, itemToVersion, versionKey, type Version } from './items.js'

export interface ListRequest {
  /** Registered locale codes to list (several for `locale=*`). */
  readonly locales: readonly string[]
  /** The collation to sort strings with: the requested locale, or `*`. */
  readonly collation: string
  readonly sort: readonly SortEntry[]
  readonly offset: number
  readonly limit: number
  readonly withCount: boolean
}

export interface ListResult {
  readonly versions: Version[]
  /** Number of versions in the listed locales; undefined when not asked for. */
  readonly total: number | undefined
}

type Item = Record<string, unknown>

/** BatchGet accepts at most 100 keys a call. */
const BATCH_SIZE = 100

/** BatchGet calls made for one chunk before its unprocessed keys are given up as throttled. */
const BATCH_ATTEMPTS = 6

/**
 * Pages in id order ending within this many entries read their keys forward with the count in
 * parallel (one round trip less); deeper pages read the count first to pick the nearer end.
 */
const FORWARD_KEYS = 250

export class ListReader {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  /** One page of versions of `type` in the requested locales, ordered and counted as asked. */
  async list(type: ContentType, request: ListRequest): Promise<ListResult> {
    const order = idOrder(request.sort)
    if (order !== undefined && request.locales.length === 1) {
      const [locale] = request.locales as [string]
      if (request.offset === 0) {
        const [items, total] = await Promise.all([
          this.queryIndex(INDEX.byId, type, locale, order, request.limit),
          request.withCount ? this.count(type, request.locales) : undefined,
        ])
        return { versions: items.map((item) => itemToVersion(type, item)), total }
      }
      if (request.offset + request.limit > FORWARD_KEYS) return this.idPageFromNearerEnd(type, locale, order, request)
    }
    const wanted = order === undefined ? Number.POSITIVE_INFINITY : request.offset + request.limit
    const perLocale = await Promise.all(
      request.locales.map((locale) => this.queryIndex(INDEX.sortKeys, type, locale, order ?? 'asc', wanted)),
    )
    const keys = perLocale.flat().sort(sortComparator(order === undefined ? request.sort : [{ field: 'id', order }], type, request.collation))
    const page = keys.slice(request.offset, request.offset + request.limit)
    const [versions, total] = await Promise.all([
      this.fetch(type, page),
      !request.withCount ? undefined : order === undefined ? keys.length : this.count(type, request.locales),
    ])
    return { versions, total }
  }

  /**
   * A deep page in id order of one locale: the count first, then only the keys between the page
   * and the nearer end of the index (read backwards from the end when that is nearer), then the
   * page's documents. Past the end, no keys are read at all.
   */
  private async idPageFromNearerEnd(type: ContentType, locale: string, order: 'asc' | 'desc', request: ListRequest): Promise<ListResult> {
    const { offset, limit } = request
    const count = await this.count(type, [locale])
    const total = request.withCount ? count : undefined
    if (offset >= count) return { versions: [], total }
    const toEnd = count - offset
    if (toEnd >= offset + limit) {
      const keys = await this.queryIndex(INDEX.sortKeys, type, locale, order, offset + limit)
      return { versions: await this.fetch(type, keys.slice(offset)), total }
    }
    // tail[k] is the entry k places from the end, so the page is tail[toEnd - limit .. toEnd - 1] reversed.
    const tail = await this.queryIndex(INDEX.sortKeys, type, locale, order === 'asc' ? 'desc' : 'asc', toEnd)
    return { versions: await this.fetch(type, tail.slice(Math.max(0, toEnd - limit), toEnd).reverse()), total }
  }

  /** Up to `limit` entries of an index partition in id order, following pages as needed. */
  private async queryIndex(indexName: string, type: ContentType, locale: string, order: 'asc' | 'desc', limit: number): Promise<Item[]> {
    const items: Item[] = []
    let start: Item | undefined
    do {
      const remaining = limit - items.length
      const page = await guarded(() =>
        this.db.send(new QueryCommand({
          TableName: this.tableName,
          IndexName: indexName,
          KeyConditionExpression: '#lk = :lk',
          ExpressionAttributeNames: { '#lk': 'listKey' },
          ExpressionAttributeValues: { ':lk': listKey(type.uid, locale) },
          ScanIndexForward: order === 'asc',
          ExclusiveStartKey: start,
          ...(Number.isFinite(remaining) ? { Limit: remaining } : {}),
        })),
      )
      items.push(...(page.Items ?? []))
      start = page.LastEvaluatedKey
    } while (start !== undefined && items.length < limit)
    return items
  }

  /** The page's documents from the base table, in the order of `keys`; vanished ones skipped. */
  private async fetch(type: ContentType, keys: readonly Item[]): Promise<Version[]> {
    const items = await this.batchGet(keys.map((key) => versionKey(key.documentId as string, key.locale as string)))
    const found = new Map(items.map((item) => [`${String(item.documentId)}/${String(item.locale)}`, item]))
    return keys.flatMap((key) => {
      const item = found.get(`${String(key.documentId)}/${String(key.locale)}`)
      return item === undefined ? [] : [itemToVersion(type, item)]
    })
  }

  /** Every item of `keys` that exists, in chunks of 100, retrying unprocessed keys with backoff. */
  private async batchGet(keys: readonly Item[]): Promise<Item[]> {
    const items: Item[] = []
    for (let i = 0; i < keys.length; i += BATCH_SIZE) {
      let pending: Item[] = keys.slice(i, i + BATCH_SIZE)
      for (let attempt = 0; pending.length > 0; attempt++) {
        // Keys left unprocessed attempt after attempt mean DynamoDB is throttling: a 503, not a hang.
        if (attempt >= BATCH_ATTEMPTS) throw serviceUnavailable()
        if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, Math.min(1000, 25 * 2 ** attempt)))
        const request = { [this.tableName]: { Keys: pending } }
        const result = await guarded(() => this.db.send(new BatchGetCommand({ RequestItems: request })))
        items.push(...(result.Responses?.[this.tableName] ?? []))
        pending = (result.UnprocessedKeys?.[this.tableName]?.Keys ?? []) as Item[]
      }
    }
    return items
  }

  /** Versions of `type` in `locales`, from the count items kept in the write transactions. */
  async count(type: ContentType, locales: readonly string[]): Promise<number> {
    if (locales.length === 1) {
      const { Item } = await guarded(() => this.db.send(new GetCommand({ TableName: this.tableName, Key: countKey(type.uid, locales[0] as string) })))
      return Number(Item?.n ?? 0)
    }
    const items = await this.batchGet(locales.map((locale) => countKey(type.uid, locale)))
    return items.reduce((sum, item) => sum + Number(item.n ?? 0), 0)
  }
}
