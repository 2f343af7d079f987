// The blocks and Markdown editors and the relation labels (issue 37) in a real Chromium, against the server app on DynamoDB
// Local with a media library (s3rver): a document typed with every block type through the keyboard
// and read back through the API as exact blocks JSON; an unedited body saved unchanged; the Markdown
// preview, hostile input included; relation choices named by their main field, never by id, and a
// link to a target without the page's locale shown as such and kept. axe-core on every page. Screenshots as admin-editor.test.ts.
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_CONTENT_TYPES_DIR, loadContentTypes } from '../../lib/schema/load.js'
import { createServerApp } from '../../lib/server-app.js'
import { signedInAdmin, type AdminBrowser } from '../support/admin-browser.js'
import type { TestBrowser } from '../support/browser.js'
import { createTestContext, type TestContext } from '../support/context.js'
import { png, sendForm, uploadForm } from '../support/media.js'
import { startTestS3, type TestS3 } from '../support/s3.js'
import { startServer, type TestServer } from '../support/server.js'

declare const document: any

const SHOTS = process.env.UPDATE_SCREENSHOTS === '1' ? join(import.meta.dirname, '../../docs/screenshots') : join(tmpdir(), 'admin-editor-screenshots')

let ctx: TestContext
let s3: TestS3
let server: TestServer
let browser: TestBrowser
let page: Page
let token: string
let typesDir: string
let admin: AdminBrowser
const url = (path: string) => `${server.url}${path}`

/** Creates through the API; the document's id. */
async function create(path: string, data: Record<string, unknown>): Promise<string> {
  const response = await ctx.request('POST', path, { token, body: { data } })
  if (response.status !== 200 && response.status !== 201) throw new Error(`${path}: ${response.status} ${await response.text()}`)
  return ((await response.json()) as { data: { documentId: string } }).data.documentId
}
/** A draft's field as the API serves it. */
async function draftField(route: string, documentId: string, field: string): Promise<unknown> {
  const response = await ctx.request('GET', `/api/${route}/${documentId}?locale=en&status=draft`, { token })
  const { data } = (await response.json()) as { data: Record<string, unknown> | Record<string, unknown>[] }
  return (Array.isArray(data) ? data[0] : data)?.[field]
}

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true })
  // The shipped types and a note with a `richtext` field.
  typesDir = mkdtempSync(join(tmpdir(), 'types-'))
  cpSync(DEFAULT_CONTENT_TYPES_DIR, typesDir, { recursive: true })
  mkdirSync(join(typesDir, 'note'))
  writeFileSync(join(typesDir, 'note', 'schema.json'), JSON.stringify({
    kind: 'collectionType', collectionName: 'notes', info: { singularName: 'note', pluralName: 'notes', displayName: 'Note' },
    options: { draftAndPublish: false }, pluginOptions: { i18n: { localized: true } },
    attributes: { title: { type: 'string' }, text: { type: 'richtext' } },
  }))
  s3 = await startTestS3('blocks-editor')
  ctx = await createTestContext({ upload: { sizeLimit: 1_000_000, maxBodyBytes: 1_000_000, allowedTypes: ['image/*'], breakpoints: {}, keepLocation: false } }, {}, loadContentTypes(typesDir), s3.blobs)
  token = await ctx.token()
  await ctx.addLocales('fr')
  server = await startServer(createServerApp(ctx.services, () => undefined))
  admin = await signedInAdmin(server.url, 'https://strapi.io')
  browser = admin.browser
  page = admin.page
}, 120_000)

afterEach(() => admin.checkPage())

afterAll(async () => {
  await browser?.close()
  await server?.close()
  await s3?.stop()
  if (typesDir !== undefined) rmSync(typesDir, { recursive: true, force: true })
})

const editor = () => page.getByRole('textbox', { name: 'body' })
const toolbar = () => page.getByRole('toolbar', { name: 'Formatting of body' })
/** Opens a document page and waits for the editor script to have built the blocks editor: until
 * then the plain textarea is the `body` textbox, and keys typed into it on a loaded machine went
 * nowhere the test reads (a full run failed that way). */
async function openEditor(path: string): Promise<void> {
  await page.goto(url(path))
  await toolbar().waitFor()
}

describe('the blocks and Markdown editors, in Chromium', { timeout: 240_000 }, () => {
  it('types every block type with the keyboard alone and saves exactly the blocks JSON Strapi writes', async () => {
    const uploaded = await sendForm(ctx, uploadForm([{ name: 'cat.png', bytes: await png(8, 6), type: 'image/png' }]), token)
    const [file] = (await uploaded.json()) as Record<string, unknown>[]
    const id = await create('/api/articles?locale=en&status=draft', { title: 'Typed' })
    await openEditor(`/admin/content/articles/${id}?locale=en`)
    await editor().focus()
    const k = page.keyboard
    await k.press('Control+Alt+2'); await k.type('Title'); await k.press('Enter')
    await k.type('Plain '); await k.press('Control+B'); await k.type('bold'); await k.press('Control+B')
    await k.type(' '); await k.press('Control+I'); await k.type('em'); await k.press('Control+I')
    await k.type(' '); await k.press('Control+U'); await k.type('under'); await k.press('Control+U')
    await k.type(' '); await k.press('Control+Shift+X'); await k.type('gone'); await k.press('Control+Shift+X')
    await k.press('Enter')
    // Inline code and a link: typed, selected with Shift+arrows, then the shortcut.
    await k.type('see '); await k.press('Control+K') // the prompt's answer: see the dialog handler
    await k.press('End'); await k.type(' and call x()'); for (let i = 0; i < 3; i++) await k.press('Shift+ArrowLeft'); await k.press('Control+E')
    await k.press('End'); await k.press('Enter')
    await k.press('Control+Shift+8'); await k.type('one'); await k.press('Enter')
    await k.press('Tab'); await k.type('one.a'); await k.press('Enter'); await k.press('Shift+Tab'); await k.type('two'); await k.press('Enter'); await k.press('Enter')
    await k.press('Control+Shift+7'); await k.type('first'); await k.press('Enter'); await k.press('Enter')
    await k.press('Control+Alt+Q'); await k.type('Quoted'); await k.press('Enter')
    await k.press('Control+Alt+C'); await k.type('let a = 1'); await k.press('Enter'); await k.type('a < 2')
    // The image: the shortcut opens the media library's choice; Enter picks the focused image.
    await k.press('Control+Shift+M')
    await page.getByRole('dialog', { name: 'Choose an image' }).getByRole('button', { name: /cat\.png/ }).waitFor()
    await k.press('Enter')
    // The toolbar follows the selection on `selectionchange`, which Chromium fires after the key's
    // task: on a loaded machine the read came first and saw the state before the image (a full run).
    await expect.poll(() => toolbar().getByRole('button', { name: 'Bold' }).getAttribute('aria-pressed')).toBe('false')
    await page.screenshot({ path: join(SHOTS, 'blocks-editor.png') })
    await page.getByRole('region', { name: 'Status and actions' }).getByRole('button', { name: 'Save draft' }).click()
    await page.getByRole('status').first().waitFor()
    const image = Object.fromEntries(['name', 'alternativeText', 'url', 'caption', 'width', 'height', 'formats', 'hash', 'ext', 'mime', 'size', 'previewUrl', 'provider', 'provider_metadata', 'createdAt', 'updatedAt'].map((key) => [key, file![key]]))
    const t = (text: string, marks: Record<string, boolean> = {}) => ({ type: 'text', text, ...marks })
    expect(await draftField('articles', id, 'body')).toStrictEqual([
      { type: 'heading', level: 2, children: [t('Title')] },
      { type: 'paragraph', children: [t('Plain '), t('bold', { bold: true }), t(' '), t('em', { italic: true }), t(' '), t('under', { underline: true }), t(' '), t('gone', { strikethrough: true })] },
      { type: 'paragraph', children: [t('see '), { type: 'link', url: 'https://strapi.io', children: [t('https://strapi.io')] }, t(' and call '), t('x()', { code: true })] },
      { type: 'list', format: 'unordered', children: [{ type: 'list-item', children: [t('one')] }, { type: 'list', format: 'unordered', indentLevel: 1, children: [{ type: 'list-item', children: [t('one.a')] }] }, { type: 'list-item', children: [t('two')] }] },
      { type: 'list', format: 'ordered', children: [{ type: 'list-item', children: [t('first')] }] },
      { type: 'quote', children: [t('Quoted')] },
      { type: 'code', children: [t('let a = 1\na < 2')] },
      { type: 'image', image: { ...image, alternativeText: image.alternativeText ?? image.name }, children: [t('')] },
    ])
  })

  it('saves an unedited body as it was, and shows it as JSON on request', async () => {
    const body = [{ type: 'paragraph', children: [{ type: 'text', text: 'Kept ' }, { type: 'text', text: 'as is', bold: true, italic: true }] }, { type: 'list', format: 'ordered', children: [{ type: 'list-item', children: [{ type: 'text', text: 'a' }] }] }]
    const id = await create('/api/articles?locale=en&status=draft', { title: 'Unedited', body })
    await openEditor(`/admin/content/articles/${id}?locale=en`)
    expect(await editor().locator('strong em').textContent()).toBe('as is')
    await toolbar().getByRole('button', { name: 'JSON view' }).click()
    expect(JSON.parse(await page.locator('textarea[name="f.body"]').inputValue())).toStrictEqual(body)
    await page.getByRole('textbox', { name: 'title' }).fill('Unedited, retitled')
    await page.getByRole('region', { name: 'Status and actions' }).getByRole('button', { name: 'Save draft' }).click()
    await page.getByRole('status').first().waitFor()
    expect(await draftField('articles', id, 'body')).toStrictEqual(body)
  })

  it('previews Markdown safely: marks, lists and links, raw HTML as text, no javascript: link', async () => {
    const id = await create('/api/notes?locale=en', { title: 'Note' })
    await page.goto(url(`/admin/content/notes/${id}?locale=en`))
    const text = page.getByRole('textbox', { name: 'text' })
    await text.fill('# Hello\n\nSome ')
    await text.press('End')
    await text.press('Control+B')
    await page.keyboard.type('strong')
    await text.press('Control+End')
    await page.keyboard.type('\n\n- [site](https://example.com)\n- [bad](javascript:alert(1))\n\n<img src=x onerror=alert(1)>')
    await page.getByRole('tab', { name: 'Preview' }).click()
    const preview = page.getByRole('tabpanel', { name: 'Preview' })
    expect(await preview.getByRole('heading', { level: 1 }).textContent()).toBe('Hello')
    expect(await preview.locator('strong').textContent()).toBe('strong')
    expect(await preview.getByRole('link').evaluateAll((links: any[]) => links.map((link) => [link.textContent, link.getAttribute('href')]))).toEqual([['site', 'https://example.com']])
    expect(await preview.locator('img').count()).toBe(0)
    expect(await preview.textContent()).toContain('<img src=x onerror=alert(1)>')
    await page.screenshot({ path: join(SHOTS, 'markdown-preview.png') })
    await page.getByRole('tab', { name: 'Write' }).click()
    await page.getByRole('button', { name: 'Save' }).first().click()
    await page.getByRole('status').first().waitFor()
    expect(await draftField('notes', id, 'text')).toBe('# Hello\n\nSome **strong**\n\n- [site](https://example.com)\n- [bad](javascript:alert(1))\n\n<img src=x onerror=alert(1)>')
    expect(await page.evaluate(() => document.querySelectorAll('script:not([src])').length)).toBe(0)
  })

  it('names relation choices by their main field without ids, and shows and keeps a link whose target has no French version', async () => {
    const ada = await create('/api/authors?locale=en', { name: 'Ada Lovelace' })
    await ctx.request('PUT', `/api/authors/${ada}?locale=fr`, { token, body: { data: { name: 'Ada Lovelace (fr)' } } })
    const cloud = await create('/api/tags?locale=en', { name: 'Cloud' })
    await ctx.request('PUT', `/api/tags/${cloud}?locale=fr`, { token, body: { data: { name: 'Nuage' } } })
    const kept = await create('/api/tags?locale=fr', { name: 'Gardé' })
    const id = await create('/api/articles?locale=en&status=draft', { title: 'Linked' })
    const fr = await ctx.request('PUT', `/api/articles/${id}?locale=fr&status=draft`, { token, body: { data: { title: 'Lié', author: ada, tags: [cloud, kept] } } })
    expect(fr.status).toBe(200)
    // The targets' French versions go: the links stay, and read from fr resolve to nothing.
    for (const path of [`/api/authors/${ada}?locale=fr`, `/api/tags/${cloud}?locale=fr`]) expect((await ctx.request('DELETE', path, { token })).status).toBe(204)

    await page.goto(url(`/admin/content/articles/${id}?locale=fr`))
    const author = page.getByRole('combobox', { name: 'author → Author' })
    expect(await author.locator('option:checked').textContent()).toBe('Ada Lovelace (no French version)')
    const options = await page.locator('select option, .relation li').allTextContents()
    for (const documentId of [ada, cloud, kept]) expect(options.join(' ')).not.toContain(documentId)
    const missing = page.getByRole('list', { name: 'Linked without a French version' })
    expect(await missing.nth(0).getByRole('link').getAttribute('href')).toContain(`authors/${ada}?locale=fr`)
    expect(await missing.nth(1).textContent()).toContain('Cloud: no French version.')
    expect(await page.getByRole('group', { name: 'tags → Tag' }).getByRole('list').first().textContent()).toContain('Gardé')
    await page.screenshot({ path: join(SHOTS, 'relation-missing-locale.png'), fullPage: true })

    // Saving the French version keeps both links it could not show.
    await page.getByRole('textbox', { name: 'title' }).fill('Lié, revu')
    await page.getByRole('region', { name: 'Status and actions' }).getByRole('button', { name: 'Save draft' }).click()
    await page.getByRole('status').first().waitFor()
    const stored = await ctx.services.documents.getVersion(ctx.services.types.find((type) => type.singularName === 'article')!, id, 'fr', 'draft')
    expect([stored?.attributes.title, stored?.attributes.author, stored?.attributes.tags]).toEqual(['Lié, revu', ada, [cloud, kept]])

    // The link to create the localization opens the author's French form.
    await missing.nth(0).getByRole('link').click()
    await page.getByRole('heading', { name: /^Create the French.* localization$/ }).waitFor()
  })
})
