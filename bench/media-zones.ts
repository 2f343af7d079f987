// Components and media in the benchmark (issues 34 and 35), on a table of their own with the types
// of bench/model/: `landing` (a zone of 8 blocks with nested components, about 20 KB a version) and
// `article` with a `cover` image. Files are seeded as documents with Strapi's formats (their bytes
// are never read by a page). Each page with populate is measured against the same page without it,
// through the same app (the "floor" of these kinds), at each size of its own list.
import { QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb'
import { fileURLToPath } from 'node:url'
import type { Hono } from 'hono'
import { FILE_TYPE, type ContentType } from '../lib/content-types.js'
import { loadContentTypes } from '../lib/schema/load.js'
import { ensureTable } from '../lib/storage/schema.js'
import type { Version } from '../lib/storage/items.js'
import { INDEX, listKey } from '../lib/table.js'
import type { CapacityMeter } from './capacity.js'
import { keysBytes } from '../lib/storage/item-size.js'
import { imageAttributes, landingBlocks } from './model-data.js'
import type { ModelResult, ModelSize } from './results.js'
import { samePage, send, type Scenario } from './requests.js'
import { checkRegistration, random, seedDocuments, sharedAttributes, words } from './seed.js'
import { measureRead, type SuiteSettings } from './suite.js'

/** The types of bench/model/ (and its components). */
export const modelTypes: readonly ContentType[] = loadContentTypes(fileURLToPath(new URL('model/content-types', import.meta.url)))
const typeNamed = (name: string) => modelTypes.find((type) => type.singularName === name)!

/** Image files the articles' covers name (article i has file i % FILES). */
export const FILES = 100

export interface ModelSetup {
  readonly seeder: DynamoDBDocumentClient
  readonly db: DynamoDBDocumentClient
  readonly tableName: string
  /** The app on this table with the page cache off, and the admin token. */
  readonly app: Hono
  readonly adminToken: string
}

const AT = Date.parse('2025-01-01T00:00:00.000Z')

function version(documentId: string, id: number, i: number, attributes: Version['attributes']): Version {
  const at = new Date(AT + i * 1000).toISOString()
  return { documentId, locale: 'en', status: 'published', id, rev: 1, createdAt: at, updatedAt: at, publishedAt: at, attributes }
}

/** Adds `count` landings (landing `from + k`), each with its zone of 8 blocks. */
function seedLandings(setup: ModelSetup, from: number, count: number): Promise<string[]> {
  const rnd = random(7000 + from)
  return seedDocuments(setup.seeder, setup.tableName, typeNamed('landing'), count, (k, documentId, nextId) => {
    const i = from + k
    return [version(documentId, nextId(), i, { title: `${words(rnd, 'en', 3)} ${i}`, slug: `landing-${i}`, blocks: landingBlocks(rnd, i) })]
  })
}

/** Adds `count` articles (article `from + k`), each with a body of about 1.3 KB and the cover file (from + k) % FILES. */
function seedCovered(setup: ModelSetup, files: readonly string[], from: number, count: number): Promise<string[]> {
  const rnd = random(8000 + from)
  return seedDocuments(setup.seeder, setup.tableName, typeNamed('article'), count, (k, documentId, nextId) => {
    const i = from + k
    const title = `${words(rnd, 'en', 3)} ${i}`
    const body = [{ type: 'paragraph', children: [{ type: 'text', text: words(rnd, 'en', 180) }] }]
    return [version(documentId, nextId(), i, { title, body, slug: `article-${i}`, ...sharedAttributes(rnd), cover: files[i % files.length]! })]
  })
}

/** A page with `populate` against the same page without it, both through the app. */
function populated(app: Hono, n: number, kind: string, label: string, path: string, populate: string): Scenario {
  return { kind, label, write: false, app: () => send(app, 'GET', `${path}?${populate}`, 200), floor: () => send(app, 'GET', path, 200), check: samePage(n) }
}

/** Average stored size of the first 1,000 versions in en of `uid`. */
async function averageBytes(setup: ModelSetup, uid: string): Promise<number> {
  const { Items = [] } = await setup.seeder.send(new QueryCommand({ TableName: setup.tableName, IndexName: INDEX.byId, KeyConditionExpression: 'listKey = :lk', ExpressionAttributeValues: { ':lk': listKey(uid, 'en') }, Limit: 1000 }))
  return keysBytes(Items) / Items.length
}

/** Seeds and measures each size of the zone and the cover kinds (each list grows to its next size). */
export async function measureModel(meter: CapacityMeter, setup: ModelSetup, sizes: { zone: readonly number[]; cover: readonly number[] }, settings: SuiteSettings, log: (line: string) => void): Promise<ModelResult> {
  // Made after the main table's seeding: with a change stream, DynamoDB Local would scan that
  // seeding's stream records for every item this table's calls touch (lib/storage/schema.ts).
  await ensureTable(setup.seeder, setup.tableName, { stream: false })
  // Registering a second locale registers the default one too (the writes guard on both).
  await send(setup.app, 'POST', '/admin/i18n/locales', 201, { token: setup.adminToken, body: { code: 'fr' } })
  await checkRegistration(setup.seeder, setup.tableName, ['en', 'fr'])
  const files = await seedDocuments(setup.seeder, setup.tableName, FILE_TYPE, FILES, (i, documentId, nextId) => [version(documentId, nextId(), i, imageAttributes(random(9000 + i), i) as never)])
  const fileBytes = await averageBytes(setup, FILE_TYPE.uid)
  const measure = async (name: 'zone' | 'cover', seed: (from: number, count: number) => Promise<unknown>, scenario: (n: number) => Scenario, uid: string): Promise<ModelSize[]> => {
    const results: ModelSize[] = []
    let seeded = 0
    for (const n of sizes[name]) {
      const started = performance.now()
      await seed(seeded, n - seeded)
      seeded = n
      log(`${name}: seeded N=${n} in ${((performance.now() - started) / 1000).toFixed(0)} s`)
      const result = await measureRead(meter, scenario(n), settings)
      log(`${name} N=${n}: ${result.app.calls.median} calls / ${result.app.rcu.median} RCU (${JSON.stringify(result.app.commands)}) vs ${result.floor.calls.median} / ${result.floor.rcu.median} without populate; p50 ${result.app.p50} / ${result.floor.p50} ms`)
      results.push({ n, kinds: [result], documentBytes: await averageBytes(setup, uid), fileBytes })
    }
    return results
  }
  const zone = await measure('zone', (from, count) => seedLandings(setup, from, count),
    (n) => populated(setup.app, n, 'zone-page', 'landings page 1, populate=* (zone of 8 blocks, nested components)', '/api/landings', 'populate=*'), typeNamed('landing').uid)
  const cover = await measure('cover', (from, count) => seedCovered(setup, files, from, count),
    (n) => populated(setup.app, n, 'cover-page', 'articles page 1, populate=cover (formats included)', '/api/articles', 'populate=cover'), typeNamed('article').uid)
  return { zone, cover }
}
