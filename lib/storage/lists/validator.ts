// A list request's validator: the count items of its lists (size, revision, last change), which
// give the answer's total and its ETag. Read once per request, on its own or carried by the
// BatchGet of the page's documents (reader.ts).
import type { ContentType } from '../../content-types.js'
import { ATTR, listKey } from '../../table.js'

type Item = Record<string, unknown>

/**
 * How long after a list last changed its pages are neither cached in the process nor given a
 * stable tag, nor its positions remembered: DynamoDB's indexes are eventually consistent, so a
 * page read just after a write may still miss it, and must not be kept (or validated) under the
 * new revision.
 */
export const SETTLE_MS = 2000

/** True when what was read of a list from `now` on may be kept under its head: it had not changed within the settling time. */
export function settled(changedAt: number, now = Date.now()): boolean {
  return now - changedAt >= SETTLE_MS
}

/** The count and revision of the listed lists: the list's validator, one small read. */
export interface ListHead {
  readonly total: number
  /** Revisions of each list, in the order asked. */
  readonly revisions: readonly number[]
  /** When the newest of them last changed (ms since the epoch; 0 when never). */
  readonly changedAt: number
  /** Each list read, by its count key's name (`listKey(uid, list)`): its own revision and last change (0 and 0 when it has no count item). */
  readonly lists: ReadonlyMap<string, ListState>
}

/** One list's revision and last change, as its count item says. */
export interface ListState {
  readonly revision: number
  readonly changedAt: number
}

/** The state of each of `keys` (count keys' names), from its count item among `byKey`. */
function statesOf(keys: readonly string[], byKey: ReadonlyMap<string, Item>): [string, ListState][] {
  return keys.map((key) => [key, { revision: Number(byKey.get(key)?.[ATTR.revision] ?? 0), changedAt: Number(byKey.get(key)?.at ?? 0) }])
}

/**
 * The lists' head from their count items as read (a list never written has none: empty, revision
 * 0); the total is that of `counted` when given (publicationFilter's state partitions), whose
 * revisions and changes count too.
 */
export function headOf(type: ContentType, lists: readonly string[], items: readonly (Item | undefined)[], counted: readonly string[] = lists): ListHead {
  const byList = new Map(items.filter((item): item is Item => item !== undefined).map((item) => [String(item.locale), item]))
  const of = (list: string) => byList.get(listKey(type.uid, list))
  const all = counted === lists ? lists : [...lists, ...counted]
  return {
    total: counted.reduce((sum, list) => sum + Number(of(list)?.n ?? 0), 0),
    revisions: all.map((list) => Number(of(list)?.[ATTR.revision] ?? 0)),
    changedAt: Math.max(0, ...all.map((list) => Number(of(list)?.at ?? 0))),
    lists: new Map(statesOf(all.map((list) => listKey(type.uid, list)), byList)),
  }
}

/** A list of a content type, by uid: another type's list an answer depends on. */
export interface TypeList {
  readonly uid: string
  readonly list: string
}

/** `head` with the revisions and last changes of `dependencies` (from their count items, among `items`) added. */
export function withDependencies(head: ListHead, dependencies: readonly TypeList[], items: readonly (Item | undefined)[]): ListHead {
  if (dependencies.length === 0) return head
  const byKey = new Map(items.filter((item): item is Item => item !== undefined).map((item) => [String(item.locale), item]))
  const found = dependencies.map(({ uid, list }) => byKey.get(listKey(uid, list)))
  return {
    total: head.total,
    revisions: [...head.revisions, ...found.map((item) => Number(item?.[ATTR.revision] ?? 0))],
    changedAt: Math.max(head.changedAt, ...found.map((item) => Number(item?.at ?? 0))),
    lists: new Map([...head.lists, ...statesOf(dependencies.map(({ uid, list }) => listKey(uid, list)), byKey)]),
  }
}

/**
 * `head` with the states of `optional` (count key names) among `items` added to its lists alone:
 * read only when a batch carried them, so neither the answer's revisions (its ETag) nor its last
 * change depend on them; an optional key with no item was read as never moved.
 */
export function withOptional(head: ListHead, optional: readonly string[], items: readonly (Item | undefined)[]): ListHead {
  if (optional.length === 0) return head
  const byKey = new Map(items.filter((item): item is Item => item !== undefined).map((item) => [String(item.locale), item]))
  return { ...head, lists: new Map([...head.lists, ...statesOf(optional, byKey)]) }
}

/**
 * A list request's validator (its lists' head), read once: on its own when first asked for, or
 * with the page's documents when a BatchGet claims it first. `optionalKeys` are read only in that
 * second case (the documents kept in the process need them, kept.ts; a read of the head alone does not).
 */
export class Validator {
  private read: Promise<ListHead> | undefined
  private carried = false

  constructor(
    /** Reads the count items alone (the optional ones too when `carrying`). */
    private readonly readAlone: (carrying: boolean) => Promise<ListHead>,
    private readonly countKeys: readonly Item[],
    private readonly fromItems: (items: readonly Item[], carried: boolean) => ListHead,
    private readonly optionalKeys: readonly Item[] = [],
  ) {}

  /**
   * True when the head carries the state of `name` (a count key's name, `listKey(uid, list)`):
   * one of its keys, or an optional one while a batch may still carry it (or did).
   */
  covers(name: string): boolean {
    const optional = this.optionalKeys.some((key) => key.locale === name)
    return this.countKeys.some((key) => key.locale === name) || (optional && (this.read === undefined || this.carried))
  }

  /** The head: the read already under way, or one started now (with the optional keys when `carrying`: the page's documents follow). */
  get(carrying = false): Promise<ListHead> {
    if (this.read === undefined) {
      this.carried = carrying && this.optionalKeys.length > 0
      this.read = this.readAlone(this.carried)
      // Started alongside a page read that may fail first: whoever awaits the head sees its
      // failure; nobody awaiting it is no unhandled rejection (which would end the process).
      this.read.catch(() => undefined)
    }
    return this.read
  }

  /**
   * The count keys for a batch read to carry (the optional ones too when `carrying`), when the head
   * is not read or being read yet; the batch then settles it with `resolve` (its count items) or `reject`.
   */
  claim(carrying = false): { keys: readonly Item[]; resolve(items: readonly Item[]): void; reject(error: unknown): void } | undefined {
    if (this.read !== undefined) return undefined
    let settle!: { resolve(head: ListHead): void; reject(error: unknown): void }
    this.read = new Promise<ListHead>((resolve, reject) => (settle = { resolve, reject }))
    this.read.catch(() => undefined)
    const carried = (this.carried = carrying && this.optionalKeys.length > 0)
    return { keys: carried ? [...this.countKeys, ...this.optionalKeys] : this.countKeys, resolve: (items) => settle.resolve(this.fromItems(items, carried)), reject: (error) => settle.reject(error) }
  }
}
