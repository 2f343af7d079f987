// Creates the table from the one declaration in lib/table.ts (local runs and tests; on AWS the
// CDK stack creates it from the same declaration).
import { CreateTableCommand, DescribeTableCommand, ResourceNotFoundException, type DynamoDBClient } from '@aws-sdk/client-dynamodb'
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb'
import { TABLE, type IndexDeclaration } from '../table.js'

function projection(index: IndexDeclaration) {
  return index.projection.type === 'ALL'
    ? { ProjectionType: 'ALL' as const }
    : { ProjectionType: 'INCLUDE' as const, NonKeyAttributes: [...index.projection.attributes] }
}

/** Creates `tableName` (on-demand billing) unless it exists. */
export async function ensureTable(db: DynamoDBDocumentClient, tableName: string): Promise<void> {
  // The document client shares the low-level client's stack and sends its commands unchanged.
  const client = db as unknown as DynamoDBClient
  try {
    await client.send(new DescribeTableCommand({ TableName: tableName }))
    return
  } catch (error) {
    if (!(error instanceof ResourceNotFoundException)) throw error
  }
  const keyAttributes = [TABLE.partitionKey, TABLE.sortKey, ...TABLE.indexes.flatMap((index) => [index.partitionKey, index.sortKey])]
  const definitions = [...new Map(keyAttributes.map((key) => [key.name, key])).values()]
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
}
