// Reading the table's change stream where no event source mapping does it (`npm start` on
// DynamoDB Local): its shards, and each shard's records in order, as the DynamoDB Streams API
// serves them (DescribeStream, GetShardIterator, GetRecords).
import { DescribeTableCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb'
import { DescribeStreamCommand, DynamoDBStreamsClient, ExpiredIteratorException, GetRecordsCommand, GetShardIteratorCommand, TrimmedDataAccessException, type _Record } from '@aws-sdk/client-dynamodb-streams'
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb'
import { unmarshall } from '@aws-sdk/util-dynamodb'
import type { ConsumerRecord } from '../webhooks/consumer.js'

export interface Shard {
  readonly id: string
  readonly parentId: string | undefined
}

/** A shard's next records, and where to read on (undefined: the shard is closed and read to its end). */
export interface ShardPage {
  readonly records: ConsumerRecord[]
  readonly next: string | undefined
}

export class StreamReader {
  private constructor(
    private readonly streams: DynamoDBStreamsClient,
    private readonly streamArn: string,
  ) {}

  /** A reader of `tableName`'s stream, through a client on the same endpoint and credentials as `db`. */
  static async open(db: DynamoDBDocumentClient, tableName: string): Promise<StreamReader> {
    const client = db as unknown as DynamoDBClient
    const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }))
    if (Table?.LatestStreamArn === undefined) throw new Error(`table ${tableName} has no stream`)
    const streams = new DynamoDBStreamsClient({ region: await client.config.region(), endpoint: await client.config.endpoint?.().then((endpoint) => `${endpoint.protocol}//${endpoint.hostname}${endpoint.port === undefined ? '' : `:${endpoint.port}`}${endpoint.path}`), credentials: client.config.credentials })
    return new StreamReader(streams, Table.LatestStreamArn)
  }

  async shards(): Promise<Shard[]> {
    const shards: Shard[] = []
    let start: string | undefined
    do {
      const { StreamDescription } = await this.streams.send(new DescribeStreamCommand({ StreamArn: this.streamArn, ExclusiveStartShardId: start }))
      for (const shard of StreamDescription?.Shards ?? []) shards.push({ id: shard.ShardId!, parentId: shard.ParentShardId })
      start = StreamDescription?.LastEvaluatedShardId
    } while (start !== undefined)
    return shards
  }

  /** An iterator after `sequenceNumber`, or at the oldest record kept when none is given (or it was trimmed). */
  async iterator(shardId: string, after: string | undefined): Promise<string | undefined> {
    try {
      const { ShardIterator } = await this.streams.send(new GetShardIteratorCommand({ StreamArn: this.streamArn, ShardId: shardId, ...(after === undefined ? { ShardIteratorType: 'TRIM_HORIZON' } : { ShardIteratorType: 'AFTER_SEQUENCE_NUMBER', SequenceNumber: after }) }))
      return ShardIterator
    } catch (error) {
      if (error instanceof TrimmedDataAccessException && after !== undefined) return this.iterator(shardId, undefined)
      throw error
    }
  }

  /** The next records at `iterator`; undefined when the iterator expired (ask for a new one). */
  async read(iterator: string): Promise<ShardPage | undefined> {
    try {
      const { Records = [], NextShardIterator } = await this.streams.send(new GetRecordsCommand({ ShardIterator: iterator, Limit: 1000 }))
      return { records: Records.map(toConsumerRecord), next: NextShardIterator }
    } catch (error) {
      if (error instanceof ExpiredIteratorException) return undefined
      throw error
    }
  }

  close(): void {
    this.streams.destroy()
  }
}

/**
 * The Streams client reads an empty map (`{"M":{}}`) as `{}`, which unmarshall refuses: it is put
 * back, at any depth. A Lambda event's records carry binary values (compressed JSON text,
 * packed-json.ts) as base64 text, which the Streams client has decoded already: decoded here too.
 */
function emptyMapsKept(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value
  const attribute = value as Record<string, unknown>
  if (Object.keys(attribute).length === 0) return { M: {} }
  if (typeof attribute.B === 'string') return { B: new Uint8Array(Buffer.from(attribute.B, 'base64')) }
  if (attribute.M !== undefined) return { M: Object.fromEntries(Object.entries(attribute.M as Record<string, unknown>).map(([name, inner]) => [name, emptyMapsKept(inner)])) }
  if (Array.isArray(attribute.L)) return { L: attribute.L.map(emptyMapsKept) }
  return attribute
}

/** A stream record as the consumer takes it (images unmarshalled). */
export function toConsumerRecord(record: _Record): ConsumerRecord {
  const data = record.dynamodb ?? {}
  const image = (value: Record<string, unknown> | undefined) => (value === undefined ? undefined : unmarshall(Object.fromEntries(Object.entries(value).map(([name, attribute]) => [name, emptyMapsKept(attribute)])) as never, { wrapNumbers: false }))
  return {
    eventName: record.eventName as ConsumerRecord['eventName'],
    sequenceNumber: data.SequenceNumber!,
    oldImage: image(data.OldImage as Record<string, unknown> | undefined),
    newImage: image(data.NewImage as Record<string, unknown> | undefined),
    ...(data.ApproximateCreationDateTime === undefined ? {} : { createdAt: new Date(data.ApproximateCreationDateTime).toISOString() }),
  }
}
