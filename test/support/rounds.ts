// How many rounds a race test repeats its barrier-held interleaving, or a property test draws
// cases. The barriers make each race certain in every round; further rounds vary what a barrier
// does not hold (which transaction DynamoDB Local takes first, retries, timing) and draw more
// cases. `npm test` runs a third of each full count, at least 2, to keep it short on a
// 2-core machine; `npm run test:soak` (TEST_ROUNDS=full), which CI runs after `npm test`, runs
// the files that use this at their full counts.

/** The rounds (or cases) to run of a test whose full count is `full`. */
export function rounds(full: number): number {
  return process.env.TEST_ROUNDS === 'full' ? full : Math.max(2, Math.ceil(full / 3))
}

/** A test's time limit (a hang guard, never a performance bar) for the rounds it runs: three times
 * `ms` at the full count, which is three times the rounds `npm test` runs. */
export function hangGuard(ms: number): number {
  return process.env.TEST_ROUNDS === 'full' ? ms * 3 : ms
}
