#!/usr/bin/env node
// Loads the seed data of Strapi 5's blog template (test/fixtures/blog-template/data: its
// data.json and images) into a running server through the public APIs only: the images through
// POST /api/upload, then categories, authors, articles (covers, dynamic-zone blocks with media),
// and the global and about single types, media linked by file id. As the template's own
// scripts/seed.js does, each image is uploaded once, articles' covers are `<slug>.jpg`, the
// global's favicon and share image are favicon.png and default-image.png.
//
//   BASE=http://127.0.0.1:1337 TOKEN=<full-access API token> node scripts/seed-blog.mjs [dataDir]
//
// Prints the counts of what it created as JSON. Run it on an empty server: it does not look for
// documents already there.
import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { basename, extname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const BASE = (process.env.BASE ?? '').replace(/\/$/, '')
const TOKEN = process.env.TOKEN ?? ''
const DATA = process.argv[2] ?? fileURLToPath(new URL('../test/fixtures/blog-template/data/', import.meta.url))
const MIME = { '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.png': 'image/png' }

/** Sends a request to the server; the parsed JSON answer, or an error naming what failed. */
async function call(method, path, body) {
  const headers = { Authorization: `Bearer ${TOKEN}` }
  const json = body !== undefined && !(body instanceof FormData)
  if (json) headers['Content-Type'] = 'application/json'
  const response = await fetch(`${BASE}${path}`, { method, headers, body: json ? JSON.stringify(body) : body })
  const text = await response.text()
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text.slice(0, 500)}`)
  return JSON.parse(text)
}

/** Uploads images of data/uploads by name, each once; resolves to their file ids. */
function uploader() {
  const uploaded = new Map()
  const one = async (name) => {
    const bytes = await readFile(join(DATA, 'uploads', name))
    const form = new FormData()
    form.append('files', new Blob([bytes], { type: MIME[extname(name)] ?? 'application/octet-stream' }), name)
    form.append('fileInfo', JSON.stringify({ name, alternativeText: basename(name, extname(name)).replaceAll('-', ' ') }))
    const [file] = await call('POST', '/api/upload', form)
    return file.id
  }
  const upload = (name) => {
    if (!uploaded.has(name)) uploaded.set(name, one(name))
    return uploaded.get(name)
  }
  upload.count = () => uploaded.size
  return upload
}

/** A zone's blocks with their file names replaced by file ids. */
async function blocksOf(blocks, upload) {
  const result = []
  for (const block of blocks) {
    if (block.__component === 'shared.media') result.push({ ...block, file: await upload(block.file) })
    else if (block.__component === 'shared.slider') result.push({ ...block, files: await Promise.all(block.files.map(upload)) })
    else result.push(block)
  }
  return result
}

/** Creates each entry of `entries` in `route`; their documentIds, in order (data.json's `{ id: n }` is the n-th). */
async function createAll(route, entries, dataOf) {
  const ids = []
  for (const entry of entries) ids.push((await call('POST', `/api/${route}`, { data: await dataOf(entry) })).data.documentId)
  return ids
}

async function seed() {
  const data = JSON.parse(await readFile(join(DATA, 'data.json'), 'utf8'))
  const upload = uploader()
  const categories = await createAll('categories', data.categories, (category) => category)
  const authors = await createAll('authors', data.authors, async (author) => ({ ...author, avatar: await upload(author.avatar) }))
  const nth = (ids, ref) => (ref?.id === undefined ? null : ids[ref.id - 1])
  const articles = await createAll('articles', data.articles, async (article) => ({
    ...article,
    category: nth(categories, article.category),
    author: nth(authors, article.author),
    cover: existsSync(join(DATA, 'uploads', `${article.slug}.jpg`)) ? await upload(`${article.slug}.jpg`) : null,
    blocks: await blocksOf(article.blocks, upload),
  }))
  const { global, about } = data
  await call('PUT', '/api/global', { data: { ...global, favicon: await upload('favicon.png'), defaultSeo: { ...global.defaultSeo, shareImage: await upload('default-image.png') } } })
  await call('PUT', '/api/about', { data: { ...about, blocks: await blocksOf(about.blocks, upload) } })
  return { files: upload.count(), categories: categories.length, authors: authors.length, articles: articles.length, singleTypes: 2 }
}

if (BASE === '' || TOKEN === '') {
  console.error('Set BASE (the server, e.g. http://127.0.0.1:1337) and TOKEN (a full-access API token).')
  process.exit(2)
}
seed().then((counts) => console.log(JSON.stringify(counts)), (error) => {
  console.error(error instanceof Error ? error.message : error)
  process.exit(1)
})
