// The DynamoDB client and the translation of its failures into ApiErrors. Only lib/storage/
// touches the SDK.
import { DynamoDBClient, TransactionCanceledException, type DynamoDBClientConfig } from '@aws-sdk/client-dynamodb'
import { BatchGetCommand, DynamoDBDocumentClient, TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb'
import { ApiError, serviceUnavailable } from '../errors.js'
import { meterDynamoUsage } from '../observability/dynamo-usage.js'

export interface DynamoOptions {
  readonly region: string
  /** A DynamoDB Local endpoint; undefined means the real regional endpoint. */
  readonly endpoint?: string
  /** Total attempts per call, retries included (SDK standard retry mode, exponential backoff). */
  readonly maxAttempts?: number
}

/** A document client with an explicit retry policy; undefined attributes are dropped. */
export function createDocumentClient(options: DynamoOptions, extra: Partial<DynamoDBClientConfig> = {}): DynamoDBDocumentClient {
  const client = new DynamoDBClient({
    region: options.region,
    endpoint: options.endpoint,
    maxAttempts: options.maxAttempts ?? 4,
    retryMode: 'standard',
    ...(options.endpoint === undefined ? {} : { credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }),
    ...extra,
  })
  // The SDK's logger middleware walks every answer to mask sensitive fields even when nothing is
  // logged (its default logger is a no-op); a 1,000-entry Query paid for it. The request log says
  // what each request spent on DynamoDB instead.
  client.middlewareStack.remove('loggerMiddleware')
  return meterDynamoUsage(DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } }))
}

const UNAVAILABLE = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
  'InternalServerError',
  'ServiceUnavailable',
  'TransactionInProgressException',
  'TimeoutError',
  'RequestTimeout',
  'RequestTimeoutException',
])

/** Socket errors the SDK retries as transient: when they outlast the retries, DynamoDB is unreachable. */
const UNREACHABLE = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN'])

/** Turns an SDK failure into an ApiError: throttling and outages after retries are 503s. */
export function storageError(error: unknown): unknown {
  if (error instanceof ApiError) return error
  const name = (error as { name?: string } | null)?.name ?? ''
  const status = (error as { $metadata?: { httpStatusCode?: number } } | null)?.$metadata?.httpStatusCode ?? 0
  const code = (error as { code?: string } | null)?.code ?? ''
  if (UNAVAILABLE.has(name) || UNREACHABLE.has(code) || status >= 500) return serviceUnavailable()
  return error
}

/** Runs a storage call, translating its failure. */
export async function guarded<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call()
  } catch (error) {
    throw storageError(error)
  }
}

/**
 * Runs one conditional write (not a transaction): when its condition fails, the answer is
 * `onFailed()`; any other failure is translated as by `guarded`.
 */
export async function conditionalWrite<T>(call: () => Promise<T>, onFailed: () => T): Promise<T> {
  try {
    return await call()
  } catch (error) {
    if ((error as { name?: string } | null)?.name === 'ConditionalCheckFailedException') return onFailed()
    throw storageError(error)
  }
}

export type CancellationReason = { Code?: string; Item?: Record<string, unknown> }

/** Thrown when a transaction failed one of its conditions: `reasons[i]` belongs to item i. */
export class ConditionFailed extends Error {
  constructor(readonly reasons: readonly CancellationReason[]) {
    super('ConditionalCheckFailed')
  }
  /** True when the condition on item `index` of the transaction failed. */
  failedAt(index: number): boolean {
    return this.reasons[index]?.Code === 'ConditionalCheckFailed'
  }
}

const CONFLICT_ATTEMPTS = 5

/** Thrown by `transactWrite(..., 1)` when a concurrent transaction cancelled it (nothing was written). */
export class TransactionConflict extends Error {}

/**
 * Writes a transaction. Cancellations by concurrent transactions (nothing was written) are
 * retried with jittered backoff, then answered 503 (or, with `attempts` 1, thrown as
 * TransactionConflict for the caller to retry); a failed condition throws ConditionFailed.
 */
export async function transactWrite(db: DynamoDBDocumentClient, input: TransactWriteCommandInput, attempts = CONFLICT_ATTEMPTS): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await db.send(new TransactWriteCommand(input))
      return
    } catch (error) {
      if (!(error instanceof TransactionCanceledException)) throw storageError(error)
      const reasons = (error.CancellationReasons ?? []) as CancellationReason[]
      if (reasons.some((reason) => reason.Code === 'ConditionalCheckFailed')) throw new ConditionFailed(reasons)
      const retriable = reasons.every((r) => r.Code === undefined || ['None', 'TransactionConflict', 'ThrottlingError', 'ProvisionedThroughputExceeded'].includes(r.Code))
      if (!retriable) throw error
      if (attempts === 1) throw new TransactionConflict()
      if (attempt >= attempts) throw serviceUnavailable()
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * 2 ** attempt))
    }
  }
}

type Item = Record<string, unknown>

/** Keys per BatchGetItem call (DynamoDB's limit). */
const BATCH_SIZE = 100
/** BatchGet calls made for one chunk before its unprocessed keys are given up as throttled. */
const BATCH_ATTEMPTS = 6

/**
 * Every item of `keys` that exists, in chunks of 100 (read in parallel), retrying unprocessed keys
 * with backoff; `projection` names the attributes wanted, `consistent` asks for strongly consistent reads.
 */
export async function batchGetItems(db: DynamoDBDocumentClient, tableName: string, keys: readonly Item[], projection?: { ProjectionExpression: string; ExpressionAttributeNames: Record<string, string> }, consistent = false): Promise<Item[]> {
  const chunks: Item[][] = []
  for (let i = 0; i < keys.length; i += BATCH_SIZE) chunks.push(keys.slice(i, i + BATCH_SIZE))
  const read = async (chunk: Item[]) => {
    const items: Item[] = []
    let pending = chunk
    for (let attempt = 0; pending.length > 0; attempt++) {
      // Keys left unprocessed attempt after attempt mean DynamoDB is throttling: a 503, not a hang.
      if (attempt >= BATCH_ATTEMPTS) throw serviceUnavailable()
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, Math.min(1000, 25 * 2 ** attempt)))
      const request = { [tableName]: { Keys: pending, ...projection, ...(consistent ? { ConsistentRead: true } : {}) } }
      const result = await guarded(() => db.send(new BatchGetCommand({ RequestItems: request })))
      items.push(...(result.Responses?.[tableName] ?? []))
      pending = (result.UnprocessedKeys?.[tableName]?.Keys ?? []) as Item[]
    }
    return items
  }
  return (await Promise.all(chunks.map(read))).flat()
}

/**
 * Runs `tasks`, at most `limit` at a time, and gives their results in order. After a failure no
 * task starts, and the first failure is thrown once those under way have settled (none is left
 * writing behind its caller's back).
 */
export async function inParallel<T>(tasks: readonly (() => Promise<T>)[], limit: number): Promise<T[]> {
  const results: T[] = new Array(tasks.length)
  let next = 0
  let failure: { error: unknown } | undefined
  const worker = async () => {
    while (next < tasks.length && failure === undefined) {
      const i = next++
      try {
        results[i] = await (tasks[i] as () => Promise<T>)()
      } catch (error) {
        failure ??= { error }
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker))
  if (failure !== undefined) throw failure.error
  return results
}
