// Seeds articles straight into the table, item for item as the document store writes them
// (versionToItem: slot keys `k<i>` and the `f` map), because hundreds of thousands of versions
// through the API would take most of the time budget. Per document: its versions, its head item
// and, for each locale with a fallback chain, the served copy (`~<L>`); the id sequence and the
// count items of every list (n, rev, and `at` far in the past, so lists are settled) move with them.
import { BatchWriteCommand, GetCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb'
import type { Attributes } from '../lib/body.js'
import { article } from './types.js'
import { newDocumentId } from '../lib/storage/documents.js'
import { KEY_VERSION } from '../lib/storage/index-keys.js'
import { countKey, headKey, type Version } from '../lib/storage/items.js'
import { emptyDocument, planChanges } from '../lib/storage/document-plan.js'
import { META } from '../lib/table.js'
import { linkKeys } from '../lib/storage/links.js'
import type { ContentType } from '../lib/content-types.js'

const WORDS: Record<string, readonly string[]> = {
  en: ['apple', 'Banana', 'cherry', 'delta', 'Echo', 'falcon', 'garden', 'harbor', 'island', 'jungle', 'kettle', 'lemon', 'Meadow', 'night', 'ocean', 'pepper'],
  fr: ['été', 'Éclair', 'abricot', 'Bâton', 'cœur', 'forêt', 'garçon', 'hôtel', 'île', 'jardin', 'lumière', 'maïs', 'noël', 'œuvre', 'pâte', 'rêve'],
  de: ['Äpfel', 'Bäume', 'Öl', 'Übung', 'straße', 'Zucker', 'fuß', 'Mädchen', 'schön', 'Grün', 'Haus', 'Käse', 'Löwe', 'Müller', 'Nuss', 'Tür'],
}
export const CATEGORIES = ['news', 'guides', 'reviews', 'opinion', 'science', 'travel', 'food', 'sport']

/** A small deterministic PRNG (mulberry32), so every run seeds the same content. */
export function random(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

export function words(rnd: () => number, locale: string, count: number): string {
  const list = WORDS[locale] ?? WORDS.en!
  return Array.from({ length: count }, () => list[Math.floor(rnd() * list.length)]).join(' ')
}

/** Rich text of about 1.3 KB (a stored version is then about 2 KB): paragraphs of blocks. */
function body(rnd: () => number, locale: string): unknown[] {
  return Array.from({ length: 4 }, () => ({
    type: 'paragraph',
    children: [{ type: 'text', text: `${words(rnd, locale, 22)}. ${words(rnd, locale, 20)}.` }, { type: 'text', text: words(rnd, locale, 11), bold: true }],
  }))
}

/** The localized attributes of one version (title, body, slug). */
export function localizedAttributes(rnd: () => number, locale: string, index: number): Attributes {
  const title = `${words(rnd, locale, 3)} ${index}`
  return { title, body: body(rnd, locale), slug: `${title.toLowerCase().replace(/\s+/g, '-')}-${locale}` }
}

/** Non-localized attributes shared by every version of a document. */
export function sharedAttributes(rnd: () => number): Attributes {
  // Skewed towards small counts (about 0.4% of documents in 10..12), so range filters match a few.
  return { views: Math.floor(rnd() ** 3 * 100_000), category: CATEGORIES[Math.floor(rnd() * CATEGORIES.length)]! }
}

const BATCH = 25
/** BatchWrite calls in flight while seeding. */
const IN_FLIGHT = 8

async function batchWrite(db: DynamoDBDocumentClient, tableName: string, items: readonly Record<string, unknown>[]): Promise<void> {
  let pending = items.map((Item) => ({ PutRequest: { Item } }))
  for (let attempt = 0; pending.length > 0; attempt++) {
    if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, Math.min(1000, 20 * 2 ** attempt)))
    const result = await db.send(new BatchWriteCommand({ RequestItems: { [tableName]: pending } }))
    pending = (result.UnprocessedItems?.[tableName] ?? []) as typeof pending
  }
}

/** Writes `items` in batches of 25, IN_FLIGHT batches at a time. */
export async function writeAll(db: DynamoDBDocumentClient, tableName: string, items: readonly Record<string, unknown>[]): Promise<void> {
  let next = 0
  const worker = async () => {
    while (next < items.length) {
      const chunk = items.slice(next, next + BATCH)
      next += BATCH
      await batchWrite(db, tableName, chunk)
    }
  }
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker))
}

/** Moves a counter item by `delta`; a count item's revision moves on and its `at` stays in the past. */
async function adjust(db: DynamoDBDocumentClient, tableName: string, key: Record<string, unknown>, delta: number, list: boolean): Promise<void> {
  await db.send(new UpdateCommand({
    TableName: tableName,
    Key: key,
    UpdateExpression: list ? 'ADD #n :d, #rev :one SET #at = :zero' : 'ADD #n :d',
    ExpressionAttributeNames: { '#n': 'n', ...(list ? { '#rev': 'rev', '#at': 'at' } : {}) },
    ExpressionAttributeValues: { ':d': delta, ...(list ? { ':one': 1, ':zero': 0 } : {}) },
  }))
}

export interface SeedPlan {
  /** Documents to add. */
  readonly count: number
  /** Locales every document gets a version in. */
  readonly locales: readonly string[]
  /** Locales only some documents get a version in: document `i` has one when `translated(i)`. */
  readonly partial?: { readonly locales: readonly string[]; translated(i: number): boolean }
  /** Fallback chains (`es-MX` → [`es-MX`, `es`, `en`]): each gets a served copy per document. */
  readonly chains?: ReadonlyMap<string, readonly string[]>
  readonly seed: number
  /**
   * The links of the `i`-th article of this call: its author and tags, and
   * whether the index of links gets its items (only for the links the benchmark reads through).
   */
  readonly links?: (i: number) => { author: string | null; tags: string[]; indexed: boolean }
}

/** One seeded document in this many has a draft that differs from its published version. */
export const MODIFIED_EVERY = 10

/**
 * Adds `plan.count` articles and returns their documentIds, with the items the document store
 * would leave: versions, head (rev 1), served copies; ids continue the type's sequence, and the
 * sequence and every list's count item move by what was added.
 */
export async function seedArticles(db: DynamoDBDocumentClient, tableName: string, plan: SeedPlan): Promise<string[]> {
  const rnd = random(plan.seed)
  const sequenceKey = { documentId: META.sequence, locale: article.uid }
  const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: sequenceKey, ConsistentRead: true }))
  const firstId = Number(Item?.n ?? 0)
  let id = firstId
  const items: Record<string, unknown>[] = []
  const documentIds: string[] = []
  const added = new Map<string, number>()
  // Distinct timestamps: one second per document, continuing after the documents already seeded.
  const started = Date.parse('2025-01-01T00:00:00.000Z') + firstId * 1000
  for (let i = 0; i < plan.count; i++) {
    const documentId = newDocumentId()
    documentIds.push(documentId)
    const linked = plan.links?.(i)
    const shared: Attributes = { ...sharedAttributes(rnd), ...(linked === undefined ? {} : { author: linked.author, tags: linked.tags.length === 0 ? null : linked.tags }) }
    const locales = [...plan.locales, ...(plan.partial?.translated(i) === true ? plan.partial.locales : [])]
    // Each locale's draft and its published copy (article has draft & publish), stored as the
    // document store would store them (document-plan.ts): versions, served copies, state partitions.
    const versions: Version[] = locales.flatMap((locale): Version[] => {
      const at = new Date(started + i * 1000).toISOString()
      const attributes = { ...localizedAttributes(rnd, locale, id + 2), ...shared }
      const draft: Version = { documentId, locale, status: 'draft', id: ++id, rev: 1, createdAt: at, updatedAt: at, publishedAt: null, attributes }
      const published: Version = { ...draft, status: 'published', id: ++id, publishedAt: at }
      // One document in MODIFIED_EVERY has a draft changed since its publication (publicationFilter=modified).
      return i % MODIFIED_EVERY === 0 ? [{ ...draft, attributes: { ...attributes, title: `${String(attributes.title)} (edited)` } }, published] : [draft, published]
    })
    const planned = planChanges(article, tableName, emptyDocument(documentId), versions, plan.chains ?? new Map())
    for (const write of planned.items) items.push(write.Put?.Item as Record<string, unknown>)
    for (const [list, n] of planned.lists) added.set(list, (added.get(list) ?? 0) + n)
    items.push({ ...headKey(documentId), contentType: article.uid, rev: 1 })
    if (linked?.indexed === true) for (const key of linkKeys(article, versions).values()) items.push({ ...key, r: 1, t: i })
  }
  await writeAll(db, tableName, items)
  await Promise.all([
    adjust(db, tableName, sequenceKey, id - firstId, false),
    ...[...added].map(([list, n]) => adjust(db, tableName, countKey(article.uid, list), n, true)),
  ])
  return documentIds
}

/**
 * Adds `count` documents of `type`, as the document store would: document `i`'s versions from
 * `make(i, documentId, nextId)` (`nextId` continues the type's id sequence), its head, the id
 * sequence and every list's count. Returns their documentIds.
 */
export async function seedDocuments(db: DynamoDBDocumentClient, tableName: string, type: ContentType, count: number, make: (i: number, documentId: string, nextId: () => number) => Version[]): Promise<string[]> {
  const sequenceKey = { documentId: META.sequence, locale: type.uid }
  const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: sequenceKey, ConsistentRead: true }))
  const firstId = Number(Item?.n ?? 0)
  let id = firstId
  const nextId = () => ++id
  const items: Record<string, unknown>[] = []
  const documentIds: string[] = []
  const added = new Map<string, number>()
  for (let i = 0; i < count; i++) {
    const documentId = newDocumentId()
    documentIds.push(documentId)
    const planned = planChanges(type, tableName, emptyDocument(documentId), make(i, documentId, nextId), new Map())
    for (const write of planned.items) items.push(write.Put?.Item as Record<string, unknown>)
    for (const [list, n] of planned.lists) added.set(list, (added.get(list) ?? 0) + n)
    items.push({ ...headKey(documentId), contentType: type.uid, rev: 1 })
  }
  await writeAll(db, tableName, items)
  await Promise.all([adjust(db, tableName, sequenceKey, id - firstId, false), ...[...added].map(([list, n]) => adjust(db, tableName, countKey(type.uid, list), n, true))])
  return documentIds
}

/** Adds one `type` document per name (a version in `locale`, `name` set, everything else null). */
export async function seedNamed(db: DynamoDBDocumentClient, tableName: string, type: ContentType, names: readonly string[], locale: string): Promise<Version[]> {
  const at = '2025-01-01T00:00:00.000Z'
  const seeded: Version[] = []
  await seedDocuments(db, tableName, type, names.length, (i, documentId, nextId) => {
    const version: Version = { documentId, locale, status: 'published', id: nextId(), rev: 1, createdAt: at, updatedAt: at, publishedAt: at, attributes: { ...Object.fromEntries(Object.keys(type.attributes).map((key) => [key, null])), name: names[i] } }
    seeded.push(version)
    return [version]
  })
  return seeded
}

/**
 * Checks that the locale registration items the writes guard on exist, and records the slot
 * indexes as complete for today's keys (main's reindex state item; ignored where it is unknown).
 */
export async function checkRegistration(db: DynamoDBDocumentClient, tableName: string, locales: readonly string[]): Promise<void> {
  for (const code of locales) {
    const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: { documentId: META.locale, locale: code }, ConsistentRead: true }))
    if (Item === undefined) throw new Error(`no registration item for locale ${code} in ${tableName}`)
  }
  await db.send(new PutCommand({ TableName: tableName, Item: { documentId: META.index, locale: 'state', keyVersion: KEY_VERSION, drafts: true, at: new Date().toISOString() } }))
}

/** The fallback epoch of the stored locale registry. */
export async function registryEpoch(db: DynamoDBDocumentClient, tableName: string): Promise<number> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: { documentId: META.config, locale: 'locales' }, ConsistentRead: true }))
  return Number(Item?.epoch ?? 0)
}
