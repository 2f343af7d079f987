import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The long process-level files (*.soak.test.ts: restarts of npm start, writers killed with
    // SIGKILL, the load run, an import killed and resumed) run in `npm run test:soak` only, which CI
    // runs after `npm test` (about 265 s of test files fewer: 856 s for `npm test` on 2 cores,
    // 2026-11-29, against 15 to 21 minutes before).
    exclude: process.env.TEST_ROUNDS === 'full' ? ['**/node_modules/**'] : ['**/node_modules/**', 'test/**/*.soak.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    // Hang guards, not time limits: a test on a 2-core CI machine, beside the other worker's heavy
    // files, has run 3-8x slower than alone (full runs of 2026-11-27); what is slow is measured by
    // the bench, never by a timeout.
    // `npm run test:soak` (TEST_ROUNDS=full) runs three times the rounds: three times the guard
    // (hangGuard in test/support/rounds.ts does the same for the tests that set their own).
    testTimeout: process.env.TEST_ROUNDS === 'full' ? 360_000 : 120_000,
    hookTimeout: 180_000,
    // Each worker has a DynamoDB Local of its own (test/support/global-setup.ts); each file works in a table of its own.
    fileParallelism: true,
    maxWorkers: 2,
  },
})
