// ensureTable on DynamoDB Local: a new table is created once, whoever asks first, and every caller
// returns once it is active (two `npm start`s on one new table, or a test run, start together).
import { randomBytes } from 'node:crypto'
import { CreateTableCommand, DescribeTableCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb'
import { describe, expect, it } from 'vitest'
import { dynamoEndpoint } from '../support/dynamo-endpoint.js'
import { createDocumentClient } from '../../lib/storage/client.js'
import { ensureTable, tableDefinition } from '../../lib/storage/schema.js'
import { INDEX, TABLE } from '../../lib/table.js'
import { assertLoopback } from '../support/loopback.js'

describe('ensureTable', () => {
  it('creates a new table once when several processes start on it together', async () => {
    const endpoint = dynamoEndpoint()
    assertLoopback(endpoint)
    const tableName = `test-${randomBytes(6).toString('hex')}`
    // A client each, as separate processes have: each looks, finds nothing, and creates.
    const clients = Array.from({ length: 4 }, () => createDocumentClient({ region: 'us-east-1', endpoint }))
    await Promise.all(clients.map((db) => ensureTable(db, tableName)))
    const { Table } = await (clients[0] as unknown as DynamoDBClient).send(new DescribeTableCommand({ TableName: tableName }))
    expect(Table?.TableStatus).toBe('ACTIVE')
    expect(Table?.GlobalSecondaryIndexes?.map((index) => index.IndexName).sort()).toEqual(TABLE.indexes.map((index) => index.name).sort())
    expect(Table?.StreamSpecification).toEqual({ StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' })
    // And again, on the table that exists now.
    await ensureTable(clients[1]!, tableName)
  })

  it('leaves the change stream off when asked (tests that read none), and turns it on when asked again without', async () => {
    const endpoint = dynamoEndpoint()
    assertLoopback(endpoint)
    const tableName = `test-${randomBytes(6).toString('hex')}`
    const db = createDocumentClient({ region: 'us-east-1', endpoint })
    const describe = async () => (await (db as unknown as DynamoDBClient).send(new DescribeTableCommand({ TableName: tableName }))).Table
    await ensureTable(db, tableName, { stream: false })
    expect((await describe())?.StreamSpecification?.StreamEnabled ?? false).toBe(false)
    // Asked again with the option, it stays off; without it, the stream comes on.
    await ensureTable(db, tableName, { stream: false })
    expect((await describe())?.StreamSpecification?.StreamEnabled ?? false).toBe(false)
    await ensureTable(db, tableName)
    expect((await describe())?.StreamSpecification).toEqual({ StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' })
    expect((await describe())?.LatestStreamArn).toMatch(/stream/)
  })
})

describe('tableDefinition', () => {
  it('makes tables with some of the indexes or none, with the key attributes those need (the cost benchmark\'s)', async () => {
    const endpoint = dynamoEndpoint()
    assertLoopback(endpoint)
    const client = createDocumentClient({ region: 'us-east-1', endpoint }) as unknown as DynamoDBClient
    const idOrder = TABLE.indexes.filter((index) => index.name === INDEX.byId || index.name === INDEX.byPublication)
    for (const indexes of [idOrder, []]) {
      const tableName = `test-${randomBytes(6).toString('hex')}`
      await client.send(new CreateTableCommand(tableDefinition(tableName, indexes)))
      const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }))
      expect((Table?.GlobalSecondaryIndexes ?? []).map((index) => index.IndexName).sort()).toEqual(indexes.map((index) => index.name).sort())
      const keys = [TABLE.partitionKey, TABLE.sortKey, ...indexes.flatMap((index) => [index.partitionKey, index.sortKey])].map((key) => key.name)
      expect(Table?.AttributeDefinitions?.map((definition) => definition.AttributeName).sort()).toEqual([...new Set(keys)].sort())
    }
  })
})
