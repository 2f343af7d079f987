// What every DynamoDB call costs, read from the SDK itself: a middleware on the client's stack asks
// for ReturnConsumedCapacity TOTAL on every data command and adds up the ConsumedCapacity DynamoDB
// answers (one object for single-item calls and Query, an array for batches and transactions).
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb'
import { META } from '../lib/table.js'
import type { CapacityProbe, Modelled } from './capacity-probe.js'

/** Calls and capacity units spent since the last reset. */
export interface Spent {
  /** Calls for the request itself; settings lookups are counted apart, in `lookups`. */
  readonly calls: number
  readonly reads: number
  readonly writes: number
  /** Read capacity units (eventually consistent reads count half, as DynamoDB bills them). */
  readonly rcu: number
  /**
   * Write capacity units, index writes included, as DynamoDB Local reports them: for a
   * TransactWriteItems it reports far less than the sum of its items, so see `itemsWritten`.
   */
  readonly wcu: number
  /** Items put, updated or deleted (each item of a batch or transaction counts), from the requests. */
  readonly itemsWritten: number
  /** Index or table entries Query calls read (ScannedCount): what a list walks. */
  readonly entries: number
  /** Items BatchGet and GetItem calls returned: the documents fetched. */
  readonly fetched: number
  /** Calls per command name, e.g. `{ QueryCommand: 3, BatchGetItemCommand: 1 }`. */
  readonly commands: Readonly<Record<string, number>>
  /** Wall time with at least one DynamoDB call in flight, in ms. */
  readonly dbMs: number
  /** GetItems of the locale registry, the public role or an API token: the cached lookups. */
  readonly lookups: number
  readonly lookupRcu: number
  /** Capacity by DynamoDB's rules, when the meter has a probe (meaningful on the repetitions it was switched on for). */
  readonly model?: Modelled
}

/** Partition keys of the settings items the locale and access services read through their caches. */
const LOOKUP_PARTITIONS: ReadonlySet<string> = new Set([META.config, META.token, META.index])

const READS = new Set(['GetItemCommand', 'QueryCommand', 'BatchGetItemCommand', 'TransactGetItemsCommand', 'ScanCommand'])
const WRITES = new Set(['PutItemCommand', 'UpdateItemCommand', 'DeleteItemCommand', 'BatchWriteItemCommand', 'TransactWriteItemsCommand'])

type ConsumedCapacity = { CapacityUnits?: number }
type Output = { ConsumedCapacity?: ConsumedCapacity | ConsumedCapacity[]; ScannedCount?: number; Item?: unknown; Responses?: Record<string, unknown[]> }

/** Items a write request puts, updates or deletes (condition checks write nothing). */
function itemsOf(command: string, input: Record<string, unknown>): number {
  if (command === 'TransactWriteItemsCommand') {
    return ((input.TransactItems ?? []) as Record<string, unknown>[]).filter((item) => item.Put ?? item.Update ?? item.Delete).length
  }
  if (command === 'BatchWriteItemCommand') {
    return Object.values((input.RequestItems ?? {}) as Record<string, unknown[]>).reduce((sum, requests) => sum + requests.length, 0)
  }
  return WRITES.has(command) ? 1 : 0
}

function unitsOf(consumed: ConsumedCapacity | ConsumedCapacity[] | undefined): number {
  if (consumed === undefined) return 0
  const list = Array.isArray(consumed) ? consumed : [consumed]
  return list.reduce((sum, entry) => sum + (entry.CapacityUnits ?? 0), 0)
}

/** Counts what a client spends; one meter per client, read between sequential requests. */
export class CapacityMeter {
  private spent = { calls: 0, reads: 0, writes: 0, rcu: 0, wcu: 0, entries: 0, fetched: 0, commands: {} as Record<string, number>, dbMs: 0, itemsWritten: 0, lookups: 0, lookupRcu: 0 }
  private inFlight = 0
  private busySince = 0

  /** Installs the counting middleware on `db` (the document client shares its stack with the base client). */
  constructor(db: DynamoDBDocumentClient, readonly probe?: CapacityProbe) {
    db.middlewareStack.add(
      (next, context) => async (args) => {
        const command = context.commandName ?? 'unknown'
        const data = READS.has(command) || WRITES.has(command)
        if (!data) return next(args)
        const input = args.input as Record<string, unknown>
        input.ReturnConsumedCapacity = 'TOTAL'
        this.spent.itemsWritten += itemsOf(command, input)
        const lookup = command === 'GetItemCommand' && LOOKUP_PARTITIONS.has(String((input.Key as Record<string, unknown> | undefined)?.documentId))
        let units = 0
        let output: Output = {}
        if (this.inFlight++ === 0) this.busySince = performance.now()
        try {
          const result = await next(args)
          output = result.output as Output
          units = unitsOf(output.ConsumedCapacity)
          return result
        } finally {
          if (--this.inFlight === 0) this.spent.dbMs += performance.now() - this.busySince
          // A failed call (a cancelled transaction, a throttle) is still a call.
          if (lookup) {
            this.spent.lookups += 1
            this.spent.lookupRcu += units
          } else this.record(command, units, output)
        }
      },
      { step: 'initialize', name: 'benchCapacityMeter', override: true },
    )
  }

  private record(command: string, units: number, output: Output): void {
    const s = this.spent
    s.calls += 1
    s.entries += output.ScannedCount ?? 0
    s.fetched += command === 'GetItemCommand' ? (output.Item === undefined ? 0 : 1) : Object.values(output.Responses ?? {}).reduce((sum, items) => sum + items.length, 0)
    s.commands[command] = (s.commands[command] ?? 0) + 1
    if (READS.has(command)) {
      s.reads += 1
      s.rcu += units
    } else {
      s.writes += 1
      s.wcu += units
    }
  }

  /** What was spent since the last reset, and starts counting afresh. */
  take(): Spent {
    const taken: Spent = { ...this.spent, ...(this.probe === undefined ? {} : { model: this.probe.take() }) }
    this.spent = { calls: 0, reads: 0, writes: 0, rcu: 0, wcu: 0, entries: 0, fetched: 0, commands: {}, dbMs: 0, itemsWritten: 0, lookups: 0, lookupRcu: 0 }
    return taken
  }
}
