// The document store: reads and writes of locale versions. The writes to a document from one
// process go through its queue: what arrives while a transaction is in flight is committed by the
// next one, all changes applied in order to one fresh read (document-commit.ts). Each transaction
// moves the document's head item on condition of the revision read, checks the locales' registration
// items (registered, fallback epoch unchanged), and writes the versions, the copies the fallback
// chains serve and the counts of the lists that change (document-plan.ts). A race lost to another
// process is retried with a fresh read (bounded, jittered): the caller sees 200, or a 412 for a
// stale If-Match, never a 409 for independent writes.
import { createHash, randomInt } from 'node:crypto'
import { GetCommand, QueryCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb'
import type { ContentType } from '../content-types.js'
import { ATTR, HEAD, META } from '../table.js'
import { guarded } from './client.js'
import { DocumentCommitter, type LocaleGuards, type Mutation, type Pending, type WriteGuards } from './document-commit.js'
import type { DocumentState } from './document-plan.js'
import { itemToVersion, servedKey, versionKey, versionProjection, versionToItem, type Version } from './items.js'

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


/** Most changes committed in one batch: bounds the work of one attempt; the rest wait for the next. */
const MAX_BATCH = 25

export class DocumentStore {
  private readonly queues = new Map<string, Pending[]>()
  private readonly committer: DocumentCommitter

  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    guards: LocaleGuards,
    now: () => string = () => new Date().toISOString(),
    extraGuards?: WriteGuards,
  ) {
    this.committer = new DocumentCommitter(db, tableName, guards, (type, documentId) => this.getDocument(type, documentId), now, extraGuards)
  }

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
   * Applies `mutation` to a document, committed in one transaction guarded by the head revision
   * and by `guardLocale`'s registration item (registered, same fallback epoch). Changes to one
   * document from this process are queued and committed together (document-commit.ts): each is
   * applied to the state the previous ones left, on a fresh read for every attempt. `first` is
   * the state the caller already read for its checks, used when nothing else is queued.
   */
  write<T>(type: ContentType, documentId: string, guardLocale: string, mutation: Mutation<T>, first?: DocumentState, rewrite = false): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const pending: Pending = { guardLocale, mutation, rewrite, resolve: resolve as (value: unknown) => void, reject }
      const queue = this.queues.get(documentId)
      if (queue !== undefined) {
        queue.push(pending)
        return
      }
      const fresh = [pending]
      this.queues.set(documentId, fresh)
      void this.drain(type, documentId, fresh, first)
    })
  }

  /** Commits a document's queue batch after batch until it is empty (a batch holds what arrived meanwhile). */
  private async drain(type: ContentType, documentId: string, queue: Pending[], first: DocumentState | undefined): Promise<void> {
    let read = first
    while (queue.length > 0) {
      const batch = queue.splice(0, MAX_BATCH)
      await this.committer.commit(type, documentId, batch, read)
      read = undefined
    }
    this.queues.delete(documentId)
  }

  /** Stores a version exactly as given (the benchmark's seeding and the reindex use the same items). */
  itemOf(type: ContentType, version: Version): Record<string, unknown> {
    return versionToItem(type, version)
  }
}
