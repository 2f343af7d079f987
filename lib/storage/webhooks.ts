// Webhook settings and delivery logs, as small items of the settings partition `#webhook` (no
// index: every read is a GetItem or a Query of that one partition). A webhook's item counts its
// attempts; attempt n is logged in slot n mod LOG_SIZE, so the log keeps the last LOG_SIZE attempts
// with two writes per attempt and never needs a clean-up.
import { BatchWriteCommand, DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb'
import { META } from '../table.js'
import { conditionalWrite, guarded } from './client.js'

/** Attempts kept per webhook (integration.md §20). */
export const LOG_SIZE = 100

/** A webhook as stored: its header values and signing secret included (never shown back). */
export interface StoredWebhook {
  readonly id: number
  readonly name: string
  readonly url: string
  readonly headers: Readonly<Record<string, string>>
  readonly events: readonly string[]
  readonly isEnabled: boolean
  /** `whsec_<base64>`: the Standard Webhooks signing secret. */
  readonly secret: string
  readonly createdAt: string
  readonly updatedAt: string
}

/** One delivery attempt, as the log keeps it. */
export interface DeliveryAttempt {
  /** The attempt's number for its webhook (1, 2, ...): the newest has the highest. */
  readonly seq: number
  /** The `webhook-id` header: one per message, the same on every retry. */
  readonly messageId: string
  readonly event: string
  readonly at: string
  /** The receiver's status code; null when none came (refused address, timeout, network error). */
  readonly statusCode: number | null
  readonly durationMs: number
  readonly error: string | null
  /** `delivered`, `retrying` (another attempt is scheduled) or `failed` (given up, or a single attempt). */
  readonly outcome: 'delivered' | 'retrying' | 'failed'
  /** The body sent, for a redelivery (absent when it was too large to keep). */
  readonly body?: string
}

const hookKey = (id: number) => ({ documentId: META.webhook, locale: `hook#${id}` })
const logPrefix = (id: number) => `log#${id}#`
const CURSOR = 'cursor#'
const logKey = (id: number, slot: number) => ({ documentId: META.webhook, locale: `${logPrefix(id)}${String(slot).padStart(3, '0')}` })

/** Largest body kept in the log for a redelivery (an item holds 400 KB). */
const MAX_LOGGED_BODY = 300 * 1024

export class WebhookStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  /** Every webhook, by id (one Query, strongly consistent). */
  async list(): Promise<StoredWebhook[]> {
    const items = await this.query('hook#')
    return items.map(toWebhook).sort((a, b) => a.id - b.id)
  }

  async get(id: number): Promise<StoredWebhook | undefined> {
    const { Item } = await guarded(() => this.db.send(new GetCommand({ TableName: this.tableName, Key: hookKey(id), ConsistentRead: true })))
    return Item === undefined ? undefined : toWebhook(Item)
  }

  /** Stores a new webhook under the next webhook id. */
  async create(webhook: Omit<StoredWebhook, 'id'>): Promise<StoredWebhook> {
    const { Attributes } = await guarded(() => this.db.send(new UpdateCommand({
      TableName: this.tableName,
      Key: { documentId: META.sequence, locale: 'webhook' },
      UpdateExpression: 'ADD n :one',
      ExpressionAttributeValues: { ':one': 1 },
      ReturnValues: 'UPDATED_NEW',
    })))
    const stored: StoredWebhook = { ...webhook, id: Number(Attributes?.n) }
    await guarded(() => this.db.send(new PutCommand({ TableName: this.tableName, Item: toItem(stored), ConditionExpression: 'attribute_not_exists(documentId)' })))
    return stored
  }

  /** Replaces a webhook's settings (its attempt counter kept); false when it is gone. */
  async update(webhook: StoredWebhook): Promise<boolean> {
    const { documentId: _, locale: __, ...fields } = toItem(webhook)
    const names = Object.keys(fields)
    return conditionalWrite(async () => {
      await this.db.send(new UpdateCommand({
        TableName: this.tableName,
        Key: hookKey(webhook.id),
        UpdateExpression: `SET ${names.map((_, i) => `#f${i} = :f${i}`).join(', ')}`,
        ConditionExpression: 'attribute_exists(documentId)',
        ExpressionAttributeNames: Object.fromEntries(names.map((name, i) => [`#f${i}`, name])),
        ExpressionAttributeValues: Object.fromEntries(names.map((name, i) => [`:f${i}`, fields[name as keyof typeof fields]])),
      }))
      return true
    }, () => false)
  }

  /** Deletes a webhook and its log; false when it was already gone. */
  async delete(id: number): Promise<boolean> {
    const deleted = await conditionalWrite(async () => {
      await this.db.send(new DeleteCommand({ TableName: this.tableName, Key: hookKey(id), ConditionExpression: 'attribute_exists(documentId)' }))
      return true
    }, () => false)
    const logs = await this.query(logPrefix(id))
    for (let i = 0; i < logs.length; i += 25) {
      const chunk = logs.slice(i, i + 25).map((item) => ({ DeleteRequest: { Key: { documentId: item.documentId, locale: item.locale } } }))
      await guarded(() => this.db.send(new BatchWriteCommand({ RequestItems: { [this.tableName]: chunk } })))
    }
    return deleted
  }

  /** Logs an attempt in the webhook's ring; nothing when the webhook was deleted meanwhile. */
  async logAttempt(id: number, attempt: Omit<DeliveryAttempt, 'seq'>): Promise<void> {
    const seq = await conditionalWrite(async () => {
      const { Attributes } = await this.db.send(new UpdateCommand({
        TableName: this.tableName,
        Key: hookKey(id),
        UpdateExpression: 'ADD attempts :one',
        ConditionExpression: 'attribute_exists(documentId)',
        ExpressionAttributeValues: { ':one': 1 },
        ReturnValues: 'UPDATED_NEW',
      }))
      return Number(Attributes?.attempts)
    }, () => undefined)
    if (seq === undefined) return
    const { body, ...rest } = attempt
    const kept = body !== undefined && Buffer.byteLength(body) <= MAX_LOGGED_BODY ? { body } : {}
    await guarded(() => this.db.send(new PutCommand({ TableName: this.tableName, Item: { ...logKey(id, seq % LOG_SIZE), ...rest, ...kept, seq } })))
  }

  /** The logged attempts of a webhook, newest first. */
  async attempts(id: number): Promise<DeliveryAttempt[]> {
    const items = await this.query(logPrefix(id))
    return items.map(toAttempt).sort((a, b) => b.seq - a.seq)
  }

  /** An item of the table as it is now (strongly consistent), or null: what a stream record's event name may depend on. */
  async currentItem(documentId: string, list: string): Promise<Record<string, unknown> | null> {
    const { Item } = await guarded(() => this.db.send(new GetCommand({ TableName: this.tableName, Key: { documentId, locale: list }, ConsistentRead: true })))
    return Item ?? null
  }

  /** A stream consumer's position in a shard (local runs), or undefined when it never read it. */
  async cursor(shardId: string): Promise<string | undefined> {
    const { Item } = await guarded(() => this.db.send(new GetCommand({ TableName: this.tableName, Key: { documentId: META.webhook, locale: `${CURSOR}${shardId}` }, ConsistentRead: true })))
    return Item === undefined ? undefined : String(Item.sequenceNumber)
  }

  async putCursor(shardId: string, sequenceNumber: string): Promise<void> {
    await guarded(() => this.db.send(new PutCommand({ TableName: this.tableName, Item: { documentId: META.webhook, locale: `${CURSOR}${shardId}`, sequenceNumber } })))
  }

  /** Whether an item (a stream record's image) is a consumer's cursor: its own writes, which it skips. */
  static isCursor(item: Record<string, unknown> | undefined): boolean {
    return item?.documentId === META.webhook && typeof item.locale === 'string' && item.locale.startsWith(CURSOR)
  }

  private async query(prefix: string): Promise<Record<string, unknown>[]> {
    const items: Record<string, unknown>[] = []
    let start: Record<string, unknown> | undefined
    do {
      const page = await guarded(() => this.db.send(new QueryCommand({
        TableName: this.tableName,
        KeyConditionExpression: 'documentId = :w AND begins_with(locale, :p)',
        ExpressionAttributeValues: { ':w': META.webhook, ':p': prefix },
        ConsistentRead: true,
        ExclusiveStartKey: start,
      })))
      items.push(...(page.Items ?? []))
      start = page.LastEvaluatedKey
    } while (start !== undefined)
    return items
  }
}

function toItem(webhook: StoredWebhook): Record<string, unknown> {
  const { id, ...rest } = webhook
  return { ...hookKey(id), hookId: id, ...rest, events: [...webhook.events] }
}

function toWebhook(item: Record<string, unknown>): StoredWebhook {
  return {
    id: Number(item.hookId),
    name: item.name as string,
    url: item.url as string,
    headers: (item.headers as Record<string, string> | undefined) ?? {},
    events: (item.events as string[] | undefined) ?? [],
    isEnabled: item.isEnabled === true,
    secret: item.secret as string,
    createdAt: item.createdAt as string,
    updatedAt: item.updatedAt as string,
  }
}

function toAttempt(item: Record<string, unknown>): DeliveryAttempt {
  return {
    seq: Number(item.seq),
    messageId: item.messageId as string,
    event: item.event as string,
    at: item.at as string,
    statusCode: item.statusCode === undefined || item.statusCode === null ? null : Number(item.statusCode),
    durationMs: Number(item.durationMs),
    error: (item.error ?? null) as string | null,
    outcome: item.outcome as DeliveryAttempt['outcome'],
    ...(typeof item.body === 'string' ? { body: item.body } : {}),
  }
}
