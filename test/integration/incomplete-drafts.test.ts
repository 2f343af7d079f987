// Drafts may be incomplete (content-model.md §15, amended; issue 33): a write with status=draft
// does not enforce `required`, every other rule still holds, and what is published (by a write
// without status=draft, or the publish action) is checked whole: a 400 listing every missing
// path, nothing published, nothing written. On types loaded from schema files made here.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadContentTypes } from '../../lib/schema/load.js'
import { ADMIN_TOKEN, createTestContext, json, tableSnapshot, type TestContext } from '../support/context.js'
import { dataOf, draftClient, oneOf, type DraftClient } from '../support/drafts.js'

const dirs: string[] = []
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })))

const localized = { pluginOptions: { i18n: { localized: true } } }
const REPORT = {
  kind: 'collectionType',
  info: { singularName: 'report', pluralName: 'reports', displayName: 'Report' },
  options: { draftAndPublish: true },
  pluginOptions: { i18n: { localized: true } },
  attributes: {
    title: { type: 'string', required: true, maxLength: 20, ...localized },
    code: { type: 'integer', required: true, pluginOptions: { i18n: { localized: false } } },
    summary: { type: 'string', ...localized },
  },
}

/** Strapi's messages: an attribute not sent "must be defined."; one that is null (a draft's, when published) fails its type. */
const TYPES: Record<string, string> = { title: 'string', code: 'number' }
const unsent = (...names: string[]) => names.map((name) => ({ path: [name], message: `${name} must be defined.`, name: 'ValidationError' }))
const missing = (...names: string[]) => names.map((name) => ({ path: [name], message: `${name} must be a \`${TYPES[name]}\` type, but the final value was: \`null\`.`, name: 'ValidationError' }))

describe('incomplete drafts (content-model.md §15)', () => {
  let ctx: TestContext
  let reports: DraftClient
  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'incomplete-drafts-'))
    dirs.push(dir)
    mkdirSync(join(dir, 'report'))
    writeFileSync(join(dir, 'report', 'schema.json'), JSON.stringify(REPORT))
    ctx = await createTestContext({}, {}, loadContentTypes(dir))
    await ctx.addLocales('fr')
    reports = draftClient(ctx, await ctx.token(), '/api/reports')
  })

  /** Sends `send`, expects a 400 whose details list `errors`, and that nothing was written. */
  const refused = async (send: () => Promise<Response>, errors: unknown[]) => {
    const before = await tableSnapshot(ctx)
    const response = await send()
    const body = await json(response)
    expect({ status: response.status, details: body.error?.details }).toEqual({ status: 400, details: { errors } })
    expect(await tableSnapshot(ctx)).toBe(before)
    return body.error
  }

  it('saves a draft without its required attributes, with null, and a new localization as a draft', async () => {
    const draft = await dataOf(await reports.post({ summary: 'unfinished' }, { status: 'draft' }))
    expect(draft).toMatchObject({ title: null, code: null, summary: 'unfinished', publishedAt: null })
    expect(await dataOf(await reports.put(draft.documentId, { title: 'T', summary: null }, { status: 'draft' }))).toMatchObject({ title: 'T', code: null })
    expect(await dataOf(await reports.put(draft.documentId, { title: null }, { status: 'draft' }))).toMatchObject({ title: null })
    expect(await dataOf(await reports.put(draft.documentId, {}, { status: 'draft', locale: 'fr' }))).toMatchObject({ locale: 'fr', title: null })
    expect((await reports.get(draft.documentId)).status).toBe(404)
  })

  it('still enforces every other rule on a draft write', async () => {
    await refused(() => reports.post({ title: 'x'.repeat(21) }, { status: 'draft' }), [expect.objectContaining({ path: ['title'] })])
    await refused(() => reports.post({ code: '7' }, { status: 'draft' }), [expect.objectContaining({ path: ['code'] })])
  })

  it('refuses a write that publishes an incomplete version, listing every missing path, and publishes nothing', async () => {
    await refused(() => reports.post({ summary: 's' }), unsent('title', 'code'))
    const draft = await dataOf(await reports.post({ summary: 'draft only' }, { status: 'draft' }))
    // The body alone is valid; the version it would publish (the draft as stored, changed) is not.
    const error = await refused(() => reports.put(draft.documentId, { summary: 'now' }), missing('title', 'code'))
    expect(error.message).toBe('2 errors occurred')
    await refused(() => reports.put(draft.documentId, { title: 'T' }), missing('code'))
    expect((await reports.get(draft.documentId)).status).toBe(404)
    expect(await dataOf(await reports.put(draft.documentId, { title: 'T', code: 1 }))).toMatchObject({ title: 'T', code: 1, summary: 'draft only' })
  })

  it('refuses the publish action on an incomplete draft (one locale and *), and publishes once it is complete', async () => {
    const draft = await dataOf(await reports.post({ title: 'only a title' }, { status: 'draft' }))
    const error = await refused(() => reports.action(draft.documentId, 'publish'), missing('code'))
    expect(error.message).toBe('code must be a `number` type, but the final value was: `null`.')
    await refused(() => reports.action(draft.documentId, 'publish', { locale: '*' }), missing('code'))
    await dataOf(await reports.put(draft.documentId, { code: 2 }, { status: 'draft' }))
    expect(await dataOf(await reports.action(draft.documentId, 'publish'))).toMatchObject({ title: 'only a title', code: 2 })
    expect(await oneOf(await reports.get(draft.documentId))).toMatchObject({ title: 'only a title', code: 2 })
  })

  it('keeps the published version when a draft edit empties a required attribute, and refuses to publish that draft', async () => {
    const created = await dataOf(await reports.post({ title: 'full', code: 3 }))
    await dataOf(await reports.put(created.documentId, { title: null }, { status: 'draft' }))
    await refused(() => reports.action(created.documentId, 'publish'), missing('title'))
    expect(await oneOf(await reports.get(created.documentId))).toMatchObject({ title: 'full', code: 3 })
  })

  describe('in the admin interface', () => {
    const cookiesOf = (response: Response) => response.headers.getSetCookie().map((line) => line.split(';')[0]).join('; ')
    const csrfIn = (html: string) => /name="_csrf" value="([^"]+)"/.exec(html)?.[1] ?? ''
    const formOf = (fields: Record<string, string>) => ({ method: 'POST', body: new URLSearchParams(fields).toString() })
    let cookie = ''
    let csrf = ''
    const get = (path: string) => ctx.app.request(path, { headers: { Cookie: cookie } })
    const post = (path: string, fields: Record<string, string>) =>
      ctx.app.request(path, { ...formOf({ _csrf: csrf, ...fields }), headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: cookie } })
    beforeAll(async () => {
      const page = await ctx.app.request('http://localhost/admin/sign-in')
      const signed = await ctx.app.request('http://localhost/admin/sign-in', { ...formOf({ _csrf: csrfIn(await page.text()), token: ADMIN_TOKEN }), headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: cookiesOf(page) } })
      cookie = (signed.headers.getSetCookie().find((line) => line.startsWith('admin_session=')) ?? '').split(';')[0] ?? ''
      csrf = csrfIn(await (await get('/admin')).text())
    })

    it('saves an incomplete draft, says what blocks its publication, and shows the refusal next to each field', async () => {
      const created = await post('/admin/content/reports?locale=en', { intent: 'save', 'f.summary': 'from the form' })
      expect(created.status).toBe(303)
      const documentId = /reports\/([a-z0-9]{24})/.exec(created.headers.get('location') ?? '')?.[1] ?? ''
      const html = await (await get(`/admin/content/reports/${documentId}?locale=en`)).text()
      expect(html).toContain('title (required to publish)')
      expect(html).toContain('Publishing needs a value for: title, code.')
      const refused = await post(`/admin/content/reports/${documentId}?locale=en`, { intent: 'publish' })
      expect(refused.status).toBe(400)
      const page = await refused.text()
      expect(page).toContain('<span id="attr-title-error" class="error">title must be a `string` type, but the final value was: `null`.</span>')
      expect(page).toContain('<span id="attr-code-error" class="error">code must be a `number` type, but the final value was: `null`.</span>')
      expect((await reports.get(documentId)).status).toBe(404)
    })
  })
})
