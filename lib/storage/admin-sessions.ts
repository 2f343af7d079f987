// The admin web interface's sessions as table items (`#session` partition, lib/table.ts): one item
// per signed-in session, keyed by a digest of the session's id (the cookie itself is signed, so
// the table never holds what a cookie needs), expiring with the session. Signing out deletes it;
// signing out everywhere deletes every item of the partition.
import { createHash } from 'node:crypto'
import { DeleteCommand, GetCommand, PutCommand, QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb'
import { META, TTL_ATTRIBUTE } from '../table.js'
import { guarded, inParallel } from './client.js'

/** Deletes sent at once when every session ends. */
const PARALLEL_DELETES = 10

const keyOf = (id: string) => ({ documentId: META.session, locale: createHash('sha256').update(id).digest('base64url') })

export class AdminSessionStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  /** Records a session that ends at `expires` (epoch seconds). */
  async open(id: string, expires: number): Promise<void> {
    await guarded(() => this.db.send(new PutCommand({ TableName: this.tableName, Item: { ...keyOf(id), [TTL_ATTRIBUTE]: expires } })))
  }

  /** True while the session is recorded and not past its end (one strongly consistent GetItem). */
  async isOpen(id: string, now: number): Promise<boolean> {
    const { Item } = await guarded(() => this.db.send(new GetCommand({ TableName: this.tableName, Key: keyOf(id), ConsistentRead: true })))
    return Item !== undefined && Number(Item[TTL_ATTRIBUTE]) * 1000 > now
  }

  /** Ends one session (sign-out); nothing when it is already gone. */
  async close(id: string): Promise<void> {
    await guarded(() => this.db.send(new DeleteCommand({ TableName: this.tableName, Key: keyOf(id) })))
  }

  /**
   * Ends every session (sign out everywhere): a Query of the partition, page by page, and a delete
   * per item. Sessions are as many as sign-ins in the last session lifetime: a handful. Returns how
   * many it ended.
   */
  async closeAll(): Promise<number> {
    let ended = 0
    let start: Record<string, unknown> | undefined
    do {
      const page = await guarded(() => this.db.send(new QueryCommand({
        TableName: this.tableName,
        KeyConditionExpression: 'documentId = :s',
        ExpressionAttributeValues: { ':s': META.session },
        ProjectionExpression: 'documentId, locale',
        ConsistentRead: true,
        ExclusiveStartKey: start,
      })))
      const keys = (page.Items ?? []) as { documentId: string; locale: string }[]
      await inParallel(keys.map((Key) => () => guarded(() => this.db.send(new DeleteCommand({ TableName: this.tableName, Key })))), PARALLEL_DELETES)
      ended += keys.length
      start = page.LastEvaluatedKey
    } while (start !== undefined)
    return ended
  }
}
