// The smoke test a deploy job runs against the stage it just deployed: the locales (the API answers
// at all), one anonymous list page, and an unknown path answered 404 in the error envelope.
// `npx tsx infra/smoke.ts <base URL>`; exits 1, listing what failed.
import { pathToFileURL } from 'node:url'
import { loadContentTypes } from '../lib/schema/load.js'

type Fetch = (url: string, init?: RequestInit) => Promise<Response>

interface Check {
  readonly name: string
  readonly path: string
  /** What is wrong with the answer, or undefined. */
  readonly problem: (status: number, body: any) => string | undefined
}

// The deployment's types: CONTENT_TYPES_DIR as at synth, else the project's examples.
const collection = loadContentTypes(process.env.CONTENT_TYPES_DIR || undefined).find((type) => type.kind === 'collection')

const CHECKS: readonly Check[] = [
  {
    name: 'health: the locale list',
    path: 'api/i18n/locales',
    problem: (status, body) => (status !== 200 ? `status ${status}` : Array.isArray(body?.data) && body.data.length > 0 ? undefined : 'no locales'),
  },
  ...(collection === undefined ? [] : [{
    name: `an anonymous list: /api/${collection.pluralName}`,
    path: `api/${collection.pluralName}?pagination[pageSize]=1`,
    problem: (status: number, body: any) =>
      status !== 200 ? `status ${status}` : Array.isArray(body?.data) && typeof body?.meta?.pagination === 'object' ? undefined : 'not a list envelope',
  }]),
  {
    name: 'an unknown path: 404 in the error envelope',
    path: 'api/smoke-test-no-such-type',
    problem: (status, body) =>
      status !== 404 ? `status ${status}` : body?.data === null && body?.error?.status === 404 && body?.error?.name === 'NotFoundError' ? undefined : 'not the error envelope',
  },
]

/** Runs every check against `baseUrl` (ending in `/`); the failures, empty when all passed. */
export async function smokeTest(baseUrl: string, fetchImpl: Fetch = fetch): Promise<string[]> {
  const failures: string[] = []
  for (const check of CHECKS) {
    try {
      const response = await fetchImpl(new URL(check.path, baseUrl).href, { headers: { Accept: 'application/json' }, signal: AbortSignal.timeout(15_000) })
      const text = await response.text()
      let body: unknown
      try {
        body = JSON.parse(text)
      } catch {
        body = undefined
      }
      const problem = check.problem(response.status, body)
      if (problem !== undefined) failures.push(`${check.name}: ${problem}`)
    } catch (error) {
      failures.push(`${check.name}: ${(error as Error).message}`)
    }
  }
  return failures
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const base = process.argv[2]
  if (base === undefined || !/^https:\/\//.test(base)) {
    console.error('usage: tsx infra/smoke.ts https://<api>/<stage>/')
    process.exit(2)
  }
  const failures = await smokeTest(base.endsWith('/') ? base : `${base}/`)
  for (const failure of failures) console.error(`FAIL ${failure}`)
  console.log(failures.length === 0 ? `smoke test passed: ${base}` : `${failures.length} smoke check(s) failed`)
  process.exit(failures.length === 0 ? 0 : 1)
}
