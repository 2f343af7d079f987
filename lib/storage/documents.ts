// The document store: reads and writes of locale versions. Every write that must agree with
// another item (a version and its locale's count, a non-localized value and its siblings) is one
// conditional transaction, so a crash between steps cannot leave them out of step.
import { createHash, randomInt } from 'node:crypto'
import { GetCommand, QueryCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb'
import type { Attributes } from '../body.js'
import type { ContentType } from '../content-types.js'
import { conflict, notFound, preconditionFailed } from '../errors.js'
import { ATTR, META } from '../table.js'
import { ConditionFailed, conditionalWrite, guarded, transactWrite } from './client.js'
import { applyChanges, countKey, itemToVersion, updateFor, versionKey, versionToItem, type Version, type VersionTag } from './items.js'

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

/** Sort key of a single type's head item; locale codes never start with `#`. */
const HEAD = '#head'

/** A document as read: its versions and the revision of its head (undefined: no head yet). */
export interface StoredDocument {
  readonly documentId: string
  readonly versions: readonly Version[]
  readonly headRev: number | undefined
}

export class DocumentStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly now: () => string = () => new Date().toISOString(),
  ) {}

  /** One version, read strongly consistent; undefined when absent or of another type. */
  async getVersion(type: ContentType, documentId: string, locale: string): Promise<Version | undefined> {
    const { Item } = await guarded(() =>
      this.db.send(new GetCommand({ TableName: this.tableName, Key: versionKey(documentId, locale), ConsistentRead: true })),
    )
    return Item !== undefined && Item.contentType === type.uid ? itemToVersion(type, Item) : undefined
  }

  /**
   * A document: every version by id ascending and, for a single type, the revision of its head
   * item (the marker its first version is created against), read strongly consistent.
   */
  async getDocument(type: ContentType, documentId: string): Promise<StoredDocument> {
    const { Items = [] } = await guarded(() =>
      this.db.send(new QueryCommand({
        TableName: this.tableName,
        KeyConditionExpression: 'documentId = :d',
        ExpressionAttributeValues: { ':d': documentId },
        ConsistentRead: true,
      })),
    )
    const mine = Items.filter((item) => item.contentType === type.uid)
    const head = mine.find((item) => item.locale === HEAD)
    const versions = mine.filter((item) => item.locale !== HEAD).map((item) => itemToVersion(type, item))
    return { documentId, versions: versions.sort((a, b) => a.id - b.id), headRev: head === undefined ? undefined : Number(head.rev) }
  }

  private async nextId(type: ContentType): Promise<number> {
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
   * Writes a new version of `document` and counts it, in one transaction that fails with a 409 if
   * the version exists or the document changed since it was read. A localization moves on the
   * revision of the version its non-localized values were copied from, so it and a concurrent
   * non-localized update (conditioned on every version's revision) exclude each other. A single
   * type's first version is guarded by its head item instead; a new collection document needs no
   * guard, as nobody else can know its documentId yet.
   */
  async createVersion(type: ContentType, document: StoredDocument, locale: string, attributes: Attributes): Promise<Version> {
    const { documentId } = document
    const now = this.now()
    const blank = Object.fromEntries(Object.keys(type.attributes).map((name) => [name, null]))
    const draft: Version = { documentId, locale, id: 0, rev: 1, createdAt: now, updatedAt: now, publishedAt: now, attributes: { ...blank, ...attributes } }
    // Size check (413) before the id sequence moves, so a rejected request writes nothing.
    versionToItem(type, draft)
    const version: Version = { ...draft, id: await this.nextId(type) }
    try {
      await transactWrite(this.db, {
        TransactItems: [
          { Put: { TableName: this.tableName, Item: versionToItem(type, version), ConditionExpression: 'attribute_not_exists(documentId)' } },
          { Update: this.countUpdate(type, locale, 1) },
          ...this.creationGuard(type, document),
        ],
      })
    } catch (error) {
      if (error instanceof ConditionFailed) {
        throw conflict(error.failedAt(0) ? 'This locale version was created by a concurrent request' : 'The document was changed by a concurrent request; retry')
      }
      throw error
    }
    return version
  }

  /**
   * Applies `changes` to `target`. Non-localized changes go to every other version in the same
   * transaction, each on condition of the revision read (a localization created meanwhile moved
   * its source's), so a lost race is a 409, never a torn write. `expectedRev` (from If-Match)
   * makes a stale target a 412.
   */
  async updateVersion(type: ContentType, document: StoredDocument, target: Version, changes: Attributes, expectedRev?: number): Promise<Version> {
    const now = this.now()
    const shared = Object.fromEntries(Object.entries(changes).filter(([name]) => type.attributes[name]?.localized === false))
    const sharedChange = Object.keys(shared).length > 0
    if (!sharedChange && expectedRev === undefined) return this.updateOne(type, target, changes, now)
    const others = sharedChange ? document.versions.filter((s) => s.locale !== target.locale) : []
    try {
      await transactWrite(this.db, {
        TransactItems: [
          { Update: { ...updateFor(type, this.tableName, target, changes, now, expectedRev ?? target.rev), ReturnValuesOnConditionCheckFailure: 'ALL_OLD' } },
          ...others.map((sibling) => ({ Update: updateFor(type, this.tableName, sibling, shared, now, sibling.rev) })),
        ],
      })
    } catch (error) {
      if (!(error instanceof ConditionFailed)) throw error
      if (error.failedAt(0)) {
        if (error.reasons[0]?.Item === undefined) throw notFound()
        if (expectedRev !== undefined) throw preconditionFailed()
      }
      throw conflict('The document was changed by a concurrent request; retry')
    }
    return applyChanges(target, changes, now)
  }

  private async updateOne(type: ContentType, target: Version, changes: Attributes, now: string): Promise<Version> {
    const { Attributes: item } = await conditionalWrite(
      () => this.db.send(new UpdateCommand({ ...updateFor(type, this.tableName, target, changes, now), ReturnValues: 'ALL_NEW' })),
      () => {
        throw notFound()
      },
    )
    return itemToVersion(type, item ?? {})
  }

  /**
   * Deletes one version and uncounts it in one transaction, without reading it first: 404 when it
   * does not exist (or is another type's), 412 when it exists but `accepted` (If-Match) does not
   * name it. A single type's head stays: its next first PUT moves the same head on.
   */
  async deleteVersion(type: ContentType, documentId: string, locale: string, accepted?: readonly VersionTag[] | '*'): Promise<void> {
    const names: Record<string, string> = { '#type': ATTR.contentType }
    const values: Record<string, unknown> = { ':uid': type.uid }
    let condition = '#type = :uid'
    if (accepted !== undefined && accepted !== '*') {
      // No tag that could name a version: the condition must fail on an existing one (412).
      if (accepted.length === 0) condition += ' AND attribute_not_exists(#type)'
      else {
        Object.assign(names, { '#rev': ATTR.revision, '#id': ATTR.id })
        accepted.forEach((tag, i) => Object.assign(values, { [`:i${i}`]: tag.id, [`:r${i}`]: tag.rev }))
        const tags = accepted.map((_, i) => `#id = :i${i} AND #rev = :r${i}`)
        // DynamoDB rejects redundant parentheses, so a single tag stands bare.
        condition += tags.length === 1 ? ` AND ${tags[0]}` : ` AND (${tags.map((tag) => `(${tag})`).join(' OR ')})`
      }
    }
    try {
      await transactWrite(this.db, {
        TransactItems: [
          {
            Delete: {
              TableName: this.tableName,
              Key: versionKey(documentId, locale),
              ConditionExpression: condition,
              ExpressionAttributeNames: names,
              ExpressionAttributeValues: values,
              ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
            },
          },
          { Update: this.countUpdate(type, locale, -1) },
        ],
      })
    } catch (error) {
      if (!(error instanceof ConditionFailed)) throw error
      // Cancellation reasons carry the item in DynamoDB's wire format ({ S: ... }).
      const existingType = (error.reasons[0]?.Item?.contentType as { S?: string } | undefined)?.S
      throw existingType === type.uid ? preconditionFailed() : notFound()
    }
  }

  /** Deletes every listed version of a document and uncounts them in one transaction (409 if one is gone). */
  async deleteVersions(type: ContentType, versions: readonly Version[]): Promise<void> {
    try {
      await transactWrite(this.db, {
        TransactItems: versions.flatMap((version) => [
          { Delete: { TableName: this.tableName, Key: versionKey(version.documentId, version.locale), ConditionExpression: 'attribute_exists(documentId)' } },
          { Update: this.countUpdate(type, version.locale, -1) },
        ]),
      })
    } catch (error) {
      if (error instanceof ConditionFailed) throw conflict('A version was deleted by a concurrent request; retry')
      throw error
    }
  }

  private countUpdate(type: ContentType, locale: string, delta: number) {
    return {
      TableName: this.tableName,
      Key: countKey(type.uid, locale),
      UpdateExpression: 'ADD #n :delta',
      ExpressionAttributeNames: { '#n': 'n' },
      ExpressionAttributeValues: { ':delta': delta },
    }
  }

  /** What a new version's transaction must also write so that concurrent changes exclude it. */
  private creationGuard(type: ContentType, document: StoredDocument) {
    const source = document.versions[0]
    if (source !== undefined) return [{ Update: this.revisionMove(versionKey(source.documentId, source.locale), source.rev) }]
    if (type.kind === 'collection') return []
    const Key = versionKey(document.documentId, HEAD)
    if (document.headRev === undefined) {
      return [{ Put: { TableName: this.tableName, Item: { ...Key, contentType: type.uid, rev: 1 }, ConditionExpression: 'attribute_not_exists(documentId)' } }]
    }
    return [{ Update: this.revisionMove(Key, document.headRev) }]
  }

  /** Moves an item's revision on, on condition it is still `seen`. */
  private revisionMove(Key: Record<string, string>, seen: number) {
    return {
      TableName: this.tableName,
      Key,
      UpdateExpression: 'SET #rev = #rev + :one',
      ConditionExpression: '#rev = :rev',
      ExpressionAttributeNames: { '#rev': ATTR.revision },
      ExpressionAttributeValues: { ':rev': seen, ':one': 1 },
    }
  }
}
