// Crashes (behaviour.md §7, issue 20): a writer process killed with SIGKILL in the middle of a write
// (just as its transaction is sent, or at any point after some acknowledged writes) leaves every
// version of the document agreeing on its non-localized values, the counts exact, and the last
// acknowledged value (or the one in flight) stored; a write after the crash converges.
import { spawn } from 'node:child_process'
import { createInterface } from 'node:readline'
import { beforeAll, describe, expect, it } from 'vitest'
import { ADMIN_TOKEN, TOKEN_HASH_SECRET, createTestContext, expectStorageInvariants, json, type TestContext } from '../support/context.js'

/** The most locales a deployment registers (so that every version fits one transaction). */
const LOCALES = ['en', 'fr', 'de', 'es', 'it', 'pt', 'nl', 'sv', 'da', 'fi', 'pl', 'cs', 'sk', 'hu', 'ro', 'bg', 'el', 'tr', 'ru', 'uk', 'ja', 'ko', 'zh', 'ar']
const KILLS = 5

describe('a writer killed mid-write', () => {
  let ctx: TestContext
  let key: string

  beforeAll(async () => {
    ctx = await createTestContext()
    key = await ctx.token()
    await ctx.addLocales(...LOCALES.slice(1))
  })

  /** Runs the crash writer until it has had `acknowledged` answers and then sent one more transaction; kills it there. */
  async function crashWriter(documentId: string, start: number, acknowledged: number): Promise<number[]> {
    // tsx as a loader in this process (its CLI would run the script in a grandchild, which the kill would miss).
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/support/crash-writer.ts'], {
      env: { ...process.env, DYNAMODB_ENDPOINT: ctx.endpoint, TABLE_NAME: ctx.config.tableName, ADMIN_TOKEN, TOKEN_HASH_SECRET, API_KEY: key, DOCUMENT_ID: documentId, LOCALES: LOCALES.join(','), START: String(start) },
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()))
    const answers: number[] = []
    for await (const line of createInterface({ input: child.stdout! })) {
      if (line === 'tx' && answers.length >= acknowledged) {
        child.kill('SIGKILL')
        break
      }
      if (/^\d{3}$/.test(line)) answers.push(Number(line))
    }
    await exited
    return answers
  }

  it(`leaves the ${LOCALES.length} versions agreeing after each of ${KILLS} kills, and converges on the next write`, async () => {
    const created = await ctx.request('POST', '/api/articles?locale=en', { token: key, body: { data: { title: 'en', views: 0 } } })
    const { documentId } = (await json(created)).data
    for (const locale of LOCALES.slice(1)) {
      expect((await ctx.request('PUT', `/api/articles/${documentId}?locale=${locale}`, { token: key, body: { data: { title: locale } } })).status).toBe(200)
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
