// The resumable backfill behind `npm run admin -- reindex`: every document of every content type
// is written again, one transaction each under its head, with today's slot layout and keys
// (lib/storage/index-keys.ts KEY_VERSION) and today's fallback chains. It runs when a sortable
// attribute is added, when the keys' inputs change (ICU, the key algorithm), after a locale's
// fallback changes, once after upgrading a table from the layout before slot indexes, and once
// after upgrading to draft & publish (each published version without a draft gets one). Each
// step reads one page of the table and returns a cursor; a pass that ran entirely under one
// fallback epoch marks the served lists complete and records the key version.
import { ScanCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb'
import { typeByUid, type ContentType } from '../content-types.js'
import { badRequest } from '../errors.js'
import { ATTR } from '../table.js'
import { guarded } from './client.js'
import type { LocaleGuards } from './document-commit.js'
import type { DocumentStore } from './documents.js'

/** Where a pass stands: the fallback epoch it started under and the table position to go on from. */
interface Cursor {
  readonly epoch: number
  readonly start?: Record<string, unknown>
}

export interface ReindexStep {
  /** Pass this to the next step; null when the pass is complete. */
  readonly cursor: string | null
  /** Documents written in this step. */
  readonly documents: number
  /** True when the pass completed and the served lists and key version were recorded. */
  readonly done: boolean
}

/** Items of the table read per step (a Lambda call stays well within its timeout). */
const PAGE_ITEMS = 200

export class Reindexer {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly documents: DocumentStore,
    private readonly locales: LocaleGuards & { markServedReady(epoch: number): Promise<boolean>; defaultCode(): Promise<string>; recordIndexVersion(): Promise<void> },
    private readonly types: readonly ContentType[],
    private readonly pageItems = PAGE_ITEMS,
  ) {}

  /** One step of a pass: `cursor` from the previous step, or undefined to start a pass. */
  async step(cursor: string | undefined): Promise<ReindexStep> {
    const position = cursor === undefined ? { epoch: (await this.locales.current()).epoch } : decode(cursor)
    const page = await guarded(() => this.db.send(new ScanCommand({ TableName: this.tableName, Limit: this.pageItems, ExclusiveStartKey: position.start, ConsistentRead: true })))
    const seen = new Map<string, ContentType>()
    for (const item of page.Items ?? []) {
      const type = typeByUid(this.types, String(item[ATTR.contentType]))
      if (type !== undefined && !String(item.documentId).startsWith('#')) seen.set(String(item.documentId), type)
    }
    for (const [documentId, type] of seen) await this.rewrite(type, documentId)
    if (page.LastEvaluatedKey !== undefined) return { cursor: encode({ epoch: position.epoch, start: page.LastEvaluatedKey }), documents: seen.size, done: false }
    // A fallback changed during the pass: documents written before the change need another pass.
    if (!(await this.locales.markServedReady(position.epoch))) return { cursor: encode({ epoch: (await this.locales.current()).epoch }), documents: seen.size, done: false }
    await this.locales.recordIndexVersion()
    return { cursor: null, documents: seen.size, done: true }
  }

  /** Writes a document again as it is: versions and served copies with today's keys and chains. */
  private async rewrite(type: ContentType, documentId: string): Promise<void> {
    // A document stored before draft & publish gets its drafts first (equal to its published versions).
    const state = await this.documents.ensureDrafts(type, await this.documents.getDocument(type, documentId))
    if (state.versions.length === 0 && state.served.size === 0) return
    const guardLocale = state.versions[0]?.locale ?? (await this.locales.defaultCode())
    await this.documents.write(type, documentId, guardLocale, (current) => ({ versions: current.versions, result: undefined }), state, true)
  }
}

function encode(cursor: Cursor): string {
  return Buffer.from(JSON.stringify(cursor)).toString('base64url')
}

function decode(text: string): Cursor {
  try {
    const cursor = JSON.parse(Buffer.from(text, 'base64url').toString()) as Cursor
    if (typeof cursor.epoch !== 'number') throw new Error('no epoch')
    return cursor
  } catch {
    throw badRequest('Invalid reindex cursor', { key: 'cursor' })
  }
}
