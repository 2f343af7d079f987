// The shape of bench/results/latest.json: what one run measured, and the verdicts on the targets.
import type { ColdResult } from './cold-start.js'
import type { Modelled } from './capacity-probe.js'
import type { Summary } from './measure.js'
import type { WebhookCost } from './webhooks.js'

export interface KindResult {
  readonly kind: string
  readonly label: string
  readonly write: boolean
  readonly app: Summary
  readonly floor: Summary
  /** The total of the first answer (the floor's): for filters, the entries that match. */
  readonly total?: number
  /** Capacity by DynamoDB's rules of the first (untimed) repetition, the app's and the floor's (capacity-probe.ts). */
  readonly model?: { readonly app?: Modelled; readonly floor?: Modelled }
}

export interface SizeResult {
  /** Versions per locale. */
  readonly n: number
  readonly kinds: KindResult[]
  /** Reading every document of the locale (a Query of `byId` to the end), measured up to N = 10,000. */
  readonly readAll?: Summary
  /** Average size of a slot index entry (keys, id, `f` map), as DynamoDB sizes items. */
  readonly entryBytes: number
  /** Average size of a stored version, as DynamoDB sizes items. */
  readonly documentBytes: number
  readonly seconds: number
}

export interface Verdict {
  readonly target: string
  /** What was measured, in words and numbers. */
  readonly measured: string
  /** The measured figure as a ratio to its limit's reference (see `limit`). */
  readonly ratio: number
  readonly limit: string
  readonly pass: boolean
}

export interface BenchResults {
  readonly generatedAt: string
  readonly environment: Record<string, unknown>
  readonly settings: Record<string, unknown>
  readonly sizes: SizeResult[]
  /** Fallback chains (es-MX → es → en) on a table of their own, against plain reads and writes there. */
  readonly fallback: FallbackResult
  readonly coldStarts: ColdResult[]
  /** A write's cost with and without webhooks, and the delay to delivery (bench/webhooks.ts). */
  readonly webhooks?: WebhookCost
  /** Components and media (bench/media-zones.ts): zone pages and cover pages on a table of their own. */
  readonly model?: ModelResult
  readonly targets: Verdict[]
  readonly seconds: number
}

export interface FallbackResult {
  /** Documents (every one in en, every other one in es). */
  readonly n: number
  readonly chain: readonly string[]
  readonly kinds: KindResult[]
}

export interface ModelSize {
  readonly n: number
  readonly kinds: KindResult[]
  /** Average size of a stored version of the type the kinds page through, as DynamoDB sizes items. */
  readonly documentBytes: number
  /** Average size of a stored file document. */
  readonly fileBytes: number
}

export interface ModelResult {
  /** Landing pages (zone of 8 blocks) at each size. */
  readonly zone: ModelSize[]
  /** Articles with a cover at each size. */
  readonly cover: ModelSize[]
}
