// `npm run bench:writes`: parallel writers, side by side with Strapi (issue 20). Starts a copy of
// the Strapi peer, then this project (functions/local.ts on its own DynamoDB Local, its data on
// disk as `npm start` keeps it, or in memory with WRITES_DYNAMO=memory), each on 127.0.0.1 ports
// 4801 and 4802 (DynamoDB Local on a free port), one after the other, and drives the same write workloads at each from this process:
//   warm-up   WARMUP creates and WARMUP updates, 10 at a time, not measured (both JITs, Java's too)
//   creates   CREATES articles (the seed's shape: 1.5 KB rich-text body), 10 at a time
//   updates   10 writers, each PUTting `views` on documents of its own, UPDATES in all
//   contended 40 writers PUTting one document at once (title in en/fr/de, every third also views), ROUNDS rounds
// RUNS runs (Strapi then this project in each, fresh databases; WRITES_ALSO=<dir>[,<dir>] also
// measures other checkouts of this project in each run, e.g. the code before a change, with their
// node_modules): it prints each run's table, then
// creates/s and updates/s of both and their ratio per run and as the median, with the CPU time
// each side's processes spent per request (Strapi's one process; this project's server and DynamoDB
// Local) and the load average, and writes it all to bench/results/parallel-writes.md. Not a test:
// it asserts nothing. The machine is shared: compare ratios from one run, and repeat.
//
// The peer is a copy of ../shared/peers/strapi with its node_modules (the shared one is read-only),
// set up once (about 3 minutes, 720 MB), anywhere; pass its path (default bench/results/tmp/strapi):
//   cp -r ../shared/peers/strapi /tmp/peer-strapi && chmod -R u+w /tmp/peer-strapi && (cd /tmp/peer-strapi && npm install)
//   npm run bench:writes -- /tmp/peer-strapi          # or STRAPI_PEER=/tmp/peer-strapi npm run bench:writes
//   WRITES_RUNS=3 WRITES_CREATES=500 WRITES_UPDATES=500 npm run bench:writes -- /tmp/peer-strapi
import { spawn, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { startDynamoLocal } from '../lib/local/dynamodb-local.js'
import { cpuSeconds } from './process-cpu.js'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const PEER = resolve(process.argv[2] ?? process.env.STRAPI_PEER ?? fileURLToPath(new URL('./results/tmp/strapi/', import.meta.url)))
const PORTS = { strapi: 4801, project: 4802 }
const count = (name: string, fallback: number) => Number(process.env[name] ?? fallback)
const CREATES = count('WRITES_CREATES', 1000)
const UPDATES = count('WRITES_UPDATES', 1000)
const ROUNDS = count('WRITES_ROUNDS', 5)
const RUNS = count('WRITES_RUNS', 1)
const WARMUP = count('WRITES_WARMUP', 100)
const IN_MEMORY = process.env.WRITES_DYNAMO === 'memory'
/** The checkouts of this project to measure: this one, then WRITES_ALSO's. */
const PROJECTS = [ROOT, ...(process.env.WRITES_ALSO ?? '').split(',').filter(Boolean).map((dir) => resolve(dir))]
const LOCALES = ['en', 'fr', 'de']

interface Target {
  readonly base: string
  readonly headers: Record<string, string>
  /** The CPU seconds spent so far by the target's processes, by name. */
  cpu(): Record<string, number>
}

interface Figures {
  readonly workload: string
  readonly requests: number
  readonly seconds: number
  readonly statuses: Record<number, number>
  readonly p50: number
  readonly p99: number
  /** CPU milliseconds per request of each of the target's processes. */
  readonly cpu: Record<string, number>
}

interface Run {
  readonly strapi: Figures[]
  /** Per project checkout (PROJECTS), in order. */
  readonly ours: Figures[][]
  readonly load: string
}

const body = (i: number) => ({ title: `T${i}`, views: i % 50, category: `c${i % 5}`, slug: `s${i}-${randomBytes(3).toString('hex')}`, body: [{ type: 'paragraph', children: [{ type: 'text', text: 'x'.repeat(1500) }] }] })

/** One request; a connection that failed (reset, refused) is answered as status 0, counted with the others. */
async function send(target: Target, method: string, path: string, data: unknown): Promise<{ status: number; ms: number; json: any }> {
  const started = performance.now()
  try {
    const response = await fetch(`${target.base}${path}`, { method, headers: { 'content-type': 'application/json', ...target.headers }, body: JSON.stringify({ data }) })
    const text = await response.text()
    return { status: response.status, ms: performance.now() - started, json: text === '' ? undefined : JSON.parse(text) }
  } catch {
    return { status: 0, ms: performance.now() - started, json: undefined }
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2
}

/** `count` calls of `one`, `concurrency` at a time (each worker takes the next index), timed, with the targets' CPU. */
async function measured(target: Target, workload: string, count: number, concurrency: number, one: (i: number) => Promise<{ status: number; ms: number; json: any }>) {
  const cpuBefore = target.cpu()
  const started = performance.now()
  const answers: { status: number; ms: number; json: any }[] = []
  let next = 0
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < count) {
      const i = next++
      answers[i] = await one(i)
    }
  }))
  const seconds = (performance.now() - started) / 1000
  const cpuAfter = target.cpu()
  const sorted = answers.map((answer) => answer.ms).sort((a, b) => a - b)
  const statuses: Record<number, number> = {}
  for (const answer of answers) statuses[answer.status] = (statuses[answer.status] ?? 0) + 1
  const cpu = Object.fromEntries(Object.keys(cpuAfter).map((name) => [name, ((cpuAfter[name] ?? 0) - (cpuBefore[name] ?? 0)) * 1000 / count]))
  const figures: Figures = { workload, requests: count, seconds, statuses, p50: sorted[Math.floor(sorted.length / 2)] ?? 0, p99: sorted[Math.ceil(sorted.length * 0.99) - 1] ?? 0, cpu }
  return { figures, answers }
}

const documentIdsOf = (answers: { status: number; json: any }[]) => answers.filter((answer) => answer.status === 200 || answer.status === 201).map((answer) => answer.json.data.documentId as string)

async function workloads(target: Target): Promise<Figures[]> {
  // Warm-up: the same kinds of requests, not measured.
  const warm = await measured(target, 'warm-up', WARMUP, 10, (i) => send(target, 'POST', '/api/articles', body(1_000_000 + i)))
  const warmIds = documentIdsOf(warm.answers)
  if (warmIds.length > 0) await measured(target, 'warm-up', WARMUP, 10, (i) => send(target, 'PUT', `/api/articles/${warmIds[i % warmIds.length]}`, { views: i }))
  const created = await measured(target, `creates (${CREATES}, 10 at a time)`, CREATES, 10, (i) => send(target, 'POST', '/api/articles', body(i)))
  const ids = documentIdsOf(created.answers)
  const updated = await measured(target, `updates of views (${UPDATES}, 10 writers)`, UPDATES, 10, (i) => send(target, 'PUT', `/api/articles/${ids[i % ids.length]}`, { views: 1000 + i }))
  // One document with a version in each locale, then 40 writers at once, round after round.
  const [contended] = ids
  for (const locale of LOCALES.slice(1)) await send(target, 'PUT', `/api/articles/${contended}?locale=${locale}`, { title: locale })
  const contention = await measured(target, `one document, 40 writers at once (${ROUNDS} rounds)`, ROUNDS * 40, 40, (i) => {
    const round = Math.floor(i / 40)
    const writer = i % 40
    return send(target, 'PUT', `/api/articles/${contended}?locale=${LOCALES[writer % 3]}`, writer % 3 === 0 ? { title: `r${round} w${writer}`, views: round * 100 + writer + 1 } : { title: `r${round} w${writer}` })
  })
  return [created.figures, updated.figures, contention.figures]
}

async function waitHealthy(base: string): Promise<void> {
  for (let i = 0; i < 480; i++) {
    const status = await fetch(`${base}/_health`).then((response) => response.status, () => 0)
    if (status === 200 || status === 204) return
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  throw new Error(`${base} did not become healthy`)
}

const stopGroup = (child: ChildProcess | undefined) => {
  if (child?.pid !== undefined) {
    try {
      process.kill(-child.pid, 'SIGTERM')
    } catch {
      // already gone
    }
  }
}

async function strapiRun(): Promise<Figures[]> {
  const start = spawn('./start.sh', ['--fresh'], { cwd: PEER, env: { ...process.env, PORT: String(PORTS.strapi) }, stdio: ['ignore', 'ignore', 'inherit'] })
  if (await new Promise((resolve) => start.on('exit', resolve)) !== 0) throw new Error('Strapi did not start')
  const pid = Number(readFileSync(join(PEER, 'run/strapi.pid'), 'utf8'))
  try {
    return await workloads({ base: `http://127.0.0.1:${PORTS.strapi}`, headers: {}, cpu: () => ({ strapi: cpuSeconds(pid) }) })
  } finally {
    await new Promise((resolve) => spawn('./stop.sh', [], { cwd: PEER, stdio: 'ignore' }).on('exit', resolve))
  }
}

async function ourRun(root: string): Promise<Figures[]> {
  const data = mkdtempSync(join(tmpdir(), 'writes-'))
  // Through the shared start-up: the Java check, and the JVM killed even if this process dies.
  const local = await startDynamoLocal({ dbPath: IN_MEMORY ? undefined : join(data, 'dynamodb') })
  let server: ChildProcess | undefined
  try {
    const endpoint = local.endpoint
    const admin = randomBytes(24).toString('hex')
    server = spawn(process.execPath, ['--import', 'tsx', 'functions/local.ts'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'], detached: true,
      env: { ...process.env, PORT: String(PORTS.project), DYNAMODB_ENDPOINT: endpoint, TABLE_NAME: `writes_${Date.now()}`, ADMIN_TOKEN: admin, DATA_DIR: data } })
    const base = `http://127.0.0.1:${PORTS.project}`
    await waitHealthy(base)
    const headers = { authorization: `Bearer ${admin}`, 'content-type': 'application/json' }
    const token = await fetch(`${base}/admin/api-tokens`, { method: 'POST', headers, body: JSON.stringify({ name: 'writes', type: 'full-access' }) })
    const { data: created } = (await token.json()) as { data: { accessKey: string } }
    for (const code of LOCALES.slice(1)) await fetch(`${base}/admin/i18n/locales`, { method: 'POST', headers, body: JSON.stringify({ code }) })
    const serverPid = server.pid
    return await workloads({ base, headers: { authorization: `Bearer ${created.accessKey}` }, cpu: () => ({ server: cpuSeconds(serverPid), dynamodb: cpuSeconds(local.pid) }) })
  } finally {
    stopGroup(server)
    await local.stop()
    rmSync(data, { recursive: true, force: true })
  }
}

const rate = (figures: Figures) => figures.requests / figures.seconds
const statusesOf = (figures: Figures) => Object.entries(figures.statuses).map(([status, n]) => `${n}×${status}`).join(', ')
const cpuOf = (figures: Figures) => Object.entries(figures.cpu).map(([name, ms]) => `${name} ${ms.toFixed(1)}`).join(' + ')

const projectName = (i: number) => (i === 0 ? 'ours' : `ours (${PROJECTS[i]})`)

function runTable(run: Run, i: number): string[] {
  return [
    `Run ${i + 1} of ${RUNS} (load average ${run.load}):`,
    '',
    '| workload | server | req/s | ratio to Strapi | p50 / p99 ms | CPU ms/req | statuses |',
    '|---|---|--:|--:|--:|--:|---|',
    ...run.strapi.flatMap((theirs, w) => [
      `| ${theirs.workload} | Strapi | ${rate(theirs).toFixed(1)} | | ${theirs.p50.toFixed(0)} / ${theirs.p99.toFixed(0)} | ${cpuOf(theirs)} | ${statusesOf(theirs)} |`,
      ...run.ours.map((figures, p) => {
        const mine = figures[w] as Figures
        return `| | ${projectName(p)} | ${rate(mine).toFixed(1)} | ${(rate(mine) / rate(theirs)).toFixed(2)} | ${mine.p50.toFixed(0)} / ${mine.p99.toFixed(0)} | ${cpuOf(mine)} | ${statusesOf(mine)} |`
      }),
    ]),
    '',
  ]
}

function summary(runs: Run[]): string[] {
  const names = ['creates/s', 'updates/s', 'one document, 40 writers, req/s']
  const list = (values: number[], digits: number) => values.map((value) => value.toFixed(digits)).join(' / ')
  return [
    `Summary, ${runs.length} run(s), each Strapi then ours:`,
    '',
    `| workload | Strapi, each run | server | each run | ratio to Strapi, each run | median ratio |`,
    '|---|--:|---|--:|--:|--:|',
    ...names.flatMap((name, w) => {
      const theirs = runs.map((run) => rate(run.strapi[w] as Figures))
      return PROJECTS.map((_, p) => {
        const mine = runs.map((run) => rate((run.ours[p] as Figures[])[w] as Figures))
        const ratios = mine.map((value, i) => value / (theirs[i] as number))
        return `| ${p === 0 ? name : ''} | ${p === 0 ? list(theirs, 1) : ''} | ${projectName(p)} | ${list(mine, 1)} | ${list(ratios, 2)} | **${median(ratios).toFixed(2)}** |`
      })
    }),
  ]
}

async function main(): Promise<void> {
  if (!existsSync(join(PEER, 'node_modules/@strapi/strapi'))) {
    console.error(`No installed Strapi peer in ${PEER}. Set one up (about 3 minutes, 720 MB), then pass its path:\n` +
      `  cp -r ../shared/peers/strapi /tmp/peer-strapi && chmod -R u+w /tmp/peer-strapi && (cd /tmp/peer-strapi && npm install)\n` +
      '  npm run bench:writes -- /tmp/peer-strapi')
    process.exit(1)
  }
  const load = () => loadavg().map((x) => x.toFixed(1)).join(' ')
  const runs: Run[] = []
  const lines = [`Parallel writes, ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, DynamoDB Local ${IN_MEMORY ? 'in memory' : 'on disk'}, ${WARMUP} + ${WARMUP} warm-up requests each`, '']
  for (let i = 0; i < RUNS; i++) {
    const before = load()
    const strapi = await strapiRun()
    const ours: Figures[][] = []
    for (const root of PROJECTS) ours.push(await ourRun(root))
    runs.push({ strapi, ours, load: `${before} → ${load()}` })
    const table = runTable(runs[i] as Run, i)
    console.log(table.join('\n'))
    lines.push(...table)
  }
  lines.push(...summary(runs))
  console.log(summary(runs).join('\n'))
  writeFileSync(new URL('./results/parallel-writes.md', import.meta.url), `${lines.join('\n')}\n`)
}

await main()
