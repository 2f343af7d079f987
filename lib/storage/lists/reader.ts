// List reads. Their cost follows the page, not the table (cost model in docs/performance.md):
// - default order within the first 100: one Query of `byId` for the page (after the skipped ones,
//   read as small `slot0` entries), the list's count item read alongside;
// - any other order: the sort field's slot index is read in key order up to offset + limit (plus
//   the run of entries tied with the boundary key), from whichever end is nearer; the run the page
//   starts in is ordered exactly in memory (later sort keys, collation, ties by id) and only the
//   page's documents are fetched, with the count item, in one BatchGet;
// - a page of a list order this process has read at the list's current revision resumes at the
//   nearest mark at or before it (marks.ts) instead of reading every entry in front of it;
// - documents read by key (any order but id's, filters naming documents, a filter through a
//   relation's sources) come from the process's kept documents (kept.ts) while their list keeps the
//   revision they were kept at; a default-order page of a list whose documents are kept reads its
//   `slot0` entries instead of `byId`'s whole documents, and then only the documents not kept;
// - filters: the entries a plan over the slot indexes names (plan.ts), each checked against
//   the whole filter, or the whole list within `maxScan` entries; `total` is the exact match count.
import { GetCommand, QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb'
import type { ContentType } from '../../content-types.js'
import { badRequest, queryDetails, serviceUnavailable } from '../../errors.js'
import { matchesFilter, type Filter } from '../../query/filters.js'
import { sortComparator, type SortEntry } from '../../query/sort.js'
import { ATTR, INDEX, META, WIDE_CHANGES, indexedFields, listKey, parseList, slotIndex, slotKey } from '../../table.js'
import { batchGetItems, guarded } from '../client.js'
import { DOCUMENT_ID } from '../documents.js'
import { keyKindOf } from '../index-keys.js'
import { countKey, itemToVersion, versionProjection, versionValues, type Projection, type Version } from '../items.js'
import { settlePending } from '../wide/overlay.js'
import { planFilter, type KeyRange } from './plan.js'
import { KeptVersions, keptBy, type Guess } from './kept.js'
import { ListMarks, type Mark } from './marks.js'
import { headOf, settled, Validator, withDependencies, withOptional, type ListHead, type ListState, type TypeList } from './validator.js'

export interface ListRequest {
  /** Lists to read: locale codes, or `~<locale>` for a served list; several for `locale=*`. */
  readonly lists: readonly string[]
  /** The collation to sort strings with: the requested locale, or `*`. */
  readonly collation: string
  readonly sort: readonly SortEntry[]
  readonly filter: Filter | undefined
  readonly offset: number
  readonly limit: number
  /** Most index entries a filtered request may read (api.rest.maxScan). */
  readonly maxScan: number
  /**
   * False until the slot indexes are complete for today's keys (an upgrade or a change of ICU not
   * yet reindexed): then everything but the default order reads the documents, within `maxScan`.
   */
  readonly trusted: boolean
  /**
   * When the request's first read began (ms since the epoch): positions in a list are remembered
   * and used only for a list that had settled by then.
   */
  readonly startedAt: number
}

export interface ListResult {
  readonly versions: Version[]
  /** Entries matching the request: the list's size without a filter. */
  readonly total: number
}

type Item = Record<string, unknown>

/** An index entry: its base-table key, its slot key, and the values it is compared and filtered on. */
interface Entry {
  readonly key: { documentId: string; locale: string }
  readonly sortKey: string
  readonly values: Record<string, unknown>
}

/**
 * Pages ending within this many entries of the start are read from the start, without waiting for
 * the total: in id order from `byId` (see idPage), in any other from the sort field's slot.
 */
const NEAR_PAGES = 100

/**
 * Entries read past the page in key order, so the run tied with the page's last key is usually seen
 * to end in the same call (a tie past them costs another call).
 */
const RUN_LOOKAHEAD = 2

/** Largest Limit of one Query call, so no request asks DynamoDB for an absurd number. */
const MAX_QUERY_LIMIT = 1000

export class ListReader {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    /** Where runs start in the list orders read, per revision (marks.ts). */
    private readonly marks: ListMarks = new ListMarks(0),
    /** Documents kept in the process at their lists' revisions (kept.ts), for reads by key. */
    private readonly kept: KeptVersions = new KeptVersions(0),
  ) {}

  /** Count items by key (one GetItem, or one BatchGet for several). */
  private async counts(keys: readonly Item[]): Promise<(Item | undefined)[]> {
    if (keys.length !== 1) return this.batchGet(keys)
    return [(await guarded(() => this.db.send(new GetCommand({ TableName: this.tableName, Key: keys[0] })))).Item]
  }

  /**
   * The lists' validator, not read yet: a page read either asks for it at once (in parallel with
   * its own reads) or adds the count items to the BatchGet of its documents, one call fewer. With
   * `counted` (publicationFilter's state partitions), the total is theirs. `dependencies` are
   * other lists the answer reads (relations/dependencies.ts): their revisions and changes count too.
   */
  validator(type: ContentType, lists: readonly string[], counted?: readonly string[], dependencies: readonly TypeList[] = []): Validator {
    const all = counted === undefined ? lists : [...lists, ...counted]
    const others = dependencies.filter((dependency, i) => !(dependency.uid === type.uid && all.includes(dependency.list))
      && dependencies.findIndex((same) => same.uid === dependency.uid && same.list === dependency.list) === i)
    const keys = [...all.map((list) => countKey(type.uid, list)), ...others.map(({ uid, list }) => countKey(uid, list))]
    // The type's wide commits validate its documents kept in the process (kept.ts): read along when
    // the documents are read by key with the count items, not when the head is read alone.
    const optional = this.kept.enabled && !others.some((other) => other.uid === type.uid && other.list === WIDE_CHANGES) ? [countKey(type.uid, WIDE_CHANGES)] : []
    const fromItems = (items: readonly (Item | undefined)[], carried = false) =>
      withOptional(withDependencies(headOf(type, lists, items, counted), others, items), carried ? optional.map((key) => key.locale) : [], items)
    return new Validator(async (carrying) => fromItems(await this.counts(carrying ? [...keys, ...optional] : keys), carrying), keys, fromItems, optional)
  }

  /**
   * One page of `type`'s versions in the requested lists, ordered, filtered and counted as asked,
   * with the lists' `validator` read by then. Pages near the start are read without waiting for
   * it (they are read from the start whatever the total); the others wait for the total.
   */
  async list(type: ContentType, request: ListRequest, validator: Validator): Promise<ListResult> {
    if (request.filter !== undefined) return this.filtered(type, request, validator)
    const { offset, limit } = request
    const total = async () => (await validator.get()).total
    const nearStart = offset + limit <= NEAR_PAGES
    const sort = request.lists.length === 1 ? request.sort.filter((entry) => entry.field !== 'locale') : request.sort
    const primary = sort[0] ?? { field: 'id', order: 'asc' as const }
    const slot = indexedFields(type).indexOf(primary.field)
    const single = request.lists.length === 1 ? (request.lists[0] as string) : undefined
    if (single !== undefined && primary.field === 'id' && nearStart) {
      // No BatchGet to carry the count item: read it alongside (with the type's wide commits when
      // documents are kept, to keep these). A mark is used before the count says whether it still
      // holds (a guess, read again without it when it does not).
      const forward = primary.order === 'asc'
      const order = orderOf(type, single, 0, forward)
      const guess = request.trusted ? this.marks.nearest(order, offset) : undefined
      if (request.trusted && this.kept.warm(type.uid, single)) return this.keptIdPage(type, single, forward, order, request, validator, guess)
      void validator.get(true)
      const { read, head } = await this.fromGuess(type, single, request, validator, order, slotKey(0), guess, (mark) => this.idPage(type, single, forward, offset, limit, request.trusted, mark))
      const versions = read.page.map((item) => itemToVersion(type, item))
      for (const version of versions) this.kept.keep(type, { documentId: version.documentId, list: single }, version, head.lists, request.startedAt)
      return { versions, total: head.total }
    }
    // Farther in, where the page is read from depends on the total (read with what validates the documents kept, as they follow).
    const head = nearStart ? undefined : await validator.get(true)
    if (head !== undefined && offset >= head.total) return { versions: [], total: head.total }
    if (!request.trusted && (offset > 0 || request.lists.length > 1 || (request.sort[0] !== undefined && request.sort[0].field !== 'id'))) {
      const entries = await this.readAll(type, request, await total())
      return { versions: await this.fetch(type, entries.sort(this.comparator(type, request.sort, request.collation)).slice(offset, offset + limit), validator), total: await total() }
    }
    const compare = this.comparator(type, sort, request.collation)
    const collatedAcrossLists = single === undefined && (primary.field === 'locale' || (slot !== -1 && keyKindOf(type, primary.field) === 'collated'))
    if (slot === -1 || collatedAcrossLists) {
      // Per-list keys use each locale's collation, and some fields have no slot: order everything read, within the budget.
      const entries = await this.readAll(type, request, await total())
      const page = entries.sort(compare).slice(offset, offset + limit)
      return { versions: await this.fetch(type, page, validator), total: await total() }
    }
    const forward = primary.order === 'asc'
    if (single !== undefined) return this.sortedPage(type, single, slot, forward, compare, request, validator, head)
    const perList = await Promise.all(request.lists.map((list) => this.ordered(type, list, slot, forward, offset + limit)))
    const page = perList.flat().map((item) => toEntry(item, slot)).sort(compare).slice(offset, offset + limit)
    return { versions: await this.fetch(type, page, validator), total: await total() }
  }

  /**
   * A page near the start of one list in id order whose documents this process keeps (kept.ts):
   * its `slot0` entries from the nearest mark, with the count items alongside, then the documents
   * not kept at the list's revision by key (none while the list has not moved). As idPage's, a
   * mark is a guess, read again without it when the count items say it no longer holds.
   */
  private async keptIdPage(type: ContentType, list: string, forward: boolean, order: string, request: ListRequest, validator: Validator, guess: { revision: number; mark: Mark } | undefined): Promise<ListResult> {
    const { offset, limit } = request
    void validator.get(true)
    const readFrom = async (mark: Mark | undefined) => {
      const from = mark?.position ?? 0
      const run = await this.query({ index: slotIndex(0), type, list, forward, want: offset + limit - from, exact: true, after: resumeKey(mark?.last, slotKey(0)) })
      const keys = run.slice(offset - from).map((item) => ({ documentId: String(item.documentId), list: String(item.locale) }))
      return { from, run, versions: await this.keptOrRead(type, keys, validator) }
    }
    const { read, head } = await this.fromGuess(type, list, request, validator, order, slotKey(0), guess, readFrom)
    return { versions: read.versions, total: head.total }
  }

  /**
   * A page of one list in slot order (`slot`, `forward`), ordered by `compare`; `head` when it was
   * read first (farther in), undefined near the start (it then comes with the page's documents).
   * Nearer the end it reads backwards the entries from the end up to the page, then mirrors.
   */
  private async sortedPage(type: ContentType, list: string, slot: number, forward: boolean, compare: (a: Entry, b: Entry) => number, request: ListRequest, validator: Validator, head: ListHead | undefined): Promise<ListResult> {
    const { offset, limit } = request
    const backward = head !== undefined && offset + limit / 2 > head.total / 2
    const direction = backward ? !forward : forward
    const want = backward ? (head as ListHead).total - offset : offset + limit
    const start = backward ? Math.max(0, want - limit) : offset
    const order = orderOf(type, list, slot, direction)
    const readFrom = async (mark: Mark | undefined) => {
      const run = await this.ordered(type, list, slot, direction, want, mark)
      const from = mark?.position ?? 0
      const page = exactPage(run.map((item) => toEntry(item, slot)), start - from, backward ? Math.min(limit, want) : limit, backward ? (a, b) => compare(b, a) : compare)
      return { run, from, versions: await this.fetch(type, backward ? page.reverse() : page, validator) }
    }
    // Past the first pages the head is read first: a mark that holds under it skips what precedes
    // the page. Near the start the head comes with the page's documents, so a mark is a guess,
    // read again without it when the head says it no longer holds (as idPage's).
    const seek = this.marks.nearest(order, start)
    const guess = seek !== undefined && (head === undefined || holds(seek.revision, stateOf(head, type, list), request.startedAt)) ? seek : undefined
    const { read, head: validated } = await this.fromGuess(type, list, request, validator, order, slotKey(slot), guess, readFrom)
    return { versions: read.versions, total: validated.total }
  }

  /**
   * Reads with `readFrom` from a guessed mark (a mark kept at a revision the list may have left),
   * then, once the validator's head is read, again from the start when the list's state says the
   * guess no longer holds; remembers the run read as marks of `order` when that state says it is exact.
   */
  private async fromGuess<R extends { from: number; run: readonly Item[] }>(type: ContentType, list: string, request: ListRequest, validator: Validator, order: string, sortKey: string, guess: { revision: number; mark: Mark } | undefined, readFrom: (mark: Mark | undefined) => Promise<R>): Promise<{ read: R; head: ListHead }> {
    let read = await readFrom(guess?.mark)
    const head = await validator.get()
    const state = stateOf(head, type, list)
    if (guess !== undefined && !holds(guess.revision, state, request.startedAt)) read = await readFrom(undefined)
    this.remember(order, state, request.startedAt, read.from, read.run, sortKey)
    return { read, head }
  }

  /**
   * A page of what a fallback chain (locale codes) serves, read from the chain's own lists
   * (`request.lists`, of one status) while its served list is being rebuilt: every entry of each (within the scan budget), each document once as its
   * first version along the chain, then filtered, ordered and counted as any list.
   */
  async listChain(type: ContentType, chain: readonly string[], request: ListRequest, validator: Validator): Promise<ListResult> {
    const perList = await this.readAll(type, request, (await validator.get()).total)
    const first = new Map<string, Entry>()
    for (const entry of perList) {
      const current = first.get(entry.key.documentId)
      if (current === undefined || chain.indexOf(String(entry.values.locale)) < chain.indexOf(String(current.values.locale))) first.set(entry.key.documentId, entry)
    }
    const served = [...first.values()]
    const matches = request.filter === undefined ? served : served.filter((entry) => matchesFilter(request.filter as Filter, entry.values, request.collation, type))
    const page = matches.sort(this.comparator(type, request.sort, request.collation)).slice(request.offset, request.offset + request.limit)
    return { versions: await this.fetch(type, page, validator), total: matches.length }
  }

  /**
   * A page of the versions of `request.lists` in the publication states `states` (`publicationFilter`,
   * content-model.md §15), from `byPublication`, whose partitions `<list>#<state>` are counted
   * like lists (the validator's lists are those partitions). In id order, near the start and
   * without a filter: each partition read up to offset + limit in id order and merged, O(page)
   * per partition. With `documentId` `$eq`/`$in`, those documents' versions by key, kept in the
   * partitions' states. Otherwise every entry of the partitions, within `maxScan`, filtered and
   * ordered in memory.
   */
  async inPublicationStates(type: ContentType, request: ListRequest, partitions: readonly string[], validator: Validator): Promise<ListResult> {
    const { offset, limit } = request
    const primary = request.sort[0] ?? { field: 'id', order: 'asc' as const }
    const read = (list: string, want: number, forward: boolean, exact: boolean) =>
      this.query({ index: INDEX.byPublication, partition: ATTR.publication, type, list, forward, want, exact, projection: versionProjection(type) })
    // Documents named by id (the admin list's badges): read by key, kept in the partitions' states; O(ids), not the partitions whole.
    const points = request.filter === undefined ? undefined : documentIdPoints(request.filter)
    if (points !== undefined) return this.byDocumentIds(type, request, points, validator, new Set(partitions.map((partition) => listKey(type.uid, partition))))
    if (request.filter === undefined && primary.field === 'id' && offset + limit <= NEAR_PAGES) {
      void validator.get()
      const forward = primary.order === 'asc'
      const perPartition = await Promise.all(partitions.map((partition) => read(partition, offset + limit, forward, true)))
      const page = perPartition.flat().sort((a, b) => (Number(a[ATTR.id]) - Number(b[ATTR.id])) * (forward ? 1 : -1)).slice(offset, offset + limit)
      return { versions: page.map((item) => itemToVersion(type, item)), total: (await validator.get()).total }
    }
    const total = (await validator.get()).total
    if (total > request.maxScan) throw overBudget(request.maxScan)
    const items = (await Promise.all(partitions.map((partition) => read(partition, request.maxScan + 1, true, false)))).flat()
    return orderedPage(type, request, items.map((item) => itemToVersion(type, item)))
  }

  /** A filtered page: the planned entries (or the whole lists), each checked against the filter. */
  private async filtered(type: ContentType, request: ListRequest, validator: Validator): Promise<ListResult> {
    const filter = request.filter as Filter
    const documentIds = documentIdPoints(filter)
    if (documentIds !== undefined) return this.byDocumentIds(type, request, documentIds, validator)
    const matches = await this.matchingEntries(type, request, validator)
    const page = matches.sort(this.comparator(type, request.sort, request.collation)).slice(request.offset, request.offset + request.limit)
    return { versions: await this.fetch(type, page, validator), total: matches.length }
  }

  /**
   * The documentIds of every match of `request.filter` (every document without one), within
   * `maxScan`: from index entries alone, without reading the documents (a filter through a relation
   * needs only which targets match, lib/relations/filters.ts).
   */
  async documentIdsMatching(type: ContentType, request: ListRequest, validator: Validator): Promise<string[]> {
    const points = request.filter === undefined ? undefined : documentIdPoints(request.filter)
    if (points !== undefined) return (await this.byDocumentIds(type, { ...request, offset: 0, limit: request.maxScan }, points, validator)).versions.map((version) => version.documentId)
    const entries = request.filter === undefined ? await this.readAll(type, request, (await validator.get()).total) : await this.matchingEntries(type, request, validator)
    return [...new Set(entries.map((entry) => entry.key.documentId))]
  }

  /** The index entries of the lists that match `request.filter`: the planned ranges' entries, or every entry within `maxScan`. */
  private async matchingEntries(type: ContentType, request: ListRequest, validator: Validator): Promise<Entry[]> {
    const filter = request.filter as Filter
    const read: Entry[] = []
    for (const list of request.lists) {
      // Keys of a list are built with its own locale's collation (a served list: the requested one's).
      const plan = request.trusted ? planFilter(filter, type, parseList(list).locale, request.collation) : { kind: 'scan' as const }
      if (plan.kind === 'scan') {
        read.push(...(await this.readAll(type, { ...request, lists: [list] }, (await validator.get()).total)))
        continue
      }
      const seen = new Set<string>()
      for (const { slot, ranges } of plan.parts) {
        for (const range of ranges) {
          const entries = await this.query({ index: slotIndex(slot), type, list, forward: true, want: request.maxScan - read.length + 1, range, slot })
          for (const entry of entries.map((item) => toEntry(item, slot))) {
            const id = `${entry.key.documentId}/${entry.key.locale}`
            if (!seen.has(id)) read.push(entry)
            seen.add(id)
          }
          if (read.length > request.maxScan) throw overBudget(request.maxScan)
        }
      }
    }
    return read.filter((entry) => matchesFilter(filter, entry.values, request.collation, type))
  }

  /**
   * A page of a filter that names its documents (`documentId` `$eq`/`$in`, alone or in an `$and`):
   * their versions in the lists are read by key (an item's sort key is its list's name), in
   * `BatchGetItem`s of 100, then checked against the whole filter, ordered and counted.
   */
  private async byDocumentIds(type: ContentType, request: ListRequest, documentIds: readonly string[], validator: Validator, states?: ReadonlySet<string>): Promise<ListResult> {
    // Only a well-formed documentId can name a document (and an empty key would be refused).
    const named = documentIds.filter((documentId) => DOCUMENT_ID.test(documentId))
    // Bounded by the ids a query can name (qs's array limit) per list; like index entries, the
    // versions found count against the scan budget.
    const keys = request.lists.flatMap((list) => named.map((documentId) => ({ documentId, list })))
    const versions = states === undefined ? await this.keptOrRead(type, keys, validator) : (await this.withValidator(keys.map(baseKey), versionProjection(type, [ATTR.publication]), validator))
      // With `states` (publicationFilter's partitions), only versions in one of them.
      .filter((item) => item[ATTR.contentType] === type.uid && states.has(String(item[ATTR.publication])))
      .map((item) => itemToVersion(type, item))
    if (versions.length > request.maxScan) throw overBudget(request.maxScan)
    await validator.get()
    return orderedPage(type, request, versions)
  }

  /**
   * The versions of `keys` that exist, read with the validator's count items: those kept in the
   * process (kept.ts) at their lists' revisions are not read, only checked against the count
   * items that come with the others; a kept one whose list moved is read in a second call. Every
   * version read is kept for the next request (when the validator reads its lists' states).
   */
  private async keptOrRead(type: ContentType, keys: readonly { documentId: string; list: string }[], validator: Validator): Promise<Version[]> {
    const projection = versionProjection(type)
    const read = async (items: Promise<Item[]>) => new Map((await items).filter((item) => item[ATTR.contentType] === type.uid).map((item) => [`${String(item.documentId)} ${String(item.locale)}`, itemToVersion(type, item)]))
    const keeps = this.kept.enabled && keys.every((key) => keptBy(type.uid, key.list).every((name) => validator.covers(name)))
    const guesses = keeps ? this.kept.guess(type, keys) : new Map<string, Guess>()
    const startedAt = Date.now()
    const found = await read(this.withValidator(keys.filter((key) => !guesses.has(`${key.documentId} ${key.list}`)).map(baseKey), projection, validator, keeps))
    if (!keeps) return keys.flatMap((key) => found.get(`${key.documentId} ${key.list}`) ?? [])
    const { lists } = await validator.get()
    const moved = new Set([...guesses.values()].filter((guess) => !this.kept.holds(type, guess, lists)))
    if (moved.size > 0) for (const [id, version] of await read(this.batchGet([...moved].map(baseKey), projection))) found.set(id, version)
    return keys.flatMap((key) => {
      const id = `${key.documentId} ${key.list}`
      const guess = guesses.get(id)
      if (guess !== undefined && !moved.has(guess)) return guess.version === null ? [] : [guess.version]
      const version = found.get(id) ?? null
      this.kept.keep(type, key, version, lists, startedAt)
      return version === null ? [] : [version]
    })
  }

  /**
   * Documents `offset` to `offset + limit` of a list in id order, whole, from `byId`: the first page
   * in one Query; a later one skips the first `offset` as small `slot0` entries (id order too), then
   * reads the page from `byId` after the last one skipped, rather than reading every skipped
   * document whole; from `mark`, only the entries between it and the page are skipped. Untrusted
   * slots may lack entries: then the documents are skipped whole (and no run is returned, so no
   * mark is kept). With the page: the position and the `slot0` keys of every entry read in a row
   * from it, for marks.
   */
  private async idPage(type: ContentType, list: string, forward: boolean, offset: number, limit: number, trusted: boolean, mark?: Mark): Promise<{ page: Item[]; from: number; run: Item[] }> {
    const projection = versionProjection(type, [ATTR.listKey, slotKey(0)])
    if (!trusted) {
      const items = await this.query({ index: INDEX.byId, type, list, forward, want: offset + limit, exact: true, projection })
      return { page: items.slice(offset), from: 0, run: [] }
    }
    const from = mark?.position ?? 0
    const skipped = offset === from ? [] : await this.query({ index: slotIndex(0), type, list, forward, want: offset - from, exact: true, after: resumeKey(mark?.last, slotKey(0)) })
    if (skipped.length < offset - from) return { page: [], from, run: skipped }
    const last = skipped.at(-1) ?? mark?.last
    const page = await this.query({ index: INDEX.byId, type, list, forward, want: limit, exact: true, after: resumeKey(last, ATTR.id), projection })
    return { page, from, run: [...skipped, ...page] }
  }

  /** Keeps where runs start in `run`, read from `from` in `order`, when the list's state says that read is exact. */
  private remember(order: string, state: ListState | undefined, startedAt: number, from: number, run: readonly Item[], sortKey: string): void {
    if (state === undefined || !settled(state.changedAt, startedAt)) return
    this.marks.record(order, state.revision, from, run, sortKey, (item) => ({
      [ATTR.listKey]: item[ATTR.listKey],
      [ATTR.id]: item[ATTR.id],
      [sortKey]: item[sortKey],
      documentId: item.documentId,
      locale: item.locale,
    }))
  }

  /** Every entry of the requested lists, refused past the scan budget before anything is read. */
  private async readAll(type: ContentType, request: ListRequest, total: number): Promise<Entry[]> {
    if (total > request.maxScan) throw overBudget(request.maxScan)
    // Untrusted slot indexes may lack entries: the documents themselves, from `byId`, are complete.
    const index = request.trusted ? slotIndex(0) : INDEX.byId
    const perList = await Promise.all(request.lists.map((list) => this.query({ index, type, list, forward: true, want: request.maxScan + 1, slot: request.trusted ? 0 : undefined })))
    return perList.flat().map((item) => toEntry(item, 0, type))
  }

  /**
   * At least the first `want` entries of a list in slot order (from `mark`: the entries from its
   * position on), and every entry tied with the last of them on the key, so that ordering them
   * exactly gives the first `want` exactly.
   */
  private async ordered(type: ContentType, list: string, slot: number, forward: boolean, want: number, mark?: Mark): Promise<Item[]> {
    return this.query({ index: slotIndex(slot), type, list, forward, want: want - (mark?.position ?? 0), slot, after: resumeKey(mark?.last, slotKey(slot)) })
  }

  /**
   * Entries of one list from an index, in key order (after the key `after`, if given), following
   * pages: up to `want` (exactly, with `exact`), else on until the key changes after the `want`-th entry.
   */
  private async query(input: { index: string; type: ContentType; list: string; forward: boolean; want: number; exact?: boolean; range?: KeyRange; slot?: number; after?: Item; projection?: Projection; partition?: string }): Promise<Item[]> {
    const { index, type, list, forward, want, exact, range, slot, after, projection, partition = ATTR.listKey } = input
    const sortAttribute = slot === undefined ? undefined : slotKey(slot)
    const items: Item[] = []
    let start: Item | undefined = after
    for (;;) {
      const boundary = items.length >= want ? items[want - 1] : undefined
      if (boundary !== undefined && (exact === true || sortAttribute === undefined || items.at(-1)?.[sortAttribute] !== boundary[sortAttribute])) break
      // Inside a run of tied keys past `want`, read ever larger pages (25, then as many as read past it).
      const beyond = items.length - want
      const remaining = Math.max(1, Math.min(MAX_QUERY_LIMIT, exact === true ? want - items.length : beyond < 0 ? RUN_LOOKAHEAD - beyond : Math.max(25, beyond)))
      const page = await guarded(() => this.db.send(new QueryCommand({
        TableName: this.tableName,
        IndexName: index,
        KeyConditionExpression: range === undefined ? '#lk = :lk' : '#lk = :lk AND #sk BETWEEN :lo AND :hi',
        ExpressionAttributeNames: { '#lk': partition, ...(range === undefined ? {} : { '#sk': sortAttribute as string }), ...projection?.ExpressionAttributeNames },
        ProjectionExpression: projection?.ProjectionExpression,
        ExpressionAttributeValues: { ':lk': listKey(type.uid, list), ...(range === undefined ? {} : { ':lo': range.lo, ':hi': range.hi }) },
        ScanIndexForward: forward,
        ExclusiveStartKey: start,
        Limit: remaining,
      })))
      items.push(...(page.Items ?? []))
      start = page.LastEvaluatedKey
      if (start === undefined) break
    }
    // Whole documents (an index projecting everything) may carry a wide write's marks: resolved here.
    const read = exact === true ? items.slice(0, want) : items
    return slot === undefined ? settlePending(this.db, this.tableName, read) : read
  }

  private comparator(type: ContentType, sort: readonly SortEntry[], collation: string): (a: Entry, b: Entry) => number {
    const compare = sortComparator(sort, type, collation)
    return (a, b) => compare(a.values, b.values)
  }

  /**
   * The page's documents from the base table, in the order of `entries`; vanished ones skipped.
   * The validator's count items come along in the same BatchGet unless it was read already; the
   * documents kept in the process at their lists' revisions are not read (keptOrRead).
   */
  private async fetch(type: ContentType, entries: readonly Entry[], validator: Validator): Promise<Version[]> {
    return this.keptOrRead(type, entries.map((entry) => ({ documentId: entry.key.documentId, list: entry.key.locale })), validator)
  }

  /**
   * The items of `keys` in one BatchGet (per 100), which also carries the validator's count items
   * unless it was read already (one call fewer than reading it alongside); the count items are
   * among those returned (with its optional ones when `carrying`: for the documents kept, kept.ts).
   */
  private async withValidator(keys: readonly Item[], projection: Projection, validator: Validator, carrying = false): Promise<Item[]> {
    const claim = validator.claim(carrying)
    let items: Item[]
    try {
      items = await this.batchGet([...keys, ...(claim?.keys ?? [])], projection)
    } catch (error) {
      claim?.reject(error)
      throw error
    }
    claim?.resolve(items.filter((item) => item.documentId === META.count))
    return items
  }

  private async batchGet(keys: readonly Item[], projection?: Projection): Promise<Item[]> {
    return settlePending(this.db, this.tableName, await batchGetItems(this.db, this.tableName, keys, projection))
  }

}

/**
 * Entries `offset` to `offset + limit` in exact order, of `entries` read in key order (ties on the
 * key in any order): only the run of equal keys the page starts in, and what follows it, is
 * sorted; every entry before that run precedes the page whatever its exact place.
 */
export function exactPage<T extends { readonly sortKey: string }>(entries: readonly T[], offset: number, limit: number, compare: (a: T, b: T) => number): T[] {
  const first = entries[offset]
  if (first === undefined) return []
  let from = offset
  while (from > 0 && entries[from - 1]?.sortKey === first.sortKey) from -= 1
  return entries.slice(from).sort(compare).slice(offset - from, offset - from + limit)
}

/** A list order: the list, the index read and the direction (marks are kept per order). */
function orderOf(type: ContentType, list: string, slot: number, forward: boolean): string {
  return `${listKey(type.uid, list)} ${slot} ${forward ? 'asc' : 'desc'}`
}

/**
 * The state of `list` itself in `head`: marks are positions in that list's own order, so they
 * follow its revision alone, whatever else the answer depends on (populated or filtered-through
 * types' lists, whose revisions the head carries too).
 */
function stateOf(head: ListHead, type: ContentType, list: string): ListState | undefined {
  return head.lists.get(listKey(type.uid, list))
}

/** True when marks kept under `revision` hold for a request that read `state` (its list's) and began at `startedAt`. */
function holds(revision: number, state: ListState | undefined, startedAt: number): boolean {
  return state !== undefined && state.revision === revision && settled(state.changedAt, startedAt)
}

/** The base-table key of a version in `list`. */
function baseKey(key: { documentId: string; list: string }): Item {
  return { documentId: key.documentId, locale: key.list }
}

/** Where a read resumes after `last` (an entry with its keys) on the index sorted by `sortKey`. */
function resumeKey(last: Item | undefined, sortKey: string): Item | undefined {
  return last === undefined ? undefined : { [ATTR.listKey]: last[ATTR.listKey], [sortKey]: last[sortKey], documentId: last.documentId, locale: last.locale }
}

function toEntry(item: Item, slot: number, type?: ContentType): Entry {
  const documentId = String(item.documentId)
  // A document item read from `byId` (untrusted slots) may predate the `f` map: its own values then.
  const stored = item[ATTR.values] as Item | undefined
  const own = stored === undefined && type !== undefined ? versionValues(itemToVersion(type, item)) : stored
  const values = { ...own, id: Number(item[ATTR.id]), documentId }
  return { key: { documentId, locale: String(item.locale) }, sortKey: String(item[slotKey(slot)] ?? ''), values }
}

/** The page of `versions` (whole documents read) that the request's filter keeps, in its order, and their count. */
function orderedPage(type: ContentType, request: ListRequest, versions: readonly Version[]): ListResult {
  const compare = sortComparator(request.sort, type, request.collation)
  const matches = versions.map((version) => ({ version, values: versionValues(version) }))
    .filter(({ values }) => request.filter === undefined || matchesFilter(request.filter, values, request.collation, type))
  const page = matches.sort((a, b) => compare(a.values, b.values)).slice(request.offset, request.offset + request.limit)
  return { versions: page.map(({ version }) => version), total: matches.length }
}

/**
 * The documentIds a filter keeps its matches among, when it names them: a `documentId` `$eq` or
 * `$in` condition, alone or as a member of an `$and`. Undefined otherwise.
 */
export function documentIdPoints(filter: Filter): string[] | undefined {
  if (filter.kind === 'condition') {
    return filter.field === 'documentId' && (filter.operator === '$eq' || filter.operator === '$in') ? [...new Set(filter.values.map(String))] : undefined
  }
  if (filter.kind !== 'and') return undefined
  return filter.filters.map(documentIdPoints).find((points) => points !== undefined)
}

export function overBudget(maxScan: number) {
  return badRequest(
    `This request would read more than ${maxScan} index entries (api.rest.maxScan). Add an indexed condition ($eq, $in, a range, $between or $null on a sortable field) or narrow the one you have`,
    queryDetails('filters', 'filters', 'filters', { maxScan }),
  )
}
