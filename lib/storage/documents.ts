// The document store: reads and writes of locale versions. The writes to a document from one
// process go through its queue: what arrives while a transaction is in flight is committed by the
// next one, all changes applied in order to one fresh read (document-commit.ts). Each transaction
// moves the document's head item on condition of the revision read, checks the locales' registration
// items (registered, fallback epoch unchanged), and writes the versions, the copies the fallback
// chains serve and the counts of the lists that change (document-plan.ts). A race lost to another
// process is retried with a fresh read (bounded, jittered): the caller sees 200, or a 412 for a
// stale If-Match, never a 409 for independent writes.
import { createHash, randomInt } from 'node:crypto'
import { BatchGetCommand, GetCommand, QueryCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb'
import { ownedRelations, type ContentType } from '../content-types.js'
import { ATTR, HEAD, INDEX, META, listKey, type PublicationState, type Status } from '../table.js'
import { batchGetItems, conditionalWrite, guarded } from './client.js'
import { DocumentCommitter, notUnique, type Group, type LocaleGuards, type Mutation, type Pending } from './document-commit.js'
import { emptyDocument, missingDrafts, withDrafts, type DocumentState } from './document-plan.js'
import { headKey, itemToVersion, listOf, servedKey, versionKey, versionProjection, versionToItem, type Version } from './items.js'
import { scanDocuments } from './document-scan.js'
import { claimKey, uniqueAttributes } from './unique.js'
import { changeOf, marksOf, resolveItems, settlePending } from './wide/overlay.js'

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


/** Most changes to one document committed in one batch: bounds the work of one attempt; the rest wait for the next. */
const MAX_BATCH = 25

/**
 * Most items the groups of one transaction are expected to write (see weightOf), leaving room in
 * DynamoDB's 100 for the count items, locale checks and unique claims; a batch that still goes past
 * it is split by the committer. 16 new documents (3 each) fit, as do 10 updates of a document in one locale.
 */
const MAX_WEIGHT = 50

/** Ids of a type drawn ahead: `next` to `last`, handed out until `until` (ms since the epoch). */
interface Spare {
  next: number
  readonly last: number
  readonly until: number
}

/**
 * How long ids drawn ahead are kept. Past it they are skipped, so that a process that drew ahead
 * and went idle does not give a later document an id below those other processes gave meanwhile.
 */
const SPARE_MS = 1000

/** Ids drawn ahead by a batch of creates when more wait behind it (about two batches' worth). */
const AHEAD_IDS = 32

/** A caller waiting for `count` ids. */
interface IdWaiter {
  readonly count: number
  /** How many more to draw for the calls that follow, when the counter moves. */
  readonly ahead: number
  resolve(ids: number[]): void
  reject(error: unknown): void
}

/** A document's changes waiting for the type's next transaction, and the call to make once it is committed. */
interface Queued {
  readonly group: Group
  readonly weight: number
  /** A create's new ids, drawn just before its transaction. */
  readonly ids?: IdRequest
  done(): void
}

/** How many ids a create needs, and where to hand them. */
interface IdRequest {
  readonly count: number
  assign(ids: readonly number[]): void
}

/**
 * About how many items a group's transaction writes: its head, the versions it holds (a change to a
 * non-localized value rewrites each, with its served copies) and two new versions per change
 * (a new document, a new localization); a document not read yet counts as a few versions.
 */
function weightOf(group: Group): number {
  const stored = group.state === undefined ? 4 : group.state.versions.length + group.state.served.size
  return 1 + stored + 2 * group.changes.length
}

/** A document's state from its items (head, versions, served copies) of `type`; copies not yet created (placeholders) left out. */
function documentState(type: ContentType, documentId: string, head: Record<string, unknown> | undefined, items: readonly Record<string, unknown>[]): DocumentState {
  const own = items.filter((item) => item.locale !== HEAD && !String(item.locale).startsWith('~'))
  const versions = own.map((item) => itemToVersion(type, item))
  const served = new Map(items.filter((item) => String(item.locale).startsWith('~') && item[ATTR.placeholder] !== true).map((item) => [
    String(item.locale).slice(1), { source: String(item[ATTR.source]), id: Number(item[ATTR.id]), rev: Number(item[ATTR.revision]) },
  ]))
  // `ps` ends with the state letter (`<uid>#<list>#<state>`); versions stored before draft & publish have none.
  const states = new Map(own.filter((item) => typeof item[ATTR.publication] === 'string').map((item) => [String(item.locale), String(item[ATTR.publication]).slice(-1) as PublicationState]))
  return { documentId, headRev: head === undefined ? undefined : Number(head[ATTR.revision]), versions: versions.sort((a, b) => a.id - b.id), served, states }
}

export class DocumentStore {
  private readonly queues = new Map<string, Pending[]>()
  private readonly commits = new Map<string, Queued[]>()
  private readonly idWaiters = new Map<string, IdWaiter[]>()
  private readonly spare = new Map<string, Spare>()
  private readonly committer: DocumentCommitter

  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    guards: LocaleGuards,
    now: () => string = () => new Date().toISOString(),
  ) {
    this.committer = new DocumentCommitter(db, tableName, guards, (type, documentId) => this.getDocument(type, documentId), now)
  }

  /** Every document of the table (ids and type uids), a page at a time: a whole-table pass for `npm run export`, never a request's read. */
  scan(pageItems?: number): AsyncGenerator<{ documentId: string; uid: string }[]> {
    return scanDocuments(this.db, this.tableName, pageItems)
  }

  /** One version, read strongly consistent; undefined when absent or of another type. */
  async getVersion(type: ContentType, documentId: string, locale: string, status: Status = 'published'): Promise<Version | undefined> {
    return this.getItem(type, versionKey(documentId, locale, status))
  }

  /** The version of `status` that `locale`'s fallback chain serves, from its served copy (one strongly consistent read). */
  async getServed(type: ContentType, documentId: string, locale: string, status: Status = 'published'): Promise<Version | undefined> {
    return this.getItem(type, servedKey(documentId, locale, status))
  }

  /**
   * The versions stored under `keys` (a documentId and a list name: `en`, `draft:en`, `~en`...)
   * that exist and are of `type`, in `BatchGetItem`s of 100 read in parallel (eventually
   * consistent, as list pages are): how populate and relation writes read targets.
   */
  getVersions(type: ContentType, keys: readonly { documentId: string; list: string }[]): Promise<Version[]> {
    return this.batchReader()(type, keys)
  }

  /**
   * A reader of versions by key that joins the reads asked for in one turn of the event loop (of
   * any types) into one `BatchGetItem` per 100 keys: populate asks for every relation of a level
   * at once, so a level costs one batched read, not one per relation.
   */
  batchReader(): (type: ContentType, keys: readonly { documentId: string; list: string }[]) => Promise<Version[]> {
    let queued: { type: ContentType; keys: { documentId: string; locale: string }[]; resolve: (versions: Version[]) => void; reject: (error: unknown) => void }[] = []
    const flush = async () => {
      const batch = queued
      queued = []
      try {
        const types = [...new Set(batch.map((entry) => entry.type))]
        const extra = types.slice(1).flatMap((type) => [...Object.keys(type.attributes), ...ownedRelations(type)])
        const keys = [...new Map(batch.flatMap((entry) => entry.keys).map((key) => [`${key.documentId} ${key.locale}`, key])).values()]
        const items = await settlePending(this.db, this.tableName, await batchGetItems(this.db, this.tableName, keys, versionProjection(types[0] as ContentType, extra)))
        const byKey = new Map(items.map((item) => [`${String(item.documentId)} ${String(item.locale)}`, item]))
        for (const entry of batch) {
          entry.resolve(entry.keys.flatMap((key) => {
            const item = byKey.get(`${key.documentId} ${key.locale}`)
            return item !== undefined && item[ATTR.contentType] === entry.type.uid ? [itemToVersion(entry.type, item)] : []
          }))
        }
      } catch (error) {
        for (const entry of batch) entry.reject(error)
      }
    }
    return (type, keys) => {
      const valid = [...new Map(keys.filter((key) => DOCUMENT_ID.test(key.documentId)).map((key) => [`${key.documentId} ${key.list}`, { documentId: key.documentId, locale: key.list }])).values()]
      if (valid.length === 0) return Promise.resolve([])
      return new Promise<Version[]>((resolve, reject) => {
        if (queued.length === 0) setImmediate(() => void flush())
        queued.push({ type, keys: valid, resolve, reject })
      })
    }
  }

  /**
   * The version of `type` whose id is `id` in `list`, through the `byId` index (eventually
   * consistent: a version written a moment ago may not be there yet); undefined when none.
   */
  async versionById(type: ContentType, list: string, id: number): Promise<Version | undefined> {
    const { Items } = await guarded(() => this.db.send(new QueryCommand({
      TableName: this.tableName,
      IndexName: INDEX.byId,
      KeyConditionExpression: '#lk = :lk AND #id = :id',
      ExpressionAttributeNames: { '#lk': ATTR.listKey, '#id': ATTR.id },
      ExpressionAttributeValues: { ':lk': listKey(type.uid, list), ':id': id },
    })))
    const [item] = await settlePending(this.db, this.tableName, Items ?? [])
    return item === undefined ? undefined : itemToVersion(type, item)
  }

  /**
   * One item, whole: a projection saves little on one item (GetItem's capacity is the item's size
   * whatever is projected) and costs DynamoDB Local about 0.1 ms to apply; pages, where it halves
   * what is sent and decoded, keep it (lists/reader.ts).
   */
  private async getItem(type: ContentType, Key: Record<string, string>): Promise<Version | undefined> {
    const { Item: stored } = await guarded(() => this.db.send(new GetCommand({ TableName: this.tableName, Key, ConsistentRead: true })))
    const [Item] = stored === undefined ? [] : await settlePending(this.db, this.tableName, [stored])
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
    const marked = mine.filter((item) => item[ATTR.pending] !== undefined || item[ATTR.placeholder] === true)
    const change = changeOf(head)
    if (marked.length === 0 && change === undefined) return documentState(type, documentId, head, mine)
    // A wide write's marks: the document as readers see it (its head is in the same read), and as stored.
    const byKey = new Map(mine.map((item) => [String(item.locale), item]))
    const resolved = resolveItems(mine, () => change, (key) => byKey.get(key.locale))
    return {
      ...documentState(type, documentId, head, resolved),
      wide: { change, stored: documentState(type, documentId, head, mine), marks: new Map(marked.map((item) => [String(item.locale), marksOf(item)])) },
    }
  }

  /**
   * The next id of a content type (ids are unique per type across locales and statuses,
   * increasing). Calls that arrive while one is in flight share the next counter update.
   */
  async nextId(type: ContentType): Promise<number> {
    return (await this.nextIds(type, 1))[0] as number
  }

  /**
   * `count` new ids of a content type, taken in one counter update with any calls in flight, in
   * the order asked. `ahead` more are drawn with them when the counter must move (under load: many
   * creates at once), and handed to the next calls of this process without a counter update for
   * up to SPARE_MS; ids left then are skipped (ids are unique and increasing, not dense).
   */
  nextIds(type: ContentType, count: number, ahead = 0): Promise<number[]> {
    if (count === 0) return Promise.resolve([])
    return new Promise<number[]>((resolve, reject) => {
      const waiter: IdWaiter = { count, ahead, resolve, reject }
      const waiting = this.idWaiters.get(type.uid)
      if (waiting !== undefined) {
        waiting.push(waiter)
        return
      }
      const fresh = [waiter]
      this.idWaiters.set(type.uid, fresh)
      void this.drainIds(type, fresh)
    })
  }

  private async drainIds(type: ContentType, queue: IdWaiter[]): Promise<void> {
    while (queue.length > 0) {
      const batch = queue.splice(0)
      const total = batch.reduce((sum, waiter) => sum + waiter.count, 0)
      try {
        const ids = await this.takeIds(type, total, Math.max(...batch.map((waiter) => waiter.ahead)))
        let next = 0
        for (const waiter of batch) {
          waiter.resolve(ids.slice(next, next + waiter.count))
          next += waiter.count
        }
      } catch (error) {
        batch.forEach((waiter) => waiter.reject(error))
      }
    }
    this.idWaiters.delete(type.uid)
  }

  /** `count` ids, increasing: the spare ones drawn ahead first, then from the counter (with `ahead` more kept spare). */
  private async takeIds(type: ContentType, count: number, ahead: number): Promise<number[]> {
    const spare = this.spare.get(type.uid)
    const kept = spare !== undefined && spare.until > Date.now() ? spare : undefined
    const taken = kept === undefined ? 0 : Math.min(count, kept.last - kept.next + 1)
    const ids = Array.from({ length: taken }, (_, i) => (kept as Spare).next + i)
    if (kept !== undefined && taken < kept.last - kept.next + 1) {
      kept.next += taken
      return ids
    }
    this.spare.delete(type.uid)
    if (taken === count) return ids
    const missing = count - taken
    const last = await this.addToSequence(type, missing + ahead)
    const first = last - missing - ahead + 1
    if (ahead > 0) this.spare.set(type.uid, { next: first + missing, last, until: Date.now() + SPARE_MS })
    return [...ids, ...Array.from({ length: missing }, (_, i) => first + i)]
  }

  /** Moves the type's id counter on by `count`; the answer is the last id taken. */
  private async addToSequence(type: ContentType, count: number): Promise<number> {
    const { Attributes: updated } = await guarded(() =>
      this.db.send(new UpdateCommand({
        TableName: this.tableName,
        Key: { documentId: META.sequence, locale: type.uid },
        UpdateExpression: 'ADD #n :count',
        ExpressionAttributeNames: { '#n': 'n' },
        ExpressionAttributeValues: { ':count': count },
        ReturnValues: 'UPDATED_NEW',
      })),
    )
    return Number(updated?.n)
  }

  /**
   * Moves the type's id counter up to `atLeast` when it is below (an import keeping the ids of
   * another system): ids drawn afterwards are above every id imported.
   */
  async raiseSequence(type: ContentType, atLeast: number): Promise<void> {
    await conditionalWrite(() => this.db.send(new UpdateCommand({
      TableName: this.tableName,
      Key: { documentId: META.sequence, locale: type.uid },
      UpdateExpression: 'SET #n = :n',
      ConditionExpression: 'attribute_not_exists(#n) OR #n < :n',
      ExpressionAttributeNames: { '#n': 'n' },
      ExpressionAttributeValues: { ':n': atLeast },
    })), () => undefined)
  }

  /**
   * Creates a new document (a POST): `mutation` is applied to its empty state with `idCount` new ids
   * of the type, drawn when its transaction is about to be sent (one counter update for every create
   * of that transaction, so ids increase in the order creates are committed). It is committed with
   * the other writes of the type waiting meanwhile (commitTogether): new documents created at the
   * same time share one transaction, each count item moved once for all of them.
   */
  create<T>(type: ContentType, documentId: string, guardLocale: string, idCount: number, mutation: (state: DocumentState, now: string, ids: readonly number[]) => { versions: readonly Version[]; result: T }): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const drawn: { ids: readonly number[] } = { ids: [] }
      const pending: Pending = { guardLocale, mutation: (state, now) => mutation(state, now, drawn.ids), rewrite: false, resolve: resolve as (value: unknown) => void, reject }
      void this.commitTogether(type, { documentId, changes: [pending], state: emptyDocument(documentId) }, { count: idCount, assign: (ids) => void (drawn.ids = ids) })
    })
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

  /**
   * Writes many documents at once (an import): each document's changes (a version each, about) are
   * applied in order to one state and committed with the type's other writes (commitTogether), in
   * one transaction with their counts and index keys, as `write` does. Their heads are read first,
   * 100 a call: a document without one is new, so no read of it precedes its transaction (its head
   * is put on condition that it still has none; a race lost re-reads it). Resolves with each
   * change's result, per document, once all are committed; rejects with the first failure.
   */
  async writeMany(type: ContentType, documents: readonly { documentId: string; changes: readonly { guardLocale: string; mutation: Mutation<unknown> }[] }[]): Promise<unknown[][]> {
    const heads = await batchGetItems(this.db, this.tableName, documents.map((document) => headKey(document.documentId)), { ProjectionExpression: '#d', ExpressionAttributeNames: { '#d': 'documentId' } }, true)
    const stored = new Set(heads.map((item) => String(item.documentId)))
    const perVersion = 1 + uniqueAttributes(type).length
    return Promise.all(documents.map((document) => {
      const pendings: Pending[] = []
      const results = document.changes.map((change) => new Promise<unknown>((resolve, reject) => {
        pendings.push({ guardLocale: change.guardLocale, mutation: change.mutation, rewrite: false, resolve, reject })
      }))
      const state = stored.has(document.documentId) ? undefined : emptyDocument(document.documentId)
      void this.commitTogether(type, { documentId: document.documentId, changes: pendings, state }, undefined, 1 + perVersion * pendings.length)
      return Promise.all(results)
    }))
  }

  /** Commits a document's queue batch after batch until it is empty (a batch holds what arrived meanwhile). */
  private async drain(type: ContentType, documentId: string, queue: Pending[], first: DocumentState | undefined): Promise<void> {
    let read = first
    while (queue.length > 0) {
      const batch = queue.splice(0, MAX_BATCH)
      await this.commitTogether(type, { documentId, changes: batch, state: read })
      read = undefined
    }
    this.queues.delete(documentId)
  }

  /**
   * Commits `group` (one document's changes) in the type's next transaction, with the groups of
   * other documents that arrive while one is in flight (group commit across documents: one
   * transaction, each count item and locale check once, for many writes). A document has at most one
   * group queued here (its own queue waits for it), so its changes stay in order; each change is
   * settled on its own by the committer. Resolves once the group's transaction is over.
   */
  private commitTogether(type: ContentType, group: Group, ids?: IdRequest, weight = weightOf(group)): Promise<void> {
    // A document known to be wider than a batch commits on its own, beside the queue: a write past
    // one transaction (wide/commit.ts) takes seconds, which the type's other writes need not wait.
    if (ids === undefined && weight > MAX_WEIGHT) return this.committer.commit(type, [group])
    return new Promise<void>((done) => {
      const queued: Queued = { group, weight, ids, done }
      const queue = this.commits.get(type.uid)
      if (queue !== undefined) {
        queue.push(queued)
        return
      }
      const fresh = [queued]
      this.commits.set(type.uid, fresh)
      void this.drainCommits(type, fresh)
    })
  }

  /**
   * Commits the type's queued groups, batch after batch (up to MAX_WEIGHT each, at least one group),
   * until none is left. The ids the batch's creates need are drawn first, in one counter update.
   */
  private async drainCommits(type: ContentType, queue: Queued[]): Promise<void> {
    while (queue.length > 0) {
      let weight = 0
      let count = 0
      while (count < queue.length && (count === 0 || weight + (queue[count] as Queued).weight <= MAX_WEIGHT)) weight += (queue[count++] as Queued).weight
      const batch = queue.splice(0, count)
      try {
        const wanted = batch.flatMap((queued) => (queued.ids === undefined ? [] : [queued.ids]))
        // Under load (more creates in the batch, or more writes waiting), ids for the next batches too.
        const ahead = wanted.length > 1 || queue.length > 0 ? AHEAD_IDS : 0
        const ids = await this.nextIds(type, wanted.reduce((sum, request) => sum + request.count, 0), ahead)
        let next = 0
        for (const request of wanted) {
          request.assign(ids.slice(next, next + request.count))
          next += request.count
        }
        await this.committer.commit(type, batch.map((queued) => queued.group))
      } catch (error) {
        // The committer settles every change itself: this settles them when the ids could not be drawn.
        for (const queued of batch) queued.group.changes.forEach((pending) => pending.reject(error))
      } finally {
        batch.forEach((queued) => queued.done())
      }
    }
    this.commits.delete(type.uid)
  }

  /**
   * A document of a draft & publish type as stored before drafts existed (an upgraded table): each
   * published version without a draft gets one equal to it, in one transaction, before anything
   * else is written to it (the reindex does the same for every document). Returns the state read
   * afterwards, or `state` itself when nothing was missing.
   */
  async ensureDrafts(type: ContentType, state: DocumentState): Promise<DocumentState> {
    const missing = missingDrafts(type, state.versions)
    if (missing === 0) return state
    const ids = await this.nextIds(type, missing)
    const guardLocale = state.versions[0]?.locale as string
    await this.write(type, state.documentId, guardLocale, (current) => ({ versions: withDrafts(type, current.versions, ids), result: undefined }), state)
    return this.getDocument(type, state.documentId)
  }

  /**
   * The first of `base`, `base-1`, `base-2`, ... (the `skip`-th free one past it) that no document
   * but `documentId` holds as `attribute` in any of `lists` (a locale's versions of one status; a uid
   * derived from its target field, as Strapi makes them). The write's own claim still decides: a
   * value taken meanwhile is drawn again (lib/derived-uids.ts).
   */
  async availableUid(type: ContentType, attribute: string, lists: readonly string[], base: string, documentId: string, skip = 0): Promise<string> {
    let free = 0
    for (let from = 0; from < 1000; from += 25) {
      const candidates = Array.from({ length: 25 }, (_, i) => (from + i === 0 ? base : `${base}-${from + i}`))
      const keys = candidates.flatMap((value) => lists.map((list) => claimKey(type, attribute, list, value)))
      const taken = new Map<string, string>()
      for (const item of await batchGetItems(this.db, this.tableName, keys, undefined, true)) taken.set(String(item.locale), String(item.owner))
      for (const candidate of candidates) {
        const holders = lists.map((list) => taken.get(claimKey(type, attribute, list, candidate).locale))
        if (holders.every((owner) => owner === undefined || owner === documentId) && free++ === skip) return candidate
      }
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
    const Keys = claims.map((name) => claimKey(type, name, listOf(version), version.attributes[name]))
    const answer = await guarded(() => this.db.send(new BatchGetCommand({ RequestItems: { [this.tableName]: { Keys, ConsistentRead: true } } })))
    const taken = (answer.Responses?.[this.tableName] ?? []).find((item) => item.owner !== version.documentId)
    if (taken !== undefined) throw notUnique(String(taken.attribute))
  }
}
