// The index of links by target (content-model.md §16). A version stores its owning relations'
// links itself (items.ts), so populating them is a batched key read of the targets; what no
// version stores is who links *to* a document: inverse sides (`author.articles`), filters through
// a relation (`filters[tags][slug]`), and the "one" sides that move a target need it. One small
// item per link, in the target's partition:
//
//   { documentId: '#link:<target documentId>', locale: '<source uid>#<attribute>#<source list>#<source id, 16 digits>#<source documentId>', r, t }
//
// so the links to a document from one attribute and list are one Query (a relation inside a
// component is keyed by its path of attribute names, `seo.article`: components/entries.ts); `t` is when the link was
// made (an inverse side shows its links in that order, as Strapi does). The item is written outside the write's transaction: put before it (for a link it
// adds), deleted after it (for one it removes), each on condition of `r`, the source document's
// head revision of the change, so a late put or delete never undoes a newer change. The index is
// therefore a superset of the links: every link has its item, and a reader keeps a source only
// when the source's version itself holds the link (the version is the truth).
import { BatchWriteCommand, DeleteCommand, PutCommand, QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb'
import { ownedRelations, type ContentType } from '../content-types.js'
import { conditionalWrite, guarded, inParallel } from './client.js'
import { serviceUnavailable } from '../errors.js'
import { listOf, type Version } from './items.js'
import { storedComponentLinks } from '../components/entries.js'

type Item = Record<string, unknown>

const PREFIX = '#link:'

/** The partition of the links to `documentId`. */
export function linkPartition(documentId: string): string {
  return `${PREFIX}${documentId}`
}

/** The sort key prefix of the links from `uid`'s `attribute` in `list` (each source follows, by id). */
export function linkPrefix(uid: string, attribute: string, list: string): string {
  return `${uid}#${attribute}#${list}#`
}

/** One link of a version, as the index keys it. */
export interface LinkKey {
  readonly documentId: string
  readonly locale: string
}

/** A source the index names: its documentId, its list, its version's id, and when it linked (ms). */
export interface LinkSource {
  readonly documentId: string
  readonly list: string
  readonly id: number
  readonly at: number
}

const pad = (id: number) => String(id).padStart(16, '0')

/** The index keys of every link `versions` hold. */
export function linkKeys(type: ContentType, versions: readonly Version[]): Map<string, LinkKey> {
  const keys = new Map<string, LinkKey>()
  const add = (version: Version, attribute: string, targets: Iterable<string>) => {
    for (const target of targets) {
      const key = { documentId: linkPartition(target), locale: `${linkPrefix(type.uid, attribute, listOf(version))}${pad(version.id)}#${version.documentId}` }
      keys.set(`${key.documentId}\u0000${key.locale}`, key)
    }
  }
  for (const version of versions) {
    for (const name of ownedRelations(type)) {
      const value = version.attributes[name]
      add(version, name, typeof value === 'string' ? [value] : Array.isArray(value) ? (value as string[]) : [])
    }
    // Links inside components, under their path (`seo.article`): one item per version and target.
    for (const [path, targets] of storedComponentLinks(type, version.attributes)) add(version, path, targets)
  }
  return keys
}

/** The links a change adds and removes: the index items to put before it commits and delete after. */
export function linkChanges(type: ContentType, before: readonly Version[], after: readonly Version[]): { added: LinkKey[]; removed: LinkKey[] } {
  if (ownedRelations(type).length === 0 && Object.keys(type.components).length === 0) return { added: [], removed: [] }
  const old = linkKeys(type, before)
  const now = linkKeys(type, after)
  return { added: [...now].filter(([id]) => !old.has(id)).map(([, key]) => key), removed: [...old].filter(([id]) => !now.has(id)).map(([, key]) => key) }
}

/** Parallel requests to the index at a time (a write adding many links). */
const CONCURRENCY = 16

function inBatches<T>(items: readonly T[], each: (item: T) => Promise<unknown>): Promise<unknown> {
  return inParallel(items.map((item) => () => each(item)), CONCURRENCY)
}

export class LinkIndex {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  /** Records links a change adds, before it commits; `revision` is the head revision it commits. */
  async add(keys: readonly LinkKey[], revision: number): Promise<void> {
    await inBatches(keys, (Key) => conditionalWrite(() => this.db.send(new PutCommand({
      TableName: this.tableName,
      Item: { ...Key, r: revision, t: Date.now() },
      ConditionExpression: 'attribute_not_exists(r) OR r < :r',
      ExpressionAttributeValues: { ':r': revision },
    })), () => undefined))
  }

  /**
   * Records the links of a document being created, before it commits: no other write can know the
   * document yet, so no condition is needed, and 25 go in one `BatchWriteItem` (a create with links
   * costs a few calls, not one per link).
   */
  async addNew(keys: readonly LinkKey[], revision: number): Promise<void> {
    const at = Date.now()
    const chunks: LinkKey[][] = []
    for (let i = 0; i < keys.length; i += 25) chunks.push(keys.slice(i, i + 25))
    await Promise.all(chunks.map(async (chunk) => {
      let pending: Record<string, unknown>[] = chunk.map((key) => ({ PutRequest: { Item: { ...key, r: revision, t: at } } }))
      for (let attempt = 0; pending.length > 0; attempt++) {
        if (attempt >= 6) throw serviceUnavailable()
        if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, Math.min(1000, 25 * 2 ** attempt)))
        const result = await guarded(() => this.db.send(new BatchWriteCommand({ RequestItems: { [this.tableName]: pending as never } })))
        pending = (result.UnprocessedItems?.[this.tableName] ?? []) as Record<string, unknown>[]
      }
    }))
  }

  /** Forgets links a committed change removed (unless a later change of the source made them again). */
  async remove(keys: readonly LinkKey[], revision: number): Promise<void> {
    await inBatches(keys, (Key) => conditionalWrite(() => this.db.send(new DeleteCommand({
      TableName: this.tableName,
      Key,
      ConditionExpression: 'attribute_not_exists(r) OR r <= :r',
      ExpressionAttributeValues: { ':r': revision },
    })), () => undefined))
  }

  /**
   * The sources the index names for links to `target` from `uid`'s `attribute` in `lists`, in id
   * order per list; at most `limit` (the caller's budget) plus one, so it can tell it was exceeded.
   */
  async sources(target: string, uid: string, attribute: string, lists: readonly string[], limit: number): Promise<LinkSource[]> {
    const found: LinkSource[] = []
    for (const list of lists) {
      const prefix = linkPrefix(uid, attribute, list)
      let start: Item | undefined
      do {
        const page = await guarded(() => this.db.send(new QueryCommand({
          TableName: this.tableName,
          KeyConditionExpression: 'documentId = :p AND begins_with(#sk, :prefix)',
          ExpressionAttributeNames: { '#sk': 'locale', '#t': 't' },
          ExpressionAttributeValues: { ':p': linkPartition(target), ':prefix': prefix },
          ProjectionExpression: '#sk, #t',
          ConsistentRead: true,
          Limit: limit + 1 - found.length,
          ExclusiveStartKey: start,
        })))
        for (const item of page.Items ?? []) {
          const [id = '', documentId = ''] = String(item.locale).slice(prefix.length).split('#')
          found.push({ documentId, list, id: Number(id), at: Number(item.t ?? 0) })
        }
        start = page.LastEvaluatedKey
      } while (start !== undefined && found.length <= limit)
      if (found.length > limit) break
    }
    return found
  }

  /**
   * Every source the index names for links to `target`, from any type, attribute and list: at most
   * `limit` plus one (so the caller can tell there are more). One Query per page of the partition.
   */
  async linksTo(target: string, limit: number): Promise<(LinkSource & { uid: string; attribute: string })[]> {
    const found: (LinkSource & { uid: string; attribute: string })[] = []
    let start: Item | undefined
    do {
      const page = await guarded(() => this.db.send(new QueryCommand({
        TableName: this.tableName,
        KeyConditionExpression: 'documentId = :p',
        ExpressionAttributeNames: { '#sk': 'locale', '#t': 't' },
        ExpressionAttributeValues: { ':p': linkPartition(target) },
        ProjectionExpression: '#sk, #t',
        ConsistentRead: true,
        Limit: limit + 1 - found.length,
        ExclusiveStartKey: start,
      })))
      for (const item of page.Items ?? []) {
        const parts = String(item.locale).split('#')
        if (parts.length < 5) continue
        found.push({ uid: parts[0] as string, attribute: parts[1] as string, list: parts.slice(2, -2).join('#'), id: Number(parts.at(-2)), documentId: parts.at(-1) as string, at: Number(item.t ?? 0) })
      }
      start = page.LastEvaluatedKey
    } while (start !== undefined && found.length <= limit)
    return found
  }
}
