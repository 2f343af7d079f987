// `node --import tsx bench/dynamodb-local-streams.ts [RECORDS]`: what a table's change stream costs
// on DynamoDB Local when other tables wrote stream records before it. Local keeps every stream's
// records in one SQLite table keyed by sequence number alone, and for every item a call touches it
// looks up where the table's stream starts (`SELECT MIN(SequenceNumber) ... WHERE StreamID = ?`),
// which scans the records written before. Prints the mean PutItem and GetItem time (10 calls each)
// on a table made first, on one made after RECORDS (default 40,000) records of 2.5 KB items in
// another table, and on one made then without a stream; then again once that table is deleted
// (its records stay). Not a test: it asserts nothing (lib/storage/schema.ts, ensureTable's
// `stream` option, is what the tests and the bench do about it).
import { CreateTableCommand, DeleteTableCommand, DynamoDBClient, GetItemCommand, PutItemCommand } from '@aws-sdk/client-dynamodb'
import { BatchWriteCommand, DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb'
import { startDynamoLocal } from '../lib/local/dynamodb-local.js'

const records = Number(process.argv[2] ?? 40_000)
const local = await startDynamoLocal({})
const client = new DynamoDBClient({ endpoint: local.endpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } })
const db = DynamoDBDocumentClient.from(client)
const table = (name: string, stream: boolean) => new CreateTableCommand({
  TableName: name, BillingMode: 'PAY_PER_REQUEST', AttributeDefinitions: [{ AttributeName: 'k', AttributeType: 'S' }], KeySchema: [{ AttributeName: 'k', KeyType: 'HASH' }],
  ...(stream ? { StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' } } : {}),
})
let made = 0
/** Mean ms of 10 PutItems, then 10 GetItems, on `name` (made now unless it is `first`). */
async function probe(label: string, name: string, stream: boolean): Promise<void> {
  if (name !== 'first') await client.send(table(`${name}${++made}`, stream))
  const tableName = name === 'first' ? name : `${name}${made}`
  const started = performance.now()
  for (let i = 0; i < 10; i++) await client.send(new PutItemCommand({ TableName: tableName, Item: { k: { S: `x${i}` } } }))
  const put = performance.now()
  for (let i = 0; i < 10; i++) await client.send(new GetItemCommand({ TableName: tableName, Key: { k: { S: `x${i}` } } }))
  if (label !== 'warm-up') console.log(`| ${label} | ${name} | ${((put - started) / 10).toFixed(1)} | ${((performance.now() - put) / 10).toFixed(1)} |`)
}
try {
  await client.send(table('first', true))
  await client.send(new PutItemCommand({ TableName: 'first', Item: { k: { S: 'start' } } }))
  await client.send(table('bulk', true))
  // Warm the JVM on all three kinds of table before anything is measured.
  for (let i = 0; i < 3; i++) for (const [name, stream] of [['first', true], ['late', true], ['late-no-stream', false]] as const) await probe('warm-up', name, stream)
  for (let n = 0; n < records;) {
    await Promise.all(Array.from({ length: 4 }, () => db.send(new BatchWriteCommand({ RequestItems: { bulk: Array.from({ length: 25 }, () => ({ PutRequest: { Item: { k: `k${n++}`, body: 'z'.repeat(2500) } } })) } }))))
  }
  console.log(`\n| after | table | PutItem ms | GetItem ms |\n|---|---|--:|--:|`)
  for (const [name, stream] of [['first', true], ['late', true], ['late-no-stream', false]] as const) await probe(`${records} records in another table`, name, stream)
  await client.send(new DeleteTableCommand({ TableName: 'bulk' }))
  for (const [name, stream] of [['first', true], ['late', true], ['late-no-stream', false]] as const) await probe('that table deleted', name, stream)
} finally {
  await local.stop()
}
