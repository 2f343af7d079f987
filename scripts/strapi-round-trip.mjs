#!/usr/bin/env node
// The round trip of integration.md §21 against a real Strapi: each archive the peer made
// (test/fixtures/strapi-archives/) is imported here into a fresh local table (`npm run import`),
// exported again (`npm run export`), loaded into the peer with `strapi import --force` (which
// replaces the peer's data), and the peer, restarted, must answer the reads it answered when it
// made the archive (answers.json) with the same documents: ids aside (`strapi import` numbers rows
// anew), and the order of `localizations`, which Strapi does not state.
//   node scripts/strapi-round-trip.mjs <peer directory> <peer port> [content|media]
// The peer's project must hold the types of test/fixtures/strapi-archives/media/types (and its
// components); the peer is stopped and started with its start.sh/stop.sh. Prints one line per read.
// With DYNAMODB_ENDPOINT set, the tables are made there (no DynamoDB Local started per command).
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { isDeepStrictEqual } from 'node:util'

const [peerDir, port, only] = process.argv.slice(2)
if (peerDir === undefined || port === undefined) {
  console.error('usage: node scripts/strapi-round-trip.mjs <peer directory> <peer port>')
  process.exit(2)
}
const fixtures = resolve('test/fixtures/strapi-archives')
const cases = [
  { name: 'content', archive: join(fixtures, 'content.tar.gz'), answers: join(fixtures, 'answers.json'), types: resolve('functions/content-types') },
  { name: 'media', archive: join(fixtures, 'media/content.tar.gz'), answers: join(fixtures, 'media/answers.json'), types: join(fixtures, 'media/types') },
].filter((candidate) => only === undefined || candidate.name === only)
const run = (command, args, options = {}) => execFileSync(command, args, { stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8', ...options })

/** Ids and `localizations` order aside; a homepage's documentId (ours is fixed by its type) as the peer's. */
function normalized(value, homepageIds) {
  let text = JSON.stringify(value)
  for (const [ours, theirs] of homepageIds) text = text.replaceAll(ours, theirs)
  return JSON.parse(text, (key, item) => key === 'id' ? undefined
    : key === 'localizations' && Array.isArray(item) ? [...item].sort((a, b) => String(a.locale).localeCompare(String(b.locale))) : item)
}

/** A read of the peer, tried again a few times: a peer just started may drop the first connection. */
async function read(path) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fetch(`http://127.0.0.1:${port}/api${path}`)
    } catch (error) {
      if (attempt === 5) throw error
      await new Promise((resolve) => setTimeout(resolve, 2000))
    }
  }
}

let failures = 0
for (const { archive, answers: answersFile, types } of cases) {
  const answers = JSON.parse(readFileSync(answersFile, 'utf8'))
  // A fresh table: in DynamoDB Local started by each command, or in DYNAMODB_ENDPOINT's under a new name.
  const env = { ...process.env, DATA_DIR: mkdtempSync(join(tmpdir(), 'round-trip-')), CONTENT_TYPES_DIR: types, TABLE_NAME: `round-trip-${Date.now()}` }
  const exported = join(env.DATA_DIR, 'export.tar.gz')
  run('npm', ['run', '-s', 'import', '--', archive], { env })
  run('npm', ['run', '-s', 'export', '--', exported], { env })
  run(join(peerDir, 'stop.sh'), [])
  run(process.execPath, [join(peerDir, 'node_modules/@strapi/strapi/bin/strapi.js'), 'import', '-f', exported, '--force'], { cwd: peerDir, env: { ...process.env, STRAPI_TELEMETRY_DISABLED: 'true' } })
  run(join(peerDir, 'start.sh'), [], { env: { ...process.env, PORT: port } })
  const peerHome = answers['/homepage?locale=en&status=published']?.body?.data?.documentId
  const homeNow = peerHome === undefined ? undefined : (await (await read('/homepage')).json())?.data?.documentId
  const homepageIds = peerHome === undefined || homeNow === undefined ? [] : [[homeNow, peerHome]]
  for (const [path, expected] of Object.entries(answers)) {
    const response = await read(path)
    const body = await response.json().catch(() => null)
    const same = response.status === expected.status && isDeepStrictEqual(normalized(body, homepageIds), normalized(expected.body, []))
    if (!same) failures += 1
    console.log(`${same ? 'same     ' : 'DIFFERENT'} ${path}${same ? '' : `\n  peer now: ${JSON.stringify(normalized(body, homepageIds)).slice(0, 2000)}\n  before:   ${JSON.stringify(normalized(expected.body, [])).slice(0, 2000)}`}`)
  }
}
run(join(peerDir, 'stop.sh'), [])
console.log(failures === 0 ? 'round trip: every read the same' : `round trip: ${failures} reads differ`)
process.exitCode = failures === 0 ? 0 : 1
