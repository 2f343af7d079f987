// Faults from DynamoDB (behaviour.md §1: 503 ServiceUnavailableError with Retry-After; 409 for a
// lost conditional check), injected into the REAL client: a middleware sits just inside the SDK's
// deserializer and, for chosen attempts, answers with a DynamoDB-shaped HTTP error instead of
// sending the request (or after sending it, losing the answer). The SDK's own deserializer, error
// classification and retry policy (lib/storage/client.ts: 4 attempts, standard mode) stay real.
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { META } from '../../lib/table.js'
import { isCountRead, isPageRead } from '../support/list-reads.js'
import { createPeer, createTestContext, expectStorageInvariants, json, scanTable, type TestContext } from '../support/context.js'

/** What an injected attempt answers: a DynamoDB error, before or after the request really ran. */
interface Fault {
  readonly status: number
  readonly type?: string
  readonly extra?: Record<string, unknown>
  /** Send the request to DynamoDB first and lose its answer (a crash after the commit). */
  readonly afterSend?: boolean
}

interface Attempt {
  readonly command: string
  readonly body: string
}

const THROTTLED: Fault = { status: 400, type: 'ThrottlingException' }
const INTERNAL: Fault = { status: 500, type: 'InternalServerError' }
const conflictCancel = (items: number): Fault => ({
  status: 400,
  type: 'TransactionCanceledException',
  extra: { CancellationReasons: [{ Code: 'TransactionConflict', Message: 'Transaction is ongoing for the item' }, ...Array.from({ length: items - 1 }, () => ({ Code: 'None' }))] },
})

/**
 * Installs a fault injector on the test client. `decide` sees every attempt (retries included)
 * and returns the fault to answer with, or undefined to let it through. Returns the attempts seen.
 */
function injectFaults(ctx: TestContext, decide: (attempt: Attempt, seen: readonly Attempt[]) => Fault | undefined): Attempt[] {
  const seen: Attempt[] = []
  ctx.db.middlewareStack.addRelativeTo(
    (next: any, context: any) => async (args: any) => {
      const raw = args.request?.body
      const attempt = { command: String(context.commandName), body: raw instanceof Uint8Array ? new TextDecoder().decode(raw) : String(raw ?? '') }
      const fault = decide(attempt, seen)
      seen.push(attempt)
      if (fault === undefined) return next(args)
      if (fault.afterSend === true) await next(args)
      const payload = { __type: `com.amazonaws.dynamodb.v20120810#${fault.type ?? 'InternalServerError'}`, message: 'injected fault', ...fault.extra }
      return {
        response: {
          statusCode: fault.status,
          reason: 'injected',
          headers: { 'content-type': 'application/x-amz-json-1.0', 'x-amzn-requestid': 'injected' },
          body: new TextEncoder().encode(JSON.stringify(payload)),
        },
      }
    },
    { name: 'faultInjector', relation: 'after', toMiddleware: 'deserializerMiddleware', override: true },
  )
  return seen
}

const touches = (documentId: string) => (attempt: Attempt) => attempt.body.includes(documentId)
const isTransaction = (attempt: Attempt) => attempt.command === 'TransactWriteItemsCommand'

async function expectUnavailable(response: Response): Promise<void> {
  expect(response.status).toBe(503)
  expect(response.headers.get('retry-after')).toMatch(/^\d+$/)
  const body = await json(response)
  expect(body).toEqual({ data: null, error: { status: 503, name: 'ServiceUnavailableError', message: expect.any(String), details: {} } })
  expect(body.error.message).not.toMatch(/injected|Throttling|Dynamo/i)
}


describe('faults', () => {
  let ctx: TestContext
  let key: string

  beforeAll(async () => {
    ctx = await createTestContext()
    key = await ctx.token()
    await ctx.addLocales('fr', 'de')
  })
  afterEach(() => {
    ctx.db.middlewareStack.remove('faultInjector')
  })

  async function createArticle(title: string, locale = 'en'): Promise<{ documentId: string; id: number }> {
    const response = await ctx.request('POST', `/api/articles?locale=${locale}`, { token: key, body: { data: { title, views: 1 } } })
    expect(response.status).toBe(200)
    return (await json(response)).data
  }

  describe('throttling and 5xx: the SDK retries, then the API answers 503', () => {
    it('retries a throttled read and answers 200 when the third attempt succeeds', async () => {
      const { documentId } = await createArticle('retried')
      const seen = injectFaults(ctx, (attempt, before) =>
        touches(documentId)(attempt) && before.filter(touches(documentId)).length < 2 ? THROTTLED : undefined)
      const response = await ctx.request('GET', `/api/articles/${documentId}`)
      expect(response.status).toBe(200)
      expect((await json(response)).data[0].title).toBe('retried')
      expect(seen.filter(touches(documentId))).toHaveLength(3)
    })

    it('answers 503 with Retry-After once all 4 attempts of a read are throttled', async () => {
      const { documentId } = await createArticle('throttled')
      const seen = injectFaults(ctx, (attempt) => (touches(documentId)(attempt) ? THROTTLED : undefined))
      await expectUnavailable(await ctx.request('GET', `/api/articles/${documentId}`))
      expect(seen.filter(touches(documentId))).toHaveLength(4)
    })

    it.each([
      ['InternalServerError (500)', INTERNAL],
      ['ServiceUnavailable (503)', { status: 503, type: 'ServiceUnavailable' }],
    ])('answers 503 after 4 attempts of a list read all fail with %s', async (_, fault) => {
      const seen = injectFaults(ctx, (attempt) => (attempt.command === 'QueryCommand' ? fault : undefined))
      // A locale with versions: an empty list is answered from its count alone, without a Query.
      await createArticle('listed')
      await expectUnavailable(await ctx.request('GET', '/api/articles'))
      expect(seen.filter((attempt) => attempt.command === 'QueryCommand')).toHaveLength(4)
    })

    it('answers 503 when DynamoDB cannot be reached at all, after retrying', async () => {
      const dead = await createTestContext({}, { endpoint: 'http://127.0.0.1:9' })
      const seen = injectFaults(dead, () => undefined)
      await expectUnavailable(await dead.request('GET', '/api/articles'))
      expect(seen.length).toBeGreaterThanOrEqual(4)
    })

    it('answers 503 for a write whose transaction fails 4 times with a 500, and writes nothing', async () => {
      const before = await scanTable(ctx)
      const seen = injectFaults(ctx, (attempt) => (isTransaction(attempt) ? INTERNAL : undefined))
      await expectUnavailable(await ctx.request('POST', '/api/articles', { token: key, body: { data: { title: 'never' } } }))
      expect(seen.filter(isTransaction)).toHaveLength(4)
      const after = await scanTable(ctx)
      // Only the id sequence moved (ids are unique and increasing, not gapless: behaviour.md §6).
      const withoutSequence = (items: Record<string, any>[]) => JSON.stringify(items.filter((item) => item.documentId !== META.sequence))
      expect(withoutSequence(after)).toBe(withoutSequence(before))
      await expectStorageInvariants(ctx)
    })
  })

  it('answers 503 when a page read fails, and a validator read that fails after the answer is no unhandled rejection', async () => {
    // The page (byId) and the count item are read at once: the page fails first, the count read
    // only after the 503 has been sent.
    await createArticle('both fail')
    let release!: () => void
    const released = new Promise<void>((resolve) => (release = resolve))
    let countFailed!: () => void
    const countDone = new Promise<void>((resolve) => (countFailed = resolve))
    const unavailable = () => Object.assign(new Error('injected'), { name: 'ServiceUnavailable' })
    ctx.db.middlewareStack.add((next: any, context: any) => async (args: any) => {
      if (isPageRead(context.commandName, args.input)) throw unavailable()
      if (isCountRead(context.commandName, args.input)) {
        await released
        countFailed()
        throw unavailable()
      }
      return next(args)
    }, { step: 'initialize', name: 'faultInjector', override: true })
    const unhandled: unknown[] = []
    const record = (reason: unknown) => unhandled.push(reason)
    process.on('unhandledRejection', record)
    try {
      await expectUnavailable(await ctx.request('GET', '/api/articles?pagination[pageSize]=7'))
      release()
      await countDone
      await new Promise((resolve) => setTimeout(resolve, 50))
      expect(unhandled).toEqual([])
    } finally {
      process.off('unhandledRejection', record)
    }
  })

  it('answers 503 when a page\'s BatchGet keeps returning its keys unprocessed, after a bounded number of calls', async () => {
    await createArticle('batch')
    let calls = 0
    ctx.db.middlewareStack.add((next: any, context: any) => async (args: any) => {
      if (context.commandName !== 'BatchGetItemCommand') return next(args)
      calls++
      return { output: { $metadata: {}, Responses: {}, UnprocessedKeys: args.input.RequestItems } }
    }, { step: 'initialize', name: 'faultInjector', override: true })
    const response = await ctx.request('GET', '/api/articles?sort=title')
    await expectUnavailable(response)
    expect(calls).toBe(6)
  })

  describe('transactions', () => {
    it('re-reads and re-applies a PUT whose transaction lost to a concurrent write, and answers 200', async () => {
      const { documentId } = await createArticle('contested')
      let competed = false
      // Just before the PUT's transaction is sent, another process creates the same localization
      // (within one process the rival would queue behind the PUT and be committed after it).
      const peer = createPeer(ctx)
      ctx.db.middlewareStack.add((next: any, context: any) => async (args: any) => {
        if (!competed && context.commandName === 'TransactWriteItemsCommand') {
          competed = true
          const rival = await peer.request('PUT', `/api/articles/${documentId}?locale=fr`, { token: key, body: { data: { title: 'rival' } } })
          expect(rival.status).toBe(200)
        }
        return next(args)
      }, { step: 'initialize', name: 'faultInjector' })
      // The rival created the localization first; retried on a fresh read, this PUT updates it (behaviour.md §7).
      const response = await ctx.request('PUT', `/api/articles/${documentId}?locale=fr`, { token: key, body: { data: { title: 'second' } } })
      expect(response.status).toBe(200)
      const fr = await json(await ctx.request('GET', `/api/articles/${documentId}?locale=fr`))
      expect(fr.data[0]).toMatchObject({ title: 'second', id: (await json(response)).data.id })
      await expectStorageInvariants(ctx)
    })

    it('retries a transaction cancelled by a TransactionConflict and answers 200', async () => {
      const { documentId } = await createArticle('conflicted')
      const seen = injectFaults(ctx, (attempt, before) => (isTransaction(attempt) && !before.some(isTransaction) ? conflictCancel(3) : undefined))
      const response = await ctx.request('PUT', `/api/articles/${documentId}?locale=de`, { token: key, body: { data: { title: 'Konflikt' } } })
      expect(response.status).toBe(200)
      expect(seen.filter(isTransaction)).toHaveLength(2)
      const de = await json(await ctx.request('GET', `/api/articles?locale=de`))
      expect(de.data.filter((doc: any) => doc.documentId === documentId)).toHaveLength(1)
      await expectStorageInvariants(ctx)
    })

    it('answers 503 when every attempt is cancelled by a TransactionConflict, and writes nothing', async () => {
      const { documentId } = await createArticle('always conflicted')
      const seen = injectFaults(ctx, (attempt) => (isTransaction(attempt) ? conflictCancel(3) : undefined))
      await expectUnavailable(await ctx.request('PUT', `/api/articles/${documentId}?locale=de`, { token: key, body: { data: { title: 'nie' } } }))
      expect(seen.filter(isTransaction).length).toBeGreaterThan(1)
      expect((await ctx.request('GET', `/api/articles/${documentId}?locale=de`)).status).toBe(404)
      await expectStorageInvariants(ctx)
    })
  })

  describe('a crash between steps cannot put counts out of step with versions', () => {
    // Every write that must agree (version, count, guard, sibling versions) is one
    // TransactWriteItems: it happens entirely or not at all. These cases cut each kind of write at
    // its transaction, before it reaches DynamoDB and after it committed (the answer lost).
    interface Write {
      name: string
      status: number
      run(documentId: string): Promise<Response>
      /** The document's versions ([locale, views]) once the write has happened, exactly once. */
      committed: [string, number][]
      /** Change of the number of fr versions once it has happened. */
      frDelta: number
    }
    const writes: Write[] = [
      { name: 'POST (new document)', status: 200, run: () => ctx.request('POST', '/api/articles?locale=fr', { token: key, body: { data: { title: 'crash' } } }), committed: [['en', 1], ['fr', 1]], frDelta: 1 },
      { name: 'PUT (new localization)', status: 200, run: (id) => ctx.request('PUT', `/api/articles/${id}?locale=de`, { token: key, body: { data: { title: 'crash' } } }), committed: [['en', 1], ['fr', 1], ['de', 1]], frDelta: 0 },
      { name: 'PUT (non-localized update)', status: 200, run: (id) => ctx.request('PUT', `/api/articles/${id}?locale=en`, { token: key, body: { data: { views: 99 } } }), committed: [['en', 99], ['fr', 99]], frDelta: 0 },
      { name: 'DELETE (one version)', status: 204, run: (id) => ctx.request('DELETE', `/api/articles/${id}?locale=fr`, { token: key }), committed: [['en', 1]], frDelta: -1 },
      { name: 'DELETE (every version)', status: 204, run: (id) => ctx.request('DELETE', `/api/articles/${id}?locale=*`, { token: key }), committed: [], frDelta: -1 },
    ]

    /** A document with en and fr versions to cut writes on. */
    async function twoVersions(): Promise<string> {
      const { documentId } = await createArticle('two versions')
      expect((await ctx.request('PUT', `/api/articles/${documentId}?locale=fr`, { token: key, body: { data: { title: 'deux' } } })).status).toBe(200)
      return documentId
    }

    /** [locale, views] of every version of the document, and each version's ETag. */
    async function state(documentId: string): Promise<{ versions: [string, number][]; etags: string[]; fr: number }> {
      const all = await ctx.request('GET', `/api/articles/${documentId}?locale=*`)
      const versions = all.status === 404 ? [] : (await json(all)).data.map((doc: any) => [doc.locale, doc.views])
      const etags = await Promise.all(versions.map(async ([locale]: [string]) =>
        (await ctx.request('GET', `/api/articles/${documentId}?locale=${locale}`)).headers.get('etag')))
      const fr = (await json(await ctx.request('GET', '/api/articles?locale=fr'))).meta.pagination.total
      return { versions, etags, fr }
    }

    /** The revision part of an ETag `"<id>.<rev>"`. */
    const revOf = (etag: string | null) => Number(/\.(\d+)"$/.exec(etag ?? '')?.[1])

    it.each(writes)('$name cut before the transaction: 503, nothing changed', async ({ run }) => {
      const documentId = await twoVersions()
      const before = await state(documentId)
      injectFaults(ctx, (attempt) => (isTransaction(attempt) ? INTERNAL : undefined))
      await expectUnavailable(await run(documentId))
      ctx.db.middlewareStack.remove('faultInjector')
      expect(await state(documentId)).toEqual(before)
      await expectStorageInvariants(ctx)
    })

    it.each(writes)('$name whose first answer is lost: the SDK retries idempotently, $status, written once', async ({ run, status, committed, frDelta }) => {
      const documentId = await twoVersions()
      const before = await state(documentId)
      const seen = injectFaults(ctx, (attempt, earlier) => (isTransaction(attempt) && !earlier.some(isTransaction) ? { ...INTERNAL, afterSend: true } : undefined))
      expect((await run(documentId)).status).toBe(status)
      expect(seen.filter(isTransaction)).toHaveLength(2)
      ctx.db.middlewareStack.remove('faultInjector')
      const after = await state(documentId)
      expect(after.versions).toEqual(committed)
      expect(after.fr).toBe(before.fr + frDelta)
      // A non-localized update moves each version's revision once, not once per attempt.
      if (committed.some(([, views]) => views === 99)) expect(after.etags.map(revOf)).toEqual(before.etags.map((etag) => revOf(etag) + 1))
      await expectStorageInvariants(ctx)
    })

    it.each(writes)('$name whose every answer is lost: 503, yet written exactly once', async ({ run, committed, frDelta }) => {
      const documentId = await twoVersions()
      const before = await state(documentId)
      injectFaults(ctx, (attempt) => (isTransaction(attempt) ? { ...INTERNAL, afterSend: true } : undefined))
      await expectUnavailable(await run(documentId))
      ctx.db.middlewareStack.remove('faultInjector')
      const after = await state(documentId)
      expect(after.versions).toEqual(committed)
      expect(after.fr).toBe(before.fr + frDelta)
      await expectStorageInvariants(ctx)
    })
  })
})
