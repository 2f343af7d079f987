// `npm run bench:dynamodb-local`: what one write call costs DynamoDB Local itself, apart from this
// project's code (issue 20, point 3: what bounds creates and updates on this machine). Starts
// DynamoDB Local in memory, makes the project's table, warms Java's JIT, then sends
// TransactWriteItems of 1, 9, 20 and 50 Puts of a 2 KB item, single PutItem, BatchWriteItem of 9
// Puts and a counter UpdateItem, each from 1 and from 10 callers at once, and prints the Java
// process's CPU milliseconds per call (from /proc, Linux only) and the calls per second. Then the
// same transactions on a table with the same keys and no index at all, against the project's table
// (2 + SLOT_COUNT indexes), from 1 caller: with Puts of versions and with Updates of counters, items
// that have none of the indexes' keys. Not a test: it asserts nothing; compare rows of one run only
// (the machine is shared).
import { writeFileSync } from 'node:fs'
import { loadavg } from 'node:os'
import { CreateTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb'
import { BatchWriteCommand, DynamoDBDocumentClient, PutCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb'
import { startDynamoLocal } from '../lib/local/dynamodb-local.js'
import { ensureTable } from '../lib/storage/schema.js'
import { SLOT_COUNT } from '../lib/table.js'
import { cpuSeconds } from './process-cpu.js'

const TABLE = 'content'
const ROUNDS = Number(process.env.COST_ROUNDS ?? 200)
const WARMUP = Number(process.env.COST_WARMUP ?? 400)

// Its JVM is killed when this process exits (startDynamoLocal's exit hook and watchdog).
const local = await startDynamoLocal()
const db = DynamoDBDocumentClient.from(new DynamoDBClient({ endpoint: local.endpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }))
await ensureTable(db, TABLE)
const BARE = 'no-indexes'
await db.send(new CreateTableCommand({
  TableName: BARE,
  BillingMode: 'PAY_PER_REQUEST',
  AttributeDefinitions: [{ AttributeName: 'documentId', AttributeType: 'S' }, { AttributeName: 'locale', AttributeType: 'S' }],
  KeySchema: [{ AttributeName: 'documentId', KeyType: 'HASH' }, { AttributeName: 'locale', KeyType: 'RANGE' }],
}))
/** DynamoDB Local's CPU milliseconds so far. */
const javaCpuMs = () => cpuSeconds(local.pid) * 1000

const body = 'x'.repeat(1500)
let serial = 0
/** A document version's shape: keys, a list index key and two slot keys, a 1.5 KB body. */
function version(): Record<string, unknown> {
  serial++
  return { documentId: `c${String(serial).padStart(23, '0')}`, locale: 'en', listKey: 'api::article.article#en', id: serial, k0: `a${serial}`, k1: `b${serial}`, rev: 1, title: `Title ${serial}`, body, views: serial % 50 }
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
    const cpuBefore = javaCpuMs()
    const start = performance.now()
    await drive(kind.call, ROUNDS, callers)
    const seconds = (performance.now() - start) / 1000
    const perCall = (javaCpuMs() - cpuBefore) / ROUNDS
    lines.push(`| ${kind.label} | ${kind.items} | ${callers} | ${perCall.toFixed(1)} | ${(perCall / kind.items).toFixed(2)} | ${(ROUNDS / seconds).toFixed(0)} | ${((ROUNDS * kind.items) / seconds).toFixed(0)} |`)
  }
}

// The same transactions on a table without indexes, from one caller, each kind against the project's table.
const pairs = [
  { label: 'TransactWriteItems, 20 Puts of versions', call: (table: string) => transaction(20, table) },
  { label: 'TransactWriteItems, 20 counter Updates', call: counters },
] as const
for (const pair of pairs) for (const table of [TABLE, BARE]) await drive(pair.call(table), WARMUP / 4, 1)
lines.push('', `The same transactions on the project's table (${TABLE}, ${2 + SLOT_COUNT} indexes) and on one with the same keys and no index, 1 caller:`, '',
  '| call | table | Java CPU ms per call | Java CPU ms per item | calls/s |', '|---|---|--:|--:|--:|')
for (const pair of pairs) {
  for (const table of [TABLE, BARE]) {
    const cpuBefore = javaCpuMs()
    const start = performance.now()
    await drive(pair.call(table), ROUNDS, 1)
    const seconds = (performance.now() - start) / 1000
    const perCall = (javaCpuMs() - cpuBefore) / ROUNDS
    lines.push(`| ${pair.label} | ${table === TABLE ? `${TABLE} (${2 + SLOT_COUNT} indexes)` : 'no indexes'} | ${perCall.toFixed(1)} | ${(perCall / 20).toFixed(2)} | ${(ROUNDS / seconds).toFixed(0)} |`)
  }
}
lines.push('', `load average at the end ${load()}`)
console.log(lines.join('\n'))
writeFileSync(new URL('./results/dynamodb-local-cost.md', import.meta.url), `${lines.join('\n')}\n`)
process.exit(0)
