// Everything measured at one N: each read kind (answers checked against the floor, warmed up,
// then as many alternating app/floor pairs as fit a time budget), the reference cost of reading
// every document (up to READ_ALL_MAX), the size of a slot index entry and of a document, and the
// write kinds.
import { INDEX, slotIndex } from '../lib/table.js'
import type { CapacityMeter } from './capacity.js'
import { keysBytes } from '../lib/storage/item-size.js'
import { measurePair, sample, summarize, type Pair, type Sample } from './measure.js'
import type { KindResult, SizeResult } from './results.js'
import { capacityLine } from './capacity-report.js'
import { filterScenarios } from './filter-scenarios.js'
import { totalOf, type BenchContext, type Scenario } from './requests.js'
import { deleteAuthorScenario, relationScenarios } from './relations.js'
import { adminPageScenarios } from './admin-pages.js'
import { readScenarios, writeScenarios } from './scenarios.js'

export interface SuiteSettings {
  /** Time for the measured pairs of one read kind; slow kinds get at least `minReads` pairs. */
  readonly readBudgetMs: number
  readonly minReads: number
  readonly maxReads: number
  /** Untimed repetitions of every write kind before its measured ones. */
  readonly warmUpPairs: number
  /** How long every read kind runs untimed before it is measured (at least one pair). */
  readonly warmUpMs: number
  /** Measured repetitions of every write kind (after `warmUpPairs` untimed ones). */
  readonly writeReps: number
  /** Read scenarios only (no writes) at this N and above, to keep the largest size within minutes. */
  readonly readsOnlyFrom: number
  /** Measures only the kinds it accepts (and reads every document only if it accepts `read-all`); all when absent. */
  readonly only?: (kind: string) => boolean
}

/**
 * The floor's answer as the app's ends: a Response the bench reads as text (app.request), so both
 * sides include sending their answer and neither is charged the other's client work.
 */
function floorOf(scenario: Scenario): (i: number) => Promise<string> {
  if (scenario.floorResponds === true) return scenario.floor
  return async (i) => new Response(await scenario.floor(i), { headers: { 'Content-Type': 'application/json' } }).text()
}

/** Reading every document is measured up to this N; past it, its cost is N times the cost per document. */
const READ_ALL_MAX = 10_000
/** Entries sampled for the average size of a slot index entry and of a document. */
const SIZE_SAMPLE = 1000

/**
 * Untimed pairs before a read kind is measured: the first checks that the app and the floor gave
 * the same answer; more follow for `warmUpMs`, so that the kind is timed with both V8's and
 * DynamoDB Local's JIT warm, as an instance serving traffic is (cold starts are measured apart).
 * Returns the next repetition and the mean time of a pair, to size the measured run.
 */
async function warmUp(meter: CapacityMeter, scenario: Scenario, settings: SuiteSettings): Promise<{ next: number; pairMs: number; total: number | undefined; model: KindResult['model'] }> {
  await scenario.prepare?.()
  const started = performance.now()
  const first = await measurePair(meter, scenario.app, floorOf(scenario), 0, 1)
  scenario.check?.(first.app[0]!.value, first.floor[0]!.value)
  const total = totalOf(first.floor[0]!.value)
  const samples: Sample<string>[] = [...first.app, ...first.floor]
  let next = 1
  while (performance.now() - started < settings.warmUpMs) {
    const pair = await measurePair(meter, scenario.app, floorOf(scenario), next, next + 1)
    samples.push(...pair.app, ...pair.floor)
    next += 1
  }
  return { next, pairMs: (2 * samples.reduce((sum, s) => sum + s.ms, 0)) / samples.length, total, model: modelOf(first) }
}

/** The modelled capacity of a pair's repetition 0, when the meter has a probe. */
function modelOf(pair: Pair): KindResult['model'] {
  const app = pair.app[0]?.spent.model
  return app === undefined ? undefined : { app, ...(pair.floor[0]?.spent.model === undefined ? {} : { floor: pair.floor[0].spent.model }) }
}

/** One read kind: warmed up and checked, then as many alternating pairs as fit the time budget. */
export async function measureRead(meter: CapacityMeter, scenario: Scenario, settings: SuiteSettings): Promise<KindResult> {
  const { next, pairMs, total, model } = await warmUp(meter, scenario, settings)
  const reps = Math.max(settings.minReads, Math.min(settings.maxReads, Math.floor(settings.readBudgetMs / pairMs)))
  const pair = await measurePair(meter, scenario.app, floorOf(scenario), next, next + reps)
  return {
    kind: scenario.kind, label: scenario.label, write: false, app: summarize(pair.app), floor: summarize(pair.floor),
    ...(total === undefined ? {} : { total }),
    ...(model === undefined ? {} : { model }),
  }
}

/** Write kinds in order, the same repetitions each (the first `warmUpPairs` untimed), then their clean-up. */
export async function measureWrites(meter: CapacityMeter, { scenarios, cleanUp }: { scenarios: Scenario[]; cleanUp(): Promise<void> }, settings: SuiteSettings): Promise<KindResult[]> {
  // Nothing written, nothing to clean up (a focused run without the write kinds, see run.ts).
  if (scenarios.length === 0) return []
  const results: KindResult[] = []
  for (const scenario of scenarios) {
    const pair = await measurePair(meter, scenario.app, floorOf(scenario), 0, settings.warmUpPairs + settings.writeReps)
    const kept = (samples: Sample<string>[]) => samples.slice(settings.warmUpPairs)
    const model = modelOf(pair)
    results.push({ kind: scenario.kind, label: scenario.label, write: true, app: summarize(kept(pair.app)), floor: summarize(kept(pair.floor)), ...(model === undefined ? {} : { model }) })
  }
  await cleanUp()
  return results
}

/** The write kinds measured at every N: the draft & publish pair, which only edit seeded documents. */
const DRAFT_WRITES = new Set(['update-draft', 'publish'])

/** Measures every kind on a table holding `ctx.n` versions per locale. */
export async function measureSize(meter: CapacityMeter, ctx: BenchContext, settings: SuiteSettings, seed: number, log: (line: string) => void): Promise<SizeResult> {
  const started = performance.now()
  const kinds: KindResult[] = []
  const only = settings.only ?? (() => true)
  const chosen = (scenarios: Scenario[]) => scenarios.filter((scenario) => only(scenario.kind))
  for (const scenario of chosen([...readScenarios(ctx), ...filterScenarios(ctx), ...relationScenarios(ctx), ...adminPageScenarios(ctx)])) {
    const result = await measureRead(meter, scenario, settings)
    kinds.push(result)
    log(`N=${ctx.n} ${scenario.kind}: ${capacityLine(result)}`)
    log(`N=${ctx.n} ${scenario.kind}: ${result.app.samples} pairs, p50 app ${result.app.p50} ms / floor ${result.floor.p50} ms (${(result.app.p50 / result.floor.p50).toFixed(2)}x; in DynamoDB ${result.app.dbP50} / ${result.floor.dbP50} ms), ${JSON.stringify(result.app.commands)}, ${result.app.calls.median} calls / ${result.app.rcu.median} RCU (floor ${result.floor.calls.median} / ${result.floor.rcu.median})`)
  }
  const readAll: Sample<Record<string, unknown>[]>[] = []
  const readAllStarted = performance.now()
  while (only('read-all') && ctx.n <= READ_ALL_MAX && readAll.length < 3 && (readAll.length === 0 || performance.now() - readAllStarted < 5000)) {
    readAll.push(await sample(meter, () => ctx.floor.queryAll(INDEX.byId, 'en')))
  }
  const documents = await ctx.floor.queryAll(INDEX.byId, 'en', undefined, SIZE_SAMPLE).then((items) => items.slice(0, SIZE_SAMPLE))
  const entries = await ctx.floor.queryAll(slotIndex(0), 'en', undefined, SIZE_SAMPLE).then((items) => items.slice(0, SIZE_SAMPLE))
  if (ctx.n < settings.readsOnlyFrom) {
    const { scenarios, cleanUp } = writeScenarios(ctx, seed)
    kinds.push(...(await measureWrites(meter, { scenarios: chosen(scenarios), cleanUp }, settings)))
    log(`N=${ctx.n} writes measured`)
    for (const k of kinds.filter((k) => k.write)) log(`N=${ctx.n} ${k.kind}: ${capacityLine(k)}`)
  } else {
    // Reads only from here, but for the draft PUT and its publication: they edit seeded documents
    // (the table stays at N), and issue 22 states their cost at N = 100,000.
    const { scenarios, cleanUp } = writeScenarios(ctx, seed)
    kinds.push(...(await measureWrites(meter, { scenarios: chosen(scenarios.filter((scenario) => DRAFT_WRITES.has(scenario.kind))), cleanUp }, settings)))
    log(`N=${ctx.n} draft writes measured`)
    // Last: each repetition deletes an author linked from 1,000 articles (issue 19).
    kinds.push(...(await measureWrites(meter, { scenarios: chosen(deleteAuthorScenario(ctx)), cleanUp: async () => {} }, settings)))
    log(`N=${ctx.n} linked author deletes measured`)
    for (const k of kinds.filter((k) => k.write)) log(`N=${ctx.n} ${k.kind}: ${capacityLine(k)}`)
  }
  return {
    n: ctx.n,
    kinds,
    ...(readAll.length === 0 ? {} : { readAll: summarize(readAll) }),
    entryBytes: keysBytes(entries) / entries.length,
    documentBytes: keysBytes(documents) / documents.length,
    seconds: Number(((performance.now() - started) / 1000).toFixed(1)),
  }
}
