// Everything measured at one N: each read kind (answers checked against the floor, warmed up,
// then as many alternating app/floor pairs as fit a time budget), the reference cost of reading
// every document, the size of the sort-key entries, and the write kinds.
import { INDEX } from '../lib/table.js'
import type { CapacityMeter } from './capacity.js'
import { keysBytes } from './item-size.js'
import { measurePair, sample, summarize, type Sample } from './measure.js'
import type { KindResult, SizeResult } from './results.js'
import { readScenarios, writeScenarios, type BenchContext, type Scenario } from './scenarios.js'

export interface SuiteSettings {
  /** Time for the measured pairs of one read kind; slow kinds get at least `minReads` pairs. */
  readonly readBudgetMs: number
  readonly minReads: number
  readonly maxReads: number
  /** Untimed warm-up: up to this many pairs, or this long, whichever ends first (at least the checked pair). */
  readonly warmUpPairs: number
  readonly warmUpMs: number
  /** Measured repetitions of every write kind (after `warmUpPairs` untimed ones). */
  readonly writeReps: number
}

/**
 * Untimed pairs before a read kind is measured: the first checks that the app and the floor gave
 * the same answer; more follow until `warmUpPairs` or `warmUpMs` is reached. Returns the next
 * repetition and the mean time of a pair, to size the measured run.
 */
async function warmUp(meter: CapacityMeter, scenario: Scenario, settings: SuiteSettings): Promise<{ next: number; pairMs: number }> {
  const started = performance.now()
  const first = await measurePair(meter, scenario.app, scenario.floor, 0, 1)
  scenario.check?.(first.app[0]!.value, first.floor[0]!.value)
  const samples: Sample<string>[] = [...first.app, ...first.floor]
  let next = 1
  while (next < settings.warmUpPairs && performance.now() - started < settings.warmUpMs) {
    const pair = await measurePair(meter, scenario.app, scenario.floor, next, next + 1)
    samples.push(...pair.app, ...pair.floor)
    next += 1
  }
  return { next, pairMs: (2 * samples.reduce((sum, s) => sum + s.ms, 0)) / samples.length }
}

async function measureRead(meter: CapacityMeter, scenario: Scenario, settings: SuiteSettings): Promise<KindResult> {
  const { next, pairMs } = await warmUp(meter, scenario, settings)
  const reps = Math.max(settings.minReads, Math.min(settings.maxReads, Math.floor(settings.readBudgetMs / pairMs)))
  const pair = await measurePair(meter, scenario.app, scenario.floor, next, next + reps)
  return { kind: scenario.kind, label: scenario.label, write: false, app: summarize(pair.app), floor: summarize(pair.floor) }
}

async function measureWrites(meter: CapacityMeter, ctx: BenchContext, settings: SuiteSettings, seed: number): Promise<KindResult[]> {
  const { scenarios, cleanUp } = writeScenarios(ctx, seed)
  const results: KindResult[] = []
  for (const scenario of scenarios) {
    const pair = await measurePair(meter, scenario.app, scenario.floor, 0, settings.warmUpPairs + settings.writeReps)
    const kept = (samples: Sample<string>[]) => samples.slice(settings.warmUpPairs)
    results.push({ kind: scenario.kind, label: scenario.label, write: true, app: summarize(kept(pair.app)), floor: summarize(kept(pair.floor)) })
  }
  await cleanUp()
  return results
}

/** Measures every kind on a table holding `ctx.n` versions per locale. */
export async function measureSize(meter: CapacityMeter, ctx: BenchContext, settings: SuiteSettings, seed: number, log: (line: string) => void): Promise<SizeResult> {
  const started = performance.now()
  const kinds: KindResult[] = []
  for (const scenario of readScenarios(ctx)) {
    const result = await measureRead(meter, scenario, settings)
    kinds.push(result)
    log(`N=${ctx.n} ${scenario.kind}: ${result.app.samples} pairs, p50 app ${result.app.p50} ms / floor ${result.floor.p50} ms, ${result.app.rcu.median} RCU`)
  }
  const readAll: Sample<Record<string, unknown>[]>[] = []
  const readAllStarted = performance.now()
  while (readAll.length < 3 && (readAll.length === 0 || performance.now() - readAllStarted < 5000)) {
    readAll.push(await sample(meter, () => ctx.floor.queryAll(INDEX.byId, 'en')))
  }
  const documents = readAll[0]!.value
  const sortKeysBytes = keysBytes(await ctx.floor.queryAll(INDEX.sortKeys, 'en'))
  kinds.push(...(await measureWrites(meter, ctx, settings, seed)))
  log(`N=${ctx.n} writes measured`)
  return {
    n: ctx.n,
    kinds,
    readAll: summarize(readAll),
    sortKeysBytes,
    documentBytes: keysBytes(documents) / documents.length,
    seconds: Number(((performance.now() - started) / 1000).toFixed(1)),
  }
}
