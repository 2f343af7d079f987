import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Each worker has a DynamoDB Local of its own (test/support/global-setup.ts); each file works in a table of its own.
    fileParallelism: true,
    maxWorkers: 2,
  },
})
