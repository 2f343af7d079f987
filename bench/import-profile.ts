// Where an import's time goes (issue 39): imports an archive of N documents (bench/strapi-archive.ts's
// kind) into a fresh DynamoDB Local table and prints the time, the DynamoDB calls per row by command,
// the items written per call, and the calls that failed (transaction conflicts, conditions).
//   [DISK=1] node --import tsx bench/import-profile.ts N [concurrency]
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { configFromEnv } from '../lib/config.js'
import { startDynamoLocal } from '../lib/local/dynamodb-local.js'
import { loadContentTypes } from '../lib/schema/load.js'
import { createServices } from '../lib/services.js'
import { createDocumentClient } from '../lib/storage/client.js'
import { ensureTable } from '../lib/storage/schema.js'
import { importArchive } from '../lib/transfer/import.js'
import { writeSyntheticArchive } from '../test/support/synthetic-archive.js'
import { cpuSeconds } from './process-cpu.js'

const n = Number(process.argv[2] ?? 200)
const concurrency = process.argv[3] === undefined ? undefined : Number(process.argv[3])
const typesDir = fileURLToPath(new URL('../test/fixtures/strapi-archives/media/types/', import.meta.url))
const archive = join(mkdtempSync(join(tmpdir(), 'import-profile-')), 'archive.tar.gz')
const rows = Object.values(await writeSyntheticArchive(archive, { articles: Math.ceil(n / 2), pages: Math.floor(n / 2), typesDir })).reduce((a, b) => a + b, 0)
// DISK=1: DynamoDB Local with its data on disk (as `npm run import` with DATA_DIR), else in memory.
const local = await startDynamoLocal({ dbPath: process.env.DISK === '1' ? join(archive, '..', 'dynamodb') : undefined })
const calls = new Map<string, { calls: number; items: number; ms: number; failed: Map<string, number> }>()
try {
  const config = { ...configFromEnv({}), tableName: 'import-profile' }
  const db = createDocumentClient({ region: 'us-east-1', endpoint: local.endpoint })
  await ensureTable(db, config.tableName)
  db.middlewareStack.add((next, context) => async (args) => {
    const input = args.input as Record<string, unknown>
    const name = (context.commandName ?? '?').replace(/Command$/, '')
    const entry = calls.get(name) ?? { calls: 0, items: 0, ms: 0, failed: new Map() }
    calls.set(name, entry)
    entry.calls += 1
    const request = (input.TransactItems ?? Object.values((input.RequestItems ?? {}) as Record<string, unknown[]>).flat()) as unknown[] | undefined
    entry.items += Array.isArray(request) ? request.length : 1
    const started = performance.now()
    try {
      return await next(args)
    } catch (error) {
      const reason = String((error as { name?: string }).name) + ((error as { CancellationReasons?: { Code?: string }[] }).CancellationReasons?.map((r) => r.Code).filter((c) => c !== 'None').join(',') ?? '')
      entry.failed.set(reason, (entry.failed.get(reason) ?? 0) + 1)
      throw error
    } finally {
      entry.ms += performance.now() - started
    }
  }, { step: 'initialize', name: 'importProfile' })
  const services = createServices(db, config, { adminToken: undefined, tokenHashSecret: 'x' }, loadContentTypes(typesDir))
  const started = performance.now()
  const [javaBefore, nodeBefore] = [cpuSeconds(local.pid), process.cpuUsage()]
  await importArchive(services, archive, { concurrency })
  const seconds = (performance.now() - started) / 1000
  const node = process.cpuUsage(nodeBefore)
  console.log(`${n} documents, ${rows} rows: ${seconds.toFixed(1)} s, ${(rows / seconds).toFixed(1)} rows/s; CPU: DynamoDB Local ${(cpuSeconds(local.pid) - javaBefore).toFixed(1)} s, importer ${((node.user + node.system) / 1e6).toFixed(1)} s`)
  console.log('| call | calls | per row | items per call | ms per call (wall) | failed |\n|---|--:|--:|--:|--:|---|')
  for (const [name, entry] of [...calls].sort((a, b) => b[1].calls - a[1].calls)) {
    console.log(`| ${name} | ${entry.calls} | ${(entry.calls / rows).toFixed(2)} | ${(entry.items / entry.calls).toFixed(1)} | ${(entry.ms / entry.calls).toFixed(1)} | ${[...entry.failed].map(([k, v]) => `${k} ${v}`).join(', ')} |`)
  }
} finally {
  await local.stop()
}
