// A quick look at where the zone and cover pages' time goes in this process: 100 landings and 100
// articles with covers (100 files) of bench/model/, twice: as stored today (large JSON text
// compressed, lib/storage/packed-json.ts) and with every such value rewritten as the JSON text
// items written before it kept (which readers still accept). Then each page with and without its
// populate, through the app (page cache off), R requests at a time, the two tables taking turns
// K times; prints the CPU time of this process and of DynamoDB Local's JVM per request, as a
// table (each request logs its calls and RCU).
//   node --import tsx [--cpu-prof] bench/zone-profile.ts [R] [K]
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb'
import { FILE_TYPE } from '../lib/content-types.js'
import { startDynamoLocal } from '../lib/local/dynamodb-local.js'
import { parseConfig } from '../lib/config.js'
import { createServerApp } from '../lib/server-app.js'
import { createServices } from '../lib/services.js'
import { createDocumentClient } from '../lib/storage/client.js'
import { ensureTable } from '../lib/storage/schema.js'
import { checkRegistration, random, seedDocuments, sharedAttributes, words } from './seed.js'
import { imageAttributes, landingBlocks } from './model-data.js'
import { modelTypes } from './media-zones.js'
import { send } from './requests.js'
import { cpuSeconds } from './process-cpu.js'
import { unpackAll } from './unpack-table.js'

const rounds = Number(process.argv[2] ?? 20)
const turns = Number(process.argv[3] ?? 3)
const secrets = { adminToken: 'zone-profile-admin-token-0123456789', tokenHashSecret: 'zone-profile-hash-key-0123456789abcdefgh' }
const typeNamed = (name: string) => modelTypes.find((type) => type.singularName === name)!
const at = (i: number) => new Date(Date.parse('2025-01-01') + i * 1000).toISOString()
const version = (documentId: string, id: number, i: number, attributes: Record<string, unknown>) =>
  [{ documentId, locale: 'en', status: 'published' as const, id, rev: 1, createdAt: at(i), updatedAt: at(i), publishedAt: at(i), attributes }]

/** A table with the model's 100 landings, 100 files and 100 articles, and an app on it (page cache off). */
async function setUp(db: DynamoDBDocumentClient, tableName: string) {
  await ensureTable(db, tableName)
  const services = createServices(db, parseConfig({ tableName, rest: { pageCache: 0, listMarks: 0 } }), secrets, modelTypes)
  const app = createServerApp(services)
  await send(app, 'POST', '/admin/i18n/locales', 201, { token: secrets.adminToken, body: { code: 'fr' } })
  await checkRegistration(db, tableName, ['en'])
  await seedDocuments(db, tableName, typeNamed('landing'), 100, (i, documentId, nextId) =>
    version(documentId, nextId(), i, { title: words(random(7000 + i), 'en', 3), slug: `landing-${i}`, blocks: landingBlocks(random(7000 + i), i) }))
  const files = await seedDocuments(db, tableName, FILE_TYPE, 100, (i, documentId, nextId) => version(documentId, nextId(), i, imageAttributes(random(9000 + i), i) as never))
  await seedDocuments(db, tableName, typeNamed('article'), 100, (i, documentId, nextId) => {
    const rnd = random(8000 + i)
    const body = [{ type: 'paragraph', children: [{ type: 'text', text: words(rnd, 'en', 180) }] }]
    return version(documentId, nextId(), i, { title: words(rnd, 'en', 3), body, slug: `article-${i}`, ...sharedAttributes(rnd), cover: files[i]! })
  })
  return app
}

const local = await startDynamoLocal({ startTimeoutMs: 300_000 })
try {
  const db = createDocumentClient({ region: 'us-east-1', endpoint: local.endpoint })
  const layouts = { packed: await setUp(db, 'profile-packed'), text: await setUp(db, 'profile-text') }
  console.error(`rewrote ${await unpackAll(db, 'profile-text')} items of profile-text as JSON text`)
  const paths = ['/api/landings', '/api/landings?populate=*', '/api/articles', '/api/articles?populate=cover']
  const spent = new Map<string, { ours: number; java: number; chars: number }>()
  for (let turn = 0; turn < turns; turn++) {
    for (const [layout, app] of Object.entries(layouts)) {
      for (const path of paths) {
        const [ours, java] = [process.cpuUsage(), cpuSeconds(local.pid)]
        let chars = 0
        for (let r = 0; r < rounds; r++) chars = (await send(app, 'GET', path, 200)).length
        const used = process.cpuUsage(ours)
        const row = spent.get(`${layout} ${path}`) ?? { ours: 0, java: 0, chars }
        row.ours += (used.user + used.system) / 1000
        row.java += (cpuSeconds(local.pid) - java) * 1000
        spent.set(`${layout} ${path}`, row)
      }
    }
  }
  console.log('| layout | page | chars | CPU ms a request, this process | DynamoDB Local |')
  console.log('|---|---|--:|--:|--:|')
  for (const [key, row] of spent) {
    const [layout, path] = key.split(' ')
    console.log(`| ${layout} | \`${path}\` | ${row.chars} | ${(row.ours / rounds / turns).toFixed(1)} | ${(row.java / rounds / turns).toFixed(1)} |`)
  }
} finally {
  await local.stop()
}
