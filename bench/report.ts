// Writes a run's results: bench/results/latest.json (everything), latest.md (the tables docs/performance.md
// shows) and capacity.svg (read capacity per request against N, one line per request kind, drawn
// by hand on log-log axes).
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Summary } from './measure.js'
import { capacityTable } from './capacity-report.js'
import type { BenchResults, KindResult, SizeResult } from './results.js'
import type { WebhookCost } from './webhooks.js'

const fmt = (value: number, digits = 2) => (Number.isFinite(value) ? Number(value.toFixed(digits)).toLocaleString('en-US') : '-')
const READ_ALL = 'read every document (reference, no app; N times the cost per document past 10,000)'

/** Every kind measured at any size, in first-seen order. */
function kindsOf(sizes: readonly SizeResult[]): { kind: string; label: string }[] {
  const seen = new Map<string, string>()
  for (const size of sizes) for (const k of size.kinds) if (!seen.has(k.kind)) seen.set(k.kind, k.label)
  return [...seen].map(([kind, label]) => ({ kind, label }))
}

/** RCU of reading every document: measured, or N times the RCU per document of the largest size measured. */
function readAllRcu(sizes: readonly SizeResult[]): number[] {
  const measured = sizes.filter((s) => s.readAll !== undefined).at(-1)
  const perDocument = measured === undefined ? Number.NaN : measured.readAll!.rcu.median / measured.n
  return sizes.map((s) => s.readAll?.rcu.median ?? s.n * perDocument)
}

function kindTable(title: string, kinds: readonly KindResult[], extra: string[] = []): string[] {
  const lat = (s: Summary) => `${fmt(s.p50, 1)} / ${fmt(s.p95, 1)} / ${fmt(s.p99, 1)}`
  const items = (s: Summary) => (s.itemsWritten.median > 0 ? ` (${fmt(s.itemsWritten.median)} items)` : '')
  const cost = (s: Summary) => `${fmt(s.calls.median)} | ${fmt(s.rcu.median)} | ${fmt(s.wcu.median)}${items(s)}`
  const rows = kinds.map((k) =>
    `| ${k.label} | ${cost(k.app)} | ${fmt(k.app.entries.median)} / ${fmt(k.app.fetched.median)} | ${fmt(k.app.lookups.mean, 3)} | ${lat(k.app)} | ${cost(k.floor)} | ${fmt(k.floor.entries.median)} / ${fmt(k.floor.fetched.median)} | ${lat(k.floor)} | ${fmt(k.app.dbP50, 1)} / ${fmt(k.floor.dbP50, 1)} | **${fmt(k.app.p50 / k.floor.p50)}** | ${k.app.samples} |`)
  return [
    title,
    '',
    '| request | calls | RCU | WCU | entries read / items fetched | cached lookups (mean) | app p50 / p95 / p99 ms | floor calls | floor RCU | floor WCU | floor entries / fetched | floor p50 / p95 / p99 ms | in DynamoDB p50 ms, app / floor | p50 app / floor | samples |',
    '|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|',
    ...rows,
    ...extra,
    '',
  ]
}

function sizeTable(size: SizeResult): string[] {
  const readAll = size.readAll === undefined ? [] : [`| ${READ_ALL} | | | | | | | ${fmt(size.readAll.calls.median)} | ${fmt(size.readAll.rcu.median)} | | | ${fmt(size.readAll.p50, 1)} | | | ${size.readAll.samples} |`]
  return kindTable(`### N = ${fmt(size.n)} versions per locale (index entry ${fmt(size.entryBytes, 0)} B, document ${fmt(size.documentBytes, 0)} B)`, size.kinds, readAll)
}

export function markdown(results: BenchResults): string {
  const { sizes, coldStarts, targets, environment, settings, fallback, webhooks, model } = results
  const capacityRows = [...kindsOf(sizes).map((k) => ({ label: k.label, values: sizes.map((s) => s.kinds.find((x) => x.kind === k.kind)?.app.rcu.median ?? Number.NaN) })),
    { label: READ_ALL, values: readAllRcu(sizes) }]
  const bare = coldStarts.find((c) => c.name === 'bare')
  return [
    '# Benchmark results',
    '',
    `Generated ${results.generatedAt} by \`npm run bench\` in ${fmt(results.seconds, 0)} s: ${environment.cpus} x ${environment.cpuModel}, Node ${environment.node}, ` +
      `${environment.dynamodb}; load average ${environment.loadAverageStart} at start, ${environment.loadAverageEnd} at the end.`,
    `Sizes: ${(settings.locales as string[]).join(', ')} up to the size before ${fmt(settings.enOnlyFrom as number)}, en only from there (reads measured on en); at ${fmt(settings.readsOnlyFrom as number)} and above, reads only. ` +
      `The page cache is off (api.rest.pageCache 0) except for the page-cache kind, and list marks are off (api.rest.listMarks 0) except for the kinds that say "list marks on"; api.rest.maxScan ${fmt(settings.maxScan as number)}. ` +
      `Entries read = Query ScannedCount; items fetched = items GetItem and BatchGet returned (the count item included). ` +
    `${sizes.length === 0 ? '' : `A version is about ${fmt(sizes.at(-1)!.documentBytes / 1000, 1)} KB; `}pages hold ${settings.pageSize}. ` +
      `Locale registry, public role and API tokens are cached for ${settings.cacheTtlMs} ms (cacheTtlMs), as in production.`,
    'Calls, RCU and WCU are medians per request, read from the SDK (ReturnConsumedCapacity TOTAL); the floor is the bare DynamoDB calls a minimal handler makes for the same answer, measured in alternation with the app. ' +
      'Cached lookups (GetItems of the locale registry, the public role or an API token when their cache expires) are counted apart, as a mean per request. ' +
      'For the admin pages (issue 21), "app" is the page (GET through the admin function\'s app, signed in) and "floor" the API requests the page makes, made directly through the app with an API token or the admin token, with the page\'s concurrency (bench/admin-pages.ts).',
    'DynamoDB Local caveats: it reports a multi-item TransactWriteItems as far fewer WCU than its items cost (so the items written are shown beside WCU), ' +
      'and it ends an index Query page at 1 MB of base-table items (about 430 here) where DynamoDB ends it at 1 MB of index entries, so sorted and deep reads take more calls on Local than on DynamoDB. ' +
      'Its latencies are loopback latencies (a GetItem in about 1 ms), so fixed per-request overhead weighs more in the ratios than it would against DynamoDB.',
    '',
    '## Targets',
    '',
    '| target | measured | ratio | limit | verdict |',
    '|---|---|--:|---|---|',
    ...targets.map((t) => `| ${t.target} | ${t.measured} | ${fmt(t.ratio, 3)} | ${t.limit} | ${t.pass ? 'pass' : '**miss**'} |`),
    '',
    '## Per request',
    '',
    ...sizes.flatMap(sizeTable),
    ...(model === undefined ? [] : [...model.zone, ...model.cover].flatMap((size) => kindTable(`### ${size.kinds[0]!.label}, own table (bench/model/): N = ${fmt(size.n)}, a version ${fmt(size.documentBytes, 0)} B, a file ${fmt(size.fileBytes, 0)} B; "floor" is the same page without populate`, size.kinds))),
    ...kindTable(`### Fallback chain ${fallback.chain.join(' → ')}, own table: N = ${fmt(fallback.n)} documents in en, every other one in es, none in es-MX`, fallback.kinds),
    '## Capacity by DynamoDB\'s rules (bench/capacity-probe.ts)',
    '',
    'Each kind\'s first, untimed repetition priced from the items and index entries it read and wrote (4 KB read units, half when eventually consistent; 1 KB write units of the larger of the old and new item, twice in a transaction; each index entry at its projected size, a moved key as a delete and a put), beside DynamoDB Local\'s report; the price is on-demand, us-east-1, $0.125 per million read and $0.625 per million write request units. The write floor: the version items written at 1 KB units and one unit per index entry whose key appears or goes (two when it moves).',
    '',
    ...sizes.flatMap(capacityTable),
    '## Read capacity per request (RCU, chart data)',
    '',
    `| request | ${sizes.map((s) => `N=${fmt(s.n)}`).join(' | ')} |`,
    `|---|${sizes.map(() => '--:').join('|')}|`,
    ...capacityRows.map((row) => `| ${row.label} | ${row.values.map((v) => fmt(v)).join(' | ')} |`),
    '',
    '![Read capacity per request against N](capacity.svg)',
    '',
    '## Cold start (import + first request in a fresh node process)',
    '',
    `Bundled with the stack's settings (infra/content-api-stack.ts BUNDLING), run with NODE_OPTIONS=--enable-source-maps as the stack sets it; first request: a REST API proxy event.`,
    '',
    '| function | bundle KB | source map KB | bundle KB, CommonJS first | import ms | first request ms | total ms | total vs bare |',
    '|---|--:|--:|--:|--:|--:|--:|--:|',
    ...coldStarts.map((c) => `| ${c.name} | ${fmt(c.bytes / 1000, 1)} | ${fmt(c.mapBytes / 1000, 1)} | ${fmt(c.mainFirstBytes / 1000, 1)} | ${fmt(c.importMs, 0)} | ${fmt(c.firstRequestMs, 0)} | ${fmt(c.totalMs, 0)} | ${fmt(c.totalMs / (bare?.totalMs ?? Number.NaN))} |`),
    '',
    ...(webhooks === undefined ? [] : webhookSection(webhooks)),
  ].join('\n')
}

function webhookSection(w: WebhookCost): string[] {
  const row = (name: string, side: WebhookCost['off']) => `| ${name} | ${fmt(side.p50, 1)} | ${fmt(side.p99, 1)} | ${fmt(side.calls)} | ${fmt(side.wcu)} |`
  return [
    '## Webhooks (bench/webhooks.ts)',
    '',
    `${fmt(w.writesPerSide, 0)} creates each way, in alternating blocks of 20; "on": a webhook subscribed and npm start's stream consumer delivering in the same process.`,
    '',
    '| creates | p50 ms | p99 ms | DynamoDB calls | WCU reported |',
    '|---|--:|--:|--:|--:|',
    row('webhooks off', w.off),
    row('webhooks on', w.on),
    '',
    `p50 on / off: ${fmt(w.on.p50 / w.off.p50)}. From a write's answer to its delivery at a local receiver: p50 ${fmt(w.delay.p50, 0)} ms, p99 ${fmt(w.delay.p99, 0)} ms (${fmt(w.delay.delivered, 0)} delivered; the consumer polls an idle shard every ${fmt(w.pollMs, 0)} ms).`,
    '',
  ]
}

const COLORS = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e', '#8c564b', '#e377c2', '#17becf', '#bcbd22', '#7f7f7f', '#393b79', '#000000']
const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')

/** Read capacity per request against N on log-log axes; kinds with no reads are listed, not drawn. */
export function capacityChart(sizes: readonly SizeResult[]): string {
  const series = [
    ...kindsOf(sizes).filter((k) => sizes.every((s) => s.kinds.some((x) => x.kind === k.kind && !x.write)))
      .map((k) => ({ label: k.label, dashed: false, values: sizes.map((s) => s.kinds.find((x) => x.kind === k.kind)!.app.rcu.median) })),
    { label: READ_ALL, dashed: true, values: readAllRcu(sizes) },
  ]
  const [width, height] = [1100, 580]
  const [left, right, top, bottom] = [70, 470, 50, 60]
  const plotW = width - left - right
  const plotH = height - top - bottom
  const ns = sizes.map((s) => s.n)
  const positive = series.flatMap((s) => s.values).filter((v) => v > 0)
  // Padded so that points on a power of ten do not sit on the frame.
  const [yLow, yHigh] = [Math.floor(Math.log10(Math.min(...positive)) - 0.2), Math.ceil(Math.log10(Math.max(...positive)) + 0.2)]
  const [xLow, xHigh] = [Math.log10(Math.min(...ns)), Math.log10(Math.max(...ns))]
  const x = (n: number) => left + ((Math.log10(n) - xLow) / (xHigh - xLow || 1)) * plotW
  const y = (v: number) => top + plotH - ((Math.log10(v) - yLow) / (yHigh - yLow || 1)) * plotH
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="12">`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
    `<text x="${left}" y="24" font-size="15" font-weight="bold">Read capacity per request against N (log-log)</text>`,
    `<text x="${left + plotW / 2}" y="${height - 15}" text-anchor="middle">N, versions per locale</text>`,
    `<text transform="translate(18 ${top + plotH / 2}) rotate(-90)" text-anchor="middle">RCU per request (median)</text>`,
  ]
  for (let decade = yLow; decade <= yHigh; decade++) {
    const v = 10 ** decade
    parts.push(`<line x1="${left}" y1="${y(v)}" x2="${left + plotW}" y2="${y(v)}" stroke="#dddddd"/>`,
      `<text x="${left - 8}" y="${y(v) + 4}" text-anchor="end">${fmt(v)}</text>`)
  }
  for (const n of ns) {
    parts.push(`<line x1="${x(n)}" y1="${top}" x2="${x(n)}" y2="${top + plotH}" stroke="#eeeeee"/>`,
      `<text x="${x(n)}" y="${top + plotH + 18}" text-anchor="middle">${fmt(n)}</text>`)
  }
  parts.push(`<rect x="${left}" y="${top}" width="${plotW}" height="${plotH}" fill="none" stroke="#888888"/>`)
  series.forEach((s, i) => {
    const color = COLORS[i % COLORS.length]
    // Earlier lines are drawn wider, so a line hidden under a later one with the same values still shows.
    const stroke = Math.max(2, 7 - 0.5 * i)
    const points = s.values.map((v, j) => [ns[j]!, v] as const).filter(([, v]) => v > 0)
    if (points.length > 1) {
      const path = points.map(([n, v]) => `${x(n).toFixed(1)},${y(v).toFixed(1)}`).join(' ')
      parts.push(`<polyline points="${path}" fill="none" stroke="${color}" stroke-width="${stroke}" stroke-opacity="0.9"${s.dashed ? ' stroke-dasharray="6 4"' : ''}/>`)
    }
    for (const [n, v] of points) parts.push(`<circle cx="${x(n).toFixed(1)}" cy="${y(v).toFixed(1)}" r="3.5" fill="${color}"><title>${escape(s.label)}: ${fmt(v)} RCU at N=${fmt(n)}</title></circle>`)
    const ly = top + 8 + i * 20
    const note = points.length === 0 ? ': 0 RCU, not drawn' : `: ${s.values.map((v) => fmt(v)).join(' / ')}`
    parts.push(`<line x1="${left + plotW + 16}" y1="${ly}" x2="${left + plotW + 40}" y2="${ly}" stroke="${color}" stroke-width="3"${s.dashed ? ' stroke-dasharray="6 4"' : ''}/>`,
      `<text x="${left + plotW + 46}" y="${ly + 4}">${escape(s.label + note)}</text>`)
  })
  parts.push('</svg>', '')
  return parts.join('\n')
}

/** Writes latest.json, latest.md and capacity.svg into `dir`. */
export async function writeResults(dir: string, results: BenchResults): Promise<void> {
  await mkdir(dir, { recursive: true })
  await writeFile(join(dir, 'latest.json'), `${JSON.stringify(results, null, 2)}\n`)
  await writeFile(join(dir, 'latest.md'), markdown(results))
  await writeFile(join(dir, 'capacity.svg'), capacityChart(results.sizes))
}
