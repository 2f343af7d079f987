// The documentation's examples run as written and its links resolve (scripts/check-readme.mjs
// against `npm start`, on README.md and every page of docs/), and the checker fails naming the page
// and line of a failing block or a broken link.
import { execFile } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, expect, it } from 'vitest'
import { dynamoEndpoint } from '../support/dynamo-endpoint.js'

const run = promisify(execFile)
const dir = mkdtempSync(join(tmpdir(), 'readme-test-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** Runs the checker with `args` against the tests' DynamoDB Local; returns exit code and stderr. */
async function check(args: string[], timeout = 120_000): Promise<{ code: number; stderr: string }> {
  try {
    const { stderr } = await run(process.execPath, ['scripts/check-readme.mjs', ...args], { env: { ...process.env, DYNAMODB_ENDPOINT: dynamoEndpoint() }, timeout, maxBuffer: 16 * 1024 * 1024 })
    return { code: 0, stderr }
  } catch (error) {
    const failed = error as { code: number; stderr: string }
    return { code: failed.code, stderr: failed.stderr }
  }
}

/** Writes `pages` (name → lines) into a fresh folder of their own; returns its path. */
function site(name: string, pages: Record<string, string[]>): string {
  const root = join(dir, name)
  for (const [page, lines] of Object.entries(pages)) {
    mkdirSync(join(root, page, '..'), { recursive: true })
    writeFileSync(join(root, page), lines.join('\n'))
  }
  return root
}

it('runs every example block of README.md and docs/, and finds no broken link', async () => {
  const outcome = await check([], 600_000)
  expect(outcome.stderr).toMatch(/check-readme: \d+ pages, their links resolve, and all \d+ example blocks ran/)
  expect(outcome.code).toBe(0)
}, 600_000)

it('fails naming the page and line of the block that failed, and runs a page\'s blocks in one shell', async () => {
  const root = site('failing-block', {
    'README.md': [
      '# Title', '<!-- examples:start -->', '## First', '```sh', 'N=$(curl -fsS "$BASE/_health" | wc -c)', '```',
      '## Second', '```sh', 'test "$N" -gt 0', 'curl -fsS "$BASE/api/nope"', '```', '<!-- examples:end -->', '```sh', 'false', '```',
    ],
  })
  const outcome = await check(['--root', root, join(root, 'README.md')])
  expect(outcome.code).toBe(1)
  expect(outcome.stderr).toContain('README.md:8: example block 2 ("Second") failed')
}, 120_000)

it('gives each page a fresh table: a page never depends on what another page wrote', async () => {
  const page = (name: string) => [
    `# ${name}`, '<!-- examples:start -->', '```sh',
    `TOKEN=$(node -p 'require(process.env.DATA_DIR + "/secrets.json").adminToken')`,
    // A second POST of one locale code is a 409, which -f turns into a failure.
    'curl -fsS -X POST "$BASE/admin/i18n/locales" -H "Authorization: Bearer $TOKEN" -H "Content-Type: application/json" -d \'{"code":"fr"}\'',
    '```', '<!-- examples:end -->',
  ]
  const root = site('fresh-tables', { 'docs/one.md': page('One'), 'docs/two.md': page('Two') })
  const outcome = await check(['--root', root, join(root, 'docs/one.md'), join(root, 'docs/two.md')])
  expect(outcome.stderr).toContain('2 pages, their links resolve, and all 2 example blocks ran')
  expect(outcome.code).toBe(0)
}, 120_000)

it('fails naming the page, the line and each broken link (missing files and pages, missing headings, links out of the repository) and an examples block left open', async () => {
  const root = site('links', {
    'README.md': [
      '# Start', 'See [the API](docs/api.md#draft--publish-status-and-actions) and [same again](docs/api.md#same-1).',
      'A [missing page](docs/nope.md), [a missing heading](docs/api.md#nowhere), [code](src/main.ts).',
      '```sh', '# [not a link](inside/a/code/block.md)', '```',
      'Inline `[not a link](either.md)`, [elsewhere](https://example.com/x.md), [self](#start), [no such](#stop).',
    ],
    'docs/api.md': [
      '# API', '## Draft & publish: `status` and actions', '## Same', '## Same',
      '![a picture](screenshots/missing.png) and [out](../../outside.md) and [home](../README.md#start)',
    ],
    'docs/open.md': ['# Open', '<!-- examples:start -->', 'No end marker, no block.'],
    'src/main.ts': ['export {}'],
  })
  const outcome = await check(['--root', root, join(root, 'README.md'), join(root, 'docs/api.md'), join(root, 'docs/open.md')])
  expect(outcome.code).toBe(1)
  expect(outcome.stderr).toContain('docs/open.md:2: <!-- examples:start --> has no <!-- examples:end --> after it')
  const broken = outcome.stderr.split('\n').filter((line) => line.includes('broken link'))
  expect(broken).toEqual([
    'README.md:3: broken link (docs/nope.md): docs/nope.md does not exist',
    'README.md:3: broken link (docs/api.md#nowhere): docs/api.md has no heading #nowhere',
    'README.md:7: broken link (#stop): README.md has no heading #stop',
    'docs/api.md:5: broken link (screenshots/missing.png): docs/screenshots/missing.png does not exist',
    'docs/api.md:5: broken link (../../outside.md): points outside the repository',
  ])
}, 120_000)
