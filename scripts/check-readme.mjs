#!/usr/bin/env node
// `npm run check:readme [-- README.md]`: runs the README's examples as a reader would. Starts
// `npm start` on a free port with a fresh table and a fresh data directory (DATA_DIR), no
// ADMIN_TOKEN (the examples read the one npm start keeps there), takes every ```sh block
// between `<!-- examples:start -->` and `<!-- examples:end -->`, and runs them in order in ONE bash
// shell with `set -euo pipefail` and BASE and DATA_DIR exported. Exits 1 naming the block that
// failed. DYNAMODB_ENDPOINT, when set, is passed on (no second DynamoDB Local).
import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const START = '<!-- examples:start -->'
const END = '<!-- examples:end -->'

/** The ```sh blocks between the markers, each with the heading above it and its line number. */
function exampleBlocks(markdown) {
  const lines = markdown.split('\n')
  const blocks = []
  let inside = false
  let heading = '(no heading)'
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]
    if (line.trim() === START) inside = true
    else if (line.trim() === END) inside = false
    else if (/^#{1,6} /.test(line)) heading = line.replace(/^#+ /, '')
    else if (inside && line.trim() === '```sh') {
      const start = i + 1
      let end = start
      while (end < lines.length && lines[end].trim() !== '```') end++
      blocks.push({ name: `block ${blocks.length + 1} ("${heading}", README line ${start}, its opening fence)`, code: lines.slice(start, end).join('\n') })
      i = end
    }
  }
  return blocks
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address()
      server.close(() => resolve(port))
    })
  })
}

async function waitForHealth(base, server, timeoutMs) {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`npm start exited with code ${server.exitCode}`)
    try {
      if ((await fetch(`${base}/_health`)).status === 200) return
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  throw new Error(`npm start did not answer ${base}/_health within ${timeoutMs / 1000} s`)
}

/** Runs the blocks in one bash; resolves with the name of the block that failed, or undefined. */
function runBlocks(blocks, env) {
  const dir = mkdtempSync(join(tmpdir(), 'readme-'))
  const marker = join(dir, 'current-block')
  const script = ['set -euo pipefail']
  blocks.forEach((block, index) => script.push(`printf '%s' ${index} > '${marker}'`, block.code))
  script.push(`printf done > '${marker}'`)
  return new Promise((resolve) => {
    const bash = spawn('bash', ['-c', script.join('\n')], { env, stdio: ['ignore', 'inherit', 'inherit'] })
    bash.once('exit', (code) => {
      const reached = readFileSync(marker, { encoding: 'utf8', flag: 'a+' })
      rmSync(dir, { recursive: true, force: true })
      resolve(code === 0 && reached === 'done' ? undefined : (blocks[Number(reached)]?.name ?? 'before the first block'))
    })
  })
}

const readme = process.argv[2] ?? 'README.md'
const blocks = exampleBlocks(readFileSync(readme, 'utf8'))
if (blocks.length === 0) {
  console.error(`check-readme: no \`\`\`sh block between ${START} and ${END} in ${readme}`)
  process.exit(1)
}
const port = await freePort()
const base = `http://127.0.0.1:${port}`
const dataDir = mkdtempSync(join(tmpdir(), 'readme-data-'))
const env = { ...process.env, PORT: String(port), DATA_DIR: dataDir, TABLE_NAME: `readme-${randomBytes(4).toString('hex')}`, BASE: base }
for (const name of ['ADMIN_TOKEN', 'TOKEN_HASH_SECRET', 'LOCAL_IN_MEMORY']) delete env[name]
// Its own process group, so the whole tree (npm, tsx, node, Java) is stopped at the end.
const server = spawn('npm', ['start', '--silent'], { env, detached: true, stdio: ['ignore', 'ignore', 'inherit'] })
const stop = () => {
  try {
    process.kill(-server.pid, 'SIGTERM')
  } catch {
    // already gone
  }
}
process.once('exit', stop)
let failed
try {
  await waitForHealth(base, server, 60_000)
  failed = await runBlocks(blocks, env)
} catch (error) {
  failed = `npm start: ${error.message}`
}
stop()
rmSync(dataDir, { recursive: true, force: true })
if (failed !== undefined) {
  console.error(`\ncheck-readme: FAILED at ${failed}`)
  process.exit(1)
}
console.error(`\ncheck-readme: all ${blocks.length} example blocks of ${readme} ran`)
