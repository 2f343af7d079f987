// scripts/seed-blog.mjs against a real HTTP server on Strapi 5's blog template (unchanged models):
// the template's own seed data (data.json and its images) goes in through the upload API and the
// content API only, and reads back with populate: covers with their formats, zones' blocks with
// their media, relations, the single types; counts as data.json has them.
import { execFile } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadContentTypes } from '../../lib/schema/load.js'
import { LocalBlobs } from '../../lib/local/uploads.js'
import { createTestContext, json, type TestContext } from '../support/context.js'
import { startServer, type TestServer } from '../support/server.js'

type Doc = Record<string, any>

const fixture = (path: string) => new URL(`../fixtures/blog-template/${path}`, import.meta.url).pathname
const data = JSON.parse(readFileSync(fixture('data/data.json'), 'utf8')) as Doc
const zoneFiles = (blocks: Doc[]): any[] => blocks.flatMap((block) => block.file ?? block.files ?? [])
/** Every image the seed links: avatars, covers (`<slug>.jpg`), the zones' media, favicon and share image. */
const images = new Set<string>([
  ...data.authors.map((author: Doc) => author.avatar),
  ...data.articles.flatMap((article: Doc) => [`${article.slug}.jpg`, ...zoneFiles(article.blocks)]),
  ...zoneFiles(data.about.blocks),
  'favicon.png',
  'default-image.png',
])

let ctx: TestContext
let server: TestServer
let token: string
let printed: Doc

const read = async (path: string) => {
  const response = await ctx.request('GET', path, { token })
  expect(response.status, path).toBe(200)
  return json(response)
}

beforeAll(async () => {
  const types = loadContentTypes(fixture('src/api/'))
  ctx = await createTestContext({}, {}, types, new LocalBlobs(await mkdtemp(join(tmpdir(), 'blog-seed-'))))
  token = await ctx.token('full-access')
  server = await startServer(ctx.app)
  const script = new URL('../../scripts/seed-blog.mjs', import.meta.url).pathname
  const { stdout } = await promisify(execFile)(process.execPath, [script], { env: { ...process.env, BASE: server.url, TOKEN: token } })
  printed = JSON.parse(stdout) as Doc
}, 120_000)
afterAll(async () => {
  await server?.close()
})

describe('scripts/seed-blog.mjs on the blog template', () => {
  it('prints the counts of data.json, and stores each image once', async () => {
    expect(printed).toEqual({ files: images.size, categories: data.categories.length, authors: data.authors.length, articles: data.articles.length, singleTypes: 2 })
    const files = await read('/api/upload/files?pagination[pageSize]=100')
    expect(files.map((file: Doc) => file.name).sort()).toEqual([...images].sort())
    expect((await read('/api/categories')).data.map((category: Doc) => category.slug)).toEqual(data.categories.map((category: Doc) => category.slug))
  })

  it('articles with their covers (with formats), author, category and zone blocks', async () => {
    const articles = (await read('/api/articles?populate=*&sort=id:asc')).data as Doc[]
    expect(articles.map((article) => article.slug)).toEqual(data.articles.map((article: Doc) => article.slug))
    for (const [i, article] of articles.entries()) {
      const seed = data.articles[i] as Doc
      expect(article.cover.name).toBe(`${seed.slug}.jpg`)
      expect(article.cover.formats.thumbnail).toMatchObject({ mime: 'image/jpeg', width: expect.any(Number) })
      expect(article.category.slug).toBe(data.categories[seed.category.id - 1].slug)
      expect(article.author.email).toBe(data.authors[seed.author.id - 1].email)
      expect(article.blocks.map((block: Doc) => block.__component)).toEqual(seed.blocks.map((block: Doc) => block.__component))
    }
    const deep = (await read(`/api/articles/${articles[0]!.documentId}?populate[blocks][populate]=*`)).data[0]
    expect(zoneFiles(deep.blocks).map((file: Doc) => file.name)).toEqual(zoneFiles(data.articles[0].blocks))
  })

  it('authors with avatars, and the global and about single types with their media', async () => {
    const authors = (await read('/api/authors?populate=avatar')).data as Doc[]
    expect(authors.map((author) => author.avatar.name)).toEqual(data.authors.map((author: Doc) => author.avatar))
    const global = (await read('/api/global?populate[favicon]=true&populate[defaultSeo][populate]=*')).data
    expect(global).toMatchObject({ siteName: data.global.siteName, favicon: { name: 'favicon.png' }, defaultSeo: { metaTitle: data.global.defaultSeo.metaTitle, shareImage: { name: 'default-image.png' } } })
    const about = (await read('/api/about?populate[blocks][populate]=*')).data
    expect(about.title).toBe(data.about.title)
    expect(zoneFiles(about.blocks).map((file: Doc) => file.name)).toEqual(zoneFiles(data.about.blocks))
  })
})
