// The floor: the bare DynamoDB calls a minimal handler would make for the same answer, written
// without the API's layers (no Hono, no query parsing, no access or locale checks, no mapping of
// items to documents), on the same instrumented client, so the benchmark can state the API's
// overhead as a ratio. Each method answers with the JSON text such a handler would send.
// Sorted pages use the slot indexes as the store does: a Query with Limit (plus the run of entries
// tied with the boundary key, which only an exact in-memory sort can order), then one BatchGet.
// Every list answer carries an ETag that changes with the list (delivery.md §13), made from the
// list's revision so that a 304 costs one small read: the floor reads that count item on every list
// kind too, as cheaply as it can (alongside its Query, or as one more key of its BatchGet).
import {
  BatchGetCommand, GetCommand, QueryCommand, TransactWriteCommand, UpdateCommand, type DynamoDBDocumentClient, type TransactWriteCommandInput,
} from '@aws-sdk/lib-dynamodb'
import type { Attributes } from '../lib/body.js'
import { article } from './types.js'
import { applyChanges, countKey, itemToVersion, versionToItem, type Version } from '../lib/storage/items.js'
import { HEAD, INDEX, META, indexedFields, listKey, publicationList, servedList, slotIndex, slotKey, versionList, type PublicationState } from '../lib/table.js'

type Item = Record<string, unknown>
type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number]
/** Orders two index entries by their values (the `f` map, with id and documentId). */
export type Compare = (a: Item, b: Item) => number
/** Inclusive bounds on a slot's keys. */
export interface KeyRange {
  readonly lo: string
  readonly hi: string
}

/** The slot of one of the article's indexed fields. */
export function slotOf(field: string): number {
  const slot = indexedFields(article).indexOf(field)
  if (slot === -1) throw new Error(`no slot for ${field}`)
  return slot
}

/** An index entry's values as the sort compares them. */
const valuesOf = (item: Item): Item => ({ ...(item.f as Item | undefined), id: Number(item.id), documentId: item.documentId })

export class Floor {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  /** Fallback epochs of the locales written, read once (the app caches its registry likewise). */
  private readonly epochs = new Map<string, number>()

  private query(indexName: string, list: string, limit: number | undefined, start?: Item, backwards = false, range?: { key: string } & KeyRange) {
    return this.db.send(new QueryCommand({
      TableName: this.tableName,
      IndexName: indexName,
      KeyConditionExpression: range === undefined ? 'listKey = :lk' : 'listKey = :lk AND #sk BETWEEN :lo AND :hi',
      ...(range === undefined ? {} : { ExpressionAttributeNames: { '#sk': range.key } }),
      ExpressionAttributeValues: { ':lk': listKey(article.uid, list), ...(range === undefined ? {} : { ':lo': range.lo, ':hi': range.hi }) },
      ExclusiveStartKey: start,
      Limit: limit,
      ScanIndexForward: !backwards,
    }))
  }

  /** Every entry of an index partition (within `range` on slot keys), or the first `limit`, following pages. */
  async queryAll(indexName: string, list: string, range?: { key: string } & KeyRange, limit?: number): Promise<Item[]> {
    const items: Item[] = []
    let start: Item | undefined
    do {
      const page = await this.query(indexName, list, limit === undefined ? undefined : limit - items.length, start, false, range)
      items.push(...(page.Items ?? []))
      start = page.LastEvaluatedKey
    } while (start !== undefined && (limit === undefined || items.length < limit))
    return items
  }

  /**
   * The first `want` entries of a slot index in key order (from the end if `backwards`), and every
   * entry after them tied on the key with the `want`-th: one Query with Limit `want`, more only
   * for the tied run.
   */
  private async leading(slot: number, list: string, want: number, backwards: boolean): Promise<Item[]> {
    const key = slotKey(slot)
    const items: Item[] = []
    let start: Item | undefined
    for (;;) {
      const boundary = items[want - 1]
      if (boundary !== undefined && items.at(-1)?.[key] !== boundary[key]) break
      // Up to the page and one more entry (does the run go on?), then, inside a run, pages doubling in size.
      const page = await this.query(slotIndex(slot), list, boundary === undefined ? want + 1 - items.length : Math.min(1000, items.length), start, backwards)
      items.push(...(page.Items ?? []))
      start = page.LastEvaluatedKey
      if (start === undefined) break
    }
    return items
  }

  async count(list: string): Promise<number> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: countKey(article.uid, list) }))
    return Number(Item?.n ?? 0)
  }

  /** An answer validated by the count items of every list it reads (a type's uid and list each), then given from memory. */
  async cachedAcross<T>(lists: readonly { uid: string; list: string }[], cached: () => Promise<T>): Promise<T> {
    await this.db.send(new BatchGetCommand({ RequestItems: { [this.tableName]: { Keys: lists.map(({ uid, list }) => countKey(uid, list)) } } }))
    return cached()
  }

  /**
   * Page 1 in the default order, with the count items of `lists` read alongside (a validator of
   * several lists), answered with `kept`, its targets held in memory, beside it.
   */
  async pageWithCounts(list: string, limit: number, lists: readonly { uid: string; list: string }[], kept: readonly Item[]): Promise<string> {
    const [page, counts] = await Promise.all([
      this.query(INDEX.byId, list, limit),
      this.db.send(new BatchGetCommand({ RequestItems: { [this.tableName]: { Keys: lists.map((each) => countKey(each.uid, each.list)) } } })),
    ])
    const own = (counts.Responses?.[this.tableName] ?? []).find((item) => item.locale === listKey(article.uid, list))
    return JSON.stringify({ data: page.Items ?? [], targets: kept, meta: { total: Number(own?.n ?? 0) } })
  }

  private async batchGet(keys: readonly Item[], alsoKeys: readonly Item[] = []): Promise<Item[]> {
    if (keys.length === 0 && alsoKeys.length === 0) return []
    const { Responses } = await this.db.send(new BatchGetCommand({
      RequestItems: { [this.tableName]: { Keys: [...keys.map((key) => ({ documentId: key.documentId, locale: key.locale })), ...alsoKeys] } },
    }))
    const found = new Map((Responses?.[this.tableName] ?? []).map((item) => [item.documentId, item]))
    return keys.flatMap((key) => found.get(key.documentId) ?? [])
  }

  /**
   * Page 1 with its relations (populate=*): the page and its count, then one BatchGetItem of every
   * target the page links (authors, tags) and of its documents' other locale versions, read whole.
   */
  async populatedPage(list: string, limit: number, locales: readonly string[]): Promise<string> {
    const [page, total] = await Promise.all([this.query(INDEX.byId, list, limit), this.count(list)])
    const items = page.Items ?? []
    const targets = await this.targetsOf(items, list, locales)
    return JSON.stringify({ data: items, meta: { total, targets: targets.length } })
  }

  /** The targets `items` link (authors, tags) in `list` and their versions in the other `locales`, read whole in one BatchGetItem. */
  async targetsOf(items: readonly Item[], list: string, locales: readonly string[]): Promise<Item[]> {
    const keys = new Map<string, Item>()
    for (const item of items) {
      for (const target of [item.author, ...((item.tags as string[] | undefined) ?? [])]) if (typeof target === 'string') keys.set(target, { documentId: target, locale: list })
      for (const code of locales) if (code !== list) keys.set(`${String(item.documentId)} ${code}`, { documentId: item.documentId, locale: code })
    }
    return keys.size === 0 ? [] : ((await this.db.send(new BatchGetCommand({ RequestItems: { [this.tableName]: { Keys: [...keys.values()] } } }))).Responses?.[this.tableName] ?? [])
  }

  /** The targets of page 1 in the default order (`targetsOf`): what a process that keeps them holds. */
  async firstPageTargets(list: string, limit: number, locales: readonly string[]): Promise<Item[]> {
    return this.targetsOf((await this.query(INDEX.byId, list, limit)).Items ?? [], list, locales)
  }

  /**
   * Articles linking one author, by the author's name: the author's list read on its name's slot,
   * the index of links to each author found, then one BatchGetItem of those articles and of both
   * lists' count items (the answer's validator, as for every list kind). The links are read
   * consistently, as the app must: a link is recorded before its source's version commits, so
   * only a consistent read surely sees every link of a committed version.
   */
  async byAuthorName(authorSlot: number, nameKey: string, list: string): Promise<string> {
    const authors = await this.db.send(new QueryCommand({
      TableName: this.tableName, IndexName: slotIndex(authorSlot),
      KeyConditionExpression: 'listKey = :lk AND #k = :v', ExpressionAttributeNames: { '#k': slotKey(authorSlot) },
      ExpressionAttributeValues: { ':lk': listKey('api::author.author', list), ':v': nameKey },
    }))
    const links = await Promise.all((authors.Items ?? []).map((author) => this.db.send(new QueryCommand({
      TableName: this.tableName, KeyConditionExpression: 'documentId = :p AND begins_with(locale, :prefix)',
      ExpressionAttributeValues: { ':p': `#link:${String(author.documentId)}`, ':prefix': `${article.uid}#author#${list}#` },
      ConsistentRead: true,
    }))))
    const sources = links.flatMap((result) => (result.Items ?? []).map((item) => String(item.locale).split('#').at(-1) as string))
    // The answer's ETag is made of the revisions of the article and author lists it reads.
    const counts = [countKey(article.uid, list), countKey('api::author.author', list)]
    const read = (await this.db.send(new BatchGetCommand({ RequestItems: { [this.tableName]: { Keys: [...sources.map((documentId) => ({ documentId, locale: list })), ...counts] } } }))).Responses?.[this.tableName] ?? []
    const found = read.filter((item) => item.documentId !== META.count)
    return JSON.stringify({ data: found.sort((a, b) => Number(a.id) - Number(b.id)), meta: { total: found.length } })
  }

  /** Default order, first page: one Query of `byId` and the count item (the validator; the total when asked) in parallel. */
  async firstPage(list: string, limit: number, withCount: boolean): Promise<string> {
    const [page, total] = await Promise.all([this.query(INDEX.byId, list, limit), this.count(list)])
    return JSON.stringify({ data: page.Items ?? [], meta: { total: withCount ? total : undefined } })
  }

  /**
   * A page in the order of `slot` (`compare` orders ties exactly), as the store plans it: near
   * the start, the leading entries with the count in parallel; nearer the end, the count first,
   * then the entries from the end up to the page. Then the page's documents in one BatchGet.
   */
  async sortedPage(list: string, slot: number, descending: boolean, compare: Compare, offset: number, limit: number): Promise<string> {
    const ordered = (a: Item, b: Item) => compare(valuesOf(a), valuesOf(b))
    if (offset === 0) {
      const [entries, total] = await Promise.all([this.leading(slot, list, limit, descending), this.count(list)])
      return JSON.stringify({ data: await this.batchGet(entries.sort(ordered).slice(0, limit)), meta: { total } })
    }
    const total = await this.count(list)
    if (offset >= total) return JSON.stringify({ data: [], meta: { total } })
    if (offset + limit / 2 <= total / 2) {
      const entries = (await this.leading(slot, list, offset + limit, descending)).sort(ordered)
      return JSON.stringify({ data: await this.batchGet(entries.slice(offset, offset + limit)), meta: { total } })
    }
    const fromEnd = total - offset
    const tail = (await this.leading(slot, list, fromEnd, !descending)).sort((a, b) => ordered(b, a))
    const page = tail.slice(Math.max(0, fromEnd - limit), fromEnd).reverse()
    return JSON.stringify({ data: await this.batchGet(page), meta: { total } })
  }

  /**
   * A filtered page: the entries of `ranges` on one slot (or of the whole list), the ones matching
   * `matches`, ordered by `compare`, and the page's documents; the total is the matches counted.
   */
  async filteredPage(list: string, slot: number, ranges: readonly KeyRange[] | 'all', matches: (values: Item) => boolean, compare: Compare, limit: number): Promise<string> {
    const read = ranges === 'all'
      ? await this.queryAll(slotIndex(slot), list)
      : (await Promise.all(ranges.map((range) => this.queryAll(slotIndex(slot), list, { key: slotKey(slot), ...range })))).flat()
    const found = read.map((item) => ({ item, values: valuesOf(item) })).filter(({ values }) => matches(values)).sort((a, b) => compare(a.values, b.values))
    // The list's count item (the validator) rides in the BatchGet of the page.
    return JSON.stringify({ data: await this.batchGet(found.slice(0, limit).map(({ item }) => item), [countKey(article.uid, list)]), meta: { total: found.length } })
  }

  /** What a 304 on a list needs: the list's count item (its revision is the validator). */
  async listValidator(list: string): Promise<string> {
    await this.count(list)
    return ''
  }

  /** A repeated list page from a minimal in-process cache: the validator read, then the cached answer. */
  async cachedPage<T>(list: string, cached: () => Promise<T>): Promise<T> {
    await this.count(list)
    return cached()
  }

  /** One version, as strongly consistent as the API reads it. */
  async getOne(documentId: string, locale: string): Promise<string> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: { documentId, locale }, ConsistentRead: true }))
    return JSON.stringify({ data: Item })
  }

  /** A document as stored (strongly consistent): its versions and its head revision. */
  private async document(documentId: string): Promise<{ versions: Item[]; headRev: number | undefined }> {
    const { Items = [] } = await this.db.send(new QueryCommand({
      TableName: this.tableName,
      KeyConditionExpression: 'documentId = :d',
      ExpressionAttributeValues: { ':d': documentId },
      ConsistentRead: true,
    }))
    const head = Items.find((item) => item.locale === HEAD)
    // Versions only: not the head item nor served copies (`~<locale>`).
    const versions = Items.filter((item) => !String(item.locale).startsWith('#') && !String(item.locale).startsWith('~'))
    return { versions, headRev: head === undefined ? undefined : Number(head.rev) }
  }

  private async nextId(): Promise<number> {
    const { Attributes: updated } = await this.db.send(new UpdateCommand({
      TableName: this.tableName,
      Key: { documentId: META.sequence, locale: article.uid },
      UpdateExpression: 'ADD n :one',
      ExpressionAttributeValues: { ':one': 1 },
      ReturnValues: 'UPDATED_NEW',
    }))
    return Number(updated?.n)
  }

  /**
   * The guards every write of the design carries: the head put (new document) or moved on
   * condition of the revision read, and the locale's registration item checked at the fallback
   * epoch (read once and kept, as the app caches the registry).
   */
  private async guards(documentId: string, locale: string, headRev: number | undefined): Promise<TransactItem[]> {
    let epoch = this.epochs.get(locale)
    if (epoch === undefined) {
      const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: { documentId: META.locale, locale }, ConsistentRead: true }))
      epoch = Number(Item?.epoch ?? 0)
      this.epochs.set(locale, epoch)
    }
    const head: TransactItem = headRev === undefined
      ? { Put: { TableName: this.tableName, Item: { documentId, locale: HEAD, contentType: article.uid, rev: 1 }, ConditionExpression: 'attribute_not_exists(documentId)' } }
      : { Update: { TableName: this.tableName, Key: { documentId, locale: HEAD }, UpdateExpression: 'SET rev = rev + :one', ConditionExpression: 'rev = :rev', ExpressionAttributeValues: { ':rev': headRev, ':one': 1 } } }
    return [head, { ConditionCheck: { TableName: this.tableName, Key: { documentId: META.locale, locale }, ConditionExpression: 'epoch = :e', ExpressionAttributeValues: { ':e': epoch } } }]
  }

  /** A list's count moved by `delta`, its revision on, `at` now. */
  private countMove(list: string, delta: number): TransactItem {
    return {
      Update: {
        TableName: this.tableName, Key: countKey(article.uid, list), UpdateExpression: 'ADD n :d, rev :one SET #at = :at',
        ExpressionAttributeNames: { '#at': 'at' }, ExpressionAttributeValues: { ':d': delta, ':one': 1, ':at': Date.now() },
      },
    }
  }

  /**
   * A new version: the next id, then the guards, the version, its locale's count and, for each
   * locale in `servedIn` (whose chain serves it), the served copy and its list's count, in one
   * transaction. Article has draft & publish: the draft and its published copy, each with its list's
   * and its publication state partition's count (both `u`: equal).
   */
  private async put(documentId: string, locale: string, attributes: Attributes, headRev: number | undefined, servedIn: readonly string[] = []): Promise<string> {
    const now = new Date().toISOString()
    const statuses = article.draftAndPublish ? (['draft', 'published'] as const) : (['published'] as const)
    const versions = await Promise.all(statuses.map(async (status): Promise<Version> => ({ documentId, locale, status, id: await this.nextId(), rev: 1, createdAt: now, updatedAt: now, publishedAt: status === 'draft' ? null : now, attributes })))
    const items = versions.map((version) => versionToItem(article, version, undefined, article.draftAndPublish ? 'u' : undefined))
    await this.db.send(new TransactWriteCommand({
      TransactItems: [
        ...(await this.guards(documentId, locale, headRev)),
        ...items.flatMap((item): TransactItem[] => [
          { Put: { TableName: this.tableName, Item: item, ConditionExpression: 'attribute_not_exists(documentId)' } },
          this.countMove(String(item.locale), 1),
          ...(article.draftAndPublish ? [this.countMove(publicationList(String(item.locale), 'u'), 1)] : []),
        ]),
        ...servedIn.flatMap((served) => versions.flatMap((version) => [{ Put: { TableName: this.tableName, Item: versionToItem(article, version, served) } }, this.countMove(servedList(versionList(served, version.status)), 1)])),
      ],
    }))
    return JSON.stringify({ data: items.at(-1) })
  }

  /** A new document in `locale`, copied into the served lists of `servedIn`. */
  create(documentId: string, locale: string, attributes: Attributes, servedIn: readonly string[] = []): Promise<string> {
    return this.put(documentId, locale, attributes, undefined, servedIn)
  }

  /** A new localization: read the document (it must exist; its shared values are copied), then write. */
  async newLocalization(documentId: string, locale: string, localized: Attributes): Promise<string> {
    const { versions: [first], headRev } = await this.document(documentId)
    if (first === undefined) throw new Error(`floor: no document ${documentId}`)
    return this.put(documentId, locale, { ...localized, views: first.views ?? null, category: first.category ?? null }, headRev)
  }

  /**
   * A non-localized change: read the document, then put each version again with the change (its
   * slot keys and `f` map move with the values) and move every list's revision, in one transaction.
   */
  async updateShared(documentId: string, locale: string, changes: Attributes): Promise<string> {
    const { versions, headRev } = await this.document(documentId)
    const now = new Date().toISOString()
    const updated = versions.map((item) => versionToItem(article, applyChanges(itemToVersion(article, item), changes, now), undefined, stateOf(item)))
    await this.db.send(new TransactWriteCommand({
      TransactItems: [
        ...(await this.guards(documentId, locale, headRev)),
        ...updated.map((Item): TransactItem => ({ Put: { TableName: this.tableName, Item } })),
        ...updated.map((item) => this.countMove(String(item.locale), 0)),
      ],
    }))
    return JSON.stringify({ data: updated.find((item) => item.locale === locale) })
  }

  /**
   * A localized change published at once (a PUT without status): read the document, then put the
   * locale's draft and published version again with the change and move their lists' revisions,
   * in one transaction (their publication state stays `u`: both hold the same values).
   */
  async updateLocalized(documentId: string, locale: string, changes: Attributes): Promise<string> {
    const { versions, headRev } = await this.document(documentId)
    const now = new Date().toISOString()
    const mine = versions.filter((item) => itemToVersion(article, item).locale === locale)
    const updated = mine.map((item) => versionToItem(article, applyChanges(itemToVersion(article, item), changes, now), undefined, stateOf(item)))
    await this.db.send(new TransactWriteCommand({
      TransactItems: [
        ...(await this.guards(documentId, locale, headRev)),
        ...updated.map((Item): TransactItem => ({ Put: { TableName: this.tableName, Item } })),
        ...updated.map((item) => this.countMove(String(item.locale), 0)),
      ],
    }))
    return JSON.stringify({ data: updated.find((item) => item.locale === locale) })
  }

  /**
   * A draft write (status=draft) of a published version: read the document, put the draft with the
   * change, move the published version's state key to `m` (modified), and the state partitions'
   * counts, in one transaction.
   */
  async writeDraft(documentId: string, locale: string, changes: Attributes): Promise<string> {
    const { versions, headRev } = await this.document(documentId)
    const draft = versions.find((item) => item.locale === versionList(locale, 'draft'))
    if (draft === undefined) throw new Error(`floor: no draft ${documentId} ${locale}`)
    const item = versionToItem(article, applyChanges(itemToVersion(article, draft), changes, new Date().toISOString()), undefined, 'm')
    await this.db.send(new TransactWriteCommand({
      TransactItems: [
        ...(await this.guards(documentId, locale, headRev)),
        { Put: { TableName: this.tableName, Item: item } },
        this.countMove(String(item.locale), 0),
        ...this.stateMove(documentId, locale, locale, stateOf(draft), 'm'),
      ],
    }))
    return JSON.stringify({ data: item })
  }

  /**
   * A publication: read the document, put the published version as a copy of the draft (keeping
   * its id), move the draft's state key to `u` (unmodified), and the counts, in one transaction.
   */
  async publish(documentId: string, locale: string): Promise<string> {
    const { versions, headRev } = await this.document(documentId)
    const draft = versions.find((item) => item.locale === versionList(locale, 'draft'))
    const published = versions.find((item) => item.locale === locale)
    if (draft === undefined || published === undefined) throw new Error(`floor: no versions ${documentId} ${locale}`)
    const now = new Date().toISOString()
    const copy: Version = { ...itemToVersion(article, draft), status: 'published', id: Number(published.id), rev: Number(published.rev) + 1, updatedAt: now, publishedAt: now }
    const item = versionToItem(article, copy, undefined, 'u')
    await this.db.send(new TransactWriteCommand({
      TransactItems: [
        ...(await this.guards(documentId, locale, headRev)),
        { Put: { TableName: this.tableName, Item: item } },
        this.countMove(locale, 0),
        ...this.stateMove(documentId, locale, versionList(locale, 'draft'), stateOf(draft), 'u'),
      ],
    }))
    return JSON.stringify({ data: item })
  }

  /**
   * A locale's draft and published version moving from publication state `from` to `to`: the state
   * key of the one not put (`other`, its list), the partitions' counts.
   */
  private stateMove(documentId: string, locale: string, other: string, from: PublicationState | undefined, to: PublicationState): TransactItem[] {
    if (from === to || from === undefined) return []
    return [
      { Update: { TableName: this.tableName, Key: { documentId, locale: other }, UpdateExpression: 'SET ps = :ps', ExpressionAttributeValues: { ':ps': listKey(article.uid, publicationList(other, to)) } } },
      ...[locale, versionList(locale, 'draft')].flatMap((list) => [this.countMove(publicationList(list, from), -1), this.countMove(publicationList(list, to), 1)]),
    ]
  }

  /** Deletes one version (with draft & publish, the draft too), with its served copies, after reading the document, and uncounts them, in one transaction. */
  async deleteVersion(documentId: string, locale: string, servedIn: readonly string[] = []): Promise<string> {
    const { versions, headRev } = await this.document(documentId)
    const doomed = versions.filter((item) => itemToVersion(article, item).locale === locale)
    await this.db.send(new TransactWriteCommand({
      TransactItems: [
        ...(await this.guards(documentId, locale, headRev)),
        ...doomed.flatMap((item): TransactItem[] => [
          { Delete: { TableName: this.tableName, Key: { documentId, locale: item.locale }, ConditionExpression: 'attribute_exists(documentId)' } },
          this.countMove(String(item.locale), -1),
          ...(stateOf(item) === undefined ? [] : [this.countMove(publicationList(String(item.locale), stateOf(item)!), -1)]),
          ...servedIn.flatMap((served) => [{ Delete: { TableName: this.tableName, Key: { documentId, locale: servedList(versionList(served, itemToVersion(article, item).status)) } } }, this.countMove(servedList(versionList(served, itemToVersion(article, item).status)), -1)]),
        ]),
      ],
    }))
    return ''
  }

  /**
   * The first page of a publication state partition (`byPublication`, `<list>#<state>`) in id
   * order, with the validator read alongside: the list's count item (its revision) and the
   * partition's (the total), in one BatchGet: what `publicationFilter` reads.
   */
  async statePage(list: string, partition: string, limit: number): Promise<string> {
    const [page, counts] = await Promise.all([
      this.db.send(new QueryCommand({
        TableName: this.tableName, IndexName: INDEX.byPublication,
        KeyConditionExpression: 'ps = :p', ExpressionAttributeValues: { ':p': listKey(article.uid, partition) }, Limit: limit,
      })),
      this.db.send(new BatchGetCommand({ RequestItems: { [this.tableName]: { Keys: [countKey(article.uid, list), countKey(article.uid, partition)] } } })),
    ])
    const total = (counts.Responses?.[this.tableName] ?? []).find((item) => item.locale === listKey(article.uid, partition))?.n
    return JSON.stringify({ data: page.Items ?? [], meta: { pagination: { total: Number(total ?? 0) } } })
  }
}

/** The publication state stored on a version item (`ps` ends with it); undefined on a type without draft & publish. */
function stateOf(item: Item): PublicationState | undefined {
  return typeof item.ps === 'string' ? (item.ps.slice(-1) as PublicationState) : undefined
}
