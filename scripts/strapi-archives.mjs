#!/usr/bin/env node
// Remakes the Strapi archives of test/fixtures/strapi-archives/ from a running copy of the Strapi
// peer whose src/api holds this project's example types (functions/content-types/): fills it
// through its REST API (locales en, fr, de; drafts and published versions; relations), records its
// answers to the reads the tests repeat here (answers.json), then runs `strapi export --no-encrypt`,
// compressed and not. Usage (see docs/moving-from-strapi.md):
//   node scripts/strapi-archives.mjs <peer directory> <peer base URL>
// The peer must be fresh (./start.sh --fresh): documentIds are drawn by Strapi and kept in answers.json.
import { execFileSync } from 'node:child_process'
import { mkdirSync, writeFileSync, renameSync } from 'node:fs'
import { join, resolve } from 'node:path'

const [peerDir, base] = process.argv.slice(2)
if (peerDir === undefined || base === undefined) {
  console.error('usage: node scripts/strapi-archives.mjs <peer directory> <peer base URL>')
  process.exit(2)
}
const out = resolve('test/fixtures/strapi-archives')

async function call(method, path, body) {
  const response = await fetch(`${base}/api${path}`, {
    method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify({ data: body }),
  })
  const text = await response.text()
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`)
  return text === '' ? undefined : JSON.parse(text)
}
const post = async (plural, data, query = '') => (await call('POST', `/${plural}${query}`, data)).data
const put = async (path, data, query = '') => (await call('PUT', `${path}${query}`, data)).data

// Tags (no draft & publish; slug a non-localized uid), authors (unique private email).
const news = await post('tags', { name: 'News', slug: 'news' })
const tech = await post('tags', { name: 'Tech', slug: 'tech' })
await put(`/tags/${news.documentId}`, { name: 'Actualités' }, '?locale=fr')
const ada = await post('authors', { name: 'Ada', email: 'ada@example.com' })
const bob = await post('authors', { name: 'Bob', email: 'bob@example.com' })
await put(`/authors/${ada.documentId}`, { name: 'Ada (fr)' }, '?locale=fr')

// Articles: published, with localizations; a draft never published; a published one with a newer draft.
const body = (text) => [{ type: 'paragraph', children: [{ type: 'text', text }] }]
const first = await post('articles', { title: 'Hello', slug: 'hello', body: body('First post'), views: 10, category: 'news', author: ada.documentId, tags: [news.documentId, tech.documentId] })
await put(`/articles/${first.documentId}`, { title: 'Bonjour', slug: 'bonjour', author: ada.documentId, tags: [news.documentId] }, '?locale=fr')
await put(`/articles/${first.documentId}`, { title: 'Hallo', slug: 'hallo' }, '?locale=de')
const second = await post('articles', { title: 'Second', slug: 'second', views: 3, category: 'tech', author: bob.documentId, tags: [tech.documentId] })
await put(`/articles/${second.documentId}`, { title: 'Second (edited draft)', views: 4 }, '?status=draft')
const draft = await post('articles', { title: 'Only a draft', slug: 'only-a-draft', views: 0, author: bob.documentId }, '?status=draft')
await put(`/articles/${draft.documentId}`, { title: 'Seulement un brouillon' }, '?locale=fr&status=draft')
const third = await post('articles', { title: 'Third', slug: 'third', views: 1000, category: 'news' })
await put(`/articles/${third.documentId}`, { title: 'Troisième' }, '?locale=fr')

// The single type: published in en, a draft only in fr, featuring two articles.
await put('/homepage', { title: 'Welcome', tagline: 'All the news', featured: [first.documentId, third.documentId] })
await put('/homepage', { title: 'Bienvenue', tagline: 'Brouillon' }, '?locale=fr&status=draft')

// The peer's answers to the reads the import tests repeat (test/integration/strapi-import.test.ts).
const reads = [
  ...['en', 'fr', 'de'].flatMap((locale) => ['published', 'draft'].flatMap((status) => [
    `/articles?locale=${locale}&status=${status}&sort=title`,
    `/tags?locale=${locale}&status=${status}&sort=name`,
    `/authors?locale=${locale}&status=${status}&sort=name`,
    `/homepage?locale=${locale}&status=${status}`,
  ])),
  `/articles/${first.documentId}?populate=*`,
  `/articles/${first.documentId}?locale=fr&populate[author]=true&populate[tags]=true`,
  `/articles/${second.documentId}?status=draft&populate=*`,
  `/articles?filters[views][$gte]=5&sort=views:desc`,
  `/articles?filters[author][name][$eq]=Bob&status=draft&sort=title`,
  `/articles?filters[tags][slug][$eq]=news&locale=fr`,
  `/tags?populate=articles&sort=name`,
  `/authors?populate=articles&sort=name`,
  `/homepage?populate=featured`,
]
const answers = {}
for (const path of reads) {
  const response = await fetch(`${base}/api${path}`)
  answers[path] = { status: response.status, body: await response.json().catch(() => null) }
}
mkdirSync(out, { recursive: true })
writeFileSync(join(out, 'answers.json'), `${JSON.stringify(answers, null, 1)}\n`)

// The archives: `strapi export` writes <file>.tar.gz (or .tar with --no-compress) in the peer's directory.
const strapi = join(peerDir, 'node_modules/@strapi/strapi/bin/strapi.js')
for (const [name, flags] of [['content.tar.gz', []], ['content.tar', ['--no-compress']]]) {
  execFileSync(process.execPath, [strapi, 'export', '--no-encrypt', ...flags, '-f', 'fixture-export'], { cwd: peerDir, stdio: 'inherit', env: { ...process.env, STRAPI_TELEMETRY_DISABLED: 'true' } })
  renameSync(join(peerDir, name === 'content.tar' ? 'fixture-export.tar' : 'fixture-export.tar.gz'), join(out, name))
}
console.log(`wrote ${out}: content.tar.gz, content.tar, answers.json`)
