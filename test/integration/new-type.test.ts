// Adding a content type is adding one schema.json (content-model.md §14): `npm start` on a folder
// with a new file serves it and describes it in /api/openapi.json, with no TypeScript edit; a bad
// file stops `npm start` and the CDK app with one line naming the file and the key.
import { spawn, execFile } from 'node:child_process'
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { randomBytes } from 'node:crypto'
import { afterAll, describe, expect, it } from 'vitest'
import { dynamoEndpoint } from '../support/dynamo-endpoint.js'
import { DEFAULT_CONTENT_TYPES_DIR } from '../../lib/schema/load.js'

const run = promisify(execFile)
const made: string[] = []
afterAll(() => made.forEach((dir) => rmSync(dir, { recursive: true, force: true })))

const REVIEW = {
  kind: 'collectionType',
  info: { singularName: 'review', pluralName: 'reviews', displayName: 'Review' },
  pluginOptions: { i18n: { localized: true } },
  attributes: {
    headline: { type: 'string', required: true, pluginOptions: { i18n: { localized: true } } },
    rating: { type: 'integer', min: 1, max: 5, pluginOptions: { i18n: { localized: false } } },
  },
}

/** The shipped examples plus `extra` (name → schema), in a folder of its own. */
function typesFolder(extra: Record<string, unknown>): string {
  const dir = mkdtempSync(join(tmpdir(), 'types-'))
  made.push(dir)
  cpSync(DEFAULT_CONTENT_TYPES_DIR, dir, { recursive: true })
  for (const [name, schema] of Object.entries(extra)) {
    mkdirSync(join(dir, name), { recursive: true })
    writeFileSync(join(dir, name, 'schema.json'), typeof schema === 'string' ? schema : JSON.stringify(schema, null, 2))
  }
  return dir
}

/** `npm start`'s entry point with `env` added, until it prints its address; then `stop()` ends it. */
async function startServer(env: Record<string, string>): Promise<{ base: string; stop: () => void }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'functions/local.ts'], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  const base = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no address printed: ${output}`)), 30_000)
    const read = (chunk: Buffer) => {
      output += chunk.toString()
      const match = /Content API on (http:\/\/127\.0\.0\.1:\d+)/.exec(output)
      if (match !== null) {
        clearTimeout(timer)
        resolve(match[1] as string)
      }
    }
    child.stdout.on('data', read)
    child.stderr.on('data', read)
    child.once('exit', (code) => reject(new Error(`exited ${code}: ${output}`)))
  })
  return { base, stop: () => child.kill('SIGTERM') }
}

describe('a new schema file', () => {
  it('is served by npm start and described by its OpenAPI document, with no code change', async () => {
    const server = await startServer({
      CONTENT_TYPES_DIR: typesFolder({ review: REVIEW }),
      DYNAMODB_ENDPOINT: dynamoEndpoint(),
      TABLE_NAME: `newtype-${randomBytes(6).toString('hex')}`,
      PORT: '0',
      ADMIN_TOKEN: 'new-type-admin-token-0123456789',
    })
    try {
      // Present at the first start: the public role may read it.
      const list = await fetch(`${server.base}/api/reviews`)
      expect(list.status).toBe(200)
      expect(await list.json()).toEqual({ data: [], meta: { pagination: { page: 1, pageSize: 25, pageCount: 0, total: 0 } } })
      const admin = { Authorization: 'Bearer new-type-admin-token-0123456789', 'Content-Type': 'application/json' }
      const token = await (await fetch(`${server.base}/admin/api-tokens`, { method: 'POST', headers: admin, body: JSON.stringify({ name: 'w', type: 'full-access' }) })).json() as { data: { accessKey: string } }
      const write = (data: unknown) => fetch(`${server.base}/api/reviews`, { method: 'POST', headers: { Authorization: `Bearer ${token.data.accessKey}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ data }) })
      const created = await write({ headline: 'Great', rating: 5 })
      expect(created.status).toBe(200)
      expect((await created.json() as { data: unknown }).data).toMatchObject({ headline: 'Great', rating: 5, locale: 'en' })
      expect((await write({ headline: 'Too good', rating: 6 })).status).toBe(400)
      const openapi = await (await fetch(`${server.base}/api/openapi.json`)).json() as { paths: Record<string, unknown>; components: { schemas: Record<string, any> } }
      expect(Object.keys(openapi.paths)).toEqual(expect.arrayContaining(['/api/reviews', '/api/reviews/{documentId}']))
      expect(openapi.components.schemas.Review.properties.rating).toMatchObject({ minimum: 1, maximum: 5 })
    } finally {
      server.stop()
    }
  })
})

describe('a bad schema file', () => {
  const broken = () => typesFolder({ review: { ...REVIEW, attributes: { ...REVIEW.attributes, cover: { type: 'media', allowedTypes: ['pictures'] } } } })

  it('stops npm start with one line naming the file and the key, exit code 1, before DynamoDB', async () => {
    const outcome = await run(process.execPath, ['node_modules/tsx/dist/cli.mjs', 'functions/local.ts'], {
      env: { ...process.env, CONTENT_TYPES_DIR: broken(), DYNAMODB_ENDPOINT: '', PORT: '0' }, timeout: 30_000,
    }).then(() => ({ code: 0, stderr: '' }), (error: { code: number; stderr: string }) => error)
    expect(outcome.code).toBe(1)
    expect(outcome.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^Cannot start: .*review\/schema\.json: attributes\.cover\.allowedTypes\.0: must list some of/)])
  })

  it('stops the CDK app (cdk synth) the same way', async () => {
    const outcome = await run(process.execPath, ['node_modules/tsx/dist/cli.mjs', 'infra/app.ts'], {
      env: { ...process.env, CONTENT_TYPES_DIR: broken(), CDK_OUTDIR: mkdtempSync(join(tmpdir(), 'cdk-out-')) }, timeout: 60_000,
    }).then(() => ({ code: 0, stderr: '' }), (error: { code: number; stderr: string }) => error)
    expect(outcome.code).toBe(1)
    expect(outcome.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^Cannot synthesize: .*review\/schema\.json: attributes\.cover\.allowedTypes\.0: must list some of/)])
  })
})
