// A quick look at where a zone page's time goes in this process: 100 landings of bench/model/,
// then the page with and without populate=* through the app, R times each, timed apart, with the
// CPU time of this process and of DynamoDB Local's JVM per request.
//   node --import tsx [--cpu-prof] bench/zone-profile.ts [R]
import { startDynamoLocal } from '../lib/local/dynamodb-local.js'
import { parseConfig } from '../lib/config.js'
import { createServerApp } from '../lib/server-app.js'
import { createServices } from '../lib/services.js'
import { createDocumentClient } from '../lib/storage/client.js'
import { ensureTable } from '../lib/storage/schema.js'
import { checkRegistration, random, seedDocuments, words } from './seed.js'
import { landingBlocks } from './model-data.js'
import { modelTypes } from './media-zones.js'
import { send } from './requests.js'
import { cpuSeconds } from './process-cpu.js'

const rounds = Number(process.argv[2] ?? 30)
const local = await startDynamoLocal({ startTimeoutMs: 300_000 })
try {
  const db = createDocumentClient({ region: 'us-east-1', endpoint: local.endpoint })
  await ensureTable(db, 'zone-profile')
  const secrets = { adminToken: 'zone-profile-admin-token-0123456789', tokenHashSecret: 'zone-profile-hash-key-0123456789abcdefgh' }
  const app = createServerApp(createServices(db, parseConfig({ tableName: 'zone-profile', rest: { pageCache: 0, listMarks: 0 } }), secrets, modelTypes))
  await send(app, 'POST', '/admin/i18n/locales', 201, { token: secrets.adminToken, body: { code: 'fr' } })
  await checkRegistration(db, 'zone-profile', ['en'])
  const landing = modelTypes.find((type) => type.singularName === 'landing')!
  await seedDocuments(db, 'zone-profile', landing, 100, (i, documentId, nextId) => {
    const rnd = random(7000 + i)
    const at = new Date(Date.parse('2025-01-01') + i * 1000).toISOString()
    return [{ documentId, locale: 'en', status: 'published', id: nextId(), rev: 1, createdAt: at, updatedAt: at, publishedAt: at, attributes: { title: words(rnd, 'en', 3), slug: `landing-${i}`, blocks: landingBlocks(rnd, i) } }]
  })
  for (const path of ['/api/landings', '/api/landings?populate=*', '/api/landings', '/api/landings?populate=*']) {
    const started = performance.now()
    const [ours, java] = [process.cpuUsage(), cpuSeconds(local.pid)]
    let bytes = 0
    for (let r = 0; r < rounds; r++) bytes = (await send(app, 'GET', path, 200)).length
    const used = process.cpuUsage(ours)
    const perRequest = (ms: number) => (ms / rounds).toFixed(1)
    console.log(`${path}: ${perRequest(performance.now() - started)} ms a request, ${bytes} chars; CPU ms a request: this process ${perRequest((used.user + used.system) / 1000)}, DynamoDB Local ${perRequest((cpuSeconds(local.pid) - java) * 1000)}`)
  }
} finally {
  await local.stop()
}
