// GET /_health says whether requests can be served: 200 when DynamoDB answers, 503 in the
// envelope when it cannot be reached (here a closed loopback port), from a cheap cached read.
import { afterAll, expect, it } from 'vitest'
import { freePort } from '../../lib/local/dynamodb-local.js'
import { createTestContext, json, type TestContext } from '../support/context.js'

const contexts: TestContext[] = []
afterAll(() => contexts.forEach((ctx) => ctx.db.destroy()))

it('answers 200 when DynamoDB answers', async () => {
  const ctx = await createTestContext()
  contexts.push(ctx)
  const response = await ctx.request('GET', '/_health')
  expect(response.status).toBe(200)
  expect(await json(response)).toEqual({ status: 'ok' })
})

it('answers 503 in the envelope when DynamoDB cannot be reached, without retrying every call', async () => {
  const closed = `http://127.0.0.1:${await freePort()}` // nothing listens there
  const ctx = await createTestContext({}, { endpoint: closed, maxAttempts: 1 })
  contexts.push(ctx)
  const response = await ctx.request('GET', '/_health')
  expect(response.status).toBe(503)
  expect((await json(response)).error).toMatchObject({ status: 503, name: 'ServiceUnavailableError' })
  const started = Date.now()
  const again = await Promise.all(Array.from({ length: 50 }, () => ctx.request('GET', '/_health')))
  expect(again.map((r) => r.status)).toEqual(again.map(() => 503))
  expect(Date.now() - started).toBeLessThan(1000) // the cached answer, not 50 more failed calls
})
