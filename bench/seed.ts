// Seeds articles straight into the table, item for item as the document store writes them
// (versionToItem), because 30,000 versions through the API would take most of the time budget.
// Each document gets one version per locale; the id sequence, the per-locale count items and the
// head items are kept consistent with the versions, as the store's transactions would leave them.
import { BatchWriteCommand, GetCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb'
import type { Attributes } from '../lib/body.js'
import { article } from '../lib/content-types.js'
import { newDocumentId } from '../lib/storage/documents.js'
import { countKey, versionToItem, type Version } from '../lib/storage/items.js'
import { META } from '../lib/table.js'

const WORDS: Record<string, readonly string[]> = {
  en: ['apple', 'Banana', 'cherry', 'delta', 'Echo', 'falcon', 'garden', 'harbor', 'island', 'jungle', 'kettle', 'lemon', 'Meadow', 'night', 'ocean', 'pepper'],
  fr: ['été', 'Éclair', 'abricot', 'Bâton', 'cœur', 'forêt', 'garçon', 'hôtel', 'île', 'jardin', 'lumière', 'maïs', 'noël', 'œuvre', 'pâte', 'rêve'],
  de: ['Äpfel', 'Bäume', 'Öl', 'Übung', 'straße', 'Zucker', 'fuß', 'Mädchen', 'schön', 'Grün', 'Haus', 'Käse', 'Löwe', 'Müller', 'Nuss', 'Tür'],
}
const CATEGORIES = ['news', 'guides', 'reviews', 'opinion', 'science', 'travel', 'food', 'sport']

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

function words(rnd: () => number, locale: string, count: number): string {
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
  return { views: Math.floor(rnd() * 100_000), category: CATEGORIES[Math.floor(rnd() * CATEGORIES.length)]! }
}

const BATCH = 25
const IN_FLIGHT = 4

async function batchWrite(db: DynamoDBDocumentClient, tableName: string, items: readonly Record<string, unknown>[]): Promise<void> {
  let pending = items.map((Item) => ({ PutRequest: { Item } }))
  for (let attempt = 0; pending.length > 0; attempt++) {
    if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, Math.min(1000, 20 * 2 ** attempt)))
    const result = await db.send(new BatchWriteCommand({ RequestItems: { [tableName]: pending } }))
    pending = (result.UnprocessedItems?.[tableName] ?? []) as typeof pending
  }
}

async function writeAll(db: DynamoDBDocumentClient, tableName: string, items: readonly Record<string, unknown>[]): Promise<void> {
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

async function adjust(db: DynamoDBDocumentClient, tableName: string, key: Record<string, unknown>, delta: number): Promise<void> {
  await db.send(new UpdateCommand({ TableName: tableName, Key: key, UpdateExpression: 'ADD #n :d', ExpressionAttributeNames: { '#n': 'n' }, ExpressionAttributeValues: { ':d': delta } }))
}

/**
 * Adds `count` articles, each with a version in every one of `locales`, and returns their
 * documentIds. Ids continue the type's sequence; counts and the sequence move by what was added.
 */
export async function seedArticles(db: DynamoDBDocumentClient, tableName: string, locales: readonly string[], count: number, seed: number): Promise<string[]> {
  const rnd = random(seed)
  const sequenceKey = { documentId: META.sequence, locale: article.uid }
  const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: sequenceKey, ConsistentRead: true }))
  let id = Number(Item?.n ?? 0)
  const items: Record<string, unknown>[] = []
  const documentIds: string[] = []
  const started = Date.parse('2025-01-01T00:00:00.000Z') + id * 1000
  for (let i = 0; i < count; i++) {
    const documentId = newDocumentId()
    documentIds.push(documentId)
    const shared = sharedAttributes(rnd)
    for (const locale of locales) {
      id += 1
      const at = new Date(started + i * 1000).toISOString()
      const version: Version = { documentId, locale, id, rev: 1, createdAt: at, updatedAt: at, publishedAt: at, attributes: { ...localizedAttributes(rnd, locale, id), ...shared } }
      items.push(versionToItem(article, version))
    }
    // The head as createVersion leaves it: put with rev 1, moved on by each further localization.
    items.push({ documentId, locale: '#head', contentType: article.uid, rev: locales.length })
  }
  await writeAll(db, tableName, items)
  await Promise.all([
    adjust(db, tableName, sequenceKey, count * locales.length),
    ...locales.map((locale) => adjust(db, tableName, countKey(article.uid, locale), count)),
  ])
  return documentIds
}
