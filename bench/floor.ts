// The floor: the bare DynamoDB calls a minimal handler would make for the same answer, written
// without the API's layers (no Hono, no query parsing, no access or locale checks, no mapping of
// items to documents), on the same instrumented client, so the benchmark can state the API's
// overhead as a ratio. Each method answers with the JSON text such a handler would send.
import {
  BatchGetCommand, GetCommand, QueryCommand, TransactWriteCommand, UpdateCommand, type DynamoDBDocumentClient,
} from '@aws-sdk/lib-dynamodb'
import type { Attributes } from '../lib/body.js'
import { article } from '../lib/content-types.js'
import { countKey, encodeValue, versionToItem, type Version } from '../lib/storage/items.js'
import { INDEX, META, listKey } from '../lib/table.js'

type Item = Record<string, unknown>
export type Compare = (a: Item, b: Item) => number

export class Floor {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  private query(indexName: string, locale: string, limit: number | undefined, start?: Item, backwards = false) {
    return this.db.send(new QueryCommand({
      TableName: this.tableName,
      IndexName: indexName,
      KeyConditionExpression: 'listKey = :lk',
      ExpressionAttributeValues: { ':lk': listKey(article.uid, locale) },
      ExclusiveStartKey: start,
      Limit: limit,
      ScanIndexForward: !backwards,
    }))
  }

  /** Every entry of an index partition, or the first `limit` (from the end if `backwards`), following 1 MB pages. */
  async queryAll(indexName: string, locale: string, limit?: number, backwards = false): Promise<Item[]> {
    const items: Item[] = []
    let start: Item | undefined
    do {
      const page = await this.query(indexName, locale, limit === undefined ? undefined : limit - items.length, start, backwards)
      items.push(...(page.Items ?? []))
      start = page.LastEvaluatedKey
    } while (start !== undefined && (limit === undefined || items.length < limit))
    return items
  }

  private async count(locale: string): Promise<number> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: countKey(article.uid, locale) }))
    return Number(Item?.n ?? 0)
  }

  private async batchGet(keys: readonly Item[]): Promise<Item[]> {
    const { Responses } = await this.db.send(new BatchGetCommand({
      RequestItems: { [this.tableName]: { Keys: keys.map((key) => ({ documentId: key.documentId, locale: key.locale })) } },
    }))
    const found = new Map((Responses?.[this.tableName] ?? []).map((item) => [item.documentId, item]))
    return keys.flatMap((key) => found.get(key.documentId) ?? [])
  }

  /** Default order, first page: one Query of `byId` and, with the total, the count item in parallel. */
  async firstPage(locale: string, limit: number, withCount: boolean): Promise<string> {
    const [page, total] = await Promise.all([this.query(INDEX.byId, locale, limit), withCount ? this.count(locale) : undefined])
    return JSON.stringify({ data: page.Items ?? [], meta: { total } })
  }

  /** Any order: every sort-key entry, sorted here, and the page's documents in one BatchGet. */
  async sortedPage(locale: string, compare: Compare, offset: number, limit: number): Promise<string> {
    const keys = (await this.queryAll(INDEX.sortKeys, locale)).sort(compare)
    const data = await this.batchGet(keys.slice(offset, offset + limit))
    return JSON.stringify({ data, meta: { total: keys.length } })
  }

  /**
   * Default order at an offset, with the same plan as the API: near the start, the keys up to the
   * page with the count in parallel; deeper, the count first, then the keys between the page and
   * the nearer end of the index. Then the page's documents.
   */
  async deepPage(locale: string, offset: number, limit: number): Promise<string> {
    if (offset + limit <= 250) {
      const [keys, total] = await Promise.all([this.queryAll(INDEX.sortKeys, locale, offset + limit), this.count(locale)])
      return JSON.stringify({ data: await this.batchGet(keys.slice(offset)), meta: { total } })
    }
    const total = await this.count(locale)
    const toEnd = total - offset
    const keys = toEnd >= offset + limit
      ? (await this.queryAll(INDEX.sortKeys, locale, offset + limit)).slice(offset)
      : (await this.queryAll(INDEX.sortKeys, locale, toEnd, true)).slice(Math.max(0, toEnd - limit)).reverse()
    return JSON.stringify({ data: keys.length === 0 ? [] : await this.batchGet(keys), meta: { total } })
  }

  /** One version, as strongly consistent as the API reads it. */
  async getOne(documentId: string, locale: string): Promise<string> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: { documentId, locale }, ConsistentRead: true }))
    return JSON.stringify({ data: Item })
  }

  /** Every stored version of a document (strongly consistent). */
  private async versions(documentId: string): Promise<Item[]> {
    const { Items = [] } = await this.db.send(new QueryCommand({
      TableName: this.tableName,
      KeyConditionExpression: 'documentId = :d',
      ExpressionAttributeValues: { ':d': documentId },
      ConsistentRead: true,
    }))
    return Items.filter((item) => item.locale !== '#head')
  }

  private async nextId(): Promise<number> {
    const { Attributes: updated } = await this.db.send(new UpdateCommand({
      TableName: this.tableName,
      Key: { documentId: META.sequence, locale: article.uid },
      UpdateExpression: 'ADD n :one',
      ExpressionAttributeValues: { ':one': 1 },
      ReturnValues: 'UPDATED_NEW',
    }))
    return Number(updated?.n)
  }

  /** A new version: the next id, then the version and its locale's count in one transaction. */
  private async put(documentId: string, locale: string, attributes: Attributes): Promise<string> {
    const id = await this.nextId()
    const now = new Date().toISOString()
    const version: Version = { documentId, locale, id, rev: 1, createdAt: now, updatedAt: now, publishedAt: now, attributes }
    const item = versionToItem(article, version)
    await this.db.send(new TransactWriteCommand({
      TransactItems: [
        { Put: { TableName: this.tableName, Item: item, ConditionExpression: 'attribute_not_exists(documentId)' } },
        { Update: { TableName: this.tableName, Key: countKey(article.uid, locale), UpdateExpression: 'ADD n :one', ExpressionAttributeValues: { ':one': 1 } } },
      ],
    }))
    return JSON.stringify({ data: item })
  }

  create(documentId: string, locale: string, attributes: Attributes): Promise<string> {
    return this.put(documentId, locale, attributes)
  }

  /** A new localization: read the document (it must exist; its shared values are copied), then write. */
  async newLocalization(documentId: string, locale: string, localized: Attributes): Promise<string> {
    const [first] = await this.versions(documentId)
    if (first === undefined) throw new Error(`floor: no document ${documentId}`)
    return this.put(documentId, locale, { ...localized, views: first.views ?? null, category: first.category ?? null })
  }

  /** A non-localized change: read the versions, then update all of them in one transaction. */
  async updateShared(documentId: string, locale: string, changes: Attributes): Promise<string> {
    const versions = await this.versions(documentId)
    const now = new Date().toISOString()
    const names = Object.fromEntries(Object.keys(changes).map((name, i) => [`#a${i}`, name]))
    const values = Object.fromEntries(Object.entries(changes).map(([name, value], i) => [`:a${i}`, encodeValue(article, name, value)]))
    const sets = Object.keys(names).map((alias, i) => `${alias} = :a${i}`)
    await this.db.send(new TransactWriteCommand({
      TransactItems: versions.map((version) => ({
        Update: {
          TableName: this.tableName,
          Key: { documentId, locale: version.locale },
          UpdateExpression: `SET ${[...sets, 'updatedAt = :now', 'publishedAt = :now', 'rev = rev + :one'].join(', ')}`,
          ConditionExpression: 'attribute_exists(documentId)',
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: { ...values, ':now': now, ':one': 1 },
        },
      })),
    }))
    const target = versions.find((version) => version.locale === locale)
    return JSON.stringify({ data: { ...target, ...changes, updatedAt: now, publishedAt: now } })
  }

  /** Deletes one version (404 semantics from the condition) and uncounts it, in one transaction. */
  async deleteVersion(documentId: string, locale: string): Promise<string> {
    await this.db.send(new TransactWriteCommand({
      TransactItems: [
        { Delete: { TableName: this.tableName, Key: { documentId, locale }, ConditionExpression: 'attribute_exists(documentId)' } },
        { Update: { TableName: this.tableName, Key: countKey(article.uid, locale), UpdateExpression: 'ADD n :minus', ExpressionAttributeValues: { ':minus': -1 } } },
      ],
    }))
    return ''
  }
}
