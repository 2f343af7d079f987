// Creates the table from the one declaration in lib/table.ts (local runs and tests; on AWS the
// CDK stack creates it from the same declaration).
import { CreateTableCommand, DescribeTableCommand, ResourceInUseException, ResourceNotFoundException, UpdateTableCommand, waitUntilTableExists, type CreateTableCommandInput, type DynamoDBClient, type TableDescription } from '@aws-sdk/client-dynamodb'
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb'
import { STREAM_VIEW_TYPE, TABLE, type IndexDeclaration } from '../table.js'

function projection(index: IndexDeclaration) {
  return index.projection.type === 'ALL'
    ? { ProjectionType: 'ALL' as const }
    : { ProjectionType: 'INCLUDE' as const, NonKeyAttributes: [...index.projection.attributes] }
}

/**
 * Creates `tableName` (on-demand billing) unless it exists, and returns once it is active. Several
 * processes may start on a new table at once (two local servers, a test run): the ones that lose
 * the race to create it wait for the winner's table. A table kept from an earlier version (a local
 * data folder) gets the indexes declared since, one at a time as DynamoDB adds them.
 *
 * `stream: false` (tests and benchmarks that read no change stream) leaves the change stream off:
 * DynamoDB Local finds a stream's first record, for every item a call reads or writes, by scanning
 * its stream records of every table in sequence order (`SELECT MIN(SequenceNumber) ... WHERE
 * StreamID = ?` on a table indexed by sequence only, kept after the table is deleted), so a table
 * whose stream starts after N records of other tables pays for N on every item: 40,000 made a
 * `PutItem` and a `GetItem` 5 to 7 times slower (bench/dynamodb-local-streams.ts). Turning it on
 * later (this function again, without the option) gives the table its stream.
 */
export async function ensureTable(db: DynamoDBDocumentClient, tableName: string, options: { stream?: boolean } = {}): Promise<void> {
  const wanted = options.stream ?? true
  // The document client shares the low-level client's stack and sends its commands unchanged.
  const client = db as unknown as DynamoDBClient
  for (;;) {
    let table: TableDescription | undefined
    try {
      table = (await client.send(new DescribeTableCommand({ TableName: tableName }))).Table
    } catch (error) {
      if (!(error instanceof ResourceNotFoundException)) throw error
      await createTable(client, tableName, wanted)
      await waitUntilTableExists({ client, minDelay: 1, maxDelay: 2, maxWaitTime: 120 }, { TableName: tableName })
      continue
    }
    const building = table?.TableStatus !== 'ACTIVE' || (table.GlobalSecondaryIndexes ?? []).some((index) => index.IndexStatus !== 'ACTIVE')
    const missing = TABLE.indexes.find((index) => !(table?.GlobalSecondaryIndexes ?? []).some((existing) => existing.IndexName === index.name))
    const streaming = !wanted || (table?.StreamSpecification?.StreamEnabled === true && table.StreamSpecification.StreamViewType === STREAM_VIEW_TYPE)
    if (!building && missing === undefined && streaming) return
    if (!building && missing !== undefined) await addIndex(client, tableName, missing)
    else if (!building && !streaming) await enableStream(client, tableName)
    await new Promise((resolve) => setTimeout(resolve, 500))
  }
}

async function addIndex(client: DynamoDBClient, tableName: string, index: IndexDeclaration): Promise<void> {
  try {
    await client.send(new UpdateTableCommand({
      TableName: tableName,
      AttributeDefinitions: [index.partitionKey, index.sortKey].map((key) => ({ AttributeName: key.name, AttributeType: key.type })),
      GlobalSecondaryIndexUpdates: [{ Create: { IndexName: index.name, KeySchema: keySchema(index), Projection: projection(index) } }],
    }))
  } catch (error) {
    // Another process is adding it (or another index) right now: the next look waits for it.
    if (!(error instanceof ResourceInUseException) && !(error instanceof Error && /already exists|in progress/i.test(error.message))) throw error
  }
}

/** Turns on the change stream of a table kept from before webhooks (a local data folder). */
async function enableStream(client: DynamoDBClient, tableName: string): Promise<void> {
  try {
    await client.send(new UpdateTableCommand({ TableName: tableName, StreamSpecification: { StreamEnabled: true, StreamViewType: STREAM_VIEW_TYPE } }))
  } catch (error) {
    // Another process is turning it on right now: the next look sees it.
    if (!(error instanceof ResourceInUseException) && !(error instanceof Error && /already|in progress/i.test(error.message))) throw error
  }
}

function keySchema(index: IndexDeclaration) {
  return [
    { AttributeName: index.partitionKey.name, KeyType: 'HASH' as const },
    { AttributeName: index.sortKey.name, KeyType: 'RANGE' as const },
  ]
}

/**
 * The CreateTable request of the table (on-demand billing), with `indexes` (all of the declared
 * ones unless told otherwise: the cost benchmark also makes tables with fewer) and its change
 * stream unless `stream` is false.
 */
export function tableDefinition(tableName: string, indexes: readonly IndexDeclaration[] = TABLE.indexes, stream = true): CreateTableCommandInput {
  const keyAttributes = [TABLE.partitionKey, TABLE.sortKey, ...indexes.flatMap((index) => [index.partitionKey, index.sortKey])]
  const definitions = [...new Map(keyAttributes.map((key) => [key.name, key])).values()]
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST',
    StreamSpecification: stream ? { StreamEnabled: true, StreamViewType: STREAM_VIEW_TYPE } : undefined,
    AttributeDefinitions: definitions.map((key) => ({ AttributeName: key.name, AttributeType: key.type })),
    KeySchema: [
      { AttributeName: TABLE.partitionKey.name, KeyType: 'HASH' },
      { AttributeName: TABLE.sortKey.name, KeyType: 'RANGE' },
    ],
    // DynamoDB refuses an empty list: no index, no key.
    GlobalSecondaryIndexes: indexes.length === 0 ? undefined : indexes.map((index) => ({
      IndexName: index.name,
      KeySchema: keySchema(index),
      Projection: projection(index),
    })),
  }
}

async function createTable(client: DynamoDBClient, tableName: string, stream: boolean): Promise<void> {
  try {
    await client.send(new CreateTableCommand(tableDefinition(tableName, TABLE.indexes, stream)))
  } catch (error) {
    // Another process created it between our look and our create.
    if (!(error instanceof ResourceInUseException)) throw error
  }
}
