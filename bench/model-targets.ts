// The targets of the components and media kinds (bench/media-zones.ts; issues 34 and 35): a zone
// page with populate=* makes the calls of the page without it and reads capacity in proportion to
// the bytes of its versions; a cover page makes one batched read more than the page without.
import { readUnits } from './capacity-model.js'
import { PAGE } from './requests.js'
import type { ModelResult, ModelSize, Verdict } from './results.js'

const fmt = (value: number, digits = 2) => Number(value.toFixed(digits)).toLocaleString('en-US')
const at = (sizes: readonly ModelSize[]) => sizes.map((size) => fmt(size.n)).join(' / ')

/**
 * Zone pages: the same calls as the page without populate at every N, and the capacity of one
 * eventually consistent Query of PAGE versions of the measured average size (4 KB units) plus
 * the count item (half a unit), within 0.9 to 1.2.
 */
function zoneTargets(sizes: readonly ModelSize[]): Verdict[] {
  const kinds = sizes.map((size) => ({ size, k: size.kinds[0]! }))
  const { size: large, k } = kinds.at(-1)!
  const sameCalls = kinds.every(({ k }) => k.app.calls.median === k.floor.calls.median)
  const modelled = readUnits(PAGE * large.documentBytes, 'eventual') + 0.5
  const ratio = k.app.rcu.median / modelled
  const populateShare = k.app.rcu.median / k.floor.rcu.median
  return [
    {
      target: `${k.label}: the DynamoDB calls of the page without populate`,
      measured: `${kinds.map(({ k }) => `${fmt(k.app.calls.median)} vs ${fmt(k.floor.calls.median)}`).join(' / ')} calls at N=${at(sizes)} (${Object.entries(k.app.commands).map(([c, n]) => `${n} ${c.replace('Command', '')}`).join(', ')})`,
      ratio: k.app.calls.median / k.floor.calls.median, limit: '= 1 at every N', pass: sameCalls,
    },
    {
      target: `${k.label}: read capacity in proportion to its versions' bytes, N=${fmt(large.n)}`,
      measured: `${fmt(k.app.rcu.median)} RCU (${fmt(populateShare)}x the page without populate) vs ${fmt(modelled)} RCU for ${PAGE} versions of ${fmt(large.documentBytes, 0)} B in one eventually consistent Query and the count item; ` +
        `${kinds.map(({ k }) => fmt(k.app.rcu.median)).join(' / ')} RCU at N=${at(sizes)}`,
      ratio, limit: '0.9 to 1.2', pass: ratio >= 0.9 && ratio <= 1.2 && populateShare <= 1.05,
    },
  ]
}

/**
 * Cover pages: at most one call more than the page without populate, a BatchGet of the page's files, and
 * at most the capacity of reading each of its (at most PAGE) files once.
 */
function coverTargets(sizes: readonly ModelSize[]): Verdict[] {
  const { size: large, k } = { size: sizes.at(-1)!, k: sizes.at(-1)!.kinds[0]! }
  const extraCalls = k.app.calls.median - k.floor.calls.median
  // The page's count item may join the files' batch: every call the app adds is a BatchGet.
  const others = (commands: Readonly<Record<string, number>>) => Object.entries(commands).filter(([c]) => c !== 'BatchGetItemCommand').reduce((sum, [, n]) => sum + n, 0)
  const batchedOnly = others(k.app.commands) <= others(k.floor.commands)
  const extraRcu = k.app.rcu.median - k.floor.rcu.median
  const limit = PAGE * readUnits(large.fileBytes, 'strong')
  return [{
    target: `${k.label}: one batched read more than the page without populate, N=${fmt(large.n)}`,
    measured: `${fmt(k.app.calls.median)} vs ${fmt(k.floor.calls.median)} calls (${Object.entries(k.app.commands).map(([c, n]) => `${n} ${c.replace('Command', '')}`).join(', ')}); ` +
      `${fmt(extraRcu)} RCU more (${fmt(k.app.rcu.median)} vs ${fmt(k.floor.rcu.median)}), at most ${fmt(limit)} for ${PAGE} files of ${fmt(large.fileBytes, 0)} B; ` +
      `${sizes.map((size) => `${fmt(size.kinds[0]!.app.calls.median)} calls, ${fmt(size.kinds[0]!.app.rcu.median)} RCU`).join(' / ')} at N=${at(sizes)}`,
    // At most one: when the page's count item joins the files' BatchGet (it may, since populated
    // documents are kept, 2026-11-28), the page's own GetItem goes and it makes as many calls.
    ratio: extraCalls, limit: '<= 1 call more (a BatchGet), <= 1 read unit per file', pass: extraCalls <= 1 && batchedOnly && extraRcu <= limit,
  }]
}

export function modelTargets(model: ModelResult): Verdict[] {
  return [...(model.zone.length === 0 ? [] : zoneTargets(model.zone)), ...(model.cover.length === 0 ? [] : coverTargets(model.cover))]
}
