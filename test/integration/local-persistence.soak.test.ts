// `npm start` keeps its data: documents, locales, API tokens, the public role and the admin token
// survive a restart (DynamoDB Local's file and secrets.json in DATA_DIR); a rotated admin token
// leaves API tokens valid; `--in-memory` writes nothing; a table whose tokens were hashed under
// the key once derived from the admin token keeps them.
import { randomBytes } from 'node:crypto'
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { dynamoEndpoint } from '../support/dynamo-endpoint.js'
import { AccessService, legacyTokenHashKey } from '../../lib/access.js'
import { createDocumentClient } from '../../lib/storage/client.js'
import { ensureTable } from '../../lib/storage/schema.js'
import { SettingsStore } from '../../lib/storage/settings.js'
import { startLocal, type LocalProcess } from '../support/local-process.js'
import { shippedTypes } from '../support/types.js'

const dirs: string[] = []
const running: LocalProcess[] = []
afterAll(async () => {
  await Promise.all(running.map((local) => local.stop()))
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

function dataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'local-data-'))
  dirs.push(dir)
  return dir
}

async function started(env: Record<string, string>, args: string[] = []): Promise<LocalProcess> {
  const local = await startLocal(env, args)
  running.push(local)
  return local
}

async function stopped(local: LocalProcess): Promise<void> {
  running.splice(running.indexOf(local), 1)
  await local.stop()
}

async function call(local: LocalProcess, method: string, path: string, token?: string, body?: unknown): Promise<{ status: number; body: any }> {
  const headers: Record<string, string> = token === undefined ? {} : { Authorization: `Bearer ${token}` }
  if (body !== undefined) headers['Content-Type'] = 'application/json'
  const response = await fetch(`${local.url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) })
  const text = await response.text()
  return { status: response.status, body: text === '' ? undefined : JSON.parse(text) }
}

describe('npm start keeps its data in DATA_DIR', () => {
  it('finds documents, locales, tokens, the public role and the admin token again after a restart, and after an admin token rotation', async () => {
    // Prepare: a first run on an empty data directory, with content of every kind.
    const dir = dataDir()
    const first = await started({ DATA_DIR: dir })
    expect(first.stdout()).toContain(`data in ${dir}`)
    expect(first.stdout()).toContain(`kept in ${join(dir, 'secrets.json')}`)
    expect((await call(first, 'POST', '/admin/i18n/locales', first.adminToken, { code: 'fr' })).status).toBe(201)
    const token = (await call(first, 'POST', '/admin/api-tokens', first.adminToken, { name: 'kept', type: 'full-access' })).body.data.accessKey as string
    const created = await call(first, 'POST', '/api/articles?locale=fr', token, { data: { title: 'Gardé', slug: 'garde' } })
    expect(created.status).toBe(200)
    expect((await call(first, 'PUT', '/admin/roles/public', first.adminToken, { permissions: ['plugin::i18n.locales.listLocales'] })).status).toBe(200)
    expect(statSync(join(dir, 'secrets.json')).mode & 0o777).toBe(0o600)
    await stopped(first)

    // Act: a restart with nothing set.
    const second = await started({ DATA_DIR: dir })

    // Assess: the same admin token, and everything the first run wrote.
    expect(second.adminToken).toBe(first.adminToken)
    const read = await call(second, 'GET', `/api/articles/${created.body.data.documentId}?locale=fr`, token)
    expect(read.status).toBe(200)
    expect(JSON.stringify(read.body.data)).toContain('Gardé')
    expect((await call(second, 'GET', '/admin/i18n/locales', second.adminToken)).body.data.map((l: any) => l.code)).toEqual(['en', 'fr'])
    expect((await call(second, 'GET', '/api/articles')).status).toBe(403)
    await stopped(second)

    // Act: rotate the admin token (ADMIN_TOKEN replaces the kept one).
    const rotated = `rotated-${randomBytes(16).toString('hex')}`
    const third = await started({ DATA_DIR: dir, ADMIN_TOKEN: rotated })
    expect(third.stdout()).toContain('Admin token: (from ADMIN_TOKEN)')
    expect((await call(third, 'GET', '/admin/api-tokens', first.adminToken)).status).toBe(401)
    expect((await call(third, 'GET', '/admin/api-tokens', rotated)).body.data.map((t: any) => t.name)).toEqual(['kept'])
    expect((await call(third, 'GET', '/api/articles?locale=fr', token)).body.meta.pagination.total).toBe(1)
    await stopped(third)

    // The rotated token is the one kept.
    const fourth = await started({ DATA_DIR: dir })
    expect(fourth.adminToken).toBe(rotated)
    expect(JSON.parse(readFileSync(join(dir, 'secrets.json'), 'utf8')).adminToken).toBe(rotated)
    expect((await call(fourth, 'GET', '/api/articles?locale=fr', token)).status).toBe(200)
    await stopped(fourth)
  }, 180_000)

  // Issue 33, point 5: DATA_DIR was 0755 and DynamoDB Local's file 0644, holding token and password hashes and drafts.
  it('keeps its data readable by this user only: folders 0700, files 0600, older ones tightened', async () => {
    // Prepare: a DATA_DIR the start creates, and one from before with open modes.
    const fresh = join(dataDir(), 'data')
    const older = dataDir()
    mkdirSync(join(older, 'dynamodb'), { mode: 0o755 })
    chmodSync(join(older, 'dynamodb'), 0o755)
    const kept = { adminToken: `kept-${randomBytes(16).toString('hex')}`, tokenHashSecret: randomBytes(32).toString('hex') }
    writeFileSync(join(older, 'secrets.json'), JSON.stringify(kept), { mode: 0o644 })
    chmodSync(join(older, 'secrets.json'), 0o644)
    const modes = (dir: string) => {
      const files = readdirSync(join(dir, 'dynamodb'))
      return {
        dynamodb: statSync(join(dir, 'dynamodb')).mode & 0o777,
        files: files.map((name) => ({ name, mode: statSync(join(dir, 'dynamodb', name)).mode & 0o777 })),
        secrets: statSync(join(dir, 'secrets.json')).mode & 0o777,
      }
    }
    for (const dir of [fresh, older]) {
      // Act: a start that writes a document, so that DynamoDB Local has written its file.
      const local = await started({ DATA_DIR: dir })
      expect((await call(local, 'POST', '/admin/i18n/locales', local.adminToken, { code: 'fr' })).status).toBe(201)
      await stopped(local)
      // Assess
      const found = modes(dir)
      expect(found.files.length).toBeGreaterThan(0)
      expect(found).toEqual({ dynamodb: 0o700, files: found.files.map(({ name }) => ({ name, mode: 0o600 })), secrets: 0o600 })
    }
    expect(statSync(fresh).mode & 0o777).toBe(0o700)
  }, 120_000)

  it('--in-memory writes nothing and forgets everything', async () => {
    const dir = join(dataDir(), 'unused')
    const first = await started({ DATA_DIR: dir }, ['--in-memory'])
    expect(first.stdout()).toContain('in memory')
    expect(first.stdout()).toContain('this run only (--in-memory)')
    expect((await call(first, 'POST', '/admin/i18n/locales', first.adminToken, { code: 'fr' })).status).toBe(201)
    await stopped(first)
    expect(existsSync(dir)).toBe(false)

    const second = await started({ DATA_DIR: dir, LOCAL_IN_MEMORY: 'true' })
    expect(second.adminToken).not.toBe(first.adminToken)
    expect((await call(second, 'GET', '/admin/i18n/locales', second.adminToken)).body.data.map((l: any) => l.code)).toEqual(['en'])
    await stopped(second)
    expect(existsSync(dir)).toBe(false)
  }, 120_000)
})

describe('a table from before tokens had a key of their own (DYNAMODB_ENDPOINT)', () => {
  it('keeps its tokens valid, and keeps them valid after the admin token changes', async () => {
    // Prepare: a token stored as an older local run stored it, under the key derived from its admin token.
    const endpoint = dynamoEndpoint()
    const tableName = `legacy-${randomBytes(6).toString('hex')}`
    const db = createDocumentClient({ region: 'us-east-1', endpoint })
    await ensureTable(db, tableName)
    const oldAdminToken = `old-admin-${randomBytes(12).toString('hex')}`
    const access = new AccessService(new SettingsStore(db, tableName), shippedTypes, legacyTokenHashKey(oldAdminToken), 0)
    const { accessKey } = await access.createToken({ name: 'old', type: 'read-only' })
    const dir = dataDir()

    // Act: the first start with kept secrets, then one with another admin token.
    const first = await started({ DATA_DIR: dir, DYNAMODB_ENDPOINT: endpoint, TABLE_NAME: tableName, ADMIN_TOKEN: oldAdminToken })
    const before = await call(first, 'GET', '/api/articles', accessKey)
    const fresh = (await call(first, 'POST', '/admin/api-tokens', oldAdminToken, { name: 'new', type: 'read-only' })).body.data.accessKey as string
    await stopped(first)
    const second = await started({ DATA_DIR: dir, DYNAMODB_ENDPOINT: endpoint, TABLE_NAME: tableName, ADMIN_TOKEN: `new-admin-${randomBytes(12).toString('hex')}` })

    // Assess
    expect(before.status).toBe(200)
    expect((await call(second, 'GET', '/api/articles', accessKey)).status).toBe(200)
    expect((await call(second, 'GET', '/api/articles', fresh)).status).toBe(200)
    const kept = JSON.parse(readFileSync(join(dir, 'secrets.json'), 'utf8')).tokenHashSecret as string
    expect(kept.split(' ')).toHaveLength(2)
    expect(kept.split(' ')[1]).toBe(legacyTokenHashKey(oldAdminToken))
    await stopped(second)
  }, 120_000)
})
