// Crashes (behaviour.md §7, issue 20): a writer process killed with SIGKILL in the middle of a write
// (just as its transaction is sent, or at any point after some acknowledged writes) leaves every
// version of the document agreeing on its non-localized values, the counts exact, and the last
// acknowledged value (or the one in flight) stored; a write after the crash converges.
import { spawn } from 'node:child_process'
import { createInterface } from 'node:readline'
import { beforeAll, describe, expect, it } from 'vitest'
import { ATTR } from '../../lib/table.js'
import { ADMIN_TOKEN, TOKEN_HASH_SECRET, createSeeder, createTestContext, documentItems, expectStorageInvariants, json, type TestContext } from '../support/context.js'

/** 24 locales: each write fits one transaction. */
const LOCALES = ['en', 'fr', 'de', 'es', 'it', 'pt', 'nl', 'sv', 'da', 'fi', 'pl', 'cs', 'sk', 'hu', 'ro', 'bg', 'el', 'tr', 'ru', 'uk', 'ja', 'ko', 'zh', 'ar']
const KILLS = 5

/**
 * Runs test/support/crash-writer.ts on `ctx`'s table with `env` and kills it (SIGKILL) at the first
 * line of its output that `kill` picks; the statuses it answered until then.
 */
async function runCrashWriter(ctx: TestContext, env: Record<string, string>, kill: (line: string, answers: readonly number[]) => boolean): Promise<number[]> {
  // tsx as a loader in this process (its CLI would run the script in a grandchild, which the kill would miss).
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/support/crash-writer.ts'], {
    env: { ...process.env, DYNAMODB_ENDPOINT: ctx.endpoint, TABLE_NAME: ctx.config.tableName, ADMIN_TOKEN, TOKEN_HASH_SECRET, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()))
  const answers: number[] = []
  for await (const line of createInterface({ input: child.stdout! })) {
    if (kill(line, answers)) {
      child.kill('SIGKILL')
      break
    }
    if (/^\d{3}$/.test(line)) answers.push(Number(line))
  }
  await exited
  return answers
}

describe('a writer killed mid-write', () => {
  let ctx: TestContext
  let key: string

  beforeAll(async () => {
    ctx = await createTestContext()
    key = await ctx.token()
    await ctx.addLocales(...LOCALES.slice(1))
  })

  /** Runs the crash writer until it has had `acknowledged` answers and then sent one more transaction; kills it there. */
  function crashWriter(documentId: string, start: number, acknowledged: number): Promise<number[]> {
    return runCrashWriter(ctx, { API_KEY: key, DOCUMENT_ID: documentId, LOCALES: LOCALES.join(','), START: String(start) }, (line, answers) => line === 'tx' && answers.length >= acknowledged)
  }

  it(`leaves the ${LOCALES.length} versions agreeing after each of ${KILLS} kills, and converges on the next write`, async () => {
    const created = await ctx.request('POST', '/api/articles?locale=en', { token: key, body: { data: { title: 'en', views: 0 } } })
    const { documentId } = (await json(created)).data
    const seeder = createSeeder(ctx)
    for (const locale of LOCALES.slice(1)) {
      expect((await seeder.request('PUT', `/api/articles/${documentId}?locale=${locale}`, { token: key, body: { data: { title: locale } } })).status).toBe(200)
    }
    for (let kill = 0; kill < KILLS; kill++) {
      const start = (kill + 1) * 1000
      const answers = await crashWriter(documentId, start, kill % 3)
      expect(answers.every((status) => status === 200)).toBe(true)
      const versions: Record<string, any>[] = (await json(await ctx.request('GET', `/api/articles/${documentId}?locale=*`))).data
      expect(versions).toHaveLength(LOCALES.length)
      const values = new Set(versions.map((version) => version.views))
      expect({ kill, values: [...values] }).toEqual({ kill, values: [[...values][0]] })
      // The writer's i-th write sends start + i: the last acknowledged one is stored, or the one it was killed in.
      const acknowledged = answers.length === 0 ? undefined : start + answers.length
      const stored = [...values][0]
      if (acknowledged === undefined) expect(stored === start + 1 || stored < start).toBe(true)
      else expect([acknowledged, acknowledged + 1]).toContain(stored)
      await expectStorageInvariants(ctx)
    }
    expect((await ctx.request('PUT', `/api/articles/${documentId}?locale=fr`, { token: key, body: { data: { views: 7 } } })).status).toBe(200)
    const after: Record<string, any>[] = (await json(await ctx.request('GET', `/api/articles/${documentId}?locale=*`))).data
    expect(after.map((version) => version.views)).toEqual(LOCALES.map(() => 7))
    await expectStorageInvariants(ctx)
  }, 180_000)
})

/** 100 locales: a non-localized change reaches 200 versions (draft and published), more than one transaction holds. */
const WIDE_LOCALES = ['en', ...Array.from({ length: 99 }, (_, i) => `x${String.fromCharCode(97 + Math.floor(i / 26))}${String.fromCharCode(97 + (i % 26))}`)]
/** Where each kill lands, counted in write calls after the writer's first answer: among the marks, at the commit, among the parts, at the end. */
const WIDE_KILLS = [120, 199, 202]

describe('a writer killed in the middle of a write wider than one transaction (100 locales)', () => {
  let ctx: TestContext
  let key: string

  beforeAll(async () => {
    ctx = await createTestContext()
    key = await ctx.token()
    for (let i = 1; i < WIDE_LOCALES.length; i += 25) await ctx.addLocales(...WIDE_LOCALES.slice(i, i + 25))
  }, 120_000)

  /** Runs the crash writer until its first answer, then `writes` write calls more; kills it just as the last is sent. */
  function crashWriter(documentId: string, start: number, writes: number): Promise<number[]> {
    let counted = 0
    return runCrashWriter(ctx, { API_KEY: key, DOCUMENT_ID: documentId, LOCALES: WIDE_LOCALES.join(','), START: String(start), ANNOUNCE: 'writes' }, (line, answers) => line === 'w' && answers.length > 0 && ++counted === writes)
  }

  it(`keeps the 200 versions agreeing after kills at ${WIDE_KILLS.length} points of the write, and the next write converges`, async () => {
    const created = await ctx.request('POST', '/api/articles?locale=en', { token: key, body: { data: { title: 'en', views: 0 } } })
    const { documentId } = (await json(created)).data
    const seeder = createSeeder(ctx)
    for (let i = 1; i < WIDE_LOCALES.length; i += 10) {
      await Promise.all(WIDE_LOCALES.slice(i, i + 10).map(async (locale) => {
        expect((await seeder.request('PUT', `/api/articles/${documentId}?locale=${locale}`, { token: key, body: { data: { title: locale } } })).status).toBe(200)
      }))
    }
    const views = async () => {
      const values = new Set<unknown>()
      for (const status of ['published', 'draft']) {
        const versions: Record<string, any>[] = (await json(await ctx.request('GET', `/api/articles/${documentId}?locale=*&status=${status}`, { token: key }))).data
        expect(versions).toHaveLength(WIDE_LOCALES.length)
        for (const version of versions) values.add(version.views)
      }
      return [...values]
    }
    for (const [round, writes] of WIDE_KILLS.entries()) {
      const start = (round + 1) * 1000
      const answers = await crashWriter(documentId, start, writes)
      expect(answers.every((status) => status === 200)).toBe(true)
      // Read as it was left, before any other write: one value everywhere, the last acknowledged or the one in flight.
      const left = await views()
      expect({ writes, left: left.length }).toEqual({ writes, left: 1 })
      expect({ writes, stored: [start + answers.length, start + answers.length + 1].includes(left[0] as number) }).toEqual({ writes, stored: true })
    }
    expect((await ctx.request('PUT', `/api/articles/${documentId}?locale=xaa`, { token: key, body: { data: { views: 7 } } })).status).toBe(200)
    expect(await views()).toEqual([7])
    expect((await documentItems(ctx, documentId)).filter((item) => item[ATTR.pending] !== undefined).map((item) => item.locale)).toEqual([])
    await expectStorageInvariants(ctx)
  }, 600_000) // 65 s alone on a loaded machine; past 240 s in a full run beside the other worker's heavy files
})
