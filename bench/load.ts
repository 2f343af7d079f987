// `npm run load`: the local server on DynamoDB Local in this process, driven from a second process
// by autocannon on 127.0.0.1 only, for a bounded time and number of requests, with a mix of reads
// and writes across en, fr and de. Afterwards it checks that every acknowledged write is in the
// table, that list totals equal the versions stored, and that the contested document's versions
// agree; it reports requests/s, latency percentiles and status counts, and exits 1 on any
// failed check or any 5xx other than a 503 (DynamoDB throttling or its retry budget spent).
import { fork } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import { serve } from '@hono/node-server'
import { ScanCommand } from '@aws-sdk/lib-dynamodb'
import { randomSecret } from '../lib/local/secrets.js'
import { parseConfig } from '../lib/config.js'
import { startDynamoLocal } from '../lib/local/dynamodb-local.js'
import { createServerApp } from '../lib/server-app.js'
import { createServices } from '../lib/services.js'
import { createDocumentClient } from '../lib/storage/client.js'
import { ensureTable } from '../lib/storage/schema.js'
import { types } from './types.js'

const LOCALES = ['en', 'fr', 'de'] as const
const DURATION_S = Number(process.env.LOAD_DURATION_S ?? 20)
const CONNECTIONS = Number(process.env.LOAD_CONNECTIONS ?? 16)
const MAX_REQUESTS = Number(process.env.LOAD_MAX_REQUESTS ?? 50_000)
const HOST = '127.0.0.1'

// ---- what the driver hands back -----------------------------------------------------------

/** A document's versions as `locale -> title`; empty once deleted. */
type Versions = Record<string, string>

interface DocLedger {
  readonly documentId: string
  /** The state after the last acknowledged write. */
  versions: Versions
  /** A write that got no answer (timed out or cut by the end of the run): before or after. */
  pending?: { readonly after: Versions }
}

interface Ledger {
  readonly docs: DocLedger[]
  /** Creates that got no answer: they may exist, with this title. */
  readonly unansweredCreates: { locale: string; title: string }[]
  /** The contested document: views of each 200 and of each unanswered update. */
  readonly hot: { acknowledged: { views: number; updatedAt: string }[]; unanswered: number[] }
  /** kind -> status -> count. */
  readonly statuses: Record<string, Record<string, number>>
  readonly unexpected: string[]
}

interface DriverReport {
  readonly ledger: Ledger
  readonly result: {
    duration: number
    requests: { total: number; average: number; sent: number }
    latency: Record<string, number>
    errors: number
    timeouts: number
  }
}

interface DriverInput {
  readonly url: string
  readonly token: string
  readonly hot: string
}

// ---- the driver (second process) ----------------------------------------------------------

interface Op {
  readonly kind: string
  readonly doc?: DocLedger
  readonly after?: Versions
  readonly locale?: string
  readonly title?: string
  readonly views?: number
}

type AutocannonRequest = { method?: string; path?: string; headers?: Record<string, string>; body?: string }
type Autocannon = (options: Record<string, unknown>) => Promise<DriverReport['result'] & { latency: Record<string, number> }>

async function drive({ url, token, hot }: DriverInput): Promise<DriverReport> {
  if (new URL(url).hostname !== HOST) throw new Error(`Refusing to drive ${url}: only ${HOST} is allowed`)
  const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon
  const docs = new Map<string, DocLedger>()
  const busy = new Set<DocLedger>()
  const inFlight = new Set<Op>()
  const ledger: Ledger = { docs: [], unansweredCreates: [], hot: { acknowledged: [], unanswered: [] }, statuses: {}, unexpected: [] }
  let counter = 0
  const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)] as T
  const idle = () => [...docs.values()].filter((doc) => !busy.has(doc) && doc.pending === undefined && Object.keys(doc.versions).length > 0)
  const auth = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }

  /** The next operation and its request; writes take a document no other request is writing. */
  const next = (): [Op, AutocannonRequest] => {
    const roll = Math.random()
    const locale = pick(LOCALES)
    if (roll < 0.3) {
      const sort = pick(['', '&sort=title:desc', '&sort=id:desc', '&sort[0]=views&sort[1]=title'])
      return [{ kind: 'GET list' }, { method: 'GET', path: `/api/articles?locale=${locale}${sort}&pagination[page]=${1 + Math.floor(Math.random() * 3)}&pagination[pageSize]=10` }]
    }
    if (roll < 0.45) {
      const doc = pick([...docs.values()])
      return [{ kind: 'GET one' }, { method: 'GET', path: `/api/articles/${doc?.documentId ?? hot}?locale=${locale}` }]
    }
    if (roll < 0.5) return [{ kind: 'GET locales' }, { method: 'GET', path: '/api/i18n/locales' }]
    const title = `load ${process.pid} ${++counter}`
    if (roll < 0.6) {
      const views = counter
      return [{ kind: 'PUT hot (non-localized)', views }, { method: 'PUT', path: `/api/articles/${hot}?locale=${locale}`, headers: auth, body: JSON.stringify({ data: { views } }) }]
    }
    const candidates = idle()
    if (roll < 0.75 || candidates.length < 5) {
      return [{ kind: 'POST', locale, title }, { method: 'POST', path: `/api/articles?locale=${locale}`, headers: auth, body: JSON.stringify({ data: { title } }) }]
    }
    const doc = pick(candidates)
    busy.add(doc)
    if (roll < 0.9) {
      const kind = doc.versions[locale] === undefined ? 'PUT (new localization)' : 'PUT (update)'
      return [{ kind, doc, after: { ...doc.versions, [locale]: title } }, { method: 'PUT', path: `/api/articles/${doc.documentId}?locale=${locale}`, headers: auth, body: JSON.stringify({ data: { title } }) }]
    }
    const existing = pick(Object.keys(doc.versions))
    const after = { ...doc.versions }
    delete after[existing]
    return [{ kind: 'DELETE', doc, after }, { method: 'DELETE', path: `/api/articles/${doc.documentId}?locale=${existing}`, headers: { Authorization: auth.Authorization } }]
  }

  const record = (op: Op, status: number, body: string) => {
    inFlight.delete(op)
    if (op.doc !== undefined) busy.delete(op.doc)
    const counts = (ledger.statuses[op.kind] ??= {})
    counts[status] = (counts[status] ?? 0) + 1
    if (status === 200 && op.kind === 'POST') {
      const { documentId } = JSON.parse(body).data as { documentId: string }
      docs.set(documentId, { documentId, versions: { [op.locale as string]: op.title as string } })
    } else if (status === 200 && op.kind === 'PUT hot (non-localized)') {
      ledger.hot.acknowledged.push({ views: op.views as number, updatedAt: JSON.parse(body).data.updatedAt })
    } else if ((status === 200 || status === 204) && op.doc !== undefined && op.after !== undefined) {
      op.doc.versions = op.after
    } else if (!(status === 200 || (status === 404 && op.kind === 'GET one') || status === 503)) {
      ledger.unexpected.push(`${op.kind} -> ${status} ${body.slice(0, 200)}`)
    }
  }

  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: DURATION_S,
    maxOverallRequests: MAX_REQUESTS,
    timeout: 10,
    requests: [{
      setupRequest: (request: AutocannonRequest, context: { op?: Op }) => {
        const [op, shape] = next()
        inFlight.add(op)
        context.op = op
        return { ...request, ...shape, headers: shape.headers ?? {} }
      },
      onResponse: (status: number, body: string, context: { op?: Op }) => {
        if (context.op !== undefined) record(context.op, status, body)
      },
    }],
  })
  // Requests cut by a timeout or by the end of the run: their writes may or may not have happened.
  for (const op of inFlight) {
    if (op.kind === 'POST') ledger.unansweredCreates.push({ locale: op.locale as string, title: op.title as string })
    else if (op.kind === 'PUT hot (non-localized)') ledger.hot.unanswered.push(op.views as number)
    else if (op.doc !== undefined && op.after !== undefined) op.doc.pending = { after: op.after }
  }
  ledger.docs.push(...docs.values())
  const { duration, requests, latency, errors, timeouts } = result
  return { ledger, result: { duration, requests, latency, errors, timeouts } }
}

// ---- the server and the checks (this process) ---------------------------------------------

const log = (message: string) => console.log(`[load] ${message}`)

async function main(): Promise<void> {
  const local = await startDynamoLocal()
  const adminToken = randomBytes(24).toString('base64url')
  const config = parseConfig({ tableName: 'load-content', rest: {}, cacheTtlMs: 5000 })
  const db = createDocumentClient({ region: 'us-east-1', endpoint: local.endpoint })
  await ensureTable(db, config.tableName)
  const app = createServerApp(createServices(db, config, { adminToken, tokenHashSecret: randomSecret() }, types))
  let active = 0
  const fetchCounted = async (request: Request) => {
    active++
    try {
      return await app.fetch(request)
    } finally {
      active--
    }
  }
  let server: ReturnType<typeof serve> | undefined
  const port = await new Promise<number>((resolve) => (server = serve({ fetch: fetchCounted, hostname: HOST, port: 0 }, (info) => resolve(info.port))))
  const url = `http://${HOST}:${port}`
  try {
    const call = async (method: string, path: string, body?: unknown, token = adminToken) => {
      const response = await fetch(`${url}${path}`, { method, headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) })
      const text = await response.text()
      if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`)
      return text === '' ? undefined : JSON.parse(text)
    }
    for (const code of ['fr', 'de']) await call('POST', '/admin/i18n/locales', { code })
    const token = (await call('POST', '/admin/api-tokens', { name: 'load', type: 'full-access' })).data.accessKey as string
    const hot = (await call('POST', '/api/articles?locale=en', { data: { title: 'hot', views: 0 } }, token)).data.documentId as string
    for (const locale of ['fr', 'de']) await call('PUT', `/api/articles/${hot}?locale=${locale}`, { data: { title: `hot ${locale}` } }, token)

    // Warm-up, outside the figures: JIT of the server and of DynamoDB Local, on another content type.
    for (const locale of LOCALES) await call('PUT', `/api/homepage?locale=${locale}`, { data: { title: 'warm' } }, token)
    for (let round = 0; round < 25; round++) {
      await Promise.all(LOCALES.flatMap((locale) => [
        call('GET', `/api/articles?locale=${locale}&sort=title:desc`, undefined, token),
        call('PUT', `/api/homepage?locale=${locale}`, { data: { title: `warm ${round}` } }, token),
      ]))
    }
    log(`server ${url}, DynamoDB Local ${local.endpoint}; driving ${CONNECTIONS} connections for ${DURATION_S} s (at most ${MAX_REQUESTS} requests) from a second process`)
    const report = await runDriver({ url, token, hot })
    while (active > 0) await new Promise((resolve) => setTimeout(resolve, 50)) // let cut requests finish
    const failures = [...report.ledger.unexpected, ...(await verify(db, config.tableName, report.ledger, hot, (path) => call('GET', path, undefined, token)))]
    printReport(report)
    const fiveHundreds = Object.values(report.ledger.statuses).flatMap((counts) => Object.entries(counts)).filter(([status]) => Number(status) >= 500 && status !== '503')
    if (fiveHundreds.length > 0) failures.push(`non-throttling 5xx: ${JSON.stringify(fiveHundreds)}`)
    if (failures.length > 0) {
      console.error(`[load] FAILED ${failures.length} check(s):\n${failures.slice(0, 30).map((failure) => `  - ${failure}`).join('\n')}`)
      process.exitCode = 1
    } else {
      log('all checks passed: every acknowledged write is stored, counts are exact, the contested document agrees')
    }
  } finally {
    await new Promise((resolve) => server?.close(resolve))
    db.destroy()
    await local.stop()
  }
}

/** Runs the driver in a child process and returns what it reports. */
function runDriver(input: DriverInput): Promise<DriverReport> {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(import.meta.url), ['--drive'], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
    let report: DriverReport | undefined
    child.once('message', (message) => (report = message as DriverReport))
    child.once('error', reject)
    child.once('exit', (code) => (report !== undefined ? resolve(report) : reject(new Error(`driver exited with ${code} and no report`))))
    child.send(input)
  })
}

/** Compares the table (one Scan) and the API's list totals with the driver's ledger. */
async function verify(db: ReturnType<typeof createDocumentClient>, tableName: string, ledger: Ledger, hot: string, get: (path: string) => Promise<any>): Promise<string[]> {
  const failures: string[] = []
  const items: Record<string, any>[] = []
  let start: Record<string, unknown> | undefined
  do {
    const page = await db.send(new ScanCommand({ TableName: tableName, ExclusiveStartKey: start, ConsistentRead: true }))
    items.push(...(page.Items ?? []))
    start = page.LastEvaluatedKey
  } while (start !== undefined)
  // Every write here publishes (no `status`), so each published version has a draft equal to it:
  // the ledger is checked against the published versions, and each draft against its published one.
  const articles = items.filter((item) => item.contentType === 'api::article.article')
  const versions = articles.filter((item) => (LOCALES as readonly string[]).includes(item.locale))
  const stored = new Map<string, Record<string, any>[]>()
  for (const version of versions) stored.set(version.documentId, [...(stored.get(version.documentId) ?? []), version])
  const published = new Map(versions.map((version) => [`${version.documentId}/${version.locale}`, version]))
  const drafts = articles.filter((item) => String(item.locale).startsWith('draft:'))
  for (const draft of drafts) {
    const twin = published.get(`${draft.documentId}/${String(draft.locale).slice('draft:'.length)}`)
    if (twin === undefined || twin.title !== draft.title || twin.views !== draft.views) failures.push(`document ${draft.documentId}: ${draft.locale} is not its published version (${twin === undefined ? 'none' : JSON.stringify(twin.title)}, draft ${JSON.stringify(draft.title)})`)
  }
  if (drafts.length !== versions.length) failures.push(`${drafts.length} drafts for ${versions.length} published versions`)
  const titles = (documentId: string): Versions => Object.fromEntries((stored.get(documentId) ?? []).map((v) => [v.locale, v.title]))
  const same = (a: Versions, b: Versions) => JSON.stringify(Object.entries(a).sort()) === JSON.stringify(Object.entries(b).sort())

  for (const doc of ledger.docs) {
    const actual = titles(doc.documentId)
    const ok = same(actual, doc.versions) || (doc.pending !== undefined && same(actual, doc.pending.after))
    if (!ok) failures.push(`document ${doc.documentId}: stored ${JSON.stringify(actual)}, acknowledged ${JSON.stringify(doc.versions)}`)
  }
  const known = new Set([hot, ...ledger.docs.map((doc) => doc.documentId)])
  const strangers = [...stored.keys()].filter((documentId) => !known.has(documentId))
  const unanswered = new Set(ledger.unansweredCreates.map(({ locale, title }) => `${locale}/${title}`))
  for (const documentId of strangers) {
    const [only, ...rest] = stored.get(documentId) ?? []
    if (only === undefined || rest.length > 0 || !unanswered.delete(`${only.locale}/${only.title}`)) failures.push(`document ${documentId} was never created by an acknowledged or pending request`)
  }
  for (const locale of LOCALES) {
    const total = (await get(`/api/articles?locale=${locale}&pagination[pageSize]=1`)).meta.pagination.total
    const inTable = versions.filter((version) => version.locale === locale).length
    if (total !== inTable) failures.push(`${locale}: list total ${total}, versions stored ${inTable}`)
  }
  const hotVersions = stored.get(hot) ?? []
  const acknowledged = ledger.hot.acknowledged.length
  if (hotVersions.length !== 3) failures.push(`hot document has ${hotVersions.length} versions`)
  if (new Set(hotVersions.map((version) => `${version.views}/${version.updatedAt}`)).size !== 1) failures.push(`hot document versions disagree: ${JSON.stringify(hotVersions.map((v) => [v.locale, v.views]))}`)
  for (const version of hotVersions) {
    // Each committed non-localized update moves every version's revision once; creating the fr and
    // de localizations leaves en's as it was.
    const committed = Number(version.rev) - 1
    if (committed < acknowledged || committed > acknowledged + ledger.hot.unanswered.length) failures.push(`hot ${version.locale}: ${committed} commits for ${acknowledged} acknowledged updates`)
  }
  const finalViews = hotVersions[0]?.views
  // The final value is the last committed update: acknowledged with the same updatedAt, or unanswered.
  const last = ledger.hot.acknowledged.find((update) => update.views === finalViews)
  if (last !== undefined ? last.updatedAt !== hotVersions[0]?.updatedAt : finalViews !== 0 && !ledger.hot.unanswered.includes(finalViews)) {
    failures.push(`hot views ${finalViews} (updatedAt ${hotVersions[0]?.updatedAt}) is not the last acknowledged update`)
  }
  log(`verified ${ledger.docs.length} documents (${ledger.docs.filter((doc) => doc.pending !== undefined).length} with an unanswered write), ${versions.length} stored published versions (each with its draft), ${acknowledged} acknowledged contested updates`)
  return failures
}

function printReport({ result, ledger }: DriverReport): void {
  const { latency, requests } = result
  log(`${requests.total} requests in ${result.duration.toFixed(1)} s: ${(requests.total / result.duration).toFixed(0)} req/s (mean of per-second counts ${requests.average.toFixed(0)})`)
  log(`latency ms: p50 ${latency.p50} | p90 ${latency.p90} | p97.5 ${latency.p97_5} | p99 ${latency.p99} | max ${latency.max} | mean ${latency.average?.toFixed(1)}`)
  log(`connection errors ${result.errors}, timeouts ${result.timeouts}`)
  for (const [kind, counts] of Object.entries(ledger.statuses).sort()) {
    log(`  ${kind.padEnd(24)} ${Object.entries(counts).map(([status, n]) => `${status}: ${n}`).join(', ')}`)
  }
}

if (process.argv.includes('--drive')) {
  process.once('message', (input) => {
    drive(input as DriverInput).then(
      (report) => process.send?.(report, () => process.exit(0)),
      (error) => {
        console.error(error)
        process.exit(1)
      },
    )
  })
} else {
  await main()
}
