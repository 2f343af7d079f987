// Creates the table from the one declaration in lib/table.ts (local runs and tests; on AWS the
// CDK stack creates it from the same declaration).
import { CreateTableCommand, DescribeTableCommand, ResourceInUseException, ResourceNotFoundException, waitUntilTableExists, type DynamoDBClient } from '@aws-sdk/client-dynamodb'
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb'
import { TABLE, type IndexDeclaration } from '../table.js'

function projection(index: IndexDeclaration) {
  return index.projection.type === 'ALL'
    ? { ProjectionType: 'ALL' as const }
    : { ProjectionType: 'INCLUDE' as const, NonKeyAttributes: [...index.projection.attributes] }
}

/**
 * Creates `tableName` (on-demand billing) unless it exists, and returns once it is active. Several
 * processes may start on a new table at once (two local servers, a test run): the ones that lose
 * the race to create it wait for the winner's table.
 */
export async function ensureTable(db: DynamoDBDocumentClient, tableName: string): Promise<void> {
  // The document client shares the low-level client's stack and sends its commands unchanged.
  const client = db as unknown as DynamoDBClient
  try {
    const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }))
    if (Table?.TableStatus === 'ACTIVE') return
  } catch (error) {
    if (!(error instanceof ResourceNotFoundException)) throw error
    await createTable(client, tableName)
  }
  await waitUntilTableExists({ client, minDelay: 1, maxDelay: 2, maxWaitTime: 120 }, { TableName: tableName })
}

async function createTable(client: DynamoDBClient, tableName: string): Promise<void> {
  const keyAttributes = [TABLE.partitionKey, TABLE.sortKey, ...TABLE.indexes.flatMap((index) => [index.partitionKey, index.sortKey])]
  const definitions = [...new Map(keyAttributes.map((key) => [key.name, key])).values()]
  try {
    await client.send(new CreateTableCommand({
      TableName: tableName,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: definitions.map((key) => ({ AttributeName: key.name, AttributeType: key.type })),
      KeySchema: [
        { AttributeName: TABLE.partitionKey.name, KeyType: 'HASH' },
        { AttributeName: TABLE.sortKey.name, KeyType: 'RANGE' },
      ],
      GlobalSecondaryIndexes: TABLE.indexes.map((index) => ({
        IndexName: index.name,
        KeySchema: [
          { AttributeName: index.partitionKey.name, KeyType: 'HASH' },
          { AttributeName: index.sortKey.name, KeyType: 'RANGE' },
        ],
        Projection: projection(index),
      })),
    }))
  } catch (error) {
    // Another process created it between our look and our create.
    if (!(error instanceof ResourceInUseException)) throw error
  }
}
