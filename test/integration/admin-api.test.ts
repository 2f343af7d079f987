// The administration API (behaviour.md §8 table): locales, API tokens and the public role.
import { createHmac } from 'node:crypto'
import { beforeEach, describe, expect, it } from 'vitest'
import { ADMIN_TOKEN, TOKEN_HASH_SECRET, createTestContext, json, scanTable, type TestContext } from '../support/context.js'

const ARTICLE = 'api::article.article'
const HOMEPAGE = 'api::homepage.homepage'
const LIST_LOCALES = 'plugin::i18n.locales.listLocales'
const LOCALE_FIELDS = ['code', 'createdAt', 'fallback', 'id', 'isDefault', 'name', 'updatedAt']


async function expectError(response: Response, status: number, name: string): Promise<any> {
  expect(response.status).toBe(status)
  const body = await json(response)
  expect(body).toMatchObject({ data: null, error: { status, name } })
  expect(typeof body.error.details).toBe('object')
  return body.error
}

describe('admin API: locales', () => {
  let ctx: TestContext
  beforeEach(async () => {
    ctx = await createTestContext()
  })

  it('starts with en as the default, listed as a bare array on GET /api/i18n/locales', async () => {
    const response = await ctx.request('GET', '/api/i18n/locales')
    expect(response.status).toBe(200)
    const body = await json(response)
    expect(Array.isArray(body)).toBe(true)
    expect(body).toHaveLength(1)
    expect(Object.keys(body[0]).sort()).toEqual(LOCALE_FIELDS)
    expect(body[0]).toMatchObject({ code: 'en', isDefault: true })
  })

  it('holds 200 locales (at least 100, behaviour.md §8), and answers 400 naming the limit past it', async () => {
    const codes = Array.from({ length: 199 }, (_, i) => `x${String.fromCharCode(97 + Math.floor(i / 26))}${String.fromCharCode(97 + (i % 26))}`)
    for (let i = 0; i < codes.length; i += 20) await ctx.addLocales(...codes.slice(i, i + 20))
    const refused = await ctx.admin('POST', '/admin/i18n/locales', { code: 'zz' })
    expect(refused.status).toBe(400)
    expect((await json(refused)).error.message).toBe('A deployment holds at most 200 locales')
    expect(await json(await ctx.request('GET', '/api/i18n/locales'))).toHaveLength(200)
  }, 120_000)

  it('adds a locale: 201, named from its code, listed by both routes', async () => {
    const response = await ctx.admin('POST', '/admin/i18n/locales', { code: 'fr' })
    expect(response.status).toBe(201)
    const { data } = await json(response)
    expect(data).toMatchObject({ code: 'fr', name: 'French (fr)', isDefault: false })
    expect(Object.keys(data).sort()).toEqual(LOCALE_FIELDS)
    const adminList = await json(await ctx.admin('GET', '/admin/i18n/locales'))
    expect(adminList.data.map((locale: { code: string }) => locale.code)).toEqual(['en', 'fr'])
    const publicList = await json(await ctx.request('GET', '/api/i18n/locales'))
    expect(publicList).toEqual(adminList.data)
  })

  it('keeps a given name', async () => {
    const { data } = await json(await ctx.admin('POST', '/admin/i18n/locales', { code: 'de', name: 'Deutsch' }))
    expect(data.name).toBe('Deutsch')
  })

  it('answers 409 for a code that exists in another case, and writes nothing', async () => {
    await ctx.addLocales('fr')
    const before = await scanTable(ctx)
    await expectError(await ctx.admin('POST', '/admin/i18n/locales', { code: 'FR' }), 409, 'ConflictError')
    await expectError(await ctx.admin('POST', '/admin/i18n/locales', { code: 'EN' }), 409, 'ConflictError')
    expect(await scanTable(ctx)).toEqual(before)
  })

  it.each([
    ['a code that is not a locale code', { code: 'not a code' }],
    ['an empty code', { code: '' }],
    ['a code over 35 characters', { code: `en-${'abcdefgh-'.repeat(4)}x1` }],
    ['a numeric code', { code: 42 }],
    ['no code', { name: 'Nameless' }],
    ['a non-boolean isDefault', { code: 'fr', isDefault: 'yes' }],
    ['an unknown key', { code: 'fr', rtl: true }],
  ])('answers 400 for %s, and writes nothing', async (_, body) => {
    const before = await scanTable(ctx)
    await expectError(await ctx.admin('POST', '/admin/i18n/locales', body), 400, 'ValidationError')
    expect(await scanTable(ctx)).toEqual(before)
  })

  it('switches the default with isDefault: true, leaving exactly one default, which content requests then use', async () => {
    await ctx.addLocales('fr')
    const response = await ctx.admin('PUT', '/admin/i18n/locales/fr', { isDefault: true })
    expect(response.status).toBe(200)
    expect((await json(response)).data).toMatchObject({ code: 'fr', isDefault: true })
    const locales = await json(await ctx.request('GET', '/api/i18n/locales'))
    expect(locales.filter((locale: { isDefault: boolean }) => locale.isDefault).map((locale: { code: string }) => locale.code)).toEqual(['fr'])
    const created = await ctx.request('POST', '/api/articles', { token: await ctx.token(), body: { data: { title: 'Bonjour' } } })
    expect((await json(created)).data.locale).toBe('fr')
  })

  it('adds a locale as the new default', async () => {
    await ctx.admin('POST', '/admin/i18n/locales', { code: 'it', isDefault: true })
    const locales = await json(await ctx.request('GET', '/api/i18n/locales'))
    expect(locales.map((locale: { code: string; isDefault: boolean }) => [locale.code, locale.isDefault])).toEqual([['en', false], ['it', true]])
  })

  it('renames a locale addressed in any case', async () => {
    await ctx.addLocales('fr')
    const response = await ctx.admin('PUT', '/admin/i18n/locales/FR', { name: 'Français' })
    expect(response.status).toBe(200)
    expect((await json(response)).data).toMatchObject({ code: 'fr', name: 'Français' })
  })

  it('answers 404 for an unknown code on PUT and DELETE', async () => {
    await expectError(await ctx.admin('PUT', '/admin/i18n/locales/xx', { name: 'X' }), 404, 'NotFoundError')
    await expectError(await ctx.admin('DELETE', '/admin/i18n/locales/xx'), 404, 'NotFoundError')
  })

  it('answers 400 for a bad PUT body', async () => {
    await expectError(await ctx.admin('PUT', '/admin/i18n/locales/en', { name: 5 }), 400, 'ValidationError')
    await expectError(await ctx.admin('PUT', '/admin/i18n/locales/en', { code: 'de' }), 400, 'ValidationError')
  })

  it('deletes an unused locale with 204', async () => {
    await ctx.addLocales('fr')
    const response = await ctx.admin('DELETE', '/admin/i18n/locales/fr')
    expect(response.status).toBe(204)
    expect(await response.text()).toBe('')
    const locales = await json(await ctx.request('GET', '/api/i18n/locales'))
    expect(locales.map((locale: { code: string }) => locale.code)).toEqual(['en'])
  })

  it('answers 409 for deleting the default locale', async () => {
    await expectError(await ctx.admin('DELETE', '/admin/i18n/locales/en'), 409, 'ConflictError')
  })

  it('answers 409 for deleting a locale that still has versions, and 204 once they are gone', async () => {
    await ctx.addLocales('fr')
    const key = await ctx.token()
    const created = await json(await ctx.request('POST', '/api/articles?locale=fr', { token: key, body: { data: { title: 'Salut' } } }))
    await expectError(await ctx.admin('DELETE', '/admin/i18n/locales/fr'), 409, 'ConflictError')
    expect((await ctx.request('DELETE', `/api/articles/${created.data.documentId}?locale=fr`, { token: key })).status).toBe(204)
    expect((await ctx.admin('DELETE', '/admin/i18n/locales/fr')).status).toBe(204)
  })
})

describe('admin API: tokens', () => {
  let ctx: TestContext
  beforeEach(async () => {
    ctx = await createTestContext()
  })

  it('creates a token: 201 with a long random access key shown once', async () => {
    const response = await ctx.admin('POST', '/admin/api-tokens', { name: 'reader', type: 'read-only' })
    expect(response.status).toBe(201)
    const { data } = await json(response)
    expect(Object.keys(data).sort()).toEqual(['accessKey', 'createdAt', 'description', 'expiresAt', 'id', 'lifespan', 'name', 'permissions', 'type'])
    expect(data).toMatchObject({ name: 'reader', type: 'read-only' })
    expect(data.accessKey).toMatch(/^[A-Za-z0-9_-]{43,}$/) // at least 256 bits of base64url
    const other = await json(await ctx.admin('POST', '/admin/api-tokens', { name: 'reader 2', type: 'read-only' }))
    expect(other.data.accessKey).not.toBe(data.accessKey)
    expect(other.data.id).not.toBe(data.id)
  })

  it('lists tokens without their access keys', async () => {
    const { data: created } = await json(await ctx.admin('POST', '/admin/api-tokens', { name: 'lister', type: 'full-access' }))
    const response = await ctx.admin('GET', '/admin/api-tokens')
    expect(response.status).toBe(200)
    const { data } = await json(response)
    expect(data).toHaveLength(1)
    expect(data[0]).toMatchObject({ id: created.id, name: 'lister', type: 'full-access', createdAt: created.createdAt })
    expect(data[0]).not.toHaveProperty('accessKey')
    expect(JSON.stringify(data)).not.toContain(created.accessKey)
  })

  it('stores only the HMAC-SHA-256 of the access key, never the key itself', async () => {
    const { data } = await json(await ctx.admin('POST', '/admin/api-tokens', { name: 'hashed', type: 'read-only' }))
    const items = JSON.stringify(await scanTable(ctx))
    expect(items).not.toContain(data.accessKey)
    const hash = createHmac('sha256', TOKEN_HASH_SECRET).update(data.accessKey).digest('hex')
    expect(items).toContain(hash)
  })

  it('creates a custom token with its action list', async () => {
    const permissions = [`${ARTICLE}.find`, `${ARTICLE}.createLocalization`, `${HOMEPAGE}.update`, LIST_LOCALES]
    const response = await ctx.admin('POST', '/admin/api-tokens', { name: 'custom', type: 'custom', permissions })
    expect(response.status).toBe(201)
    expect((await json(response)).data.permissions).toEqual(permissions)
  })

  it.each([
    ['an unknown action', { name: 'x', type: 'custom', permissions: [`${ARTICLE}.find`, `${ARTICLE}.archive`] }],
    ['findOne on a single type', { name: 'x', type: 'custom', permissions: [`${HOMEPAGE}.findOne`] }],
    ['an action of an unknown type', { name: 'x', type: 'custom', permissions: ['api::page.page.find'] }],
    ['permissions that are not an array', { name: 'x', type: 'custom', permissions: `${ARTICLE}.find` }],
    ['a non-string action', { name: 'x', type: 'custom', permissions: [1] }],
    ['an action list on a read-only token', { name: 'x', type: 'read-only', permissions: [`${ARTICLE}.create`] }],
    ['an unknown token type', { name: 'x', type: 'admin' }],
    ['no name', { type: 'read-only' }],
    ['a blank name', { name: '   ', type: 'read-only' }],
    ['an unknown key', { name: 'x', type: 'read-only', expiresIn: 7 }],
  ])('answers 400 for %s, and writes nothing', async (_, body) => {
    const before = await scanTable(ctx)
    await expectError(await ctx.admin('POST', '/admin/api-tokens', body), 400, 'ValidationError')
    expect(await scanTable(ctx)).toEqual(before)
  })

  it('deletes a token: 204, then 404 for the same id', async () => {
    const { data } = await json(await ctx.admin('POST', '/admin/api-tokens', { name: 'gone', type: 'read-only' }))
    const response = await ctx.admin('DELETE', `/admin/api-tokens/${data.id}`)
    expect(response.status).toBe(204)
    expect(await response.text()).toBe('')
    expect((await json(await ctx.admin('GET', '/admin/api-tokens'))).data).toEqual([])
    await expectError(await ctx.admin('DELETE', `/admin/api-tokens/${data.id}`), 404, 'NotFoundError')
  })

  it.each(['999', 'abc', '0', '-1', '1.5'])('answers 404 for token id %s', async (id) => {
    await expectError(await ctx.admin('DELETE', `/admin/api-tokens/${id}`), 404, 'NotFoundError')
  })
})

describe('admin API: the public role', () => {
  let ctx: TestContext
  beforeEach(async () => {
    ctx = await createTestContext()
  })

  it('defaults to find of every type, findOne of every collection type, and listLocales', async () => {
    const response = await ctx.admin('GET', '/admin/roles/public')
    expect(response.status).toBe(200)
    const { data } = await json(response)
    expect(Object.keys(data)).toEqual(['permissions'])
    const AUTHOR = 'api::author.author'
    const TAG = 'api::tag.tag'
    expect([...data.permissions].sort()).toEqual([`${ARTICLE}.find`, `${ARTICLE}.findOne`, `${AUTHOR}.find`, `${AUTHOR}.findOne`, `${HOMEPAGE}.find`, `${TAG}.find`, `${TAG}.findOne`, LIST_LOCALES].sort())
  })

  it('replaces the permissions with PUT and answers the same shape', async () => {
    const permissions = [`${ARTICLE}.find`, `${ARTICLE}.create`]
    const response = await ctx.admin('PUT', '/admin/roles/public', { permissions })
    expect(response.status).toBe(200)
    expect(await json(response)).toEqual({ data: { permissions } })
    expect(await json(await ctx.admin('GET', '/admin/roles/public'))).toEqual({ data: { permissions } })
  })

  it.each([
    ['an unknown action', { permissions: [`${ARTICLE}.find`, 'admin::everything'] }],
    ['findOne on a single type', { permissions: [`${HOMEPAGE}.findOne`] }],
    ['no permissions key', {}],
    ['permissions that are not an array', { permissions: 'all' }],
  ])('answers 400 for %s and keeps the role', async (_, body) => {
    const before = await json(await ctx.admin('GET', '/admin/roles/public'))
    await expectError(await ctx.admin('PUT', '/admin/roles/public', body), 400, 'ValidationError')
    expect(await json(await ctx.admin('GET', '/admin/roles/public'))).toEqual(before)
  })
})

describe('admin API: the admin token', () => {
  let ctx: TestContext
  beforeEach(async () => {
    ctx = await createTestContext()
  })

  const routes: [string, string, unknown?][] = [
    ['GET', '/admin/i18n/locales'],
    ['POST', '/admin/i18n/locales', { code: 'fr' }],
    ['PUT', '/admin/i18n/locales/en', { name: 'Anglais' }],
    ['DELETE', '/admin/i18n/locales/en'],
    ['GET', '/admin/api-tokens'],
    ['POST', '/admin/api-tokens', { name: 'x', type: 'full-access' }],
    ['DELETE', '/admin/api-tokens/1'],
    ['GET', '/admin/roles/public'],
    ['PUT', '/admin/roles/public', { permissions: [] }],
  ]

  it.each(routes)('%s %s answers 401 without, with a wrong, or with an API token, and writes nothing', async (method, path, body) => {
    const apiKey = await ctx.token('full-access')
    const before = await scanTable(ctx)
    for (const authorization of [undefined, `Bearer ${ADMIN_TOKEN}x`, `Bearer ${ADMIN_TOKEN.slice(0, -1)}`, `Bearer ${apiKey}`, ADMIN_TOKEN, 'Bearer ']) {
      const headers: Record<string, string> = authorization === undefined ? {} : { Authorization: authorization }
      const error = await expectError(await ctx.request(method, path, { body, headers }), 401, 'UnauthorizedError')
      expect(error).toEqual({ status: 401, name: 'UnauthorizedError', message: 'Missing or invalid credentials', details: {} })
    }
    expect(await scanTable(ctx)).toEqual(before)
  })

  it('accepts the scheme in any case', async () => {
    expect((await ctx.request('GET', '/admin/roles/public', { headers: { Authorization: `bearer ${ADMIN_TOKEN}` } })).status).toBe(200)
  })

  it('answers 404 for an unknown admin route and 405 for a wrong method before checking credentials', async () => {
    await expectError(await ctx.request('GET', '/admin/users'), 404, 'NotFoundError')
    const wrongMethod = await ctx.request('PATCH', '/admin/roles/public')
    await expectError(wrongMethod, 405, 'MethodNotAllowedError')
    expect(wrongMethod.headers.get('Allow')).toBe('GET, PUT')
  })

  it('answers 400 for a query parameter on an admin route', async () => {
    await expectError(await ctx.admin('GET', '/admin/api-tokens?page=2'), 400, 'ValidationError')
  })
})
