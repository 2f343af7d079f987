// Commits batches of changes as one transaction (group commit). A process hands the store every
// change to a document that arrives while its previous transaction is in flight; they are applied
// one after another to one fresh read, so writers in one process never race each other, and a race
// between processes (or Lambda instances) costs one re-read for the whole batch. New documents
// created at the same time are committed together too, each count item updated once.
// The transaction moves each document's head on condition of the revision read, checks each locale
// the batch writes in (registered, same fallback epoch), claims the unique values it sets
// (unique.ts), and puts or deletes what the changes need (document-plan.ts).
import { randomInt } from 'node:crypto'
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb'
import type { ContentType } from '../content-types.js'
import { ApiError, badRequest, payloadTooLarge, serviceUnavailable } from '../errors.js'
import { ATTR, META, WIDE_CHANGES } from '../table.js'
import { ConditionFailed, TransactionConflict, transactWrite } from './client.js'
import { countUpdates, listDeltas, planChanges, planSteps, type Chains, type DocumentState, type TransactItem } from './document-plan.js'
import { headKey, type Version } from './items.js'
import { claimedAttribute, claimWrites } from './unique.js'
import { LinkIndex, linkChanges, type LinkKey } from './links.js'
import { changeFits, finishChange, markItems, MAX_TRANSACTION_BYTES, MAX_TRANSACTION_ITEMS, planWide, unmark, unmarkPlan, wideHeadMove, type WidePlan } from './wide/commit.js'
import { requestBytes } from './item-size.js'

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

/** The changes to one document in a batch, in arrival order, and the read to apply them to (undefined: read it). */
export interface Group {
  readonly documentId: string
  readonly changes: readonly Pending[]
  state: DocumentState | undefined
}

/** One change waiting in a document's queue, with the promise to settle once it is committed. */
export interface Pending {
  readonly guardLocale: string
  readonly mutation: Mutation<unknown>
  readonly rewrite: boolean
  resolve(value: unknown): void
  reject(error: unknown): void
}

/** Attempts of one batch before a 503: each lost race re-reads the documents and re-applies every change. */
const WRITE_ATTEMPTS = 10

/** True when `items` fit one DynamoDB transaction (100 items, 4 MB). */
function fitsOneTransaction(items: readonly TransactItem[]): boolean {
  return items.length <= MAX_TRANSACTION_ITEMS && requestBytes(items) <= MAX_TRANSACTION_BYTES
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown }

/** A batch too large for one transaction: its changes are committed one by one instead. */
class TooLarge extends Error {
  constructor(readonly single: Error) {
    super(single.message)
  }
}

/**
 * A unique value's claim failed in a batch of several changes (which one is unknown), or two
 * documents of a batch touch one item (DynamoDB refuses that): they go one by one.
 */
class GuardFailed extends Error {}

export class DocumentCommitter {
  private readonly links: LinkIndex

  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly guards: LocaleGuards,
    private readonly read: (type: ContentType, documentId: string) => Promise<DocumentState>,
    private readonly now: () => string,
  ) {
    this.links = new LinkIndex(db, tableName)
  }

  /**
   * Commits `groups` in one transaction and settles each change: its result once committed, or its
   * own error (404, 409, 412, ...), which leaves the others untouched. A batch too large for one
   * transaction is committed document by document, then change by change.
   */
  async commit(type: ContentType, groups: Group[]): Promise<void> {
    const changes = groups.flatMap((group) => group.changes)
    try {
      const outcomes = await this.attempt(type, groups)
      changes.forEach((pending, i) => settle(pending, outcomes.get(pending) ?? { ok: false, error: new Error(`change ${i} not settled`) }))
    } catch (error) {
      if ((error instanceof TooLarge || error instanceof GuardFailed) && changes.length > 1) {
        const parts = groups.length > 1 ? groups.map((group) => [group]) : changes.map((pending) => [{ documentId: groups[0]!.documentId, changes: [pending], state: undefined }])
        for (const part of parts) await this.commit(type, part)
        return
      }
      const reason = error instanceof TooLarge ? error.single : error
      changes.forEach((pending) => pending.reject(reason))
    }
  }

  private async attempt(type: ContentType, groups: Group[]): Promise<Map<Pending, Outcome>> {
    let guard = await this.guards.current()
    const refused = new Map<Pending, unknown>() // changes whose locale was unregistered meanwhile (400)
    for (let attempt = 1; ; attempt++) {
      await Promise.all(groups.map(async (group) => void (group.state ??= await this.readFinished(type, group.documentId, guard))))
      const now = this.now()
      const outcomes = new Map<Pending, Outcome>([...refused].map(([pending, error]) => [pending, { ok: false, error }]))
      const heads: TransactItem[] = []
      const headed: Group[] = [] // the groups that write, in the order of their head items
      const extras: TransactItem[] = []
      const changed: TransactItem[] = []
      const lists = new Map<string, number>()
      // The index of links by target (links.ts): what the batch adds is recorded before it commits, what it removes after.
      const linked: { revision: number; created: boolean; added: LinkKey[]; removed: LinkKey[] }[] = []
      let after: readonly Version[] = [] // the versions of the last group that writes (the one group of a wide write)
      for (const group of groups) {
        const state = group.state!
        const live = group.changes.filter((pending) => !refused.has(pending))
        const versions = applyAll(state, live, now, outcomes)
        after = versions
        const plan = planChanges(type, this.tableName, state, versions, guard.chains, live.some((pending) => pending.rewrite))
        if (plan.items.length === 0 && plan.lists.size === 0) continue
        heads.push(this.headMove(type, state))
        headed.push(group)
        changed.push(...plan.items)
        for (const [list, delta] of plan.lists) lists.set(list, (lists.get(list) ?? 0) + delta)
        extras.push(...claimWrites(type, this.tableName, group.documentId, state.versions, versions, live.some((pending) => pending.rewrite)))
        linked.push({ revision: (state.headRev ?? 0) + 1, created: state.headRev === undefined, ...linkChanges(type, state.versions, versions) })
      }
      const written = [...new Set(groups.flatMap((group) => group.changes).filter((pending) => outcomes.get(pending)?.ok === true).map((pending) => pending.guardLocale))]
      const checks = written.map((locale) => this.localeCheck(locale, guard))
      let items = [...heads, ...checks, ...extras, ...changed, ...countUpdates(type, this.tableName, lists, now)]
      const writes = changed.length + lists.size > 0
      if (writes && groups.length > 1 && !distinctKeys(items)) throw new GuardFailed()
      let wide: WidePlan | undefined
      if (writes && !fitsOneTransaction(items)) {
        // One change too large for a transaction commits in parts (wide/commit.ts); several go one by one.
        if (groups.flatMap((group) => group.changes).length > 1) throw new TooLarge(transactionTooLarge(items.length))
        const state = headed[0]!.state!
        const rewrite = groups[0]!.changes.some((pending) => pending.rewrite)
        wide = planWide(type, state, after, planSteps(type, this.tableName, state, after, guard.chains, rewrite), now, rewrite)
        // The type's wide commits move (WIDE_CHANGES): what readers get by key changes from this commit on.
        const counted = new Map([...listDeltas(wide.now), [WIDE_CHANGES, 0]])
        items = [wideHeadMove(this.tableName, type, state, wide.change), ...checks, ...extras, ...wide.now.map((step) => step.item), ...countUpdates(type, this.tableName, counted, now)]
        if (items.length > MAX_TRANSACTION_ITEMS) throw new TooLarge(transactionTooLarge(items.length))
        // DynamoDB refuses a transaction over 4 MB (a 500 otherwise).
        if (!fitsOneTransaction(items) || !changeFits(wide.change)) throw new TooLarge(payloadTooLarge(MAX_TRANSACTION_BYTES))
      }
      let lostToCommit = false
      try {
        if (writes) {
          // New documents' links (all of revision 1, unconditional) go together, 25 a call.
          const fresh = linked.filter((entry) => entry.created)
          await Promise.all([
            this.links.addNew(fresh.flatMap((entry) => entry.added), 1),
            ...linked.filter((entry) => !entry.created).map(({ revision, added }) => this.links.add(added, revision)),
          ])
          if (wide !== undefined && !(await markItems(this.db, this.tableName, type, wide))) throw new TransactionConflict()
          try {
            await transactWrite(this.db, { TransactItems: items }, 1)
          } catch (error) {
            // Lost: this change can never commit, its marks go (placeholders with them).
            if (wide !== undefined) await unmarkPlan(this.db, this.tableName, headed[0]!.documentId, wide)
            throw error
          }
          await Promise.all(linked.map(({ revision, removed }) => this.links.remove(removed, revision)))
          // Committed: what follows tidies up. Readers already see the whole change, and whatever
          // is left undone (a failure, a crash) the next write to the document finishes first.
          await this.tidy(type, headed, wide, guard, now).catch(() => undefined)
        }
        return outcomes
      } catch (error) {
        if (error instanceof ConditionFailed) {
          // A head that moved is another process's committed write: that document is read again at once.
          headed.forEach((group, g) => {
            if (error.failedAt(g)) group.state = undefined
          })
          lostToCommit = groups.some((group) => group.state === undefined)
          for (const locale of written.filter((_, i) => error.failedAt(heads.length + i))) {
            try {
              guard = await this.guards.refresh(locale)
            } catch (refusal) {
              for (const pending of groups.flatMap((group) => group.changes)) if (pending.guardLocale === locale) refused.set(pending, refusal)
            }
          }
          // Another document holds a unique value: a 400, as Strapi's `This attribute must be unique`.
          const taken = extras.map((item, i) => (error.failedAt(heads.length + checks.length + i) ? claimedAttribute(item) : undefined)).find((name) => name !== undefined)
          if (taken !== undefined) {
            if (groups.flatMap((group) => group.changes).length > 1) throw new GuardFailed()
            throw notUnique(taken)
          }
        } else if (!(error instanceof TransactionConflict)) throw error
      }
      if (attempt >= WRITE_ATTEMPTS) throw serviceUnavailable()
      if (!lostToCommit) for (const group of groups) group.state = undefined
      // Another process's committed write is re-read at once; a conflict with a transaction still in
      // flight backs off (jittered, growing).
      await new Promise((resolve) => setTimeout(resolve, lostToCommit ? randomInt(0, 5) : randomInt(5, 15 * 2 ** Math.min(attempt, 5))))
    }
  }

  /**
   * A document read for a write: a wide change left open on it (its writer still applying it, or
   * dead) is finished first, so a write always starts from a document whose items all hold.
   */
  private async readFinished(type: ContentType, documentId: string, guard: LocaleGuard): Promise<DocumentState> {
    let state = await this.read(type, documentId)
    for (let round = 0; state.wide?.change !== undefined && state.wide.change.done !== true; round++) {
      if (round >= 3) throw serviceUnavailable()
      await this.finish(type, documentId, guard, this.now())
      state = await this.read(type, documentId)
    }
    return state
  }

  /**
   * After a commit: removes the marks of changes that lost or died before committing (this commit
   * moved the head past them), then applies this write's own wide change, if any.
   */
  private async tidy(type: ContentType, headed: readonly Group[], wide: WidePlan | undefined, guard: LocaleGuard, now: string): Promise<void> {
    await Promise.all(headed.map((group) => {
      const current = group.state!.wide?.change?.id
      // A placeholder holds no mark once all are gone: it goes too.
      const stale = [...(group.state!.wide?.marks ?? [])].filter(([, marks]) => marks.length === 0 || marks.some((mark) => mark.id !== current))
        .map(([locale, marks]) => [locale, marks.filter((mark) => mark.id !== current)] as const)
      return stale.length === 0 ? undefined : unmark(this.db, this.tableName, group.documentId, stale)
    }))
    if (wide !== undefined) await this.finish(type, headed[0]!.documentId, guard, now)
  }

  /** Applies the wide change open on a document (wide/commit.ts, step 3). */
  private finish(type: ContentType, documentId: string, guard: LocaleGuard, now: string): Promise<void> {
    return finishChange(this.db, this.tableName, type, () => this.read(type, documentId), guard.chains, now)
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

/**
 * Applies each change to the versions the previous ones left, recording its outcome; a change that
 * throws leaves them as they were.
 */
function applyAll(state: DocumentState, batch: readonly Pending[], now: string, outcomes: Map<Pending, Outcome>): readonly Version[] {
  let versions = state.versions
  for (const pending of batch) {
    try {
      const change = pending.mutation({ ...state, versions }, now)
      versions = change.versions
      outcomes.set(pending, { ok: true, value: change.result })
    } catch (error) {
      outcomes.set(pending, { ok: false, error })
    }
  }
  return versions
}

/** True when no two items of a transaction name the same item. */
function distinctKeys(items: readonly TransactItem[]): boolean {
  const keys = items.map((item) => {
    const key = item.Put?.Item ?? item.Update?.Key ?? item.Delete?.Key ?? item.ConditionCheck?.Key ?? {}
    return `${String(key.documentId)}\u0000${String(key.locale)}`
  })
  return new Set(keys).size === keys.length
}

/**
 * The 413 of one change whose items exceed one DynamoDB transaction (100): a shared value changed in
 * a draft & publish document with many locales and fallback chains (docs/design.md).
 */
export function transactionTooLarge(items: number) {
  return new ApiError(413, 'PayloadTooLargeError', `This write changes ${items} items, more than one DynamoDB transaction holds (${MAX_TRANSACTION_ITEMS})`)
}

/** The 400 of a value another document holds (Strapi's message and shape). */
export function notUnique(attribute: string) {
  const message = 'This attribute must be unique'
  return badRequest(message, { errors: [{ path: [attribute], message, name: 'ValidationError' }] })
}

function settle(pending: Pending, outcome: Outcome): void {
  if (outcome.ok) pending.resolve(outcome.value)
  else pending.reject(outcome.error)
}
