#!/usr/bin/env node
// `npm run test:soak [-- vitest options]`: the race and property tests at their full rounds, and the
// long process-level files `npm test` leaves out (*.soak.test.ts). Runs vitest with TEST_ROUNDS=full
// on the test files that import test/support/rounds.js (the ones whose rounds `npm test` cuts to a
// third) and on those; exits with vitest's code. Plain Node, so it runs where npm
// scripts do not get a POSIX shell.
import { spawnSync } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

/** Test files under `dir` that import the rounds helper, or that only the soak runs. */
function soakFiles(dir) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.test.ts'))
    .map((entry) => join(entry.parentPath ?? entry.path, entry.name))
    .filter((file) => file.endsWith('.soak.test.ts') || readFileSync(file, 'utf8').includes('support/rounds.js'))
    .sort()
}

const files = soakFiles('test')
if (files.length === 0) {
  console.error('test:soak found no test file importing test/support/rounds.js')
  process.exit(1)
}
const vitest = join('node_modules', 'vitest', 'vitest.mjs')
const run = spawnSync(process.execPath, [vitest, 'run', ...files, ...process.argv.slice(2)], { stdio: 'inherit', env: { ...process.env, TEST_ROUNDS: 'full' } })
process.exit(run.status ?? 1)
