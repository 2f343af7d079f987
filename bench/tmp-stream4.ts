import { DynamoDBClient, CreateTableCommand, PutItemCommand, GetItemCommand } from '@aws-sdk/client-dynamodb'
import { BatchWriteCommand, DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb'
import { startDynamoLocal } from '../lib/local/dynamodb-local.js'
const local = await startDynamoLocal({})
const c = new DynamoDBClient({ endpoint: local.endpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } })
const db = DynamoDBDocumentClient.from(c)
const def = (name: string, stream: boolean) => ({ TableName: name, BillingMode: 'PAY_PER_REQUEST' as const, AttributeDefinitions: [{ AttributeName: 'k', AttributeType: 'S' as const }], KeySchema: [{ AttributeName: 'k', KeyType: 'HASH' as const }], ...(stream ? { StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' as const } } : {}) })
await c.send(new CreateTableCommand(def('early', true)))
await c.send(new PutItemCommand({ TableName: 'early', Item: { k: { S: 'first' } } }))
await c.send(new CreateTableCommand(def('bulk', true)))
let n = 0
async function probe(label: string) {
  for (const name of ['early', `late${n}`, `late${n}-n`]) {
    if (name.startsWith('late')) await c.send(new CreateTableCommand(def(name, !name.endsWith('-n'))))
    const t = performance.now()
    for (let i = 0; i < 10; i++) await c.send(new PutItemCommand({ TableName: name, Item: { k: { S: `x${i}` } } }))
    const t2 = performance.now()
    for (let i = 0; i < 10; i++) await c.send(new GetItemCommand({ TableName: name, Key: { k: { S: `x${i}` } } }))
    console.log(label, name.replace(/\d+/, ''), 'put ms', ((t2 - t) / 10).toFixed(2), 'get ms', ((performance.now() - t2) / 10).toFixed(2))
  }
}
await probe('records 0')
for (const step of [40000]) {
  while (n < step) await Promise.all(Array.from({ length: 4 }, () => db.send(new BatchWriteCommand({ RequestItems: { bulk: Array.from({ length: 25 }, () => ({ PutRequest: { Item: { k: `k${n++}`, big: 'z'.repeat(2500) } } })) } }))))
  await probe(`records ${n}`)
}
const { DeleteTableCommand } = await import('@aws-sdk/client-dynamodb')
await c.send(new DeleteTableCommand({ TableName: 'bulk' }))
n++
await probe('bulk deleted')
await local.stop(); process.exit(0)
