// Fallback chains, on a table of their own so the main sizes are not written with served copies:
// locales en, es (fallback en) and es-MX (fallback es); N documents in en, every other one also
// in es, none in es-MX; the served lists ~es and ~es-MX seeded with their copies and marked ready.
// Measured against plain reads of the same table: get one (a document with only en, read as
// es-MX) and list pages by id and by title; and a create in en, which the chains copy twice.
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb'
import type { Hono } from 'hono'
import type { Services } from '../lib/services.js'
import { newDocumentId } from '../lib/storage/documents.js'
import { ensureTable } from '../lib/storage/schema.js'
import type { CapacityMeter } from './capacity.js'
import { Floor, slotOf } from './floor.js'
import type { FallbackResult } from './results.js'
import { idsOf, orders, PAGE, send, type Scenario } from './requests.js'
import { checkRegistration, localizedAttributes, random, registryEpoch, seedArticles, sharedAttributes } from './seed.js'
import { measureRead, measureWrites, type SuiteSettings } from './suite.js'

/** The chain measured: es-MX → es → en. */
export const CHAIN = ['es-MX', 'es', 'en'] as const
/** The locales whose chains serve a version written in en. */
const SERVED_IN = ['es', 'es-MX']

export interface FallbackSetup {
  readonly seeder: DynamoDBDocumentClient
  readonly tableName: string
  /** The app on this table (page cache off), its services, and the admin token. */
  readonly app: Hono
  readonly services: Services
  readonly adminToken: string
  /** The metered client the app uses. */
  readonly db: DynamoDBDocumentClient
}

/** Creates and seeds the table (locales through the admin API, then items), and marks the served lists ready. */
async function prepare(setup: FallbackSetup, n: number, seed: number): Promise<{ token: string; documentIds: string[] }> {
  const { app, adminToken, seeder, tableName } = setup
  // Made after the main table's seeding: with a change stream, DynamoDB Local would scan that
  // seeding's stream records for every item this table's calls touch (lib/storage/schema.ts).
  await ensureTable(seeder, tableName, { stream: false })
  await send(app, 'POST', '/admin/i18n/locales', 201, { token: adminToken, body: { code: 'es', fallback: 'en' } })
  await send(app, 'POST', '/admin/i18n/locales', 201, { token: adminToken, body: { code: 'es-MX', fallback: 'es' } })
  await checkRegistration(seeder, tableName, CHAIN)
  const created = await send(app, 'POST', '/admin/api-tokens', 201, { token: adminToken, body: { name: 'bench', type: 'full-access' } })
  const token = (JSON.parse(created) as { data: { accessKey: string } }).data.accessKey
  const chains = new Map<string, readonly string[]>([['es', ['es', 'en']], ['es-MX', [...CHAIN]]])
  const documentIds = await seedArticles(seeder, tableName, { count: n, locales: ['en'], partial: { locales: ['es'], translated: (i) => i % 2 === 0 }, chains, seed })
  if (!(await setup.services.locales.markServedReady(await registryEpoch(seeder, tableName)))) throw new Error('served lists not marked ready: the fallback epoch moved')
  return { token, documentIds }
}

/** Measures the fallback kinds at `n` documents. */
export async function measureFallback(meter: CapacityMeter, setup: FallbackSetup, n: number, settings: SuiteSettings, seed: number, log: (line: string) => void): Promise<FallbackResult> {
  const { token, documentIds } = await prepare(setup, n, seed)
  log(`fallback table seeded: ${n} documents, half in es`)
  const { app } = setup
  const floor = new Floor(setup.db, setup.tableName)
  // Odd documents have no es version: es-MX serves their en version.
  const untranslated = (i: number) => documentIds[(2 * ((i * 7919) % Math.floor(n / 2)) + 1) % n]!
  const en = orders('en')
  const esMx = orders('es-MX')
  const idsMatch = (appText: string, floorText: string) => {
    const [a, f] = [idsOf(appText), idsOf(floorText)]
    if (a.length === 0 || a.join() !== f.join()) throw new Error(`fallback: app and floor disagree: ${a.slice(0, 3).join()} vs ${f.slice(0, 3).join()}`)
  }
  const servedFromEnglish = (appText: string, floorText: string) => {
    idsMatch(appText, floorText)
    const { data } = JSON.parse(appText) as { data: { locale: string } | { locale: string }[] }
    if ((Array.isArray(data) ? data[0]?.locale : data.locale) !== 'en') throw new Error('fallback get one did not answer the en version')
  }
  const titleKinds: Scenario[] = [
    { kind: 'fb-list-title-plain', label: 'list page 1, sort=title, locale=en (plain)', write: false, app: () => send(app, 'GET', '/api/articles?locale=en&sort=title', 200), floor: () => floor.sortedPage('en', slotOf('title'), false, en.byTitle, 0, PAGE), check: idsMatch },
    { kind: 'fb-list-title', label: 'list page 1, sort=title, locale=es-MX (fallback)', write: false, app: () => send(app, 'GET', '/api/articles?locale=es-MX&sort=title', 200), floor: () => floor.sortedPage('~es-MX', slotOf('title'), false, esMx.byTitle, 0, PAGE), check: idsMatch },
  ]
  const reads: Scenario[] = [
    { kind: 'fb-get-plain', label: 'get one, locale=en (plain)', write: false, app: (i) => send(app, 'GET', `/api/articles/${untranslated(i)}?locale=en`, 200), floor: (i) => floor.getOne(untranslated(i), 'en'), check: idsMatch },
    { kind: 'fb-get', label: 'get one, locale=es-MX, served from en', write: false, app: (i) => send(app, 'GET', `/api/articles/${untranslated(i)}?locale=es-MX`, 200), floor: (i) => floor.getOne(untranslated(i), '~es-MX'), check: servedFromEnglish },
    { kind: 'fb-list-id-plain', label: 'list page 1 by id, locale=en (plain)', write: false, app: () => send(app, 'GET', '/api/articles?locale=en', 200), floor: () => floor.firstPage('en', PAGE, true), check: idsMatch },
    { kind: 'fb-list-id', label: 'list page 1 by id, locale=es-MX (fallback)', write: false, app: () => send(app, 'GET', '/api/articles?locale=es-MX', 200), floor: () => floor.firstPage('~es-MX', PAGE, true), check: idsMatch },
    ...titleKinds,
  ]
  const kinds = []
  for (const scenario of reads) {
    const result = await measureRead(meter, scenario, settings)
    kinds.push(result)
    log(`fallback ${scenario.kind}: p50 app ${result.app.p50} ms / floor ${result.floor.p50} ms, ${result.app.rcu.median} RCU`)
  }
  // A create in en with the chains: the version plus a served copy for es and es-MX.
  const rnd = random(seed + 1)
  const attributes = () => ({ ...localizedAttributes(rnd, 'en', 0), ...sharedAttributes(rnd) })
  const appDocuments: string[] = []
  const floorDocuments: string[] = []
  const create: Scenario = {
    kind: 'fb-create', label: 'create (POST, en) with es and es-MX chains', write: true,
    app: async () => {
      const text = await send(app, 'POST', '/api/articles?locale=en', 200, { token, body: { data: attributes() } })
      appDocuments.push((JSON.parse(text) as { data: { documentId: string } }).data.documentId)
      return text
    },
    floor: async () => {
      const documentId = newDocumentId()
      floorDocuments.push(documentId)
      return floor.create(documentId, 'en', attributes(), SERVED_IN)
    },
  }
  const cleanUp = async () => {
    for (const documentId of appDocuments) await send(app, 'DELETE', `/api/articles/${documentId}?locale=en`, 204, { token })
    for (const documentId of floorDocuments) await floor.deleteVersion(documentId, 'en', SERVED_IN)
  }
  kinds.push(...(await measureWrites(meter, { scenarios: [create], cleanUp }, settings)))
  log('fallback writes measured')
  return { n, chain: CHAIN, kinds }
}
