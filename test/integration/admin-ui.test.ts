// The admin web interface through app.request(), on DynamoDB Local: sessions, CSRF, headers and
// escaping, page by page (the flows themselves are driven in Chromium, test/browser/).
import type { Hono } from 'hono'
import { beforeAll, describe, expect, it } from 'vitest'
import { createApiClient, type ApiClient } from '../../lib/admin-ui/api-client.js'
import { createAdminUi } from '../../lib/admin-ui/app.js'
import { contentApps, EDITOR_PAGES } from '../../lib/admin-ui/editors.js'
import { ADMIN_TOKEN, createTestContext, tableSnapshot, type TestContext } from '../support/context.js'

let ctx: TestContext
let session: { cookie: string; csrf: string }
let documentId: string
const XSS = '<script>alert(1)</script><img src=x onerror=alert(2)>'

/** Cookies a response sets, as one Cookie header. */
const cookiesOf = (response: Response) => response.headers.getSetCookie().map((line) => line.split(';')[0]).join('; ')
const form = (fields: Record<string, string>) => ({ body: new URLSearchParams(fields).toString(), headers: { 'Content-Type': 'application/x-www-form-urlencoded' } })
const csrfIn = (html: string) => /name="_csrf" value="([^"]+)"/.exec(html)?.[1] ?? ''

/** Signs in the way a browser does: the form's pre-session cookie and CSRF token, then the token. */
async function signIn(origin = 'http://localhost', app: Hono = ctx.app): Promise<{ cookie: string; csrf: string; setCookie: string }> {
  const page = await app.request(`${origin}/admin/sign-in`)
  const posted = await app.request(`${origin}/admin/sign-in`, { method: 'POST', ...form({ _csrf: csrfIn(await page.text()), token: ADMIN_TOKEN }), headers: { ...form({}).headers, Cookie: cookiesOf(page) } })
  expect(posted.status).toBe(303)
  const setCookie = posted.headers.getSetCookie().find((line) => line.startsWith('admin_session=')) ?? ''
  const cookie = setCookie.split(';')[0] ?? ''
  const home = await app.request(`${origin}/admin`, { headers: { Cookie: cookie } })
  return { cookie, csrf: csrfIn(await home.text()), setCookie }
}

const get = (path: string) => ctx.app.request(path, { headers: { Cookie: session.cookie } })
const post = (path: string, fields: Record<string, string>) => ctx.app.request(path, { method: 'POST', ...form(fields), headers: { ...form({}).headers, Cookie: session.cookie } })

beforeAll(async () => {
  ctx = await createTestContext()
  session = await signIn()
  const created = await ctx.request('POST', '/api/articles', { token: await ctx.token(), body: { data: { title: XSS, views: 1 } } })
  documentId = ((await created.json()) as { data: { documentId: string } }).data.documentId
})

const PAGES = ['/admin', '/admin/locales', '/admin/tokens', '/admin/public-role', '/admin/hooks', '/admin/content/articles', '/admin/content/articles/new', '/admin/content/homepage']

describe('the admin web interface', () => {
  it.each(PAGES)('sends %s to the sign-in page without a session, or with a forged one', async (path) => {
    for (const cookie of [undefined, 'admin_session=v1.99999999999.AAAAAAAAAAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA']) {
      const response = await ctx.app.request(path, { headers: cookie === undefined ? {} : { Cookie: cookie } })
      expect(response.status).toBe(303)
      expect(new URL(response.headers.get('location') ?? '', `http://localhost${path}`).pathname).toBe('/admin/sign-in')
    }
  })

  it.each(PAGES)('serves %s to a session, with the Content-Security-Policy and no-store', async (path) => {
    const response = await get(path)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toMatch(/^text\/html/)
    expect(response.headers.get('content-security-policy')).toBe("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
    expect(response.headers.get('cache-control')).toBe('no-store')
    expect(response.headers.get('x-content-type-options')).toBe('nosniff')
    expect(response.headers.get('access-control-allow-origin')).toBeNull() // pages are for our own origin
    expect(await response.text()).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/) // no inline script
  })

  it('sets the session cookie HttpOnly, SameSite=Strict, expiring; Secure except over http on the loopback', async () => {
    expect(session.cookie).toMatch(/^admin_session=v1\./)
    expect((await signIn('http://127.0.0.1:1337')).setCookie).toMatch(/^admin_session=[^;]+; Max-Age=28800; HttpOnly; SameSite=Strict$/)
    expect((await signIn('https://admin.example.com')).setCookie).toMatch(/^admin_session=[^;]+; Max-Age=28800; HttpOnly; SameSite=Strict; Secure$/)
  })

  it('refuses a wrong admin token with 401 and opens no session', async () => {
    const page = await ctx.app.request('/admin/sign-in')
    const posted = await ctx.app.request('/admin/sign-in', { method: 'POST', ...form({ _csrf: csrfIn(await page.text()), token: 'wrong-token-0123456789' }), headers: { ...form({}).headers, Cookie: cookiesOf(page) } })
    expect(posted.status).toBe(401)
    expect(posted.headers.getSetCookie().some((line) => line.startsWith('admin_session='))).toBe(false)
  })

  it.each([
    ['/admin/locales', { code: 'it' }],
    ['/admin/locales/en/default', {}],
    ['/admin/tokens', { name: 'x', type: 'full-access' }],
    ['/admin/hooks', { name: 'x', url: 'https://example.com/hook', event: 'entry.publish' }],
    ['/admin/public-role', { permission: 'plugin::i18n.locales.listLocales' }],
    ['/admin/content/articles', { 'f.title': 'x' }],
    ['/admin/served-lists', {}],
    ['/admin/sign-out', {}],
  ])('refuses a post to %s without its CSRF token (403) and writes nothing', async (path, fields: Record<string, string>) => {
    const before = await tableSnapshot(ctx)
    for (const csrf of [undefined, 'forged', csrfIn(await (await ctx.app.request('/admin/sign-in')).text())]) {
      const response = await post(path, csrf === undefined ? fields : { ...fields, _csrf: csrf })
      expect(response.status).toBe(403)
      expect(response.headers.getSetCookie()).toEqual([]) // not even a sign-out
    }
    expect(await tableSnapshot(ctx)).toBe(before)
  })

  it('deletes a locale version only with the CSRF token', async () => {
    expect((await post(`/admin/content/articles/${documentId}?locale=en`, { intent: 'delete' })).status).toBe(403)
    expect((await ctx.request('GET', `/api/articles/${documentId}`)).status).toBe(200)
  })

  it('shows content holding markup as text in lists, titles and inputs', async () => {
    for (const path of ['/admin/content/articles', `/admin/content/articles/${documentId}`]) {
      const html = await (await get(path)).text()
      expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;')
      expect(html).not.toContain('<script>alert')
      expect(html).not.toContain('<img src=x')
    }
  })

  it.each([
    ['articles', true],
    ['authors', false],
    ['tags', false],
  ])('on the %s page, offers draft & publish controls only where the type has draft & publish (%s)', async (route, offered) => {
    const token = await ctx.token()
    const made = (await (await ctx.request('POST', `/api/${route}?locale=en`, { token, body: { data: { [route === 'articles' ? 'title' : 'name']: 'Controls' } } })).json()) as { data: { documentId: string } }
    const html = await (await get(`/admin/content/${route}/${made.data.documentId}?locale=en`)).text()
    if (offered) {
      expect(html).toContain('Save draft')
      expect(html).toContain('>Publish en<') // in the status bar: saves, then publishes
      expect(html).toContain('Unpublish en')
      expect(html).toContain('<span class="badge exists">published</span>')
    } else {
      expect(html).toContain('Save en')
      expect(html).not.toMatch(/Publish|Save draft|Unpublish|Discard/)
    }
  })

  it('offers draft & publish controls on the homepage (a single type with draft & publish)', async () => {
    const html = await (await get('/admin/content/homepage?locale=en')).text()
    expect(html).toContain('Create draft')
    expect(html).toContain('Save and publish')
  })

  it('is no credential for the admin API: the API still wants the bearer admin token', async () => {
    expect((await get('/admin/i18n/locales')).status).toBe(401)
    expect((await ctx.app.request('/admin/i18n/locales', { method: 'POST', body: JSON.stringify({ code: 'it' }), headers: { Cookie: session.cookie, 'Content-Type': 'application/json' } })).status).toBe(401)
  })

  it('signs out: the cookie is cleared', async () => {
    const own = await signIn()
    const response = await ctx.app.request('/admin/sign-out', { method: 'POST', ...form({ _csrf: own.csrf }), headers: { ...form({}).headers, Cookie: own.cookie } })
    expect(response.status).toBe(303)
    expect(response.headers.getSetCookie()).toEqual(['admin_session=; Max-Age=0; HttpOnly; SameSite=Strict'])
  })

  describe('forms, through the API they call', () => {
    const withCsrf = (fields: Record<string, string>) => ({ ...fields, _csrf: session.csrf })
    const locales = async () => ((await (await ctx.request('GET', '/api/i18n/locales')).json()) as { code: string; name: string; isDefault: boolean }[])
    const localesAdmin = async () => ((await (await ctx.admin('GET', '/admin/i18n/locales')).json()) as { data: { code: string; name: string; isDefault: boolean; fallback: string | null }[] }).data

    it('adds, renames, sets a fallback, makes default, and deletes a locale', async () => {
      expect((await post('/admin/locales', withCsrf({ code: 'de', name: '', fallback: '' }))).status).toBe(303)
      expect((await post('/admin/locales/de', withCsrf({ name: 'Deutsch', fallback: 'en' }))).status).toBe(303)
      expect((await localesAdmin()).find((locale) => locale.code === 'de')).toMatchObject({ name: 'Deutsch', fallback: 'en' })
      expect((await post('/admin/locales/de/default', withCsrf({}))).status).toBe(303)
      expect((await locales()).find((locale) => locale.isDefault)?.code).toBe('de')
      const refused = await post('/admin/locales/de/delete', withCsrf({}))
      expect(refused.status).toBe(409)
      expect(await refused.text()).toContain('Make another locale the default first')
      expect((await post('/admin/locales/en/default', withCsrf({}))).status).toBe(303)
      expect((await post('/admin/locales/de/delete', withCsrf({}))).status).toBe(303)
      expect((await locales()).map((locale) => locale.code)).toEqual(['en'])
    })

    it('creates a webhook showing its secret once, edits it keeping a header, tests it and shows the attempt', async () => {
      const created = await post('/admin/hooks', withCsrf({ name: 'Build <b>', url: 'https://hooks.example.com/build', event: 'entry.publish', headers: 'Authorization: Bearer hidden-value', isEnabled: 'true' }))
      expect(created.status).toBe(201)
      const page = await created.text()
      const secret = /value="(whsec_[^"]+)"/.exec(page)?.[1]
      expect(secret).toBeDefined()
      expect(page).toContain('Build &lt;b&gt;')
      const [webhook] = ((await (await ctx.admin('GET', '/admin/webhooks')).json()) as { data: { id: number; name: string }[] }).data.filter((hook) => hook.name === 'Build <b>')
      const view = await (await get(`/admin/hooks/${webhook!.id}`)).text()
      expect(view).not.toContain('hidden-value')
      expect(view).not.toContain(secret)
      const saved = await post(`/admin/hooks/${webhook!.id}`, withCsrf({ name: 'Build', url: 'https://hooks.example.com/build', event: 'entry.unpublish', headers: 'Authorization' }))
      expect(saved.status).toBe(303)
      expect(((await (await ctx.admin('GET', `/admin/webhooks/${webhook!.id}`)).json()) as { data: unknown }).data).toMatchObject({ name: 'Build', events: ['entry.unpublish'], headers: { Authorization: null }, isEnabled: false })
      // hooks.example.com does not resolve here (no network): the attempt fails and is logged as such.
      const tested = await post(`/admin/hooks/${webhook!.id}/test`, withCsrf({}))
      expect(tested.status).toBe(200)
      expect(await tested.text()).toMatch(/Not delivered/)
      expect(await (await get(`/admin/hooks/${webhook!.id}`)).text()).toMatch(/trigger-test/)
    })

    it("shows the API's 400 next to the locale code", async () => {
      const response = await post('/admin/locales', withCsrf({ code: 'not a code' }))
      expect(response.status).toBe(400)
      expect(await response.text()).toMatch(/id="new-code-error" class="error">must be a locale code/)
    })

    it('saves the public role from its matrix', async () => {
      const permissions = ['api::article.article.find', 'plugin::i18n.locales.listLocales']
      const response = await ctx.app.request('/admin/public-role', { method: 'POST', body: new URLSearchParams([['_csrf', session.csrf], ...permissions.map((p): [string, string] => ['permission', p])]).toString(), headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: session.cookie } })
      expect(response.status).toBe(303)
      expect(((await (await ctx.admin('GET', '/admin/roles/public')).json()) as { data: { permissions: string[] } }).data.permissions).toEqual(permissions)
      expect((await ctx.request('GET', `/api/articles/${documentId}`)).status).toBe(403)
    })

    it('writes a single type and its localization from its page: a draft, then published', async () => {
      await ctx.addLocales('fr')
      const token = await ctx.token()
      const read = async (query: string) => (await (await ctx.request('GET', `/api/homepage?${query}`, { token })).json()) as { data: Record<string, unknown> | null }
      expect((await post('/admin/content/homepage?locale=en', withCsrf({ intent: 'save-publish', 'f.title': 'Welcome', 'f.tagline': 'Hi' }))).status).toBe(303)
      expect((await read('locale=en')).data).toMatchObject({ title: 'Welcome', locale: 'en' })
      expect((await post('/admin/content/homepage?locale=fr', withCsrf({ intent: 'save', 'f.title': 'Bienvenue' }))).status).toBe(303)
      expect((await read('locale=fr&status=draft')).data).toMatchObject({ title: 'Bienvenue', locale: 'fr', publishedAt: null })
      expect((await read('locale=fr&fallback=false')).data).toBeNull() // a draft only
      const page = await (await get('/admin/content/homepage?locale=fr')).text()
      expect(page).toContain('<span class="badge draft">draft</span>')
      const etag = /name="_etag" value="([^"]+)"/.exec(page)?.[1] ?? ''
      expect((await post('/admin/content/homepage?locale=fr', withCsrf({ intent: 'publish', _etag: etag.replaceAll('&quot;', '"') }))).status).toBe(303)
      expect((await read('locale=fr')).data).toMatchObject({ title: 'Bienvenue', locale: 'fr' })
    })

    it('passes the list search (_q), sort and every filter condition to the API', async () => {
      const token = await ctx.token()
      for (const title of ['Apple pie', 'Banana bread', 'Cherry bread tart']) await ctx.request('POST', '/api/articles', { token, body: { data: { title, views: title.length } } })
      const found = await (await get('/admin/content/articles?q=banana')).text()
      expect(found).toContain('Banana bread')
      expect(found).not.toContain('Apple pie')
      const filtered = await (await get('/admin/content/articles?c0.field=views&c0.op=%24gt&c0.value=9&sort=title&direction=asc')).text()
      expect(filtered).toContain('Banana bread') // 12 characters
      expect(filtered).not.toContain('Apple pie') // 9
      // Conditions all hold: views > 9 and the title does not contain "tart".
      const both = await (await get('/admin/content/articles?c0.field=views&c0.op=%24gt&c0.value=9&c1.field=title&c1.op=%24notContainsi&c1.value=TART')).text()
      expect(both).toContain('Banana bread')
      expect(both).not.toContain('Cherry bread tart')
      expect(both).not.toContain('Apple pie')
    })

    it('never shows a private attribute, and writes it only when typed', async () => {
      const created = await post('/admin/content/authors', withCsrf({ _locale: 'en', 'f.name': 'Ada', 'f.email': 'ada@example.com' }))
      expect(created.status).toBe(303)
      const page = await (await get(new URL(created.headers.get('location') ?? '', 'http://localhost/admin/content/authors').pathname)).text()
      expect(page).toContain('value="Ada"')
      expect(page).not.toContain('ada@example.com')
      expect(page).toContain('Write-only')
    })

    it('deletes one locale version, then every version of a document', async () => {
      const token = await ctx.token()
      const made = (await (await ctx.request('POST', '/api/articles?locale=en', { token, body: { data: { title: 'Short-lived' } } })).json()) as { data: { documentId: string } }
      const id = made.data.documentId
      await ctx.request('PUT', `/api/articles/${id}?locale=fr`, { token, body: { data: { title: 'Éphémère' } } })
      await ctx.addLocales('de')
      await ctx.request('PUT', `/api/articles/${id}?locale=de`, { token, body: { data: { title: 'Kurzlebig' } } })
      expect(await (await get(`/admin/content/articles/${id}?locale=en`)).text()).toContain('Delete all 3 versions')
      expect((await post(`/admin/content/articles/${id}?locale=de`, withCsrf({ intent: 'delete' }))).status).toBe(303)
      expect((await ctx.request('GET', `/api/articles/${id}?locale=de&fallback=false`, { token })).status).toBe(404) // the public role was narrowed above
      const all = await post(`/admin/content/articles/${id}?locale=en`, withCsrf({ intent: 'delete-all' }))
      expect(all.status).toBe(303)
      expect(new URL(all.headers.get('location') ?? '', `http://localhost/admin/content/articles/${id}`).pathname).toBe('/admin/content/articles')
      expect((await ctx.request('GET', `/api/articles/${id}?locale=en`, { token })).status).toBe(404)
    })

    it('refuses a save over a version changed since the form was read (If-Match: 412), and keeps what was typed', async () => {
      const page = await (await get(`/admin/content/articles/${documentId}?locale=en`)).text()
      const etag = /name="_etag" value="([^"]+)"/.exec(page)?.[1]?.replaceAll('&quot;', '"') ?? ''
      expect(etag).toMatch(/^"\d+\.\d+"$/)
      await ctx.request('PUT', `/api/articles/${documentId}?locale=en`, { token: await ctx.token(), body: { data: { views: 7 } } })
      const response = await post(`/admin/content/articles/${documentId}?locale=en`, withCsrf({ _etag: etag, 'f.title': 'Mine' }))
      expect(response.status).toBe(412)
      const html = await response.text()
      expect(html).toContain('changed by someone else')
      expect(html).toContain('value="Mine"')
    })

    describe('draft & publish', () => {
      const article = async (title: string, status?: 'draft') => {
        const made = await ctx.request('POST', `/api/articles?locale=en${status === undefined ? '' : '&status=draft'}`, { token: await ctx.token(), body: { data: { title } } })
        return ((await made.json()) as { data: { documentId: string } }).data.documentId
      }
      const read = async (id: string, status: 'draft' | 'published') => ctx.request('GET', `/api/articles/${id}?locale=en&status=${status}`, { token: await ctx.token() })
      /** The title of a version (get one answers an array or an object, as the deployment's findOneShape says). */
      const titleOf = async (id: string, status: 'draft' | 'published') => {
        const { data } = (await (await read(id, status)).json()) as { data: { title: string } | { title: string }[] }
        return Array.isArray(data) ? data[0]?.title : data.title
      }
      const pageOf = async (id: string) => {
        const html = await (await get(`/admin/content/articles/${id}?locale=en`)).text()
        const etags = [...html.matchAll(/name="_etag" value="([^"]+)"/g)].map((match) => (match[1] ?? '').replaceAll('&quot;', '"'))
        return { html, etag: etags[0] ?? '' }
      }

      it('saves a draft with the draft\'s ETag, leaving the published version as it was', async () => {
        const id = await article('Live')
        const { etag } = await pageOf(id)
        expect(etag).toBe((await read(id, 'draft')).headers.get('etag'))
        expect((await post(`/admin/content/articles/${id}?locale=en`, withCsrf({ intent: 'save', _etag: etag, 'f.title': 'Work in progress' }))).status).toBe(303)
        expect(await titleOf(id, 'draft')).toBe('Work in progress')
        expect(await titleOf(id, 'published')).toBe('Live')
        expect((await pageOf(id)).html).toContain('<span class="badge draft">modified</span>')
      })

      it('saves and publishes a draft never published, and one published before (the draft\'s ETag guards both)', async () => {
        for (const id of [await article('Never published', 'draft'), await article('Published before')]) {
          const { etag } = await pageOf(id)
          const response = await post(`/admin/content/articles/${id}?locale=en`, withCsrf({ intent: 'save-publish', _etag: etag, 'f.title': 'Now live' }))
          expect(response.status).toBe(303)
          expect(response.headers.get('location')).toContain('notice=published')
          expect(await titleOf(id, 'published')).toBe('Now live')
          expect((await pageOf(id)).html).toContain('<span class="badge exists">published</span>')
        }
      })

      it('refuses a publication of a draft changed since the page was read (412)', async () => {
        const id = await article('Draft', 'draft')
        const { etag } = await pageOf(id)
        await ctx.request('PUT', `/api/articles/${id}?locale=en&status=draft`, { token: await ctx.token(), body: { data: { title: 'Changed elsewhere' } } })
        expect((await post(`/admin/content/articles/${id}?locale=en`, withCsrf({ intent: 'publish', _etag: etag }))).status).toBe(412)
        expect((await read(id, 'published')).status).toBe(404)
      })

      it('shows a discarded draft as published again, not modified', async () => {
        const id = await article('Original')
        await ctx.request('PUT', `/api/articles/${id}?locale=en&status=draft`, { token: await ctx.token(), body: { data: { title: 'Rewritten' } } })
        const before = await pageOf(id)
        expect(before.html).toContain('<span class="badge draft">modified</span>')
        expect(before.html).toContain('Discard draft')
        await new Promise((resolve) => setTimeout(resolve, 5)) // the discard's updatedAt is then later than the publication
        expect((await post(`/admin/content/articles/${id}?locale=en`, withCsrf({ intent: 'discard-draft', _etag: before.etag }))).status).toBe(303)
        expect(await titleOf(id, 'draft')).toBe('Original')
        const after = await pageOf(id)
        expect(after.html).toContain('<span class="badge exists">published</span>')
        expect(after.html).not.toContain('Discard draft')
        const list = await (await get('/admin/content/articles?q=Original')).text()
        expect(list).toContain('<span class="badge exists">published</span>')
        expect(list).not.toContain('modified')
      })
    })

    it('shows the list\'s statuses when the publication filters pass the API\'s scan budget (the published versions read instead)', async () => {
      const small = await createTestContext({ rest: { maxScan: 4 } })
      const token = await small.token()
      const make = async (title: string, status?: 'draft') =>
        ((await (await small.request('POST', `/api/articles?locale=en${status === undefined ? '' : '&status=draft'}`, { token, body: { data: { title } } })).json()) as { data: { documentId: string } }).data.documentId
      for (let i = 0; i < 5; i++) await make(`Never published ${i}`, 'draft') // more than maxScan: never-published is refused
      await make('Live')
      const changed = await make('Changed')
      await small.request('PUT', `/api/articles/${changed}?locale=en&status=draft`, { token, body: { data: { title: 'Changed again' } } })
      const inner = createApiClient(small.services, contentApps(small.services))
      const answers: string[] = []
      const counted: ApiClient = { call: async (method, path, ...rest) => { const answer = await inner.call(method, path, ...rest); answers.push(`${answer.status} ${decodeURIComponent(path)}`); return answer } }
      const ui = createAdminUi(small.services, counted, { editors: EDITOR_PAGES })
      const own = await signIn('http://localhost', ui) // sessions live in the table: this one's
      const html = await (await ui.request('/admin/content/articles?pageSize=10', { headers: { Cookie: own.cookie } })).text()
      expect(answers.filter((line) => line.includes('never-published'))).toEqual([expect.stringMatching(/^400 /)])
      expect(answers.filter((line) => line.includes('status=published'))).toEqual([expect.stringMatching(/^200 /)])
      const badges = (title: string) => new RegExp(`>${title}</a></th><td>.*?</td><td class="center"><span class="badge [a-z]+">([a-z]+)</span>`).exec(html)?.[1]
      expect([badges('Never published 0'), badges('Live'), badges('Changed again')]).toEqual(['draft', 'published', 'modified'])
    })

    it('reads a list page in a number of API calls that does not grow with the page size', async () => {
      const token = await ctx.token()
      for (let i = 0; i < 12; i++) {
        const id = await (async () => ((await (await ctx.request('POST', '/api/articles?locale=en', { token, body: { data: { title: `Counted ${i}` } } })).json()) as { data: { documentId: string } }).data.documentId)()
        if (i % 3 === 0) await ctx.request('PUT', `/api/articles/${id}?locale=fr&status=draft`, { token, body: { data: { title: `Compté ${i}` } } })
      }
      const calls: string[] = []
      const inner = createApiClient(ctx.services, contentApps(ctx.services))
      const counted: ApiClient = { call: (method, path, ...rest) => (calls.push(`${method} ${path}`), inner.call(method, path, ...rest)) }
      const ui = createAdminUi(ctx.services, counted, { editors: EDITOR_PAGES })
      const callsFor = async (pageSize: number) => {
        calls.length = 0
        const response = await ui.request(`/admin/content/articles?q=Counted&pageSize=${pageSize}`, { headers: { Cookie: session.cookie } })
        const html = await response.text()
        expect(response.status).toBe(200)
        return { calls: calls.length, rows: html.match(/<th scope="row">/g)?.length ?? 0 } // each row: its selection box, then its header
      }
      const localeCount = ((await (await ctx.request('GET', '/api/i18n/locales')).json()) as unknown[]).length
      const small = await callsFor(10)
      const large = await callsFor(25)
      expect([small.rows, large.rows]).toEqual([10, 12])
      expect(large.calls).toBe(small.calls)
      // The locales, the page, then per locale its never-published and modified versions, and per
      // locale but the page's own (en here) the drafts of its documents.
      expect(small.calls).toBe(2 + 3 * localeCount - 1)
    })

    it("lists an inverse side read-only, drafts of the owning type included, each linking to the owner's page", async () => {
      const token = await ctx.token()
      const create = async (path: string, data: Record<string, unknown>) => ((await (await ctx.request('POST', path, { token, body: { data } })).json()) as { data: { documentId: string } }).data.documentId
      const author = await create('/api/authors?locale=en', { name: 'Inverse Ines' })
      const draft = await create('/api/articles?locale=en&status=draft', { title: 'Only a draft', author })
      const live = await create('/api/articles?locale=en', { title: 'Published too', author })
      const html = await (await get(`/admin/content/authors/${author}?locale=en`)).text()
      // Named by their main field; the id only in the link's address (issue 37).
      expect(html).toContain(`<a href="../articles/${draft}?locale=en">Only a draft</a>`)
      expect(html).toContain(`<a href="../articles/${live}?locale=en">Published too</a>`)
      expect(html).toContain('Read-only here: set on Article.author')
      expect(html).not.toContain('name="r.articles')
    })

    it('lists at most 100 candidates in a relation picker, narrowed by its search, in one list read per relation', async () => {
      const token = await ctx.token()
      const article = ((await (await ctx.request('POST', '/api/articles?locale=en', { token, body: { data: { title: 'Picked' } } })).json()) as { data: { documentId: string } }).data.documentId
      for (let batch = 0; batch < 101; batch += 20) {
        await Promise.all(Array.from({ length: Math.min(20, 101 - batch) }, (_, i) => ctx.request('POST', '/api/tags?locale=en', { token, body: { data: { name: `Bounded ${String(batch + i).padStart(3, '0')}` } } })))
      }
      const calls: string[] = []
      const inner = createApiClient(ctx.services, contentApps(ctx.services))
      const counted: ApiClient = { call: (method, path, ...rest) => (calls.push(`${method} ${decodeURIComponent(path)}`), inner.call(method, path, ...rest)) }
      const ui = createAdminUi(ctx.services, counted, { editors: EDITOR_PAGES })
      const pageOf = async (query: string) => {
        calls.length = 0
        const response = await ui.request(`/admin/content/articles/${article}?locale=en${query}`, { headers: { Cookie: session.cookie } })
        expect(response.status).toBe(200)
        return response.text()
      }

      const all = await pageOf('')
      expect(all.match(/name="r\.tags\.add"/g)?.length).toBe(100)
      expect(all).toMatch(/The first 100 of 1\d\d tags in en/) // other tests of this file add tags too
      expect(calls.filter((call) => call.startsWith('GET /api/tags?'))).toEqual([expect.stringContaining('pagination[pageSize]=100')])
      expect(calls.filter((call) => call.includes('populate['))).toHaveLength(1) // the links: one read
      const narrowed = await pageOf('&find.tags=Bounded+100')
      expect(narrowed.match(/name="r\.tags\.add"/g)?.length).toBe(1)
      expect(calls.filter((call) => call.startsWith('GET /api/tags?'))).toEqual([expect.stringContaining('_q=Bounded+100')])
    })
  })
})
