// `npm run import` resumes after a crash (integration.md §21): the CLI, run as a child process on a
// table of its own, is killed with SIGKILL once it has reported progress, then run again; the table
// ends as one clean run leaves it (every list read in each locale and status, populated; counts
// exact; the storage invariants hold), and a further run writes nothing.
import { spawn } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { beforeAll, describe, expect, it } from 'vitest'
import { importArchive } from '../../lib/transfer/import.js'
import { createTestContext, expectStorageInvariants, json, type TestContext } from '../support/context.js'
import { writeSyntheticArchive } from '../support/synthetic-archive.js'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const ARTICLES = 60

/** Runs the import CLI on `ctx`'s table; `killAfter` progress lines: SIGKILL then. Resolves with its exit and output. */
function runImport(ctx: TestContext, archive: string, killAfter?: number): Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }> {
  const env = { ...process.env, DYNAMODB_ENDPOINT: ctx.endpoint, TABLE_NAME: ctx.config.tableName, DATA_DIR: mkdtempSync(join(tmpdir(), 'import-resume-')), CONTENT_TYPES_DIR: '' }
  const child = spawn(process.execPath, ['--import', 'tsx', 'functions/transfer-cli.ts', 'import', archive, '--concurrency', '4'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  let progress = 0
  child.stdout.on('data', (chunk: Buffer) => void (stdout += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString()
    progress = (stderr.match(/^import: \d+ \/ \d+ versions$/gm) ?? []).length
    if (killAfter !== undefined && progress >= killAfter) child.kill('SIGKILL')
  })
  return new Promise((resolve) => child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })))
}

/** Every page of every list of every type in each locale and status, populated, and the counts. */
async function readAll(ctx: TestContext): Promise<Record<string, unknown>> {
  const token = await ctx.token()
  const read: Record<string, unknown> = {}
  for (const plural of ['articles', 'authors', 'tags']) {
    for (const locale of ['en', 'fr']) {
      for (const status of ['published', 'draft']) {
        for (let page = 1; ; page++) {
          const path = `/api/${plural}?locale=${locale}&status=${status}&sort=id&populate=*&pagination[pageSize]=100&pagination[page]=${page}`
          const body = await json(await ctx.request('GET', path, { token }))
          read[path] = body
          if (page >= body.meta.pagination.pageCount) break
        }
      }
    }
  }
  return read
}

describe('an import killed with SIGKILL, then run again', () => {
  let archive: string
  let clean: TestContext

  beforeAll(async () => {
    archive = join(mkdtempSync(join(tmpdir(), 'import-resume-')), 'big.tar.gz')
    await writeSyntheticArchive(archive, { articles: ARTICLES, typesDir: fileURLToPath(new URL('../../functions/content-types/', import.meta.url)) })
    clean = await createTestContext()
    await importArchive(clean.services, archive)
  }, 120_000)

  it('ends in the state of one clean run, and a further run writes nothing', async () => {
    const ctx = await createTestContext()
    const killed = await runImport(ctx, archive, 1)
    expect(killed.signal).toBe('SIGKILL')
    expect(killed.stdout).toBe('') // killed before its final counts
    const articles = await json(await ctx.request('GET', '/api/articles?status=draft&locale=en', { token: await ctx.token() }))
    expect(articles.meta.pagination.total).toBeLessThan(ARTICLES) // the kill came in the middle

    const rerun = await runImport(ctx, archive)
    expect(rerun.code).toBe(0)
    expect(await readAll(ctx)).toEqual(await readAll(clean))
    await expectStorageInvariants(ctx)

    const again = await runImport(ctx, archive)
    expect(again.code).toBe(0)
    const counts = JSON.parse(again.stdout).counts as Record<string, { written: number; unchanged: number }>
    expect(counts['api::article.article']).toEqual({ written: 0, unchanged: ARTICLES * 4 })
    expect(Object.values(counts).every((count) => count.written === 0)).toBe(true)
  }, 600_000)
})
