// `npm run bench:dynamodb-local [-- --profile]`: what one call costs DynamoDB Local itself, apart
// from this project's code (issue 20, points 3 and 4: what bounds writes and uncached reads on this
// machine). Starts DynamoDB Local in memory, makes the project's table, warms Java's JIT, then sends
// TransactWriteItems of 1, 9, 20 and 50 Puts of a 2 KB item, single PutItem, BatchWriteItem of 9
// Puts and a counter UpdateItem, each from 1 and from 10 callers at once, and prints the Java
// process's CPU milliseconds per call (from /proc, Linux only) and the calls per second. Then
// writes (transactions of versions and of counters, items in no index) and reads (BatchGetItem,
// Query, GetItem of versions) on three tables with the same keys and items: the project's, one with
// only its two id-order indexes, one with none, from 1 caller. With --profile (needs the JDK's jcmd
// and jfr), each of those also gets the share of Java's CPU samples spent re-reading the table's
// stored description (java-profiler.ts). Not a test: it asserts nothing; compare rows of one run
// only (the machine is shared).
import { writeFileSync } from 'node:fs'
import { loadavg } from 'node:os'
import { CreateTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb'
import { BatchGetCommand, BatchWriteCommand, DynamoDBDocumentClient, GetCommand, PutCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb'
import { startDynamoLocal } from '../lib/local/dynamodb-local.js'
import { ensureTable, tableDefinition } from '../lib/storage/schema.js'
import { INDEX, TABLE as TABLE_DECLARATION } from '../lib/table.js'
import { JavaProfiler } from './java-profiler.js'
import { cpuSeconds } from './process-cpu.js'

const TABLE = 'content'
const ROUNDS = Number(process.env.COST_ROUNDS ?? 200)
const WARMUP = Number(process.env.COST_WARMUP ?? 400)

const PROFILE = process.argv.includes('--profile')

// Its JVM is killed when this process exits (startDynamoLocal's exit hook and watchdog). The
// profiler needs whole stacks: DynamoDB Local's JSON reads nest deeper than JFR's default 64 frames.
const local = await startDynamoLocal({ javaOptions: PROFILE ? ['-XX:FlightRecorderOptions=stackdepth=2048'] : [] })
const profiler = PROFILE ? new JavaProfiler(local.pid) : undefined
const db = DynamoDBDocumentClient.from(new DynamoDBClient({ endpoint: local.endpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }))
await ensureTable(db, TABLE)
const idOrder: readonly string[] = Object.values(INDEX)
const compared = [
  { name: TABLE, label: `${TABLE} (${TABLE_DECLARATION.indexes.length} indexes)` },
  { name: 'id-indexes', label: `byId and byPublication only (${idOrder.length} indexes)`, indexes: TABLE_DECLARATION.indexes.filter((index) => idOrder.includes(index.name)) },
  { name: 'no-indexes', label: 'no indexes', indexes: [] },
] as const
for (const table of compared) if ('indexes' in table) await db.send(new CreateTableCommand(tableDefinition(table.name, table.indexes)))
/** DynamoDB Local's CPU milliseconds so far. */
const javaCpuMs = () => cpuSeconds(local.pid) * 1000

const body = 'x'.repeat(1500)
let serial = 0
/** A document version's shape: keys, a list index key and two slot keys, a 1.5 KB body. */
function version(): Record<string, unknown> {
  serial++
  return { documentId: `c${String(serial).padStart(23, '0')}`, locale: 'en', listKey: 'api::article.article#en', id: serial, k0: `a${serial}`, k1: `b${serial}`, rev: 1, title: `Title ${serial}`, body, views: serial % 50 }
}
/** Versions stored in each compared table before the reads, and the partition of 25 the Query reads. */
const STORED = 500
const QUERIED = '#bench-partition'
/** The documentId of the i-th of the versions stored in each table before the reads. */
const storedId = (i: number) => `s${String(i).padStart(23, '0')}`
/** `count` distinct keys of stored versions, drawn at random. */
function someKeys(count: number): { documentId: string; locale: string }[] {
  const picked = new Set<number>()
  while (picked.size < count) picked.add(Math.floor(Math.random() * STORED))
  return [...picked].map((i) => ({ documentId: storedId(i), locale: 'en' }))
}
const transaction = (puts: number, table = TABLE) => () => db.send(new TransactWriteCommand({ TransactItems: Array.from({ length: puts }, () => ({ Put: { TableName: table, Item: version(), ConditionExpression: 'attribute_not_exists(documentId)' } })) }))
/** 20 counter Updates in one transaction: items like a list's count or a document's head, in no index. */
const counters = (table: string) => () => db.send(new TransactWriteCommand({ TransactItems: Array.from({ length: 20 }, (_, i) => ({ Update: { TableName: table, Key: { documentId: '#count', locale: `bench${i}` }, UpdateExpression: 'ADD #n :one', ExpressionAttributeNames: { '#n': 'n' }, ExpressionAttributeValues: { ':one': 1 } } })) }))

const kinds: readonly { readonly label: string; readonly items: number; readonly call: () => Promise<unknown> }[] = [
  { label: 'TransactWriteItems, 1 Put', items: 1, call: transaction(1) },
  { label: 'TransactWriteItems, 9 Puts', items: 9, call: transaction(9) },
  { label: 'TransactWriteItems, 20 Puts', items: 20, call: transaction(20) },
  { label: 'TransactWriteItems, 50 Puts', items: 50, call: transaction(50) },
  { label: 'PutItem', items: 1, call: () => db.send(new PutCommand({ TableName: TABLE, Item: version() })) },
  { label: 'BatchWriteItem, 9 Puts', items: 9, call: () => db.send(new BatchWriteCommand({ RequestItems: { [TABLE]: Array.from({ length: 9 }, () => ({ PutRequest: { Item: version() } })) } })) },
  { label: 'UpdateItem, ADD to a counter', items: 1, call: () => db.send(new UpdateCommand({ TableName: TABLE, Key: { documentId: '#count', locale: 'bench' }, UpdateExpression: 'ADD #n :one', ExpressionAttributeNames: { '#n': 'n' }, ExpressionAttributeValues: { ':one': 1 } })) },
]

/** ROUNDS calls from `callers` at once: DynamoDB Local's CPU milliseconds per call, and calls per second. */
async function measure(call: () => Promise<unknown>, callers: number): Promise<{ perCall: number; perSecond: number }> {
  const cpuBefore = javaCpuMs()
  const start = performance.now()
  await drive(call, ROUNDS, callers)
  return { perCall: (javaCpuMs() - cpuBefore) / ROUNDS, perSecond: ROUNDS / ((performance.now() - start) / 1000) }
}

async function drive(call: () => Promise<unknown>, calls: number, callers: number): Promise<void> {
  for (let sent = 0; sent < calls; sent += callers) await Promise.all(Array.from({ length: Math.min(callers, calls - sent) }, call))
}

// Java's JIT compiles DynamoDB Local's write path over the first few hundred calls: warm it first.
for (const kind of kinds) await drive(kind.call, WARMUP / kinds.length, 10)
await drive(transaction(9), WARMUP, 10)

const load = () => loadavg().map((value) => value.toFixed(1)).join(' ')
const lines = [`DynamoDB Local (in memory), ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, ${ROUNDS} calls per row after ${WARMUP * 2} warm-up calls, load average ${load()}`, '',
  '| call | items | callers | Java CPU ms per call | Java CPU ms per item | calls/s | items/s |', '|---|--:|--:|--:|--:|--:|--:|']
for (const kind of kinds) {
  for (const callers of [1, 10]) {
    const { perCall, perSecond } = await measure(kind.call, callers)
    lines.push(`| ${kind.label} | ${kind.items} | ${callers} | ${perCall.toFixed(1)} | ${(perCall / kind.items).toFixed(2)} | ${perSecond.toFixed(0)} | ${(perSecond * kind.items).toFixed(0)} |`)
  }
}

// The same calls on three tables with the same keys: the project's, one with only the two id-order
// indexes (byId, byPublication) and one with none, from one caller, writes and reads.
const rows = [
  { label: 'TransactWriteItems, 20 Puts of versions', items: 20, call: (table: string) => transaction(20, table) },
  { label: 'TransactWriteItems, 20 counter Updates', items: 20, call: counters },
  { label: 'BatchGetItem, 25 versions', items: 25, call: (table: string) => () => db.send(new BatchGetCommand({ RequestItems: { [table]: { Keys: someKeys(25) } } })) },
  { label: 'Query, a partition of 25 versions', items: 25, call: (table: string) => () => db.send(new QueryCommand({ TableName: table, KeyConditionExpression: 'documentId = :d', ExpressionAttributeValues: { ':d': QUERIED } })) },
  { label: 'GetItem, 1 version', items: 1, call: (table: string) => () => db.send(new GetCommand({ TableName: table, Key: someKeys(1)[0] })) },
] as const
for (const table of compared) {
  for (let first = 0; first < STORED; first += 25) {
    await db.send(new BatchWriteCommand({ RequestItems: { [table.name]: Array.from({ length: 25 }, (_, i) => ({ PutRequest: { Item: { ...version(), documentId: storedId(first + i) } } })) } }))
  }
  await db.send(new BatchWriteCommand({ RequestItems: { [table.name]: Array.from({ length: 25 }, (_, i) => ({ PutRequest: { Item: { ...version(), documentId: QUERIED, locale: `l${i}` } } })) } }))
}
for (const row of rows) for (const table of compared) await drive(row.call(table.name), WARMUP / 4, 1)
lines.push('', `The same calls on the project's table (${TABLE}), on one with only its two id-order indexes and on one with none (same keys, same items), 1 caller${PROFILE ? '; with --profile, the share of Java\'s CPU samples spent reading the table\'s stored description' : ''}:`, '',
  `| call | table | Java CPU ms per call | Java CPU ms per item | calls/s |${PROFILE ? ' reading the table description |' : ''}`, `|---|---|--:|--:|--:|${PROFILE ? '--:|' : ''}`)
for (const row of rows) {
  for (const table of compared) {
    const { perCall, perSecond } = await measure(row.call(table.name), 1)
    // Recording costs Java CPU too: the share comes from calls of their own, after the measured ones.
    let share = ''
    if (profiler !== undefined) {
      profiler.start()
      await drive(row.call(table.name), ROUNDS, 1)
      share = ` ${profiler.stop()} |`
    }
    lines.push(`| ${row.label} | ${table.label} | ${perCall.toFixed(1)} | ${(perCall / row.items).toFixed(2)} | ${perSecond.toFixed(0)} |${share}`)
  }
}
lines.push('', `load average at the end ${load()}`)
console.log(lines.join('\n'))
writeFileSync(new URL('./results/dynamodb-local-cost.md', import.meta.url), `${lines.join('\n')}\n`)
process.exit(0)
