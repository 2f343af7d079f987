// The README's examples run as written (scripts/check-readme.mjs against `npm start`), and the
// checker fails naming the block that failed.
import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, expect, it } from 'vitest'
import { dynamoEndpoint } from '../support/dynamo-endpoint.js'

const run = promisify(execFile)
const dir = mkdtempSync(join(tmpdir(), 'readme-test-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** Runs the checker on `readme` against the tests' DynamoDB Local; returns exit code and stderr. */
async function check(readme: string): Promise<{ code: number; stderr: string }> {
  try {
    const { stderr } = await run(process.execPath, ['scripts/check-readme.mjs', readme], { env: { ...process.env, DYNAMODB_ENDPOINT: dynamoEndpoint() }, timeout: 120_000, maxBuffer: 16 * 1024 * 1024 })
    return { code: 0, stderr }
  } catch (error) {
    const failed = error as { code: number; stderr: string }
    return { code: failed.code, stderr: failed.stderr }
  }
}

it('runs every example block of README.md', async () => {
  const outcome = await check('README.md')
  expect(outcome.stderr).toMatch(/check-readme: all \d+ example blocks of README.md ran/)
  expect(outcome.code).toBe(0)
}, 120_000)

it('fails naming the block that failed, and runs the blocks in one shell', async () => {
  const readme = join(dir, 'README.md')
  writeFileSync(readme, [
    '# Title', '<!-- examples:start -->', '## First', '```sh', 'N=$(curl -fsS "$BASE/_health" | wc -c)', '```',
    '## Second', '```sh', 'test "$N" -gt 0', 'curl -fsS "$BASE/api/nope"', '```', '<!-- examples:end -->', '```sh', 'false', '```',
  ].join('\n'))
  const outcome = await check(readme)
  expect(outcome.code).toBe(1)
  expect(outcome.stderr).toContain('FAILED at block 2 ("Second", README line 8, its opening fence)')
}, 120_000)
