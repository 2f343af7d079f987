// How many rounds a race test repeats its barrier-held interleaving, or a property test draws
// cases. The barriers make each race certain in every round; further rounds vary what a barrier
// does not hold (which transaction DynamoDB Local takes first, retries, timing) and draw more
// cases. `npm test` runs a third of each full count, at least 2, to keep it near 7 minutes on a
// 2-core machine; `npm run test:soak` (TEST_ROUNDS=full), which CI runs after `npm test`, runs
// the files that use this at their full counts.

/** The rounds (or cases) to run of a test whose full count is `full`. */
export function rounds(full: number): number {
  return process.env.TEST_ROUNDS === 'full' ? full : Math.max(2, Math.ceil(full / 3))
}
