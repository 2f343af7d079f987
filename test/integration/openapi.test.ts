// GET /api/openapi.json (the public API) and GET /admin/openapi.json (everything, admin token only): valid OpenAPI 3.1 documents (checked by @seriousme/openapi-schema-validator
// against the OpenAPI Initiative's schemas), whose JSON Schemas compile under ajv's strict mode, that
// lists exactly the routes the apps serve, and that matches what the running app answers: the
// bodies and headers of real responses are validated against the responses it documents.
import { Validator } from '@seriousme/openapi-schema-validator'
import Ajv2020 from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { createAdminUi } from '../../lib/admin-ui/app.js'
import { EDITOR_PAGES } from '../../lib/admin-ui/editors.js'
import { registerMediaLibrary } from '../../lib/admin-ui/media-library.js'
import { shippedTypes } from '../support/types.js'
import { buildOpenApiDocument } from '../../lib/openapi/document.js'
import { articleData, body } from '../support/factories.js'
import { createTestContext, json, type TestContext } from '../support/context.js'
import { png, sendForm, uploadForm } from '../support/media.js'
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { LocalBlobs } from '../../lib/local/uploads.js'

type Json = Record<string, any>

/** Headers the document describes; any of them in an answer must be documented for that answer. */
const DESCRIBED_HEADERS = ['etag', 'cache-control', 'vary', 'content-language', 'allow', 'retry-after']

/** Component schemas go under `$defs` of one ajv schema, and references follow them there. */
const toAjv = (schema: unknown): Json => JSON.parse(JSON.stringify(schema).replaceAll('"#/components/schemas/', '"openapi#/$defs/'))

function strictAjv(document: Json) {
  const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true })
  addFormats(ajv)
  ajv.addSchema({ $id: 'openapi', $defs: toAjv(document.components.schemas) })
  return ajv
}

/** The object a local `$ref` points at (or the object itself). */
function resolve(document: Json, object: Json): Json {
  if (typeof object.$ref !== 'string') return object
  return object.$ref.slice(2).split('/').map((part: string) => part.replaceAll('~1', '/').replaceAll('~0', '~'))
    .reduce((at: Json, key: string) => at[key], document)
}

/** Every operation of the document as `METHOD /path`. */
function documentedOperations(document: Json): string[] {
  return Object.entries(document.paths as Record<string, Json>).flatMap(([path, item]) =>
    ['get', 'put', 'post', 'delete', 'patch'].filter((method) => item[method] !== undefined).map((method) => `${method.toUpperCase()} ${path}`))
}

/** Every inline schema under `paths` (parameters, bodies, responses), with where it sits. */
function inlineSchemas(value: unknown, at = 'paths'): [string, Json][] {
  if (typeof value !== 'object' || value === null) return []
  return Object.entries(value).flatMap(([key, child]) =>
    key === 'schema' ? [[`${at}/schema`, child as Json]] : inlineSchemas(child, `${at}/${key}`))
}

/** The checks of answers against `document`: strict ajv for its schemas, and expectDocumented. */
function conformance(document: Json) {
  const ajv = strictAjv(document)
  /** Asserts that `response` is what the document says `method template` answers; returns its JSON body. */
  async function expectDocumented(response: Response, method: string, template: string): Promise<any> {
    const item = document.paths[template]
    expect(item, `${template} is documented`).toBeDefined()
    const operation = item[method.toLowerCase()]
    const responses = operation === undefined ? { 405: { $ref: '#/components/responses/Error405' } } : operation.responses
    const documented = responses[String(response.status)]
    expect(documented, `${method} ${template} documents ${response.status}`).toBeDefined()
    const described = resolve(document, documented)
    const headers = Object.fromEntries(Object.entries((described.headers ?? {}) as Json).map(([name, header]) => [name.toLowerCase(), resolve(document, header)]))
    for (const name of DESCRIBED_HEADERS) {
      if (response.headers.has(name)) expect(Object.keys(headers), `${method} ${template} ${response.status} documents ${name}`).toContain(name)
    }
    for (const [name, header] of Object.entries(headers)) {
      if (header.required === true) expect(response.headers.has(name), `${name} is sent`).toBe(true)
    }
    const text = await response.text()
    const schema = described.content?.['application/json']?.schema
    if (schema === undefined) {
      expect(text).toBe('')
      return undefined
    }
    expect(response.headers.get('content-type')).toMatch(/^application\/json/)
    const answer = JSON.parse(text)
    const validate = ajv.compile(toAjv(schema))
    expect(validate(answer) ? [] : validate.errors, `${method} ${template} ${response.status}: ${text.slice(0, 300)}`).toEqual([])
    return answer
  }
  return { ajv, expectDocumented }
}

describe('GET /api/openapi.json', () => {
  let ctx: TestContext
  let key: string
  let document: Json
  /** The admin document: the public API and the administration API. */
  let full: Json
  let ajv: ReturnType<typeof strictAjv>
  let expectDocumented: ReturnType<typeof conformance>['expectDocumented']

  const create = async (locale?: string) => {
    const response = await ctx.request('POST', `/api/articles${locale === undefined ? '' : `?locale=${locale}`}`, { token: key, body: body(articleData()) })
    return (await expectDocumented(response, 'POST', '/api/articles')).data
  }

  beforeAll(async () => {
    // With a blob store, as every deployment has: the upload API is served and documented.
    ctx = await createTestContext({}, {}, undefined, new LocalBlobs(await mkdtemp(join(tmpdir(), 'openapi-uploads-'))))
    key = await ctx.token()
    await ctx.addLocales('fr')
    const response = await ctx.request('GET', '/api/openapi.json')
    expect(response.status).toBe(200)
    document = await json(response)
    const admin = await ctx.admin('GET', '/admin/openapi.json')
    expect(admin.status).toBe(200)
    full = await json(admin)
    ;({ ajv, expectDocumented } = conformance(full))
  })

  describe('the document', () => {
    it('is served without credentials, the same on every call, as the generator builds it', async () => {
      expect(document).toEqual(buildOpenApiDocument(shippedTypes, ctx.config))
      expect(await json(await ctx.request('GET', '/api/openapi.json', { token: 'not-a-token' }))).toEqual(document)
      expect(document.openapi).toMatch(/^3\.1\./)
    })

    it.each([['public', () => document], ['admin', () => full]])('is valid OpenAPI 3.1 for @seriousme/openapi-schema-validator (%s)', async (_, which) => {
      const validator = new Validator()
      const result = await validator.validate(structuredClone(which()))
      expect(result.errors ?? []).toEqual([])
      expect(result.valid).toBe(true)
      expect(validator.version).toBe('3.1')
    })

    it('describes only the public API: no admin route, scheme, tag or schema', () => {
      expect(documentedOperations(document).filter((operation) => operation.includes('/admin'))).toEqual([])
      expect(Object.keys(document.components.securitySchemes)).toEqual(['apiToken'])
      expect(document.tags.map((tag: Json) => tag.name)).not.toContain('admin')
      for (const name of ['NewApiToken', 'CreatedApiToken', 'ApiToken', 'PublicRole', 'ReindexStep', 'Action']) expect(document.components.schemas).not.toHaveProperty(name)
      expect(JSON.stringify(document)).not.toMatch(/\/admin|adminToken/)
    })

    it('serves the admin document to the admin token only, as the generator builds it', async () => {
      expect(full).toEqual(buildOpenApiDocument(shippedTypes, ctx.config, 'admin'))
      expect((await ctx.request('GET', '/admin/openapi.json')).status).toBe(401)
      expect((await ctx.request('GET', '/admin/openapi.json', { token: key })).status).toBe(401)
      expect(documentedOperations(full)).toEqual(expect.arrayContaining([...documentedOperations(document), 'GET /admin/api-tokens', 'GET /admin/openapi.json']))
    })

    it.each([
      ['a response without description', (copy: Json) => delete copy.paths['/api/articles'].get.responses['200'].description],
      ['a dangling $ref', (copy: Json) => delete copy.components.schemas.Block],
      ['a parameter without location', (copy: Json) => delete copy.components.parameters.Fallback.in],
    ])('is rejected by the same validator with %s (the check can fail)', async (_, breakIt) => {
      const copy = structuredClone(document)
      breakIt(copy)
      expect((await new Validator().validate(copy)).valid).toBe(false)
    })

    it('holds JSON Schemas that compile under ajv strict mode, component and inline alike', () => {
      for (const name of Object.keys(full.components.schemas)) expect(ajv.getSchema(`openapi#/$defs/${name}`), name).toBeDefined()
      for (const [at, schema] of inlineSchemas(full.paths)) expect(() => ajv.compile(toAjv(schema)), at).not.toThrow()
      const publicAjv = strictAjv(document)
      for (const [at, schema] of inlineSchemas(document.paths)) expect(() => publicAjv.compile(toAjv(schema)), at).not.toThrow()
    })

    it('lists exactly the routes the apps serve (the admin document; the HTML pages of the admin web interface apart)', () => {
      const pages = new Set(createAdminUi(ctx.services, undefined, { editors: EDITOR_PAGES, library: { apps: () => [], pages: registerMediaLibrary } }).routes.map((route) => `${route.method} ${route.path}`))
      const served = ctx.app.routes
        .filter((route) => ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'].includes(route.method) && route.path !== '/_health' && !pages.has(`${route.method} ${route.path}`))
        .map((route) => `${route.method} ${route.path.replace(/:(\w+)/g, '{$1}')}`)
      expect([...new Set(served)].sort()).toEqual(documentedOperations(full).sort())
    })

    it.each([
      ['GET', '/api/articles', ['locale', 'status', 'publicationFilter', 'sort', 'pagination[page]', 'pagination[pageSize]', 'pagination[start]', 'pagination[limit]', 'pagination[withCount]', 'filters', '_q', 'fields', 'populate', 'fallback', 'If-None-Match']],
      ['POST', '/api/articles', ['locale', 'status', 'fields', 'populate']],
      ['GET', '/api/articles/{documentId}', ['documentId', 'locale', 'status', 'filters', 'fields', 'populate', 'fallback', 'If-None-Match']],
      ['PUT', '/api/articles/{documentId}', ['documentId', 'locale', 'status', 'fields', 'populate', 'If-Match']],
      ['DELETE', '/api/articles/{documentId}', ['documentId', 'locale', 'If-Match']],
      ['POST', '/api/articles/{documentId}/actions/publish', ['documentId', 'locale', 'fields', 'If-Match']],
      ['POST', '/api/articles/{documentId}/actions/unpublish', ['documentId', 'locale', 'fields', 'If-Match']],
      ['POST', '/api/articles/{documentId}/actions/discard-draft', ['documentId', 'locale', 'fields', 'If-Match']],
      ['GET', '/api/homepage', ['locale', 'status', 'filters', 'fields', 'populate', 'fallback', 'If-None-Match']],
      ['PUT', '/api/homepage', ['locale', 'status', 'fields', 'populate', 'If-Match']],
      ['POST', '/api/homepage/actions/publish', ['locale', 'fields', 'If-Match']],
      ['GET', '/api/authors', ['locale', 'sort', 'pagination[page]', 'pagination[pageSize]', 'pagination[start]', 'pagination[limit]', 'pagination[withCount]', 'filters', '_q', 'fields', 'populate', 'fallback', 'If-None-Match']],
      ['DELETE', '/api/homepage', ['locale', 'If-Match']],
    ])('documents the parameters of %s %s', (method, path, names) => {
      const item = document.paths[path]
      const parameters = [...(item.parameters ?? []), ...item[method.toLowerCase()].parameters].map((p: Json) => resolve(document, p).name)
      expect(parameters.sort()).toEqual([...names].sort())
    })

    it('documents the upload API, with the methods it serves', () => {
      const upload = Object.fromEntries(Object.entries(document.paths as Record<string, Json>).filter(([path]) => path.startsWith('/api/upload'))
        .map(([path, item]) => [path, Object.keys(item).filter((key) => key !== 'parameters').sort()]))
      expect(upload).toEqual({
        '/api/upload': ['post'],
        '/api/upload/files': ['get'],
        '/api/upload/files/{id}': ['delete', 'get'],
        '/api/upload/presign': ['post'],
        '/api/upload/complete': ['post'],
      })
      const post = document.paths['/api/upload'].post
      expect(Object.keys(post.requestBody.content)).toEqual(['multipart/form-data'])
      expect(Object.keys(post.requestBody.content['multipart/form-data'].schema.properties)).toEqual(['files', 'fileInfo'])
      expect(post.parameters.map((p: Json) => p.name)).toEqual(['id'])
      const list = document.paths['/api/upload/files'].get.parameters.map((p: Json) => resolve(document, p).name)
      expect(list.sort()).toEqual(['_q', 'filters', 'pagination[limit]', 'pagination[page]', 'pagination[pageSize]', 'pagination[start]', 'sort'].sort())
    })

    it('describes the attribute types of the article body as lib/body.ts checks them', () => {
      const data = document.components.schemas.ArticleCreateRequest.properties.data
      expect(data.additionalProperties).toBe(false)
      expect(data.properties.title).toEqual({ type: ['string', 'null'], maxLength: 255 })
      expect(data.properties.views).toMatchObject({ type: ['integer', 'null'], minimum: -(2 ** 31), maximum: 2 ** 31 - 1 })
      expect(data.properties.body).toMatchObject({ type: ['array', 'null'], items: { $ref: '#/components/schemas/Block' } })
      const valid = ajv.compile(toAjv(document.components.schemas.ArticleCreateRequest))
      expect(valid(body(articleData()))).toBe(true)
      expect(valid(body(articleData({ title: 'x'.repeat(256) })))).toBe(false)
      expect(valid(body(articleData({ views: '42' })))).toBe(false)
      expect(valid(body(articleData({ body: [{ type: 'paragraph' }] })))).toBe(false)
      expect(valid(body(articleData({ id: 3 })))).toBe(false)
    })
  })

  describe('answers that match it', () => {
    it('list, page style and offset style without counts, and every locale', async () => {
      await create()
      await create('fr')
      const page = await expectDocumented(await ctx.request('GET', '/api/articles?sort=title:desc&pagination[page]=1&pagination[pageSize]=1'), 'GET', '/api/articles')
      expect(page.meta.pagination).toEqual({ page: 1, pageSize: 1, pageCount: expect.any(Number), total: expect.any(Number) })
      const offset = await expectDocumented(await ctx.request('GET', '/api/articles?locale=fr&pagination[start]=0&pagination[limit]=5&pagination[withCount]=false'), 'GET', '/api/articles')
      expect(offset.meta.pagination).toEqual({ start: 0, limit: 5 })
      const all = await expectDocumented(await ctx.request('GET', '/api/articles?locale=*'), 'GET', '/api/articles')
      expect(all.data.length).toBeGreaterThanOrEqual(2)
    })

    it('documents every field of an answered document, in the order answered', async () => {
      const created = await create()
      // Relations and localizations are answered only when populated (content-model.md §16): after the rest.
      const documented = Object.keys(document.components.schemas.Article.properties)
      expect(Object.keys(created)).toEqual(documented.slice(0, Object.keys(created).length))
      expect(documented.slice(Object.keys(created).length)).toEqual(['author', 'tags', 'localizations'])
      const populated = await json(await ctx.request('GET', `/api/articles/${created.documentId}?populate=*`))
      expect(Object.keys(populated.data[0])).toEqual(documented)
    })

    it('populated answers, with relations linked and counted', async () => {
      const author = await json(await ctx.request('POST', '/api/authors', { token: key, body: { data: { name: 'Ann' } } }))
      const tag = await json(await ctx.request('POST', '/api/tags', { token: key, body: { data: { name: 'News' } } }))
      const article = await json(await ctx.request('POST', '/api/articles', { token: key, body: { data: { ...articleData(), author: author.data.documentId, tags: [tag.data.documentId] } } }))
      const path = '/api/articles/{documentId}'
      const one = await expectDocumented(await ctx.request('GET', `/api/articles/${article.data.documentId}?populate=*`), 'GET', path)
      expect(one.data[0].author.documentId).toBe(author.data.documentId)
      await expectDocumented(await ctx.request('GET', `/api/articles?populate[tags][count]=true&populate[author][fields][0]=name`), 'GET', '/api/articles')
      await expectDocumented(await ctx.request('GET', `/api/authors?populate=articles`), 'GET', '/api/authors')
    })

    it('get one (the array shape), with every locale, and when revalidated', async () => {
      const { documentId } = await create()
      const path = '/api/articles/{documentId}'
      const one = await ctx.request('GET', `/api/articles/${documentId}`)
      const etag = one.headers.get('etag')
      const answer = await expectDocumented(one, 'GET', path)
      expect(answer.data).toHaveLength(1)
      await expectDocumented(await ctx.request('GET', `/api/articles/${documentId}?locale=*`), 'GET', path)
      await expectDocumented(await ctx.request('GET', `/api/articles/${documentId}`, { headers: { 'If-None-Match': etag ?? '"0.0"' } }), 'GET', path)
    })

    it('get one in the object shape, when api.rest.findOneShape is object', async () => {
      const objectCtx = await createTestContext({ rest: { findOneShape: 'object' } })
      const objectKey = await objectCtx.token()
      const check = conformance(await json(await objectCtx.request('GET', '/api/openapi.json'))).expectDocumented
      const created = await json(await objectCtx.request('POST', '/api/articles', { token: objectKey, body: body(articleData()) }))
      const one = await check(await objectCtx.request('GET', `/api/articles/${created.data.documentId}`), 'GET', '/api/articles/{documentId}')
      expect(one).toEqual({ data: created.data, meta: {} })
      // The default document describes the array shape, so this answer does not match it.
      await expect(expectDocumented(await objectCtx.request('GET', `/api/articles/${created.data.documentId}`), 'GET', '/api/articles/{documentId}')).rejects.toThrow()
    })

    it('update, new localization and delete (204) of a collection type', async () => {
      const { documentId } = await create()
      const path = '/api/articles/{documentId}'
      const update = (locale: string, data: Json) => ctx.request('PUT', `/api/articles/${documentId}?locale=${locale}`, { token: key, body: body(data) })
      await expectDocumented(await update('en', { title: 'Changed', views: 3 }), 'PUT', path)
      const localized = await expectDocumented(await update('fr', { title: 'Bonjour' }), 'PUT', path)
      expect(localized.data).toMatchObject({ documentId, locale: 'fr', views: 3 })
      const deleted = await ctx.request('DELETE', `/api/articles/${documentId}?locale=fr`, { token: key })
      expect(deleted.status).toBe(204)
      await expectDocumented(deleted, 'DELETE', path)
      const all = await ctx.request('DELETE', `/api/articles/${documentId}?locale=*`, { token: key })
      expect(all.status).toBe(204)
      await expectDocumented(all, 'DELETE', path)
    })

    it('single type: PUT, GET and DELETE', async () => {
      const put = await expectDocumented(await ctx.request('PUT', '/api/homepage', { token: key, body: body({ title: 'Welcome', tagline: null }) }), 'PUT', '/api/homepage')
      expect(put.meta).toEqual({})
      const got = await expectDocumented(await ctx.request('GET', '/api/homepage'), 'GET', '/api/homepage')
      expect(got.data).toMatchObject({ title: 'Welcome', tagline: null })
      const deleted = await ctx.request('DELETE', '/api/homepage', { token: key })
      expect(deleted.status).toBe(204)
      await expectDocumented(deleted, 'DELETE', '/api/homepage')
    })

    it('the upload API: upload, list, get, update, presign, delete', async () => {
      const uploaded = await expectDocumented(await sendForm(ctx, uploadForm([{ bytes: await png(300, 200), name: 'a.png', type: 'image/png' }], [{ alternativeText: 'A' }]), key), 'POST', '/api/upload')
      const [file] = uploaded
      expect(file.formats.thumbnail).toMatchObject({ width: 234, height: 156 })
      // The File schema is closed: a field it does not describe would fail the check.
      expect(ajv.compile(toAjv(full.components.schemas.File))({ ...file, extra: 1 })).toBe(false)
      const listed = await expectDocumented(await ctx.request('GET', '/api/upload/files?sort=name:asc&pagination[page]=1&pagination[pageSize]=5&filters[mime][$eq]=image/png', { token: key }), 'GET', '/api/upload/files')
      expect(listed.map((each: Json) => each.id)).toContain(file.id)
      await expectDocumented(await ctx.request('GET', `/api/upload/files/${file.id}`, { token: key }), 'GET', '/api/upload/files/{id}')
      const updated = await expectDocumented(await sendForm(ctx, uploadForm([], [{ caption: 'B' }]), key, `/api/upload?id=${file.id}`), 'POST', '/api/upload')
      expect(updated).toMatchObject({ id: file.id, caption: 'B' })
      const presigned = await expectDocumented(await ctx.request('POST', '/api/upload/presign', { token: key, body: { name: 'b.png', mime: 'image/png', size: 100 } }), 'POST', '/api/upload/presign')
      expect(presigned.method).toBe('PUT')
      await expectDocumented(await ctx.request('DELETE', `/api/upload/files/${file.documentId}`, { token: key }), 'DELETE', '/api/upload/files/{id}')
    })

    it('GET /api/i18n/locales', async () => {
      const locales = await expectDocumented(await ctx.request('GET', '/api/i18n/locales'), 'GET', '/api/i18n/locales')
      expect(locales.map((locale: Json) => locale.code)).toEqual(['en', 'fr'])
    })

    it('the administration API', async () => {
      await expectDocumented(await ctx.admin('GET', '/admin/i18n/locales'), 'GET', '/admin/i18n/locales')
      const added = await ctx.admin('POST', '/admin/i18n/locales', { code: 'de', name: 'Deutsch' })
      expect(added.status).toBe(201)
      await expectDocumented(added, 'POST', '/admin/i18n/locales')
      await expectDocumented(await ctx.admin('PUT', '/admin/i18n/locales/de', { name: 'German' }), 'PUT', '/admin/i18n/locales/{code}')
      await expectDocumented(await ctx.admin('DELETE', '/admin/i18n/locales/de'), 'DELETE', '/admin/i18n/locales/{code}')
      const token = await expectDocumented(await ctx.admin('POST', '/admin/api-tokens', { name: 'ci', type: 'custom', permissions: ['api::article.article.find'] }), 'POST', '/admin/api-tokens')
      await expectDocumented(await ctx.admin('GET', '/admin/api-tokens'), 'GET', '/admin/api-tokens')
      await expectDocumented(await ctx.admin('DELETE', `/admin/api-tokens/${token.data.id}`), 'DELETE', '/admin/api-tokens/{id}')
      const role = await expectDocumented(await ctx.admin('GET', '/admin/roles/public'), 'GET', '/admin/roles/public')
      await expectDocumented(await ctx.admin('PUT', '/admin/roles/public', role.data), 'PUT', '/admin/roles/public')
    })
  })

  describe('error envelopes that match it', () => {
    const missing = 'aaaaaaaaaaaaaaaaaaaaaaaa'
    let documentId: string
    beforeAll(async () => {
      documentId = (await create()).documentId
    })
    afterEach(() => {
      ctx.db.middlewareStack.remove('openapiFault')
      vi.restoreAllMocks()
    })

    type Send = () => Promise<Response>
    const cases: [number, string, string, string, Send][] = [
      [400, 'a bad pagination value', 'GET', '/api/articles', () => ctx.request('GET', '/api/articles?pagination[pageSize]=0')],
      [400, 'mixed pagination', 'GET', '/api/articles', () => ctx.request('GET', '/api/articles?pagination[page]=1&pagination[start]=0')],
      [400, 'an unknown locale', 'GET', '/api/homepage', () => ctx.request('GET', '/api/homepage?locale=xx')],
      [400, 'a bad body', 'POST', '/api/articles', () => ctx.request('POST', '/api/articles', { token: key, body: { data: { title: 5, nope: 1 } } })],
      [400, 'invalid JSON', 'POST', '/api/articles', () => ctx.request('POST', '/api/articles', { token: key, body: '{nope' })],
      [400, 'a query on the document itself', 'GET', '/api/openapi.json', () => ctx.request('GET', '/api/openapi.json?x=1')],
      [400, 'a bad admin body', 'POST', '/admin/i18n/locales', () => ctx.admin('POST', '/admin/i18n/locales', { code: 'not a code', extra: 1 })],
      [400, 'an unknown action', 'PUT', '/admin/roles/public', () => ctx.admin('PUT', '/admin/roles/public', { permissions: ['nope'] })],
      [401, 'an unknown token', 'GET', '/api/articles', () => ctx.request('GET', '/api/articles', { token: 'garbage' })],
      [401, 'no admin token', 'GET', '/admin/api-tokens', () => ctx.request('GET', '/admin/api-tokens')],
      [403, 'the public role creating', 'POST', '/api/articles', () => ctx.request('POST', '/api/articles', { body: body(articleData()) })],
      [404, 'an unknown documentId', 'GET', '/api/articles/{documentId}', () => ctx.request('GET', `/api/articles/${missing}`)],
      [400, 'an upload without files', 'POST', '/api/upload', () => sendForm(ctx, uploadForm([]), key)],
      [400, 'completing nothing uploaded', 'POST', '/api/upload/complete', () => ctx.request('POST', '/api/upload/complete', { token: key, body: { id: 'aaaaaaaaaaaaaaaaaaaaaaaa' } })],
      [403, 'the public role uploading', 'POST', '/api/upload/presign', () => ctx.request('POST', '/api/upload/presign', { body: { name: 'a.png', mime: 'image/png', size: 1 } })],
      [404, 'an unknown file', 'GET', '/api/upload/files/{id}', () => ctx.request('GET', `/api/upload/files/${missing}`, { token: key })],
      [413, 'a presign past the size limit', 'POST', '/api/upload/presign', () => ctx.request('POST', '/api/upload/presign', { token: key, body: { name: 'a.png', mime: 'image/png', size: 10 ** 12 } })],
      [415, 'an upload that is not multipart', 'POST', '/api/upload', () => ctx.request('POST', '/api/upload', { token: key, body: { files: [] } })],
      [404, 'an unknown locale code (admin)', 'PUT', '/admin/i18n/locales/{code}', () => ctx.admin('PUT', '/admin/i18n/locales/zz', { name: 'Z' })],
      [405, 'POST on a single type', 'POST', '/api/homepage', () => ctx.request('POST', '/api/homepage', { token: key, body: body({}) })],
      [405, 'POST on the document', 'POST', '/api/openapi.json', () => ctx.request('POST', '/api/openapi.json')],
      [409, 'a locale already there', 'POST', '/admin/i18n/locales', () => ctx.admin('POST', '/admin/i18n/locales', { code: 'FR' })],
      [409, 'deleting the default locale', 'DELETE', '/admin/i18n/locales/{code}', () => ctx.admin('DELETE', '/admin/i18n/locales/en')],
      [412, 'a stale If-Match on PUT', 'PUT', '/api/articles/{documentId}', () =>
        ctx.request('PUT', `/api/articles/${documentId}`, { token: key, body: body({ title: 'x' }), headers: { 'If-Match': '"1.999"' } })],
      [412, 'a stale If-Match on DELETE', 'DELETE', '/api/articles/{documentId}', () =>
        ctx.request('DELETE', `/api/articles/${documentId}`, { token: key, headers: { 'If-Match': '"1.999"' } })],
      [413, 'a body over the limit', 'POST', '/api/articles', () =>
        ctx.request('POST', '/api/articles', { token: key, body: body({}), headers: { 'Content-Length': String(2 * 1024 * 1024) } })],
      [414, 'a query string over the limit', 'GET', '/api/articles', () => ctx.request('GET', `/api/articles?locale=${'x'.repeat(9000)}`)],
      [415, 'a body that is not JSON', 'POST', '/api/articles', () =>
        ctx.request('POST', '/api/articles', { token: key, body: 'a=b', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } })],
      [500, 'a crash', 'GET', '/api/articles', () => {
        vi.spyOn(console, 'error').mockImplementation(() => undefined)
        return failingStorage(new Error('boom'))
      }],
      [503, 'throttling', 'GET', '/api/articles', () => failingStorage(Object.assign(new Error('slow down'), { name: 'ThrottlingException' }))],
    ]

    /** Makes every DynamoDB call of the context fail with `error`, then lists articles. */
    function failingStorage(error: Error): Promise<Response> {
      ctx.db.middlewareStack.add(() => () => Promise.reject(error), { step: 'initialize', name: 'openapiFault' })
      return ctx.request('GET', '/api/articles')
    }

    it.each(cases)('%i for %s', async (status, _, method, template, send) => {
      const response = await send()
      expect(response.status).toBe(status)
      const answer = await expectDocumented(response, method, template)
      expect(answer.error.status).toBe(status)
    })
  })
})
