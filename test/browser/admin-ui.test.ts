// The admin web interface in a real Chromium, against the server app on DynamoDB Local: what an
// operator and an editor do, in order, and the guarantees around it (session cookie, CSP, CSRF,
// escaping, keyboard, labels, 360 px). Screenshots of the main pages go to a temporary folder, or
// to docs/screenshots/ with UPDATE_SCREENSHOTS=1 (docs/admin.md shows those).
import { mkdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createServerApp } from '../../lib/server-app.js'
import { axeOnEveryLoad } from '../support/axe.js'
import { launchBrowser, type TestBrowser } from '../support/browser.js'
import { ADMIN_TOKEN, createTestContext, type TestContext } from '../support/context.js'
import { startServer, type TestServer } from '../support/server.js'

// In-page code (page.evaluate) runs in the browser; the project's types hold no DOM library.
declare const document: any
declare const window: any
type HTMLElement = any
type HTMLInputElement = any

const SHOTS = process.env.UPDATE_SCREENSHOTS === '1' ? join(import.meta.dirname, '../../docs/screenshots') : join(tmpdir(), 'admin-ui-screenshots')
const BLOCKS = '[{"type":"paragraph","children":[{"type":"text","text":"Hello, world."}]}]'
const XSS_TITLE = '<script>window.__xss = 1</script><img src="x" onerror="window.__xss = 2">'

let ctx: TestContext
let server: TestServer
let browser: TestBrowser
let page: Page
let documentId: string
let accessKey: string
let axe: ReturnType<typeof axeOnEveryLoad>
const logLines: string[] = []
const pageErrors: string[] = []

const url = (path: string) => `${server.url}${path}`
/** The body's JSON text area (the blocks editor's JSON view when the editor is on). */
const bodyJson = () => page.locator('textarea[name="f.body"]')
const shot = (name: string, fullPage = false) => page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage })
const status = () => page.getByRole('status').first()
const alert = () => page.getByRole('alert').first()
const nav = (name: string) => page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true })

/** Presses Tab until the focused element matches `selector`; fails after `max` presses. */
async function tabTo(selector: string, max = 80): Promise<void> {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab')
    if (await page.evaluate((s) => document.activeElement?.matches(s) === true, selector)) return
  }
  throw new Error(`Tab never reached ${selector}`)
}

/** The visible controls and links of the page that have no accessible name. */
function unlabelled(): Promise<string[]> {
  return page.evaluate(() => {
    const nameOf = (element: HTMLElement): string => {
      const labelledBy = element.getAttribute('aria-labelledby')
      const byIds = labelledBy === null ? '' : labelledBy.split(' ').map((id: string) => document.getElementById(id)?.textContent ?? '').join(' ')
      const labels = 'labels' in element ? [...((element as HTMLInputElement).labels ?? [])].map((label) => label.textContent ?? '').join(' ') : ''
      return [element.getAttribute('aria-label') ?? '', byIds, labels, element.tagName === 'INPUT' ? '' : element.textContent ?? '', element.getAttribute('title') ?? ''].join(' ').trim()
    }
    const controls = [...document.querySelectorAll('input:not([type=hidden]), select, textarea, button, a[href]')]
    return controls.filter((element) => !element.hidden && element.offsetParent !== null && nameOf(element) === '').map((element) => element.outerHTML.slice(0, 120))
  })
}

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true })
  ctx = await createTestContext()
  server = await startServer(createServerApp(ctx.services, (line) => logLines.push(line)))
  browser = await launchBrowser()
  page = await browser.context.newPage()
  // Generous waits: on a loaded 2-core CI machine a save and its redirect have taken over 5 s.
  // These bound a hang; they are not timings under test.
  page.setDefaultTimeout(20_000)
  page.on('pageerror', (error) => pageErrors.push(error.message))
  page.on('dialog', (dialog) => void dialog.accept())
  axe = axeOnEveryLoad(page)
}, 60_000)

// axe-core on every page a test loaded: no serious or critical finding.
afterEach(async () => {
  await axe.settled()
  expect(axe.findings.splice(0)).toEqual([])
})

afterAll(async () => {
  await browser?.close()
  await server?.close()
})

describe('the admin web interface, in Chromium', { timeout: 120_000 }, () => {
  it('refuses a wrong admin token, then signs in into an HttpOnly, SameSite=Strict, expiring session', async () => {
    await page.goto(url('/admin'))
    expect(new URL(page.url()).pathname).toBe('/admin/sign-in')
    await shot('sign-in')
    await page.getByLabel('Admin token').fill('not-the-admin-token-at-all')
    await page.getByRole('button', { name: 'Sign in' }).click()
    await expect.poll(() => alert().textContent(), { timeout: 20_000 }).toContain('That is not the admin token')

    await page.getByLabel('Admin token').fill(ADMIN_TOKEN)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.getByRole('heading', { name: 'Content', level: 1 }).waitFor()

    const session = (await browser.context.cookies(url('/admin'))).find((cookie) => cookie.name === 'admin_session')
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Strict', secure: false, path: '/admin' })
    const hours = ((session?.expires ?? 0) * 1000 - Date.now()) / 3_600_000
    expect(hours).toBeGreaterThan(7.9)
    expect(hours).toBeLessThanOrEqual(8)
    expect(page.url()).not.toContain(ADMIN_TOKEN)
    expect(logLines.length).toBeGreaterThan(0)
    expect(logLines.join('\n')).not.toContain(ADMIN_TOKEN)
  })

  it('sends a strict Content-Security-Policy, and pages hold no inline script', async () => {
    const response = await page.goto(url('/admin'))
    const csp = response?.headers()['content-security-policy'] ?? ''
    expect(csp).toContain("script-src 'self'")
    expect(csp).toContain("default-src 'none'")
    expect(csp).toContain("frame-ancestors 'none'")
    expect(response?.headers()['cache-control']).toBe('no-store')
    expect(await page.locator('script:not([src])').count()).toBe(0)
  })

  it('adds a locale, and explains why the default locale cannot be deleted', async () => {
    await nav('Locales').click()
    await page.getByRole('textbox', { name: 'Code' }).fill('fr')
    await page.getByRole('button', { name: 'Add locale' }).click()
    expect(await status().textContent()).toContain('Locale fr added.')
    await page.getByRole('heading', { name: /French \(fr\)/ }).waitFor()

    await page.getByRole('button', { name: 'Delete en' }).click()
    const text = await alert().textContent()
    expect(text).toContain('The default locale cannot be deleted')
    expect(text).toContain('Make another locale the default first')
    await shot('locales')
  })

  it("creates an article in en, showing the API's field errors next to their field", async () => {
    await nav('Article').click()
    await page.getByRole('link', { name: 'New article' }).click()
    await page.getByRole('textbox', { name: 'title' }).fill('Hello')
    await page.getByRole('textbox', { name: 'slug' }).fill('hello')
    await page.getByRole('spinbutton', { name: /views/ }).fill('3')
    await page.getByRole('textbox', { name: /category/ }).fill('news')
    // The body's JSON, through the blocks editor's JSON view (after a refused write the JSON is
    // shown as it was typed, without the editor, when it is not an array of blocks).
    await page.getByRole('button', { name: 'JSON view' }).click()
    await bodyJson().fill('{"not": ')
    await page.getByRole('button', { name: 'Create' }).click()
    expect(await page.locator('#attr-body-error').textContent()).toMatch(/^body is not valid JSON: /) // names its field
    await bodyJson().fill('{"not": "blocks"}')
    await page.getByRole('button', { name: 'Create' }).click()
    expect(await page.locator('#attr-body-error').textContent()).toBe('body must be an array of blocks')
    expect(await bodyJson().getAttribute('aria-invalid')).toBe('true')
    expect(await page.getByRole('textbox', { name: 'title' }).inputValue()).toBe('Hello') // what was typed is kept

    await bodyJson().fill(BLOCKS)
    await page.getByRole('button', { name: 'Create draft' }).click()
    expect(await status().textContent()).toContain('Created.')
    documentId = new URL(page.url()).pathname.split('/').pop() ?? ''
    expect(documentId).toMatch(/^[a-z0-9]{24}$/)
    // A draft: served to a token that may read drafts, not to the public.
    expect((await fetch(url(`/api/articles/${documentId}?locale=en`))).status).toBe(404)
    const draft = await fetch(url(`/api/articles/${documentId}?locale=en&status=draft`), { headers: { Authorization: `Bearer ${await ctx.token()}` } })
    expect(((await draft.json()) as { data: unknown[] }).data[0]).toMatchObject({ title: 'Hello', publishedAt: null })
  })

  it('translates it to fr with the en version beside each field', async () => {
    await page.getByRole('navigation', { name: 'Locales of this document' }).getByRole('link', { name: /^fr/ }).click()
    await page.getByLabel('Show beside each field').selectOption('en')
    await page.getByRole('button', { name: 'Show side by side' }).click()
    expect(await page.locator('#attr-title-source').textContent()).toBe('Hello')
    expect(await page.getByRole('spinbutton', { name: /views/ }).isDisabled()).toBe(true) // shared: inherited
    await page.getByRole('textbox', { name: 'title' }).fill('Bonjour')
    await page.getByRole('textbox', { name: 'slug' }).fill('bonjour')
    await page.getByRole('button', { name: 'JSON view' }).click()
    await bodyJson().fill(BLOCKS.replace('Hello, world.', 'Bonjour, le monde.'))
    await shot('translate-side-by-side')
    await page.getByRole('button', { name: 'Create fr draft' }).click()
    expect(await status().textContent()).toContain('Created.')
    expect(await page.getByRole('link', { name: /^fr/ }).textContent()).toContain('draft')

    // A few more documents, some not translated yet, so the list shows what its columns are for.
    const token = await ctx.token()
    const created = async (path: string, data: Record<string, unknown>) =>
      ((await (await ctx.request('POST', path, { token, body: { data } })).json()) as { data: { documentId: string } }).data.documentId
    const more = (locale: string, title: string, author?: string) => created(`/api/articles?locale=${locale}`, { title, author })
    const camille = await created('/api/authors?locale=fr', { name: 'Camille Dupont' })
    const notes = await more('en', 'Release notes 2.0')
    await ctx.request('PUT', `/api/articles/${notes}?locale=fr`, { token, body: { data: { title: 'Notes de version 2.0', author: camille } } })
    await more('fr', 'Guide des locales', camille)
    await more('en', 'Getting started')

    await page.getByRole('link', { name: 'Back to the article list' }).click()
    expect(await page.getByRole('row', { name: /Guide des locales/ }).getByRole('cell').allTextContents()).toEqual(['', 'Camille Dupont', expect.any(String), 'missing', 'published'])
    expect(await page.getByRole('row', { name: /Notes de version/ }).getByRole('cell').allTextContents()).toEqual(['', 'Camille Dupont', expect.any(String), 'published', 'published'])
    const row = page.getByRole('row', { name: /Bonjour/ })
    await row.waitFor()
    expect(await row.getByRole('cell').allTextContents()).toEqual(['', '', expect.any(String), 'draft', 'draft'])
    await shot('article-list')
  })

  it('publishes, saves a draft beside the live version, discards it, unpublishes: as the public API shows', async () => {
    const live = async (locale: string) => {
      const response = await fetch(url(`/api/articles/${documentId}?locale=${locale}&fallback=false`))
      return response.status === 200 ? ((await response.json()) as { data: { title: string }[] }).data[0]?.title : response.status
    }
    const tab = (locale: string) => page.getByRole('navigation', { name: 'Locales of this document' }).getByRole('link', { name: new RegExp(`^${locale}`) })
    await page.getByRole('row', { name: /Bonjour/ }).getByRole('link').click()
    await tab('en').click()
    await page.getByRole('button', { name: 'Publish en', exact: true }).click()
    expect(await status().textContent()).toContain('Published.')
    expect(await tab('en').textContent()).toContain('published')
    expect([await live('en'), await live('fr')]).toEqual(['Hello', 404])

    await page.getByRole('textbox', { name: 'title' }).fill('Hello again')
    await page.getByRole('button', { name: 'Save draft' }).click()
    expect(await status().textContent()).toContain('Saved.')
    expect(await tab('en').textContent()).toContain('modified')
    expect(await live('en')).toBe('Hello') // the draft is not served
    await shot('draft-and-publish', true)

    await page.getByRole('button', { name: 'Discard draft' }).click()
    expect(await status().textContent()).toContain('Draft discarded')
    expect(await tab('en').textContent()).toContain('published')
    expect(await page.getByRole('textbox', { name: 'title' }).inputValue()).toBe('Hello')

    await tab('fr').click()
    await page.getByRole('button', { name: 'Publish fr', exact: true }).click()
    expect(await status().textContent()).toContain('Published.')
    expect(await live('fr')).toBe('Bonjour')
    await page.getByRole('button', { name: 'Unpublish fr' }).click()
    expect(await status().textContent()).toContain('Unpublished')
    expect(await tab('fr').textContent()).toContain('draft')
    expect(await live('fr')).toBe(404)
    await page.getByRole('button', { name: 'Publish fr', exact: true }).click()
    expect(await live('fr')).toBe('Bonjour')

    await page.getByRole('link', { name: 'Back to the article list' }).click()
    expect(await page.getByRole('row', { name: /Bonjour/ }).getByRole('cell').allTextContents()).toEqual(['', '', expect.any(String), 'published', 'published'])
  })

  it('serves what was written through the public API', async () => {
    const answer = (await (await fetch(url(`/api/articles/${documentId}?locale=fr`))).json()) as { data: unknown[] }
    expect(answer.data[0]).toMatchObject({ title: 'Bonjour', slug: 'bonjour', views: 3, category: 'news', locale: 'fr' })
  })

  it('picks an author and two tags for the en article, removes one, and shows a refused link next to its field', async () => {
    const token = await ctx.token()
    const create = async (path: string, data: Record<string, unknown>) =>
      ((await (await ctx.request('POST', path, { token, body: { data } })).json()) as { data: { documentId: string } }).data.documentId
    const ada = await create('/api/authors?locale=en', { name: 'Ada Lovelace' })
    await create('/api/authors?locale=en', { name: 'Grace Hopper' })
    await create('/api/tags?locale=en', { name: 'Serverless' })
    await create('/api/tags?locale=en', { name: 'Localization' })
    const gone = await create('/api/tags?locale=en', { name: 'Soon deleted' })
    await create('/api/tags?locale=fr', { name: 'Seulement en français' }) // not a candidate in en
    const published = async () => {
      const answer = (await (await fetch(url(`/api/articles/${documentId}?locale=en&populate=*`))).json()) as { data: { author: { name: string } | null; tags: { name: string }[] }[] }
      const version = answer.data[0]
      return { author: version?.author?.name ?? null, tags: version?.tags.map((tag) => tag.name) }
    }
    const tags = page.getByRole('group', { name: 'tags → Tag' })

    await page.goto(url(`/admin/content/articles/${documentId}?locale=en`))
    const author = page.getByRole('combobox', { name: 'author → Author' })
    expect(await author.inputValue()).toBe('') // (none)
    expect(await author.locator('option').allTextContents()).toEqual(['(none)', 'Ada Lovelace', 'Grace Hopper'])
    expect(await tags.getByRole('checkbox', { name: /Seulement/ }).count()).toBe(0)
    await author.selectOption(ada)
    await tags.getByRole('checkbox', { name: /^Serverless/ }).check()
    await tags.getByRole('checkbox', { name: /^Localization/ }).check()
    await shot('relation-pickers', true)
    await page.getByRole('button', { name: 'Publish en', exact: true }).click()
    expect(await status().textContent()).toContain('Published.')
    expect(await published()).toEqual({ author: 'Ada Lovelace', tags: ['Localization', 'Serverless'] }) // the order they were listed in
    expect(await author.inputValue()).toBe(ada)
    expect(await tags.getByRole('list').first().getByRole('link').allTextContents()).toEqual([expect.stringMatching(/^Localization/), expect.stringMatching(/^Serverless/)])

    // The search narrows the candidates (a GET: nothing is saved), then a tag is removed.
    await page.getByRole('searchbox', { name: 'Search tags' }).fill('soon')
    await page.getByRole('button', { name: 'Find tags' }).click()
    expect(new URL(page.url()).searchParams.get('find.tags')).toBe('soon')
    expect(await tags.locator('ul.candidates').getByRole('checkbox').count()).toBe(1)
    await tags.getByRole('checkbox', { name: /^Remove Localization/ }).check()
    await page.getByRole('button', { name: 'Publish en', exact: true }).click()
    expect(await status().textContent()).toContain('Published.')
    expect(await published()).toEqual({ author: 'Ada Lovelace', tags: ['Serverless'] })

    // A tag deleted while the page was open: the API's 400 is shown next to the tags, the pick kept.
    await tags.getByRole('checkbox', { name: /^Soon deleted/ }).check()
    expect((await ctx.request('DELETE', `/api/tags/${gone}?locale=*`, { token })).status).toBe(204)
    await page.getByRole('button', { name: 'Save draft' }).click()
    expect(await page.locator('#rel-tags-error').textContent()).toBe(`Document with id "${gone}", locale "en" not found`)
    expect(await tags.getAttribute('aria-invalid')).toBe('true')
    // The pick is kept; its target gone, it has no name to show (ids are never shown).
    expect(await tags.getByRole('checkbox', { name: '(untitled)' }).isChecked()).toBe(true)
    expect(await published()).toEqual({ author: 'Ada Lovelace', tags: ['Serverless'] })

    // The list shows the author's name: populated by its one list read.
    await page.goto(url('/admin/content/articles?locale=en'))
    expect(await page.getByRole('columnheader', { name: 'author' }).count()).toBe(1)
    expect(await page.getByRole('row', { name: /^(Select )?Hello / }).getByRole('cell').nth(1).textContent()).toBe('Ada Lovelace')

    // The inverse side, read-only on the author's page, links to the owning article.
    await page.goto(url(`/admin/content/authors/${ada}?locale=en`))
    await page.getByRole('list', { name: 'articles → Article' }).getByRole('link', { name: /^Hello/ }).click()
    await page.getByRole('combobox', { name: 'author → Author' }).waitFor()
  })

  it('creates a custom token from the permission matrix, shows its key once, and revokes it', async () => {
    await nav('API tokens').click()
    await page.getByRole('textbox', { name: 'Name' }).fill('writer')
    await page.getByRole('textbox', { name: 'Description' }).fill('Posts from the CI job')
    expect(await page.getByLabel('Expires after').inputValue()).toBe('30') // the default
    await page.getByLabel('Expires after').selectOption({ label: '7 days' })
    await page.getByLabel('Type').selectOption('custom')
    await page.getByRole('checkbox', { name: 'Article: find', exact: true }).check()
    await page.getByRole('checkbox', { name: 'Article: create', exact: true }).check()
    await page.getByRole('button', { name: 'Create token' }).click()
    accessKey = await page.getByRole('textbox', { name: 'Access key' }).inputValue()
    expect(accessKey).toMatch(/^[A-Za-z0-9_-]{64}$/)
    const row = page.getByRole('row', { name: /^writer/ })
    expect(await row.getByRole('rowheader').textContent()).toBe('writerPosts from the CI job')
    const expires = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10)
    expect(await row.getByRole('cell').nth(3).textContent()).toMatch(new RegExp(`^expires ${expires} \\d\\d:\\d\\d UTC$`))
    const listed = (await (await fetch(url('/admin/api-tokens'), { headers: { Authorization: `Bearer ${ADMIN_TOKEN}` } })).json()) as { data: { name: string; description: string; lifespan: number }[] }
    expect(listed.data.find((token) => token.name === 'writer')).toMatchObject({ description: 'Posts from the CI job', lifespan: 7 * 86_400_000 })
    await shot('api-tokens')

    const headers = { Authorization: `Bearer ${accessKey}`, 'Content-Type': 'application/json' }
    expect((await fetch(url('/api/articles'), { method: 'POST', headers, body: JSON.stringify({ data: { title: 'By token' } }) })).status).toBe(200)
    expect((await fetch(url(`/api/articles/${documentId}?locale=en`), { method: 'DELETE', headers })).status).toBe(403)

    await page.goto(url('/admin/tokens'))
    expect(await page.getByRole('textbox', { name: 'Access key' }).count()).toBe(0) // shown once only
    await page.getByRole('button', { name: 'Revoke writer' }).click()
    expect(await status().textContent()).toContain('Token writer revoked')
    expect((await fetch(url('/api/articles'), { headers })).status).toBe(401)
  })

  it('shows a title holding markup as text, and never runs it', async () => {
    await page.goto(url('/admin/content/articles/new'))
    await page.getByRole('textbox', { name: 'title' }).fill(XSS_TITLE)
    await page.getByRole('button', { name: 'Create' }).click()
    expect(await status().textContent()).toContain('Created.')
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(`Article: ${XSS_TITLE}`)
    expect(await page.getByRole('textbox', { name: 'title' }).inputValue()).toBe(XSS_TITLE)
    await page.goto(url('/admin/content/articles'))
    await page.getByRole('link', { name: XSS_TITLE }).waitFor()
    expect(await page.evaluate(() => (window as { __xss?: number }).__xss)).toBeUndefined()
    expect(await page.locator('main img, main script').count()).toBe(0)
  })

  it('refuses form posts without their CSRF token, and changes nothing', async () => {
    const request = browser.context.request // the browser's own cookies: a signed-in session
    const missing = await request.post(url('/admin/locales'), { form: { code: 'it' } })
    expect(missing.status()).toBe(403)
    expect(await missing.text()).toContain('CSRF')
    expect((await request.post(url('/admin/locales'), { form: { code: 'it', _csrf: 'forged' } })).status()).toBe(403)
    expect((await request.post(url(`/admin/content/articles/${documentId}?locale=en`), { form: { intent: 'delete' } })).status()).toBe(403)
    expect((await request.post(url('/admin/sign-in'), { form: { token: ADMIN_TOKEN } })).status()).toBe(403)
    const locales = (await (await fetch(url('/api/i18n/locales'))).json()) as { code: string }[]
    expect(locales.map((locale) => locale.code)).toEqual(['en', 'fr'])
    expect((await fetch(url(`/api/articles/${documentId}?locale=en`))).status).toBe(200)
  })

  it('labels every control, and works with the keyboard alone', async () => {
    for (const path of ['/admin', '/admin/locales', '/admin/tokens', '/admin/public-role', '/admin/content/articles', `/admin/content/articles/${documentId}?locale=fr&source=en`, '/admin/content/homepage']) {
      await page.goto(url(path))
      expect({ path, unlabelled: await unlabelled() }).toEqual({ path, unlabelled: [] })
      // Each page kind checked by axe for sure here (the load hook may have been cut short elsewhere).
      await axe.settled()
      expect({ path, checked: axe.checked.at(-1) }).toEqual({ path, checked: new URL(url(path)).pathname })
    }
    await page.goto(url('/admin/locales'))
    await page.keyboard.press('Tab')
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content')
    await tabTo('#new-code')
    await page.keyboard.type('de')
    await page.keyboard.press('Enter')
    expect(await status().textContent()).toContain('Locale de added.')

    await tabTo('header button')
    await page.keyboard.press('Enter')
    await page.getByRole('heading', { name: 'Sign in' }).waitFor()
    expect((await browser.context.cookies(url('/admin'))).find((cookie) => cookie.name === 'admin_session')).toBeUndefined()
    await tabTo('#token')
    await page.keyboard.type(ADMIN_TOKEN)
    await page.keyboard.press('Enter')
    await page.getByRole('heading', { name: 'Content', level: 1 }).waitFor()
  })

  it('is readable 360 px wide: no page scrolls sideways', async () => {
    await page.setViewportSize({ width: 360, height: 780 })
    for (const path of ['/admin', '/admin/locales', '/admin/tokens', '/admin/public-role', '/admin/content/articles', `/admin/content/articles/${documentId}?locale=fr&source=en`]) {
      await page.goto(url(path))
      expect({ path, width: await page.evaluate(() => document.documentElement.scrollWidth) }).toEqual({ path, width: 360 })
    }
    await shot('translate-360px')
    expect(pageErrors).toEqual([])
  })
})
