#!/usr/bin/env node
// `npm run check:readme [-- [--root DIR] PAGE.md ...]`: checks the documentation as a reader meets
// it, README.md and every page of docs/ by default (PAGE.md ... for some only).
// 1. Links: every relative link between pages, into a page's headings (GitHub's anchors) and into
//    the repository's files must resolve (scripts/doc-links.mjs).
// 2. Examples: each page's ```sh blocks between `<!-- examples:start -->` and
//    `<!-- examples:end -->` run in order in ONE bash shell with `set -euo pipefail`, against a
//    fresh `npm start` of their own (free port, fresh table, fresh data directory DATA_DIR, no
//    ADMIN_TOKEN: the examples read the one npm start keeps there), BASE and DATA_DIR exported, so
//    that each page's examples work alone, as a reader reads one page.
// Exits 1 naming each broken link and the block that failed, by page and line.
// DYNAMODB_ENDPOINT, when set, is passed on (no DynamoDB Local of each page's own).
import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join, relative, resolve } from 'node:path'
import { brokenLinks } from './doc-links.mjs'

const START = '<!-- examples:start -->'
const END = '<!-- examples:end -->'

/**
 * The ```sh blocks between the markers, each with the heading above it and its fence's line, and
 * the line of an `examples:start` left open (its blocks would run, but the page is malformed).
 */
function exampleBlocks(markdown) {
  const lines = markdown.split('\n')
  const blocks = []
  let inside = false
  let opened = 0
  let heading = '(no heading)'
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]
    const fence = /^\s*(`{3,}|~{3,})/.exec(line)
    if (fence) {
      // Any fenced block is skipped whole (its `# comments` are no headings); a ```sh one between
      // the markers is an example.
      let end = i + 1
      while (end < lines.length && !lines[end].trim().startsWith(fence[1])) end++
      if (inside && line.trim() === '```sh') blocks.push({ heading, line: i + 1, code: lines.slice(i + 1, end).join('\n') })
      i = end
    } else if (line.trim() === START) {
      inside = true
      opened = i + 1
    } else if (line.trim() === END) inside = false
    else if (/^#{1,6} /.test(line)) heading = line.replace(/^#+ /, '')
  }
  return { blocks, unclosed: inside ? opened : undefined }
}

function freePort() {
  return new Promise((resolvePort, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address()
      server.close(() => resolvePort(port))
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
    await new Promise((wait) => setTimeout(wait, 200))
  }
  throw new Error(`npm start did not answer ${base}/_health within ${timeoutMs / 1000} s`)
}

/** Runs the blocks in one bash; resolves with the index of the block that failed, or undefined. */
function runBlocks(blocks, env) {
  const dir = mkdtempSync(join(tmpdir(), 'readme-'))
  const marker = join(dir, 'current-block')
  const script = ['set -euo pipefail']
  blocks.forEach((block, index) => script.push(`printf '%s' ${index} > '${marker}'`, block.code))
  script.push(`printf done > '${marker}'`)
  return new Promise((done) => {
    const bash = spawn('bash', ['-c', script.join('\n')], { env, stdio: ['ignore', 'inherit', 'inherit'] })
    bash.once('exit', (code) => {
      const reached = readFileSync(marker, { encoding: 'utf8', flag: 'a+' })
      rmSync(dir, { recursive: true, force: true })
      done(code === 0 && reached === 'done' ? undefined : Number(reached === '' ? -1 : reached))
    })
  })
}

/**
 * The settings a page's examples need from its server, from a line `<!-- examples:env NAME=value ... -->`
 * (e.g. CONTENT_TYPES_DIR for a page whose examples use a fixture's types); paths are the page's reader's,
 * relative to the repository.
 */
function pageSettings(markdown) {
  const line = markdown.split('\n').find((text) => text.trim().startsWith('<!-- examples:env '))
  if (line === undefined) return {}
  const pairs = line.trim().slice('<!-- examples:env '.length).replace(/-->$/, '').trim().split(/\s+/)
  return Object.fromEntries(pairs.filter((pair) => pair.includes('=')).map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]))
}

/** Runs one page's blocks against an `npm start` of their own; the failure, or undefined. */
async function runPage(name, blocks, settings = {}) {
  const port = await freePort()
  const base = `http://127.0.0.1:${port}`
  const dataDir = mkdtempSync(join(tmpdir(), 'readme-data-'))
  const env = { ...process.env, ...settings, PORT: String(port), DATA_DIR: dataDir, TABLE_NAME: `readme-${randomBytes(4).toString('hex')}`, BASE: base }
  for (const variable of ['ADMIN_TOKEN', 'TOKEN_HASH_SECRET', 'LOCAL_IN_MEMORY']) delete env[variable]
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
  try {
    await waitForHealth(base, server, 60_000)
    const failed = await runBlocks(blocks, env)
    if (failed === undefined) return undefined
    const block = blocks[failed]
    return block === undefined ? `${name}: before its first example block` : `${name}:${block.line}: example block ${failed + 1} ("${block.heading}") failed`
  } catch (error) {
    return `${name}: npm start: ${error.message}`
  } finally {
    stop()
    process.removeListener('exit', stop)
    rmSync(dataDir, { recursive: true, force: true })
  }
}

function parseArguments(argv) {
  const rootAt = argv.indexOf('--root')
  const root = resolve(rootAt === -1 ? '.' : argv[rootAt + 1])
  const named = argv.filter((_, index) => rootAt === -1 || (index !== rootAt && index !== rootAt + 1))
  const docs = join(root, 'docs')
  const all = () => [join(root, 'README.md'), ...readdirSync(docs).filter((file) => file.endsWith('.md')).sort().map((file) => join(docs, file))]
  return { root, pages: named.length > 0 ? named.map((page) => resolve(page)) : all() }
}

const { root, pages } = parseArguments(process.argv.slice(2))
const failures = brokenLinks(pages, root)
let blockCount = 0
for (const page of pages) {
  const markdown = readFileSync(page, 'utf8')
  const { blocks, unclosed } = exampleBlocks(markdown)
  if (unclosed !== undefined) failures.push(`${relative(root, page)}:${unclosed}: ${START} has no ${END} after it`)
  if (blocks.length === 0) continue
  blockCount += blocks.length
  const started = Date.now()
  const failed = await runPage(relative(root, page), blocks, pageSettings(markdown))
  if (failed !== undefined) failures.push(failed)
  console.error(`check-readme: ${relative(root, page)}: ${blocks.length} example blocks, ${failed === undefined ? 'ran' : 'FAILED'} in ${((Date.now() - started) / 1000).toFixed(1)} s`)
}
if (failures.length > 0) {
  console.error(`\ncheck-readme: FAILED\n${failures.join('\n')}`)
  process.exit(1)
}
console.error(`\ncheck-readme: ${pages.length} pages, their links resolve, and all ${blockCount} example blocks ran`)
