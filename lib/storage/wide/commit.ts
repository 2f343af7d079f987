// Writes too large for one DynamoDB transaction (100 items, 4 MB): a non-localized value changed
// in a document with many locales, whose every version and served copy must take it (behaviour.md
// §7), or a locale deleted that many fallback chains served. Such a write commits in three steps:
//  1. mark: every item it can rewrite later (a version whose change is the one every version of its
//     status takes, a served copy) gets the change's id (`pend`); a copy it creates gets a
//     placeholder, invisible to lists. Nothing reads differently yet (overlay.ts).
//  2. commit: one transaction moves the head on condition of the revision read, as every write
//     does, and stores the change on it (`chg`), with the locale checks, unique claims and the items
//     that cannot wait (the version written, new or deleted versions) and their counts. From here
//     on every reader resolves a marked item to what the change makes of it.
//  3. apply: the marked items are rewritten in transactions of at most 100 items (each with the
//     counts of its lists, on condition the item still holds the mark), then the change is marked
//     done on the head. Whoever writes the document next finishes a change left open by a writer
//     that died (the committer does, before its own change), so a crash at any point converges.
// A writer that loses the race at step 2 removes its marks again; marks left by one that died
// before it read nothing differently and are removed by the next write that commits.
import { randomBytes } from 'node:crypto'
import { DeleteCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb'
import type { ContentType } from '../../content-types.js'
import { serviceUnavailable } from '../../errors.js'
import { ATTR, HEAD } from '../../table.js'
import { ConditionFailed, conditionalWrite, inParallel, TransactionConflict, transactWrite } from '../client.js'
import { countUpdates, listDeltas, planSteps, type Chains, type DocumentState, type Step, type TransactItem } from '../document-plan.js'
import { encodeValue, type Version } from '../items.js'
import { markText, type Mark, type WideChange } from './overlay.js'
import { requestBytes } from '../item-size.js'

/** DynamoDB's limits on one transaction (items; bytes, JSON text overstating DynamoDB's sizes a little). */
export const MAX_TRANSACTION_ITEMS = 100
export const MAX_TRANSACTION_BYTES = 4_000_000

/** The most a change may hold: the head item that stores it must stay under DynamoDB's 400 KB. */
const MAX_CHANGE_BYTES = 300 * 1024

/** True when the head can hold `change` beside its own few attributes. */
export function changeFits(change: WideChange): boolean {
  return requestBytes(change) <= MAX_CHANGE_BYTES
}

/** Items marked at once (each one UpdateItem, or a PutItem for a placeholder). */
const MARK_CONCURRENCY = 32

/** Rounds of a change's application (each reads the document again) before its caller gets a 503. */
const FINISH_ATTEMPTS = 8

/** A wide write's plan: the change for the head, what commits with it, and what is marked and applied after. */
export interface WidePlan {
  readonly change: WideChange
  readonly now: Step[]
  readonly later: Step[]
}

/**
 * Splits the steps of a write from `state` to `next` into those that must commit with the head
 * and those that can wait under a mark: a version whose new content is the change's values of
 * its status over its old content (overlay.ts), a version whose publication state alone moves
 * (its status has no values in the change), and any served copy.
 */
export function planWide(type: ContentType, state: DocumentState, next: readonly Version[], steps: readonly Step[], now: string, rewrite: boolean): WidePlan {
  const change: WideChange = { id: randomBytes(9).toString('base64url'), at: now, ...sharedValues(type, state.versions, next), ...(rewrite ? { rewrite } : {}) }
  const deferred = (step: Step): boolean => {
    if (step.kind === 'copy') return true
    const unchanged = step.kind === 'state' || (step.kind === 'version' && step.next === step.old)
    if (unchanged) return !change.statuses.includes(step.old!.status) // its content reads as it is: a state key moved, or the reindex's rewrite
    if (step.kind === 'version') return step.old !== undefined && takes(type, step.old, step.next, change)
    return true // a version deleted: it reads as gone once the change commits
  }
  return { change, now: steps.filter((step) => !deferred(step)), later: steps.filter(deferred) }
}

/**
 * The stored non-localized values of the versions the change moves on, and their statuses: those
 * of a changed version of each status, when the statuses agree on them (a publication copies the
 * draft's); otherwise the first status's only, the other's versions then commit with the head.
 */
function sharedValues(type: ContentType, before: readonly Version[], after: readonly Version[]): Pick<WideChange, 'statuses' | 'values'> {
  const shared = (version: Version) => Object.fromEntries(Object.entries(type.attributes).filter(([, attribute]) => !attribute.localized)
    .map(([name]) => [name, encodeValue(type, name, version.attributes[name] ?? null) ?? null]))
  let found: Pick<WideChange, 'statuses' | 'values'> = { statuses: [], values: {} }
  for (const version of after) {
    if (found.statuses.includes(version.status)) continue
    const old = before.find((candidate) => candidate.locale === version.locale && candidate.status === version.status)
    if (old === undefined || old.rev === version.rev) continue
    const values = shared(version)
    if (found.statuses.length === 0) found = { statuses: [version.status], values }
    else if (JSON.stringify(values) === JSON.stringify(found.values)) found = { statuses: [...found.statuses, version.status], values }
  }
  return found
}

/** True when `next` is exactly `old` with the change's values (what a reader's overlay makes of `old`). */
function takes(type: ContentType, old: Version, next: Version, change: WideChange): boolean {
  if (!change.statuses.includes(old.status)) return false
  const { values } = change
  const stored = (version: Version, name: string) => JSON.stringify(encodeValue(type, name, version.attributes[name] ?? null) ?? null)
  return next.id === old.id && next.rev === old.rev + 1 && next.createdAt === old.createdAt && next.updatedAt === change.at
    && next.publishedAt === (old.status === 'published' ? change.at : null)
    && Object.keys({ ...old.attributes, ...next.attributes }).every((name) => stored(next, name) === (name in values ? JSON.stringify(values[name] ?? null) : stored(old, name)))
}

/** The head's move for a wide write: the revision, on condition of the one read (none: a new document), and the change. */
export function wideHeadMove(tableName: string, type: ContentType, state: DocumentState, change: WideChange): TransactItem {
  const Key = { documentId: state.documentId, locale: HEAD }
  if (state.headRev === undefined) {
    return { Put: { TableName: tableName, Item: { ...Key, [ATTR.contentType]: type.uid, [ATTR.revision]: 1, [ATTR.change]: change }, ConditionExpression: 'attribute_not_exists(documentId)' } }
  }
  return {
    Update: {
      TableName: tableName,
      Key,
      UpdateExpression: 'SET #rev = #rev + :one, #chg = :chg',
      ConditionExpression: '#rev = :rev',
      ExpressionAttributeNames: { '#rev': ATTR.revision, '#chg': ATTR.change },
      ExpressionAttributeValues: { ':rev': state.headRev, ':one': 1, ':chg': change },
    },
  }
}

/** The mark `step` gets from `change`: a copy names the version it will hold ('' when it goes), a version deleted is going (''). */
function markFor(change: WideChange, step: Step): Mark {
  return { id: change.id, ...(step.kind === 'copy' ? { next: step.source } : step.kind === 'delete' ? { next: '' } : {}) }
}

/**
 * Step 1: marks what `plan` applies later (a copy it creates as a placeholder, also over one a
 * writer that died left). False when an item is not as read (a copy appeared or went meanwhile):
 * another write won, and the caller reads again (the marks made stay harmless).
 */
export async function markItems(db: DynamoDBDocumentClient, tableName: string, type: ContentType, plan: WidePlan): Promise<boolean> {
  const marks = plan.later.map((step) => () => {
    const created = step.kind === 'copy' && step.created
    return conditionalWrite(() => db.send(new UpdateCommand({
      TableName: tableName,
      Key: step.key,
      UpdateExpression: created ? 'SET #ph = :true, #type = :type ADD #pend :mark' : 'ADD #pend :mark',
      ConditionExpression: created ? 'attribute_not_exists(documentId) OR #ph = :true' : 'attribute_exists(documentId)',
      ExpressionAttributeNames: { '#pend': ATTR.pending, ...(created ? { '#ph': ATTR.placeholder, '#type': ATTR.contentType } : {}) },
      ExpressionAttributeValues: { ':mark': new Set([markText(markFor(plan.change, step))]), ...(created ? { ':true': true, ':type': type.uid } : {}) },
    })).then(() => true), () => false)
  })
  return (await inParallel(marks, MARK_CONCURRENCY)).every(Boolean)
}

/** Removes what `plan` marked (its change lost the race at the commit, so it never commits). */
export function unmarkPlan(db: DynamoDBDocumentClient, tableName: string, documentId: string, plan: WidePlan): Promise<void> {
  return unmark(db, tableName, documentId, plan.later.map((step) => [step.key.locale, [markFor(plan.change, step)]] as const))
}

/**
 * Removes `marks` (sort key → marks) from `documentId`'s items where they still are, and
 * placeholders left with none: the marks of a change that lost its race, or that a dead writer
 * left (only once a commit moved the head past them, so that change can never commit).
 */
export async function unmark(db: DynamoDBDocumentClient, tableName: string, documentId: string, marks: Iterable<readonly [string, readonly Mark[]]>): Promise<void> {
  const names = { '#pend': ATTR.pending }
  await inParallel([...marks].map(([locale, stale]) => async () => {
    const Key = { documentId, locale }
    const texts = stale.map(markText)
    if (texts.length > 0) {
      await conditionalWrite(() => db.send(new UpdateCommand({
        TableName: tableName, Key, UpdateExpression: 'DELETE #pend :marks', ConditionExpression: 'attribute_exists(documentId)', ExpressionAttributeNames: names, ExpressionAttributeValues: { ':marks': new Set(texts) },
      })).then(() => undefined), () => undefined)
    }
    if (!locale.startsWith('~')) return
    await conditionalWrite(() => db.send(new DeleteCommand({
      TableName: tableName, Key, ConditionExpression: '#ph = :true AND attribute_not_exists(#pend)', ExpressionAttributeNames: { ...names, '#ph': ATTR.placeholder }, ExpressionAttributeValues: { ':true': true },
    })).then(() => undefined), () => undefined)
  }), MARK_CONCURRENCY)
}

/**
 * Step 3: applies the change open on `documentId`'s head to every item still marked with it, then
 * marks it done. Safe to run by several processes at once (each item's rewrite holds only while
 * its mark does) and after its writer died: `read` is the document as the committer reads it.
 * The count items of the lists it rewrites move with each part, so a list's total may lag the
 * change by its application (as an index does), never the versions a reader gets by key. Other
 * marks on the items it rewrites go with them: no other change can commit before this one is done
 * (every writer finishes it first, and one that read before its commit fails on the head).
 */
export async function finishChange(db: DynamoDBDocumentClient, tableName: string, type: ContentType, read: () => Promise<DocumentState>, chains: Chains, now: string): Promise<void> {
  for (let attempt = 1; attempt <= FINISH_ATTEMPTS; attempt++) {
    const state = await read()
    const change = state.wide?.change
    if (state.wide === undefined || change === undefined || change.done === true) return
    const { stored, marks } = state.wide
    const mine = new Map([...marks].flatMap(([locale, held]) => held.filter((mark) => mark.id === change.id).map((mark) => [locale, mark] as const)))
    const steps = planSteps(type, tableName, stored, state.versions, chains, change.rewrite === true).filter((step) => mine.has(step.key.locale))
    const covered = new Set(steps.map((step) => step.key.locale))
    const rest = [...mine].filter(([locale]) => !covered.has(locale)).map(([locale, mark]) => [locale, [mark]] as const)
    try {
      await Promise.all(chunks(steps).map((chunk) => transactWrite(db, { TransactItems: [...chunk.map((step) => heldByMark(step.item, markText(mine.get(step.key.locale) as Mark))), ...countUpdates(type, tableName, listDeltas(chunk), now)] })))
      // Marked items the change turned out not to need (a copy the chains no longer want): their marks go.
      await unmark(db, tableName, state.documentId, rest)
      await conditionalWrite(() => db.send(new UpdateCommand({
        TableName: tableName,
        Key: { documentId: state.documentId, locale: HEAD },
        UpdateExpression: 'SET #chg.#done = :true',
        ConditionExpression: '#chg.#id = :id',
        ExpressionAttributeNames: { '#chg': ATTR.change, '#done': 'done', '#id': 'id' },
        ExpressionAttributeValues: { ':true': true, ':id': change.id },
      })).then(() => undefined), () => undefined)
      return
    } catch (error) {
      // Another process applied part of it meanwhile: read again and apply the rest.
      if (!(error instanceof ConditionFailed || error instanceof TransactionConflict || isUnavailable(error))) throw error
    }
  }
  throw serviceUnavailable()
}

const isUnavailable = (error: unknown) => (error as { status?: number } | null)?.status === 503

/** `item` (a step's put, update or delete) on condition that it still holds `mark`; an update also removes every mark. */
function heldByMark(item: TransactItem, mark: string): TransactItem {
  const names = { '#pend': ATTR.pending }
  const values = { ':mark': mark }
  const condition = 'contains(#pend, :mark)'
  if (item.Put !== undefined) return { Put: { ...item.Put, ConditionExpression: condition, ExpressionAttributeNames: names, ExpressionAttributeValues: values } }
  if (item.Delete !== undefined) return { Delete: { ...item.Delete, ConditionExpression: condition, ExpressionAttributeNames: names, ExpressionAttributeValues: values } }
  const update = item.Update as NonNullable<TransactItem['Update']>
  return {
    Update: {
      ...update,
      UpdateExpression: `${update.UpdateExpression} REMOVE #pend`,
      ConditionExpression: condition,
      ExpressionAttributeNames: { ...update.ExpressionAttributeNames, ...names },
      ExpressionAttributeValues: { ...update.ExpressionAttributeValues, ...values },
    },
  }
}

/** `steps` in groups that each fit one transaction with the count updates of their lists. */
function chunks(steps: readonly Step[]): Step[][] {
  const groups: Step[][] = []
  let current: Step[] = []
  let bytes = 0
  for (const step of steps) {
    const size = requestBytes(step.item) + 200 * step.lists.length
    const lists = listDeltas([...current, step]).size
    if (current.length > 0 && (current.length + 1 + lists > MAX_TRANSACTION_ITEMS || bytes + size > MAX_TRANSACTION_BYTES)) {
      groups.push(current)
      current = []
      bytes = 0
    }
    current.push(step)
    bytes += size
  }
  if (current.length > 0) groups.push(current)
  return groups
}
