// Relations and media inside components and dynamic zones (content-model.md §16, §18, §19), over HTTP
// on DynamoDB Local, on the models of test/fixtures/components-project: written as top-level ones
// (documentId, { documentId, locale }, connect / disconnect / set with positions, kept across
// updates of an entry sent back by id), checked (targets in the write's locale, full paths),
// populated (object form, nested, `on` fragments), filtered through (one entry holds every
// condition under one key; 400 into zones), indexed by target, and unlinked by a target's delete.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ContentType } from '../../lib/content-types.js'
import { LocalBlobs } from '../../lib/local/uploads.js'
import { loadContentTypes } from '../../lib/schema/load.js'
import { SETTLE_MS } from '../../lib/storage/lists/validator.js'
import { createServerApp } from '../../lib/server-app.js'
import { createServices } from '../../lib/services.js'
import { ADMIN_TOKEN, TOKEN_HASH_SECRET, createTestContext, expectLinksIndexed, holdWrites, json, requestsTo, scanTable, type TestContext } from '../support/context.js'
import { hangGuard, rounds } from '../support/rounds.js'
import { png, sendForm, uploadForm } from '../support/media.js'

const FIXTURE = new URL('../fixtures/components-project/src/api/', import.meta.url).pathname
const types: readonly ContentType[] = loadContentTypes(FIXTURE)

type Doc = Record<string, any>
const hero = (heading: string, extra: Doc = {}) => ({ __component: 'blocks.hero', heading, ...extra })
const related = (extra: Doc) => ({ __component: 'blocks.related', ...extra })

let dir: string
let ctx: TestContext
let key: string

const write = (method: 'POST' | 'PUT', path: string, data: Doc) => ctx.request(method, path, { token: key, body: { data } })
async function ok(response: Response): Promise<Doc> {
  const body = await json(response)
  expect(response.status, JSON.stringify(body)).toBe(200)
  return body.data
}
const article = async (title: string, query = '') => ok(await write('POST', `/api/articles${query}`, { title }))
const page = async (data: Doc, query = '') => ok(await write('POST', `/api/pages${query}`, { title: 'Page', blocks: [hero('x')], ...data }))
const read = async (path: string) => {
  const data = await ok(await ctx.request('GET', path, { token: key }))
  return Array.isArray(data) ? data[0] : data
}
async function refusal(response: Response): Promise<{ message: string; path: unknown }> {
  const body = await json(response)
  expect(response.status, JSON.stringify(body)).toBe(400)
  return { message: body.error.message, path: body.error.details.errors?.[0]?.path ?? body.error.details.key }
}
async function upload(bytes: Uint8Array, name: string): Promise<Doc> {
  const response = await sendForm(ctx, uploadForm([{ bytes, name }]), key)
  expect(response.status).toBe(201)
  return ((await response.json()) as Doc[])[0] as Doc
}
const titles = (docs: Doc[]) => docs.map((doc) => doc.title)

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'components-links-'))
  ctx = await createTestContext({ upload: { sizeLimit: 1_000_000, maxBodyBytes: 1_000_000, allowedTypes: ['image/*', 'text/plain'], breakpoints: {}, keepLocation: false } }, {}, types, new LocalBlobs(dir))
  key = await ctx.token('full-access')
  await ctx.addLocales('fr')
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('writing relations inside components', () => {
  it('connects, disconnects and sets inside an entry kept by its id, in the order asked', async () => {
    const [a, b, c] = [await article('A'), await article('B'), await article('C')]
    const created = await page({ blocks: [related({ heading: 'r', articles: { connect: [a.documentId, b.documentId] } })] })
    const [first] = (await read(`/api/pages/${created.documentId}?populate[blocks][populate]=*`)).blocks
    expect(titles(first.articles)).toEqual(['A', 'B'])
    // The entry sent back by id: its links are the stored ones, edited.
    await ok(await write('PUT', `/api/pages/${created.documentId}`, { blocks: [{ __component: 'blocks.related', id: first.id, articles: { connect: [{ documentId: c.documentId, position: { before: b.documentId } }], disconnect: [a.documentId] } }] }))
    const [edited] = (await read(`/api/pages/${created.documentId}?populate[blocks][populate]=*`)).blocks
    expect({ id: edited.id, heading: edited.heading, articles: titles(edited.articles) }).toEqual({ id: first.id, heading: 'r', articles: ['C', 'B'] })
    await ok(await write('PUT', `/api/pages/${created.documentId}`, { blocks: [{ __component: 'blocks.related', id: first.id, articles: { set: [a.documentId] }, lead: { connect: [b.documentId] } }] }))
    const [set] = (await read(`/api/pages/${created.documentId}?populate[blocks][populate]=*`)).blocks
    expect({ articles: titles(set.articles), lead: set.lead.title }).toEqual({ articles: ['A'], lead: 'B' })
    // An entry sent without its relation keeps its links; a new entry (no id) starts with none.
    await ok(await write('PUT', `/api/pages/${created.documentId}`, { blocks: [{ __component: 'blocks.related', id: first.id, heading: 'kept' }, related({ articles: { connect: [c.documentId] } })] }))
    const after = (await read(`/api/pages/${created.documentId}?populate[blocks][populate]=*`)).blocks
    expect(after.map((entry: Doc) => [entry.heading, titles(entry.articles), entry.lead?.title ?? null])).toEqual([['kept', ['A'], 'B'], [null, ['C'], null]])
  })

  it('links a non-repeatable component\'s relation by documentId, { documentId }, or connect, and unlinks with null or disconnect', async () => {
    const [a, b] = [await article('Canon A'), await article('Canon B')]
    const created = await page({ seo: { metaTitle: 't', canonical: { documentId: a.documentId } } })
    const seoOf = async () => (await read(`/api/pages/${created.documentId}?populate[seo][populate][canonical][fields][0]=title`)).seo
    const seo = await seoOf()
    expect(seo.canonical).toEqual({ id: a.id, documentId: a.documentId, title: 'Canon A' })
    await ok(await write('PUT', `/api/pages/${created.documentId}`, { seo: { id: seo.id, canonical: { connect: [b.documentId] } } }))
    expect((await seoOf()).canonical.title).toBe('Canon B')
    await ok(await write('PUT', `/api/pages/${created.documentId}`, { seo: { id: seo.id, canonical: { disconnect: [b.documentId] } } }))
    expect((await seoOf()).canonical).toBeNull()
    await ok(await write('PUT', `/api/pages/${created.documentId}`, { seo: { id: seo.id, canonical: a.documentId } }))
    await ok(await write('PUT', `/api/pages/${created.documentId}`, { seo: { id: seo.id, canonical: null } }))
    expect(await seoOf()).toMatchObject({ metaTitle: 't', canonical: null })
  })

  it.each([
    ['set with connect', { articles: { set: [], connect: ['x'] } }, 'blocks[0].articles: set replaces every link; send it without connect or disconnect'],
    ['several targets for a to-one', { lead: { connect: ['a', 'b'] } }, 'blocks[0].lead links one document: name at most one target'],
    ['an unknown key in a relation object', { articles: { connect: [{ documentId: 'x', where: 1 }] } }, "blocks[0].articles: unknown key 'where' in a relation target (expected documentId, locale, position)"],
    ['one target twice in a connect', { articles: { connect: ['x', 'x'] } }, 'blocks[0].articles: the target x is named twice in connect'],
    ['a number for a relation', { lead: 12 }, 'blocks[0].lead: a relation is written with documentIds (a string, an array, or { connect | disconnect | set })'],
  ])('refuses %s with the full path, writing nothing', async (_, entry, message) => {
    const before = (await scanTable(ctx)).length
    expect(await refusal(await write('POST', '/api/pages', { title: 'Bad', blocks: [related(entry)] }))).toEqual({ message, path: ['blocks', 0, message.includes('.lead') ? 'lead' : 'articles'] })
    expect((await scanTable(ctx)).length).toBe(before)
  })

  it('refuses a position relative to a target the entry does not link, naming the full path', async () => {
    const a = await article('Anchor')
    const response = await write('POST', '/api/pages', { title: 'P', blocks: [hero('h'), related({ articles: { connect: [{ documentId: a.documentId, position: { after: 'notlinked00000000000000' } }] } })] })
    expect(await refusal(response)).toEqual({ message: 'blocks[1].articles: position is relative to notlinked00000000000000, which is not linked', path: ['blocks', 1, 'articles'] })
  })

  it('checks targets in the write\'s locale, or in the locale a target names', async () => {
    const english = await article('Only in English')
    const created = await page({ title: 'EN' })
    await ok(await write('PUT', `/api/pages/${created.documentId}?locale=fr`, { title: 'FR', blocks: [hero('fr')] }))
    const fr = (links: unknown) => write('PUT', `/api/pages/${created.documentId}?locale=fr`, { links })
    expect(await refusal(await fr([{ text: 'x', article: english.documentId }]))).toEqual({ message: `Document with id "${english.documentId}", locale "fr" not found`, path: ['links', 0, 'article'] })
    expect(await refusal(await fr([{ text: 'x', article: { documentId: english.documentId, locale: 'FR' } }]))).toMatchObject({ path: ['links', 0, 'article'] })
    await ok(await fr([{ text: 'x', article: { documentId: english.documentId, locale: 'en' } }]))
    // Shown in the reader's locale, as top-level links: the French reader sees no French version.
    const populate = 'populate[links][populate][article][fields][0]=title'
    expect((await read(`/api/pages/${created.documentId}?locale=fr&${populate}`)).links[0].article).toBeNull()
    expect((await read(`/api/pages/${created.documentId}?locale=en&${populate}`)).links[0].article.title).toBe('Only in English')
    await ok(await write('PUT', `/api/articles/${english.documentId}?locale=fr`, { title: 'Aussi en français' }))
    expect((await read(`/api/pages/${created.documentId}?locale=fr&${populate}`)).links[0].article.title).toBe('Aussi en français')
  })
})

describe('populating relations and media inside components', () => {
  let created: Doc
  let image: Doc
  let a: Doc

  beforeAll(async () => {
    a = await article('Deep')
    await ok(await write('PUT', `/api/articles/${a.documentId}?locale=fr`, { title: 'Profond' }))
    image = await upload(await png(40, 20), 'hero.png')
    created = await page({ seo: { metaTitle: 'm', image: image.id, canonical: a.documentId }, links: [{ text: 'l', article: a.documentId }], blocks: [hero('h', { image: image.documentId }), related({ lead: a.documentId, gallery: [image.id] })] })
  })

  it('shows nothing of them with populate=* (one level) nor with a component populated alone', async () => {
    const doc = await read(`/api/pages/${created.documentId}?populate=*`)
    expect(doc.seo).not.toHaveProperty('image')
    expect(doc.seo).not.toHaveProperty('canonical')
    expect(doc.blocks[0]).toEqual({ __component: 'blocks.hero', id: expect.any(Number), heading: 'h', subheading: null })
  })

  it('shows media with populate[seo][populate][image] and the on fragment of a zone, fields selected', async () => {
    const doc = await read(`/api/pages/${created.documentId}?populate[seo][populate][image][fields][0]=url&populate[blocks][on][blocks.hero][populate][image]=true&populate[blocks][on][blocks.related][populate][gallery][fields][0]=name`)
    expect(doc.seo.image).toEqual({ id: image.id, documentId: image.documentId, url: image.url })
    expect(doc.blocks[0].image).toMatchObject({ id: image.id, mime: 'image/png', width: 40 })
    expect(doc.blocks[1].gallery).toEqual([{ id: image.id, documentId: image.documentId, name: 'hero.png' }])
    expect(doc.blocks[1]).not.toHaveProperty('lead')
  })

  it('populates below a component\'s relation (nested populate), in the request\'s locale', async () => {
    const doc = await read(`/api/pages/${created.documentId}?populate[links][populate][article][populate][localizations][fields][0]=title`)
    expect(doc.links[0].article.title).toBe('Deep')
    expect(doc.links[0].article.localizations.map((one: Doc) => one.title)).toEqual(['Profond'])
    const all = await read(`/api/pages/${created.documentId}?populate[blocks][populate]=*&populate[seo][populate]=*`)
    expect({ lead: all.blocks[1].lead.title, canonical: all.seo.canonical.title, image: all.seo.image.id }).toEqual({ lead: 'Deep', canonical: 'Deep', image: image.id })
  })
})

describe('media inside components', () => {
  it('is written by file id or documentId, and refused with the full path when missing or of a type not allowed', async () => {
    const picture = await upload(await png(10, 10), 'p.png')
    const text = await upload(Buffer.from('plain words'), 'notes.txt')
    expect(await refusal(await write('POST', '/api/pages', { title: 'T', seo: { metaTitle: 'm', image: text.id }, blocks: [hero('h')] })))
      .toEqual({ message: `seo.image: file ${text.id} is text/plain, not one of images`, path: ['seo', 'image'] })
    expect(await refusal(await write('POST', '/api/pages', { title: 'T', blocks: [hero('h'), related({ gallery: [picture.id, 999999] })] })))
      .toEqual({ message: 'blocks[1].gallery: file 999999 not found', path: ['blocks', 1, 'gallery'] })
    expect(await refusal(await write('POST', '/api/pages', { title: 'T', blocks: [hero('h', { image: [picture.id, text.id] })] })))
      .toMatchObject({ path: ['blocks', 0, 'image'] })
    const created = await page({ links: [{ text: 'x' }], blocks: [related({ gallery: [{ id: text.id }, picture.documentId] })] })
    const doc = await read(`/api/pages/${created.documentId}?populate[blocks][on][blocks.related][populate][gallery][fields][0]=name`)
    expect(titles(doc.blocks[0].gallery.map((file: Doc) => ({ title: file.name })))).toEqual(['notes.txt', 'p.png'])
  })

  it('unlinks a deleted file everywhere inside components', async () => {
    const doomed = await upload(await png(8, 8), 'doomed.png')
    const created = await page({ seo: { metaTitle: 'm', image: doomed.id }, blocks: [related({ gallery: [doomed.id] })] })
    expect((await ctx.request('DELETE', `/api/upload/files/${doomed.id}`, { token: key })).status).toBe(200)
    const doc = await read(`/api/pages/${created.documentId}?populate[seo][populate]=*&populate[blocks][populate]=*`)
    expect({ image: doc.seo.image, gallery: doc.blocks[0].gallery }).toEqual({ image: null, gallery: [] })
    const listed = (await ok(await ctx.request('GET', `/api/pages?filters[seo][image][name][$eq]=doomed.png`, { token: key }))) as Doc[]
    expect(listed).toEqual([])
  })
})

describe('filters through relations inside components', () => {
  let docs: Record<string, Doc>
  let targets: Record<string, Doc>
  const filtered = async (query: string) => {
    const response = await ctx.request('GET', `/api/pages?locale=fr&${query}&pagination[pageSize]=100`, { token: key })
    const body = await json(response)
    expect(response.status, JSON.stringify(body)).toBe(200)
    // Only this describe's pages (the other tests write French versions too).
    return (body.data as Doc[]).map((doc) => doc.title).filter((title) => ['One', 'Two', 'Three', 'Four'].includes(title)).sort()
  }

  beforeAll(async () => {
    // In French, so most of the other tests' pages are not among them.
    targets = { red: await article('Red', '?locale=fr'), blue: await article('Blue', '?locale=fr'), gone: await article('Gone', '?locale=fr') }
    const id = (name: string) => targets[name]!.documentId
    const make = async (title: string, data: Doc) => page({ title, blocks: [hero(title), related({ lead: id('red') })], ...data }, '?locale=fr')
    docs = {
      one: await make('One', { seo: { metaTitle: 'a', canonical: id('red') }, links: [{ text: 'a', variant: 'outline', article: id('blue') }, { text: 'b', article: id('red') }] }),
      two: await make('Two', { seo: { metaTitle: 'b', canonical: id('blue') }, links: [{ text: 'c', variant: 'outline', article: id('red') }] }),
      three: await make('Three', { seo: { metaTitle: 'c', canonical: id('gone') }, links: [{ text: 'd', article: id('gone') }] }),
      four: await make('Four', { seo: null, links: [] }),
    }
  })

  it.each([
    ['filters[seo][canonical][title][$eq]=Red', ['One']],
    ['filters[seo][canonical][documentId][$in][0]=BLUE&filters[seo][canonical][documentId][$in][1]=RED', ['One', 'Two']],
    ['filters[links][article][title][$eq]=Red', ['One', 'Two']],
    // One entry holds every condition under one key: One's outline button links Blue, Two's links Red.
    ['filters[links][variant][$eq]=outline&filters[links][article][title][$eq]=Red', ['Two']],
    ['filters[links][$and][0][variant][$eq]=outline&filters[links][$and][1][article][title][$eq]=Blue', ['One']],
    ['filters[$or][0][seo][canonical][title][$eq]=Blue&filters[$or][1][title][$eq]=Four', ['Four', 'Two']],
    ['filters[$not][links][article][title][$eq]=Red', ['Four', 'Three']],
    ['filters[seo][canonical][$null]=true', []],
    ['filters[seo][canonical][$notNull]=true', ['One', 'Three', 'Two']],
  ])('keeps the pages %s matches', async (query, expected) => {
    const resolved = query.replace('BLUE', targets.blue!.documentId).replace('RED', targets.red!.documentId)
    expect(await filtered(resolved)).toEqual(expected)
  })

  it('refuses filters into a dynamic zone, and through a relation inside one', async () => {
    const response = await ctx.request('GET', '/api/pages?filters[blocks][lead][title][$eq]=Red', { token: key })
    expect(await refusal(response)).toMatchObject({ message: 'Invalid key blocks' })
    const unknown = await ctx.request('GET', '/api/pages?filters[seo][canonical][nope][$eq]=x', { token: key })
    expect(await refusal(unknown)).toMatchObject({ message: 'Invalid key nope' })
  })

  it('needs find on the target to filter through or populate a component\'s relation', async () => {
    const pagesOnly = await ctx.token('custom', ['api::page.page.find', 'api::page.page.findOne'])
    const through = await ctx.request('GET', '/api/pages?locale=fr&filters[seo][canonical][title][$eq]=Red', { token: pagesOnly })
    expect(through.status).toBe(403)
    const populated = await ctx.request('GET', `/api/pages/${docs.one!.documentId}?locale=fr&populate[seo][populate][canonical]=true`, { token: pagesOnly })
    expect(populated.status).toBe(403)
    expect((await ctx.request('GET', `/api/pages?locale=fr&filters[seo][metaTitle][$eq]=a`, { token: pagesOnly })).status).toBe(200)
  })

  it('answers a conditional read anew once a target a filter went through changes', async () => {
    // A list answers 304 only once settled (SETTLE_MS after its last change: indexes catch up).
    const settle = () => new Promise((resolve) => setTimeout(resolve, SETTLE_MS + 100))
    const path = '/api/pages?locale=fr&filters[seo][canonical][title][$eq]=Red'
    await settle()
    const first = await ctx.request('GET', path, { token: key })
    const etag = first.headers.get('etag') as string
    expect((await ctx.request('GET', path, { token: key, headers: { 'If-None-Match': etag } })).status).toBe(304)
    await ok(await write('PUT', `/api/articles/${targets.red!.documentId}?locale=fr`, { title: 'Crimson' }))
    await settle()
    const after = await ctx.request('GET', path, { token: key, headers: { 'If-None-Match': etag } })
    expect({ status: after.status, data: (await json(after)).data }).toEqual({ status: 200, data: [] })
    await ok(await write('PUT', `/api/articles/${targets.red!.documentId}?locale=fr`, { title: 'Red' }))
  })

  it('indexes each link inside components by its target, under the component path', async () => {
    const items = await scanTable(ctx)
    expectLinksIndexed(items, new Map(), types)
    const toRed = items.filter((item) => item.documentId === `#link:${targets.red!.documentId}`).map((item) => String(item.locale).split('#').slice(0, 2).join('#'))
    expect([...new Set(toRed)].sort()).toEqual(['api::page.page#blocks[blocks.related].lead', 'api::page.page#links.article', 'api::page.page#seo.canonical'])
  })

  it('forgets a deleted target: filters through it match nothing, $null holds, populate shows null', async () => {
    expect(await filtered('filters[seo][canonical][title][$eq]=Gone')).toEqual(['Three'])
    expect((await ctx.request('DELETE', `/api/articles/${targets.gone!.documentId}?locale=fr`, { token: key })).status).toBe(204)
    expect(await filtered('filters[seo][canonical][title][$eq]=Gone')).toEqual([])
    expect(await filtered('filters[links][article][documentId][$eq]=' + targets.gone!.documentId)).toEqual([])
    expect(await filtered('filters[seo][canonical][$null]=true')).toEqual(['Three'])
    const doc = await read(`/api/pages/${docs.three!.documentId}?locale=fr&populate[seo][populate]=*&populate[links][populate]=*`)
    expect({ canonical: doc.seo.canonical, article: doc.links[0].article }).toEqual({ canonical: null, article: null })
  })
})

describe('Strapi 5\'s blog template (test/fixtures/blog-template), unchanged', () => {
  it('serves media inside its zone\'s components and its single type\'s component', async () => {
    const blog = loadContentTypes(new URL('../fixtures/blog-template/src/api/', import.meta.url).pathname)
    const own = await createTestContext({ upload: ctx.config.upload }, {}, blog, new LocalBlobs(dir))
    const token = await own.token('full-access')
    const form = await sendForm(own, uploadForm([{ bytes: await png(16, 9), name: 'cover.png' }]), token)
    const [file] = (await form.json()) as Doc[]
    const blocks = [{ __component: 'shared.media', file: file!.id }, { __component: 'shared.quote', title: 'Q', body: 'B' }, { __component: 'shared.slider', files: [file!.documentId] }]
    const created = await json(await own.request('POST', '/api/articles?populate[blocks][populate]=*', { token, body: { data: { title: 'Hello', blocks } } }))
    expect(created.data.blocks.map((entry: Doc) => entry.file?.name ?? entry.files?.[0]?.name ?? entry.title)).toEqual(['cover.png', 'Q', 'cover.png'])
    const global = await json(await own.request('PUT', '/api/global?populate[defaultSeo][populate][shareImage][fields][0]=url', { token, body: { data: { siteName: 'S', siteDescription: 'D', defaultSeo: { metaTitle: 'T', metaDescription: 'M', shareImage: file!.id } } } }))
    expect(global.data.defaultSeo.shareImage).toEqual({ id: file!.id, documentId: file!.documentId, url: file!.url })
  })
})

describe('a race of writes to one document\'s components against the delete of a target they link', () => {
  it('the delete succeeds, and no read ever shows a link to the missing document', async () => {
    // A second process on the table (quiet): the delete goes through it.
    const peer = { request: requestsTo(createServerApp(createServices(ctx.db, ctx.config, { adminToken: ADMIN_TOKEN, tokenHashSecret: TOKEN_HASH_SECRET }, types), () => undefined)) }
    const kept = await article('Kept')
    for (let round = 0; round < rounds(6); round++) {
      const target = await article(`Target ${round}`)
      const created = await page({ title: `Race ${round}`, seo: { metaTitle: 'm' }, blocks: [related({ articles: [kept.documentId] })] })
      const [entry] = (await read(`/api/pages/${created.documentId}?populate[blocks][populate]=*`)).blocks
      // Held until each has read: both writes' checks saw the target, the delete saw it too.
      holdWrites(ctx, target.documentId, 3, 3000)
      const [canonical, zone, del] = await Promise.all([
        write('PUT', `/api/pages/${created.documentId}`, { seo: { metaTitle: 'm', canonical: { connect: [target.documentId] } } }),
        write('PUT', `/api/pages/${created.documentId}`, { blocks: [{ __component: 'blocks.related', id: entry.id, articles: { connect: [{ documentId: target.documentId, position: { start: true } }] } }] }),
        peer.request('DELETE', `/api/articles/${target.documentId}`, { token: key }),
      ])
      ctx.db.middlewareStack.remove('barrier')
      const label = { round }
      expect({ label, del: del.status, writes: [canonical.status, zone.status].every((status) => status === 200 || status === 400) }).toEqual({ label, del: 204, writes: true })
      const doc = await read(`/api/pages/${created.documentId}?populate[seo][populate]=*&populate[blocks][populate]=*`)
      expect({ label, canonical: doc.seo.canonical, articles: titles(doc.blocks[0].articles) }).toEqual({ label, canonical: null, articles: ['Kept'] })
      const through = await ok(await ctx.request('GET', `/api/pages?filters[$or][0][seo][canonical][documentId][$eq]=${target.documentId}&filters[$or][1][links][article][documentId][$eq]=${target.documentId}`, { token: key }))
      expect({ label, through }).toEqual({ label, through: [] })
      const unlinked = (await ok(await ctx.request('GET', `/api/pages?filters[seo][canonical][$null]=true&filters[title][$eq]=Race ${round}`, { token: key }))) as Doc[]
      expect({ label, unlinked: unlinked.map((one) => one.documentId) }).toEqual({ label, unlinked: [created.documentId] })
    }
  }, hangGuard(120_000))
})

// Behaviours Strapi's own tests check (tests/api/core/strapi/components/*, basic-compo*, basic-dz*)
// that the other component tests do not: our tests, written for our API.
describe('component writes as Strapi\'s tests check them', () => {
  const populated = 'populate[seo]=true&populate[links]=true&populate[blocks]=true'

  it.each([[[]], [128219], [false], ['someString']])('refuses %j for a single component on create and on update, leaving the stored value', async (value) => {
    expect((await write('POST', '/api/pages', { title: 'T', seo: value, blocks: [hero('h')] })).status).toBe(400)
    const created = await page({ seo: { metaTitle: 'kept' } })
    const before = await read(`/api/pages/${created.documentId}?${populated}`)
    expect(await refusal(await write('PUT', `/api/pages/${created.documentId}`, { seo: value }))).toEqual({ message: 'seo must be an object', path: ['seo'] })
    expect(await read(`/api/pages/${created.documentId}?${populated}`)).toEqual(before)
  })

  it.each([[{ text: 'x' }], ['x'], [12]])('refuses %j for a repeatable component', async (value) => {
    expect(await refusal(await write('POST', '/api/pages', { title: 'T', links: value, blocks: [hero('h')] }))).toEqual({ message: 'links must be an array', path: ['links'] })
  })

  it('refuses an id that is not an integer', async () => {
    const created = await page({ seo: { metaTitle: 'm' } })
    expect(await refusal(await write('PUT', `/api/pages/${created.documentId}`, { seo: { id: 'invalid_id', metaTitle: 'n' } }))).toEqual({ message: 'seo.id must be the id of an entry (a positive integer)', path: ['seo', 'id'] })
  })

  it('keeps a value not sent, removes one sent as null, and replaces one sent without id by a new entry', async () => {
    const created = await page({ seo: { metaTitle: 'first' }, links: [{ text: 'a' }] })
    const before = await read(`/api/pages/${created.documentId}?${populated}`)
    await ok(await write('PUT', `/api/pages/${created.documentId}`, { title: 'Renamed' }))
    const kept = await read(`/api/pages/${created.documentId}?${populated}`)
    expect({ seo: kept.seo, links: kept.links }).toEqual({ seo: before.seo, links: before.links })
    await ok(await write('PUT', `/api/pages/${created.documentId}`, { seo: { metaTitle: 'second' }, links: null }))
    const replaced = await read(`/api/pages/${created.documentId}?${populated}`)
    expect({ metaTitle: replaced.seo.metaTitle, newId: replaced.seo.id !== before.seo.id, links: replaced.links }).toEqual({ metaTitle: 'second', newId: true, links: [] })
    await ok(await write('PUT', `/api/pages/${created.documentId}`, { seo: null }))
    expect((await read(`/api/pages/${created.documentId}?${populated}`)).seo).toBeNull()
  })

  it('reorders a repeatable component\'s entries sent back by id, and leaves another document\'s alone', async () => {
    const one = await page({ links: [{ text: 'field1' }, { text: 'field2' }] })
    const two = await page({ links: [{ text: 'field1' }, { text: 'field2' }] })
    const [first, second] = (await read(`/api/pages/${one.documentId}?populate=links`)).links
    const otherBefore = (await read(`/api/pages/${two.documentId}?populate=links`)).links
    const swapped = (await ok(await write('PUT', `/api/pages/${one.documentId}?populate=links`, { links: [second, first] }))).links
    expect(swapped.map((entry: Doc) => [entry.id, entry.text])).toEqual([[second.id, 'field2'], [first.id, 'field1']])
    expect((await read(`/api/pages/${two.documentId}?populate=links`)).links).toEqual(otherBefore)
  })

  it('validates a zone entry\'s nested values with Strapi\'s paths, and requires __component', async () => {
    const response = await write('POST', '/api/pages', { title: 'T', blocks: [hero('ok'), { heading: 'no component' }, { __component: 'blocks.hero', heading: 'x', ctas: [{ url: '/x' }] }] })
    const body = await json(response)
    expect(response.status).toBe(400)
    expect(body.error.details.errors.map((error: Doc) => error.path)).toEqual([['blocks', 1, '__component'], ['blocks', 2, 'ctas', 0, 'text']])
  })
})
