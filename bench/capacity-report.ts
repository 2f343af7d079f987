// The capacity table of a run: for each kind, capacity by DynamoDB's rules (capacity-probe.ts)
// beside what DynamoDB Local reported, the on-demand price of a million such requests, and for the
// writes their floor and the alternative index layouts.
import type { KindResult, SizeResult } from './results.js'

/**
 * On-demand prices, us-east-1, Standard table class, in USD per million request units (since the
 * cut of 2024-11-01; aws.amazon.com/dynamodb/pricing/on-demand, as quoted 2026 by pages checked
 * on 2026-10-04): a read request unit and a write request unit.
 */
export const PRICE = { region: 'us-east-1', rru: 0.125, wru: 0.625 } as const

/** Dollars per million requests of `rcu` read and `wcu` write units each. */
export function dollarsPerMillion(rcu: number, wcu: number): number {
  return rcu * PRICE.rru + wcu * PRICE.wru
}

/** The alternative layouts the probe prices, by name, in the order the table shows them. */
export const LAYOUT_NAMES = ['slots-keys', 'slots-keys+publication-keys'] as const

const fmt = (value: number | undefined, digits = 2) => (value === undefined || !Number.isFinite(value) ? '-' : Number(value.toFixed(digits)).toLocaleString('en-US'))

function row(k: KindResult): string {
  const m = k.model?.app
  if (m === undefined) return `| ${k.label} | - | ${fmt(k.app.rcu.median)} | - | ${fmt(k.app.wcu.median)} | - | - | - | - | - |`
  const floor = k.write ? `${fmt(m.floorWcu)} | **${fmt(m.wcu / m.floorWcu)}**` : '| '
  const layouts = LAYOUT_NAMES.map((name) => (k.write ? `${fmt(m.layouts[name])} (${fmt((m.layouts[name] ?? Number.NaN) / m.floorWcu)})` : '')).join(' | ')
  return `| ${k.label} | ${fmt(m.rcu)} | ${fmt(k.app.rcu.median)} | ${fmt(m.wcu)} (${fmt(m.tableWcu)} + ${fmt(m.indexWcu)}) | ${fmt(k.app.wcu.median)} | $${fmt(dollarsPerMillion(m.rcu, m.wcu))} | ${floor} | ${layouts} |`
}

/** The markdown table of one size. */
export function capacityTable(size: SizeResult): string[] {
  const kinds = size.kinds.filter((k) => k.model?.app !== undefined)
  if (kinds.length === 0) return []
  return [
    `### Capacity by DynamoDB's rules, N = ${fmt(size.n)}`,
    '',
    '| request | modelled RCU | reported RCU (median) | modelled WCU (items + index entries) | reported WCU (median) | on-demand $ per million requests | write floor WCU | modelled / floor | WCU, slot indexes keys only (/ floor) | WCU, slot and byPublication indexes keys only (/ floor) |',
    '|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|',
    ...kinds.map(row),
    '',
  ]
}

/** One log line per kind. */
export function capacityLine(k: KindResult): string {
  const m = k.model?.app
  if (m === undefined) return ''
  const write = k.write ? `; floor ${fmt(m.floorWcu)} WCU, ${fmt(m.wcu / m.floorWcu)}x; ${LAYOUT_NAMES.map((name) => `${name} ${fmt(m.layouts[name])}`).join(', ')}` : ''
  return `modelled ${fmt(m.rcu)} RCU / ${fmt(m.wcu)} WCU (${fmt(m.tableWcu)} items + ${fmt(m.indexWcu)} index), reported ${fmt(k.app.rcu.median)} / ${fmt(k.app.wcu.median)}, $${fmt(dollarsPerMillion(m.rcu, m.wcu))} per million${write}`
}
