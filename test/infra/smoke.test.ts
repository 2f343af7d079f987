// The post-deploy smoke test (infra/smoke.ts) against a stand-in API: it passes on the answers a
// healthy stage gives and names each check that gets a wrong one.
import { describe, expect, it } from 'vitest'
import { smokeTest } from '../../infra/smoke.js'

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })
const notFound = { data: null, error: { status: 404, name: 'NotFoundError', message: 'Not Found', details: {} } }

/** A stage answering like a fresh deployment, with `override` replacing the answer for paths it matches. */
function stage(override: (path: string) => Response | undefined = () => undefined) {
  const requested: string[] = []
  const fetchImpl = async (url: string) => {
    const { pathname, search } = new URL(url)
    requested.push(decodeURIComponent(pathname + search))
    const replaced = override(pathname)
    if (replaced !== undefined) return replaced
    if (pathname === '/prod/api/i18n/locales') return json(200, { data: [{ code: 'en', isDefault: true }], meta: {} })
    if (pathname === '/prod/api/articles') return json(200, { data: [], meta: { pagination: { page: 1, pageSize: 1, pageCount: 0, total: 0 } } })
    return json(404, notFound)
  }
  return { fetchImpl, requested }
}

describe('smoke test', () => {
  it('passes a healthy stage, after asking for the locales, a list page and an unknown path', async () => {
    const { fetchImpl, requested } = stage()
    expect(await smokeTest('https://api.example/prod/', fetchImpl)).toEqual([])
    expect(requested).toEqual(['/prod/api/i18n/locales', '/prod/api/articles?pagination[pageSize]=1', '/prod/api/smoke-test-no-such-type'])
  })

  it.each([
    ['a failing locale list', '/prod/api/i18n/locales', json(502, { message: 'Internal server error' }), /health.*status 502/],
    ['a list that is not a list envelope', '/prod/api/articles', json(200, { data: {} }), /anonymous list.*not a list envelope/],
    ['a forbidden list', '/prod/api/articles', json(403, {}), /anonymous list.*status 403/],
    ['a 404 without the envelope', '/prod/api/smoke-test-no-such-type', json(404, { message: 'Missing Authentication Token' }), /unknown path.*not the error envelope/],
    ['a 403 for an unknown path', '/prod/api/smoke-test-no-such-type', json(403, { message: 'Forbidden' }), /unknown path.*status 403/],
    ['an HTML answer', '/prod/api/i18n/locales', new Response('<html>', { status: 200 }), /health.*no locales/],
  ])('fails on %s', async (_, path, response, message) => {
    const { fetchImpl } = stage((requested) => (requested === path ? response : undefined))
    const failures = await smokeTest('https://api.example/prod/', fetchImpl)
    expect(failures).toHaveLength(1)
    expect(failures[0]).toMatch(message)
  })

  it('fails when the stage cannot be reached', async () => {
    const failures = await smokeTest('https://api.example/prod/', async () => {
      throw new Error('getaddrinfo ENOTFOUND')
    })
    expect(failures).toHaveLength(3)
    expect(failures.every((failure) => failure.endsWith('ENOTFOUND'))).toBe(true)
  })
})
