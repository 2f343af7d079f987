// Components, dynamic zones and media in the admin web interface (content-model.md §18, §19), in a
// real Chromium against the server app on DynamoDB Local and an S3-compatible server: a document
// filled with a component, a repeatable list (add, reorder, remove) and a zone, saved and read
// back through the API; the same edits from the keyboard alone; the media library (upload by the
// file field and by a drop, alternative text, delete with its count of documents) and the media
// picker of a document form. axe-core runs on every page. Screenshots go to a temporary folder,
// or to docs/screenshots/ with UPDATE_SCREENSHOTS=1 (docs/admin-editing.md).
import { mkdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { ContentType } from '../../lib/content-types.js'
import { loadContentTypes } from '../../lib/schema/load.js'
import { readSchema } from '../../lib/schema/model.js'
import { createServerApp } from '../../lib/server-app.js'
import { signedInAdmin, type AdminBrowser } from '../support/admin-browser.js'
import type { TestBrowser } from '../support/browser.js'
import { createTestContext, type TestContext } from '../support/context.js'
import { png } from '../support/media.js'
import { startTestS3, type TestS3 } from '../support/s3.js'
import { startServer, type TestServer } from '../support/server.js'

// In-page code (page.evaluate) runs in the browser; the project's types hold no DOM library.
declare const document: any
declare const DataTransfer: any
declare const DragEvent: any
declare const File: any

const SHOTS = process.env.UPDATE_SCREENSHOTS === '1' ? join(import.meta.dirname, '../../docs/screenshots') : join(tmpdir(), 'admin-components-screenshots')
const FIXTURE = new URL('../fixtures/components-project/src/api/', import.meta.url).pathname
const post = readSchema({ file: 'post/schema.json', api: 'post', name: 'post' }, {
  kind: 'collectionType',
  info: { singularName: 'post', pluralName: 'posts', displayName: 'Post' },
  options: { draftAndPublish: false },
  attributes: {
    title: { type: 'string' },
    cover: { type: 'media', multiple: false, allowedTypes: ['images'] },
    gallery: { type: 'media', multiple: true, allowedTypes: ['images'] },
  },
})
const types: readonly ContentType[] = [...loadContentTypes(FIXTURE), post]

let s3: TestS3
let ctx: TestContext
let server: TestServer
let browser: TestBrowser
let page: Page
let token: string
let admin: AdminBrowser

const url = (path: string) => `${server.url}${path}`
const shot = (name: string) => page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true })
const status = () => page.getByRole('status').first()
const field = (path: string) => page.locator(`[name="f.${path}"]`)
const active = () => page.evaluate(() => document.activeElement?.id as string)
/** Presses a key that posts the form, and waits for the page it loads. */
const pressAndLoad = (key: string) => Promise.all([page.waitForEvent('load'), page.keyboard.press(key)])

/** Reads through the API (full-access token). */
async function api(path: string): Promise<any> {
  const response = await ctx.request('GET', path, { token })
  expect(response.status).toBe(200)
  return response.json()
}

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true })
  s3 = await startTestS3()
  ctx = await createTestContext({ upload: { sizeLimit: 2_000_000, maxBodyBytes: 2_000_000, allowedTypes: ['image/*', 'text/plain'], breakpoints: {}, keepLocation: false } }, {}, types, s3.blobs)
  await ctx.addLocales('fr')
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
  await s3?.stop()
})

describe('components, zones and media in the admin, in Chromium', { timeout: 240_000 }, () => {
  it('fills a component, a repeatable list (add, reorder, remove) and a zone, and saves exactly that', async () => {
    await page.goto(url('/admin/content/pages/new?locale=en'))
    await page.getByRole('textbox', { name: 'title' }).fill('Home')
    await page.getByRole('button', { name: 'Add Seo' }).click()
    await field('seo.0.metaTitle').fill('Home page')
    await field('seo.0.priority').fill('4')
    // Nested: a keyword inside the seo component.
    await page.getByRole('button', { name: 'Add an entry to seo.0.keywords' }).click()
    await field('seo.0.keywords.0.word').fill('cms')
    for (const text of ['First', 'Second', 'Third']) {
      await page.getByRole('button', { name: 'Add an entry to links' }).click()
      await field(`links.${['First', 'Second', 'Third'].indexOf(text)}.text`).fill(text)
    }
    expect(await page.getByRole('button', { name: 'Add an entry to links' }).isDisabled()).toBe(true)
    await page.getByRole('button', { name: 'Move up Button 3' }).click()
    await page.getByRole('button', { name: 'Remove Button 1' }).click()
    expect(await field('links.0.text').inputValue()).toBe('Third')
    expect(await field('links.1.text').inputValue()).toBe('Second')
    expect(await status().textContent()).toContain('save to keep it')

    await page.getByLabel('Block to add').selectOption({ label: 'Hero' })
    await page.getByRole('button', { name: 'Add block' }).click()
    await field('blocks.0.heading').fill('Welcome')
    await page.getByLabel('Block to add').selectOption({ label: 'Text' })
    await page.getByRole('button', { name: 'Add block' }).click()
    await field('blocks.1.body').fill('Hello there')
    await page.getByRole('button', { name: 'Move up Text 2' }).click()
    await shot('components-form')
    await page.getByRole('button', { name: 'Create draft' }).click()
    expect(await status().textContent()).toContain('Created.')

    const documentId = new URL(page.url()).pathname.split('/').at(-1) as string
    const query = 'status=draft&populate[seo][populate][keywords]=true&populate[links]=true&populate[blocks]=true'
    const [saved] = (await api(`/api/pages/${documentId}?${query}`)).data
    const id = expect.any(Number)
    expect({ seo: saved.seo, links: saved.links, blocks: saved.blocks }).toEqual({
      seo: { id, metaTitle: 'Home page', metaDescription: null, priority: 4, keywords: [{ id, word: 'cms', weight: null }] },
      links: [{ id, text: 'Third', url: null, variant: 'primary' }, { id, text: 'Second', url: null, variant: 'primary' }],
      blocks: [{ __component: 'blocks.text', id, body: 'Hello there', columns: 1 }, { __component: 'blocks.hero', id, heading: 'Welcome', subheading: null }],
    })

    // Saving again keeps every entry's id; the API's nested error shows beside its field.
    await field('links.1.url').fill('not a link')
    await page.getByRole('button', { name: 'Save draft' }).click()
    expect(await page.locator('#cf-links-1-url-error').textContent()).toContain('url')
    expect(await field('links.1.url').getAttribute('aria-invalid')).toBe('true')
    expect(await field('links.1.url').evaluate((input: any) => input === document.activeElement)).toBe(true)
    await field('links.1.url').fill('')
    await field('blocks.1.heading').fill('Welcome back')
    await page.getByRole('button', { name: 'Save draft' }).click()
    expect(await status().textContent()).toContain('Saved.')
    const [again] = (await api(`/api/pages/${documentId}?${query}`)).data
    expect(again.blocks.map((block: any) => block.id)).toEqual(saved.blocks.map((block: any) => block.id))
    expect(again.links.map((link: any) => link.id)).toEqual(saved.links.map((link: any) => link.id))
    expect(again.blocks[1].heading).toBe('Welcome back')

    // Side by side: the English values beside the French form.
    await page.goto(url(`/admin/content/pages/${documentId}?locale=fr&source=en`))
    expect(await page.locator('#cf-blocks-source').textContent()).toContain('Welcome back')
  })

  it('adds, moves and removes entries from the keyboard, the focus following each edit', async () => {
    const response = await ctx.request('POST', '/api/pages?locale=en&status=draft', { token, body: { data: { title: 'Keys', blocks: [{ __component: 'blocks.text', body: 'x' }], links: [{ text: 'One' }] } } })
    const documentId = ((await response.json()) as any).data.documentId as string
    await page.goto(url(`/admin/content/pages/${documentId}?locale=en`))
    await page.getByRole('button', { name: 'Add an entry to links' }).focus()
    await pressAndLoad('Enter')
    expect(await active()).toBe('cf-links-1-text')
    await page.keyboard.type('Two')
    await page.getByRole('button', { name: 'Move up Button 2' }).focus()
    await pressAndLoad('Enter')
    expect(await active()).toBe('cf-links-0-down')
    expect(await field('links.0.text').inputValue()).toBe('Two')
    // At the top, Move up is disabled: out of the tab order.
    expect(await page.getByRole('button', { name: 'Move up Button 1' }).isDisabled()).toBe(true)
    await page.keyboard.press('Tab')
    expect(await active()).toBe('cf-links-0-remove')
    await pressAndLoad('Enter')
    expect(await active()).toBe('cf-links-0-remove')
    expect(await field('links.0.text').inputValue()).toBe('One')
    await page.getByRole('button', { name: 'Save draft' }).focus()
    await pressAndLoad('Enter')
    expect(await status().textContent()).toContain('Saved.')
    const [saved] = (await api(`/api/pages/${documentId}?status=draft&populate=links`)).data
    expect(saved.links.map((link: any) => link.text)).toEqual(['One'])
  })

  it('uploads by the file field and by a drop, edits the alternative text, picks media into a document, and deletes with the count', async () => {
    await page.goto(url('/admin/media'))
    await page.getByLabel('Files to upload').setInputFiles({ name: 'harbour.png', mimeType: 'image/png', buffer: await png(400, 300) })
    await page.getByRole('button', { name: 'Upload', exact: true }).click()
    expect(await status().textContent()).toContain('Uploaded.')

    // A drop: a DataTransfer holding a file, dispatched on the drop zone.
    const dropped = (await png(200, 100)).toString('base64')
    await Promise.all([page.waitForEvent('load'), page.evaluate((data: string) => {
      const bytes = Uint8Array.from(atob(data), (char) => char.charCodeAt(0))
      const transfer = new DataTransfer()
      transfer.items.add(new File([bytes], 'dropped.png', { type: 'image/png' }))
      document.querySelector('form[data-drop]').dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }))
    }, dropped)])
    const files = (await api('/api/upload/files?sort=createdAt:asc')) as any[]
    expect(files.map((file) => file.name)).toEqual(['harbour.png', 'dropped.png'])
    expect(await page.getByRole('list', { name: /Files, newest first/ }).getByRole('listitem').count()).toBe(2)
    const thumb = page.getByRole('img', { name: 'harbour.png' })
    expect(await thumb.evaluate((img: any) => img.complete && img.naturalWidth > 0)).toBe(true)
    await shot('media-library')

    await page.getByRole('link', { name: 'harbour.png' }).click()
    await page.getByLabel('Alternative text').fill('Boats in the harbour')
    await page.getByRole('button', { name: 'Save texts' }).click()
    expect(await status().textContent()).toContain('Saved.')
    const harbour = files[0]
    expect((await api(`/api/upload/files/${harbour.id}`)).alternativeText).toBe('Boats in the harbour')

    // The picker of a new post: the cover chosen from the library, the gallery with two files.
    await page.goto(url('/admin/content/posts/new?locale=en'))
    await page.getByRole('textbox', { name: 'title' }).fill('Boats')
    await page.getByRole('group', { name: 'cover' }).getByRole('radio', { name: 'harbour.png' }).check()
    const gallery = page.getByRole('group', { name: 'gallery' })
    await gallery.getByRole('checkbox', { name: 'dropped.png' }).check()
    await gallery.getByRole('checkbox', { name: 'harbour.png' }).check()
    await shot('media-picker')
    await page.getByRole('button', { name: 'Create', exact: true }).click()
    expect(await status().textContent()).toContain('Created.')
    const documentId = new URL(page.url()).pathname.split('/').at(-1) as string
    const [saved] = (await api(`/api/posts/${documentId}?populate=*`)).data
    expect(saved.cover.documentId).toBe(harbour.documentId)
    expect(saved.gallery.map((file: any) => file.name)).toEqual(['dropped.png', 'harbour.png'])

    // Delete: the page says how many documents use the file, and the link goes.
    await page.goto(url(`/admin/media/${harbour.documentId}`))
    expect(await page.locator('#file-uses').textContent()).toContain('Used by 1 document')
    await page.getByRole('button', { name: 'Delete this file' }).click()
    expect(await status().textContent()).toContain('File deleted.')
    expect((await ctx.request('GET', `/api/upload/files/${harbour.id}`, { token })).status).toBe(404)
    const [after] = (await api(`/api/posts/${documentId}?populate=*`)).data
    expect(after.cover).toBeNull()

    // A new file uploaded from the document form itself becomes the cover.
    await page.goto(url(`/admin/content/posts/${documentId}?locale=en`))
    await page.getByLabel('Or upload a new file (chosen instead)').setInputFiles({ name: 'new-cover.png', mimeType: 'image/png', buffer: await png(120, 80) })
    await page.getByRole('button', { name: 'Save en' }).click()
    expect(await status().textContent()).toContain('Saved.')
    const [covered] = (await api(`/api/posts/${documentId}?populate=*`)).data
    expect(covered.cover.name).toBe('new-cover.png')
    expect(covered.gallery.map((file: any) => file.name)).toEqual(['dropped.png'])
    expect(await page.getByRole('group', { name: 'cover' }).getByRole('radio', { name: 'new-cover.png' }).isChecked()).toBe(true)
  })
})
