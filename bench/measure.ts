// Sampling: one timed call with what it spent on DynamoDB, and the summary of many (latency
// percentiles; calls and capacity per request as the median, the mean and the maximum).
import type { CapacityMeter, Spent } from './capacity.js'

export interface Sample<T = unknown> {
  readonly ms: number
  readonly spent: Spent
  readonly value: T
}

/** Runs `call` alone (requests are sequential) and reads the meter around it. */
export async function sample<T>(meter: CapacityMeter, call: () => Promise<T>): Promise<Sample<T>> {
  meter.take()
  const started = performance.now()
  const value = await call()
  const ms = performance.now() - started
  return { ms, spent: meter.take(), value }
}

/** The `p`-th percentile (0..100) of sorted values, interpolating between the closest ranks. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN
  const rank = (p / 100) * (sorted.length - 1)
  const low = Math.floor(rank)
  const high = Math.ceil(rank)
  return sorted[low]! + (sorted[high]! - sorted[low]!) * (rank - low)
}

export interface Spread {
  readonly median: number
  readonly mean: number
  readonly max: number
}

export interface Summary {
  readonly samples: number
  readonly p50: number
  readonly p95: number
  readonly p99: number
  readonly mean: number
  /** Median wall time with a DynamoDB call in flight; p50 minus this is time spent outside DynamoDB. */
  readonly dbP50: number
  readonly calls: Spread
  readonly reads: Spread
  readonly rcu: Spread
  readonly wcu: Spread
  readonly itemsWritten: Spread
  /** Entries Query calls read, and documents GetItem/BatchGet returned. */
  readonly entries: Spread
  readonly fetched: Spread
  /** Cached settings lookups per request (mean over the run: one refresh per TTL, shared by the requests). */
  readonly lookups: Spread
  /** DynamoDB commands of the request with the median number of calls. */
  readonly commands: Readonly<Record<string, number>>
}

function spread(values: readonly number[]): Spread {
  const sorted = [...values].sort((a, b) => a - b)
  const mean = values.reduce((sum, value) => sum + value, 0) / values.length
  return { median: percentile(sorted, 50), mean, max: sorted[sorted.length - 1] ?? Number.NaN }
}

const round = (value: number, digits = 2) => Number(value.toFixed(digits))

export function summarize(samples: readonly Sample[]): Summary {
  const ms = samples.map((s) => s.ms).sort((a, b) => a - b)
  const calls = spread(samples.map((s) => s.spent.calls))
  const typical = samples.find((s) => s.spent.calls === calls.median) ?? samples[0]
  const rounded = (s: Spread): Spread => ({ median: round(s.median), mean: round(s.mean), max: round(s.max) })
  return {
    samples: samples.length,
    p50: round(percentile(ms, 50)),
    p95: round(percentile(ms, 95)),
    p99: round(percentile(ms, 99)),
    mean: round(ms.reduce((sum, value) => sum + value, 0) / ms.length),
    dbP50: round(percentile(samples.map((s) => s.spent.dbMs).sort((a, b) => a - b), 50)),
    calls: rounded(calls),
    reads: rounded(spread(samples.map((s) => s.spent.reads))),
    rcu: rounded(spread(samples.map((s) => s.spent.rcu))),
    wcu: rounded(spread(samples.map((s) => s.spent.wcu))),
    itemsWritten: rounded(spread(samples.map((s) => s.spent.itemsWritten))),
    entries: rounded(spread(samples.map((s) => s.spent.entries))),
    fetched: rounded(spread(samples.map((s) => s.spent.fetched))),
    lookups: rounded(spread(samples.map((s) => s.spent.lookups))),
    commands: typical?.spent.commands ?? {},
  }
}

/** What one request kind measured: the app's samples and the floor's, taken in alternation. */
export interface Pair {
  readonly app: Sample<string>[]
  readonly floor: Sample<string>[]
}

/**
 * Runs repetitions `from` to `to - 1` of a kind, the app and the floor in alternating order
 * (so drift in the machine's speed falls on both), each request alone.
 */
export async function measurePair(
  meter: CapacityMeter,
  app: (i: number) => Promise<string>,
  floor: (i: number) => Promise<string>,
  from: number,
  to: number,
): Promise<Pair> {
  const pair: Pair = { app: [], floor: [] }
  for (let i = from; i < to; i++) {
    // Repetition 0 (untimed: a warm-up or the answers' check) is priced by DynamoDB's rules too.
    if (meter.probe !== undefined) meter.probe.active = i === 0
    if (i % 2 === 0) {
      pair.app.push(await sample(meter, () => app(i)))
      pair.floor.push(await sample(meter, () => floor(i)))
    } else {
      pair.floor.push(await sample(meter, () => floor(i)))
      pair.app.push(await sample(meter, () => app(i)))
    }
  }
  if (meter.probe !== undefined) meter.probe.active = false
  return pair
}
