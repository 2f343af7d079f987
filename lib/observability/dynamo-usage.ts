// What each request spends in DynamoDB: an SDK middleware asks for ReturnConsumedCapacity TOTAL
// on every data command and adds calls, capacity and failures to the usage of the request in
// whose async context the call was made (AsyncLocalStorage). Calls outside a request are ignored.
import { AsyncLocalStorage } from 'node:async_hooks'
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb'

/** DynamoDB calls of one request, their consumed capacity units, and why the failed ones failed. */
export interface DynamoUsage {
  calls: number
  rcu: number
  wcu: number
  /** `Command: name/code: message` of each failed call (retries are inside one call). */
  failures: string[]
  /** Each call (the first few): its command, capacity units and milliseconds, for the DEBUG line. */
  trace: { command: string; units: number; ms: number }[]
}

const READS = new Set(['GetItemCommand', 'QueryCommand', 'BatchGetItemCommand', 'TransactGetItemsCommand', 'ScanCommand'])
const WRITES = new Set(['PutItemCommand', 'UpdateItemCommand', 'DeleteItemCommand', 'BatchWriteItemCommand', 'TransactWriteItemsCommand'])
const MAX_FAILURES = 5
const MAX_TRACE = 25

const current = new AsyncLocalStorage<DynamoUsage>()

/** A usage with nothing spent. */
export function emptyUsage(): DynamoUsage {
  return { calls: 0, rcu: 0, wcu: 0, failures: [], trace: [] }
}

/** Runs `work` with every DynamoDB call it makes counted in `usage`. */
export function countingUsage<T>(usage: DynamoUsage, work: () => Promise<T>): Promise<T> {
  return current.run(usage, work)
}

type Consumed = { CapacityUnits?: number } | { CapacityUnits?: number }[] | undefined

function unitsOf(consumed: Consumed): number {
  const list = consumed === undefined ? [] : Array.isArray(consumed) ? consumed : [consumed]
  return list.reduce((sum, entry) => sum + (entry.CapacityUnits ?? 0), 0)
}

/** Why a call failed, in one line: the SDK error's name, socket code and message. */
function failureOf(command: string, error: unknown): string {
  const { name, code, message } = (error ?? {}) as { name?: string; code?: string; message?: string }
  return `${command}: ${[name, code].filter(Boolean).join('/')}: ${String(message ?? error).slice(0, 300)}`
}

/** Installs the metering middleware on a client (the document client shares the base client's stack); returns it. */
export function meterDynamoUsage(db: DynamoDBDocumentClient): DynamoDBDocumentClient {
  db.middlewareStack.add(
    (next, context) => async (args) => {
      const command = context.commandName ?? ''
      const read = READS.has(command)
      if (!read && !WRITES.has(command)) return next(args)
      ;(args.input as Record<string, unknown>).ReturnConsumedCapacity = 'TOTAL'
      const usage = current.getStore()
      if (usage === undefined) return next(args)
      usage.calls += 1
      const started = performance.now()
      try {
        const result = await next(args)
        const units = unitsOf((result.output as { ConsumedCapacity?: Consumed }).ConsumedCapacity)
        if (read) usage.rcu += units
        else usage.wcu += units
        if (usage.trace.length < MAX_TRACE) usage.trace.push({ command: command.replace(/Command$/, ''), units, ms: Math.round((performance.now() - started) * 10) / 10 })
        return result
      } catch (error) {
        if (usage.failures.length < MAX_FAILURES) usage.failures.push(failureOf(command, error))
        throw error
      }
    },
    { step: 'initialize', name: 'requestDynamoUsage', override: true },
  )
  return db
}
