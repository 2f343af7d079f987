// The editor's desk (issue 37) in a real Chromium, against the server app on DynamoDB Local: the
// document page's status bar, lists sorted and filtered in words, relation labels, the blocks and
// Markdown editors; each checked through the API, axe-core on every page. Screenshots go to a
// temporary folder, or to docs/screenshots/ with UPDATE_SCREENSHOTS=1 (docs/admin-editing.md).
import { mkdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createServerApp } from '../../lib/server-app.js'
import { signedInAdmin, type AdminBrowser } from '../support/admin-browser.js'
import type { TestBrowser } from '../support/browser.js'
import { createTestContext, type TestContext } from '../support/context.js'
import { startServer, type TestServer } from '../support/server.js'

// In-page code (page.evaluate) runs in the browser; the project's types hold no DOM library.
declare const document: any
declare const window: any

const SHOTS = process.env.UPDATE_SCREENSHOTS === '1' ? join(import.meta.dirname, '../../docs/screenshots') : join(tmpdir(), 'admin-editor-screenshots')

let ctx: TestContext
let server: TestServer
let browser: TestBrowser
let page: Page
let token: string
let admin: AdminBrowser

const url = (path: string) => `${server.url}${path}`
const shot = (name: string, fullPage = false) => page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage })
const status = () => page.getByRole('status').first()
/**
 * How long a status may take to show an action's outcome: a form's action is a page navigation,
 * which a key press does not wait for (and a click only until it starts), so its message is polled
 * for (on a loaded 2-core machine the old page's message was read once, 2026-11-28).
 */
const SETTLED = { timeout: 60_000, interval: 100 }
const bar = () => page.getByRole('region', { name: 'Status and actions' })

/** Creates through the API (full-access token); the document's id. */
async function create(path: string, data: Record<string, unknown>): Promise<string> {
  const response = await ctx.request('POST', path, { token, body: { data } })
  if (response.status !== 200 && response.status !== 201) throw new Error(`${path}: ${response.status} ${await response.text()}`)
  return ((await response.json()) as { data: { documentId: string } }).data.documentId
}

/** A version as the public API serves it (its title), or the status. */
async function live(documentId: string, locale: string): Promise<string | number> {
  const response = await fetch(url(`/api/articles/${documentId}?locale=${locale}&fallback=false`))
  return response.status === 200 ? ((await response.json()) as { data: { title: string }[] }).data[0]?.title ?? 'none' : response.status
}

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true })
  ctx = await createTestContext()
  await ctx.addLocales('fr', 'de')
  token = await ctx.token()
  server = await startServer(createServerApp(ctx.services, () => undefined))
  admin = await signedInAdmin(server.url)
  browser = admin.browser
  page = admin.page
}, 120_000)

afterEach(() => admin.checkPage())

afterAll(async () => {
  await browser?.close()
  await server?.close()
})

describe("the editor's desk, in Chromium", { timeout: 240_000 }, () => {
  it('has a sticky status bar: this locale, and every locale with the count each action changes', async () => {
    const id = await create('/api/articles?locale=en', { title: 'Status en' })
    await ctx.request('PUT', `/api/articles/${id}?locale=fr`, { token, body: { data: { title: 'Statut fr' } } })
    await ctx.request('PUT', `/api/articles/${id}?locale=de&status=draft`, { token, body: { data: { title: 'Status de' } } })
    await page.goto(url(`/admin/content/articles/${id}?locale=en`))
    expect(await bar().locator('.state').first().textContent()).toBe('en: published')
    const all = bar().getByRole('group', { name: 'Every locale of this document' })
    expect(await all.getByRole('button').allTextContents()).toEqual(['Publish 1 locale', 'Unpublish 2 locales', 'Discard 0 drafts'])
    expect(await all.getByRole('button', { name: 'Discard 0 drafts' }).isDisabled()).toBe(true)

    // Sticky: at the top of the viewport once the form has scrolled under it.
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight))
    const box = await bar().boundingBox()
    expect(box?.y).toBe(0)
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0)

    // A change saved as a draft: en is modified; the counts follow.
    await page.getByRole('textbox', { name: 'title' }).fill('Status en, edited')
    await bar().getByRole('button', { name: 'Save draft' }).click()
    await expect.poll(() => status().textContent(), SETTLED).toContain('Saved.')
    expect(await bar().locator('.state').first().textContent()).toBe('en: modified')
    expect(await all.getByRole('button').allTextContents()).toEqual(['Publish 2 locales', 'Unpublish 2 locales', 'Discard 1 draft'])
    await shot('status-bar')

    await all.getByRole('button', { name: 'Discard 1 draft' }).click()
    await expect.poll(() => status().textContent(), SETTLED).toContain('Every modified draft discarded.')
    expect(await page.getByRole('textbox', { name: 'title' }).inputValue()).toBe('Status en')

    await all.getByRole('button', { name: 'Unpublish 2 locales' }).click()
    await expect.poll(() => status().textContent(), SETTLED).toContain('Every locale unpublished')
    expect([await live(id, 'en'), await live(id, 'fr'), await live(id, 'de')]).toEqual([404, 404, 404])
    expect(await all.getByRole('button').allTextContents()).toEqual(['Publish 3 locales', 'Unpublish 0 locales', 'Discard 0 drafts'])

    // Publish every locale, this one's edit saved first.
    await page.getByRole('textbox', { name: 'title' }).fill('Status en, final')
    await all.getByRole('button', { name: 'Publish 3 locales' }).click()
    await expect.poll(() => status().textContent(), SETTLED).toContain('Every locale with a draft to publish is published.')
    expect([await live(id, 'en'), await live(id, 'fr'), await live(id, 'de')]).toEqual(['Status en, final', 'Statut fr', 'Status de'])

    // This locale's own actions, from the bar, with the keyboard alone.
    await page.getByRole('textbox', { name: 'title' }).focus()
    await page.keyboard.press('Shift+Tab')
    for (let i = 0; i < 40 && !(await page.evaluate(() => document.activeElement?.textContent === 'Unpublish en')); i++) await page.keyboard.press('Shift+Tab')
    await page.keyboard.press('Enter')
    await expect.poll(() => status().textContent(), SETTLED).toContain('Unpublished')
    expect(await live(id, 'en')).toBe(404)
  })
  it('sorts by a column header, filters in words with several conditions, keeps chosen columns, and acts on selected rows', async () => {
    const made: Record<string, string> = {}
    for (const [title, views] of [['Alpha news', 3], ['Beta news', 12], ['Gamma news', 7], ['Delta news', 1]] as const) made[title] = await create('/api/articles?locale=en', { title, views })
    await page.goto(url('/admin/content/articles?locale=en'))
    const titles = async () => (await page.getByRole('table').getByRole('rowheader').allTextContents()).filter((text) => text.endsWith(' news'))

    // Sorting: a click on the header, ascending then descending, as aria-sort says.
    await page.getByRole('columnheader', { name: /^title/ }).getByRole('link').click()
    expect(await page.getByRole('columnheader', { name: /^title/ }).getAttribute('aria-sort')).toBe('ascending')
    expect(await titles()).toEqual(['Alpha news', 'Beta news', 'Delta news', 'Gamma news'])
    await page.getByRole('columnheader', { name: /^title/ }).getByRole('link').click()
    expect(await page.getByRole('columnheader', { name: /^title/ }).getAttribute('aria-sort')).toBe('descending')
    expect(await titles()).toEqual(['Gamma news', 'Delta news', 'Beta news', 'Alpha news'])

    // Two conditions in words, both holding; and the views column chosen instead of updatedAt.
    const condition = (n: number) => page.getByRole('group', { name: `Condition ${n}` })
    await condition(1).getByLabel('Field').selectOption('title')
    await condition(1).getByLabel('Condition').selectOption({ label: 'contains' })
    await condition(1).getByLabel('Value').fill('NEWS')
    await condition(2).getByLabel('Field').selectOption('views')
    await condition(2).getByLabel('Condition').selectOption({ label: 'is greater than' })
    await condition(2).getByLabel('Value').fill('2')
    await page.getByRole('checkbox', { name: 'views' }).check()
    await page.getByRole('checkbox', { name: 'updatedAt' }).uncheck()
    await page.getByRole('button', { name: 'Show' }).click()
    expect(await titles()).toEqual(['Gamma news', 'Beta news', 'Alpha news']) // Delta has 1 view
    expect(await page.getByRole('row', { name: /Beta news/ }).getByRole('cell').nth(2).textContent()).toBe('12') // after the selection and author cells
    expect(await page.getByRole('columnheader', { name: /^updatedAt/ }).count()).toBe(0)
    await shot('list-filters')
    await page.goto(url('/admin/content/articles?locale=en'))
    expect(await page.getByRole('columnheader', { name: /^views/ }).count()).toBe(1) // kept for the type

    // Bulk actions on the selected rows.
    const select = async (...names: string[]) => { for (const name of names) await page.getByRole('checkbox', { name: `Select ${name}` }).check() }
    await select('Alpha news', 'Beta news')
    await page.getByRole('button', { name: 'Unpublish selected' }).click()
    expect(await status().textContent()).toBe('2 unpublished.')
    expect([await live(made['Alpha news']!, 'en'), await live(made['Beta news']!, 'en'), await live(made['Gamma news']!, 'en')]).toEqual([404, 404, 'Gamma news'])
    await select('Alpha news', 'Beta news')
    await page.getByRole('button', { name: 'Publish selected', exact: true }).click()
    expect(await status().textContent()).toBe('2 published.')
    expect(await live(made['Alpha news']!, 'en')).toBe('Alpha news')
    await select('Gamma news')
    await page.getByRole('button', { name: 'Delete selected' }).click()
    expect(await status().textContent()).toBe('1 deleted.')
    expect((await ctx.request('GET', `/api/articles/${made['Gamma news']}?locale=en&status=draft`, { token })).status).toBe(404)
  })
})
