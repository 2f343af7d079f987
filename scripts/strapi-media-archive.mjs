#!/usr/bin/env node
// Remakes test/fixtures/strapi-archives/media/ from a running copy of the Strapi peer whose project
// holds the page type and the shared components of that folder (types/page/schema.json and
// components/shared/*.json copied to its src/api/page/content-types/page/ and src/components/shared/,
// with the public role allowed to use api::page.page and plugin::upload's content API): uploads three
// files, fills pages with media, a component, a repeatable component and a dynamic zone in two
// locales, drafts and published versions, a media attribute and a relation inside components
// (`seo.shareImage`, a zone link's `page`), records the peer's answers to the reads the tests repeat
// (answers.json), then runs `strapi export --no-encrypt` (content.tar.gz). Usage (docs/moving-from-strapi.md):
//   node scripts/strapi-media-archive.mjs <peer directory> <peer base URL>
// The peer must be fresh (./start.sh --fresh): documentIds and file hashes are drawn by Strapi.
import { execFileSync } from 'node:child_process'
import { mkdirSync, renameSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { deflateSync } from 'node:zlib'

const [peerDir, base] = process.argv.slice(2)
if (peerDir === undefined || base === undefined) {
  console.error('usage: node scripts/strapi-media-archive.mjs <peer directory> <peer base URL>')
  process.exit(2)
}
const out = resolve('test/fixtures/strapi-archives/media')

/** A small solid-colour PNG (no formats: Strapi makes none below 156 px). */
function png(width, height, [r, g, b]) {
  const crcTable = Array.from({ length: 256 }, (_, n) => { let c = n; for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1; return c >>> 0 })
  const crc = (buf) => { let c = 0xffffffff; for (const byte of buf) c = crcTable[(c ^ byte) & 0xff] ^ (c >>> 8); return (c ^ 0xffffffff) >>> 0 }
  const chunk = (type, data) => { const head = Buffer.alloc(4); head.writeUInt32BE(data.length); const tail = Buffer.alloc(4); tail.writeUInt32BE(crc(Buffer.concat([Buffer.from(type), data]))); return Buffer.concat([head, Buffer.from(type), data, tail]) }
  const header = Buffer.alloc(13); header.writeUInt32BE(width, 0); header.writeUInt32BE(height, 4); header.set([8, 2, 0, 0, 0], 8)
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => [r, g, b]).flat())])
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', deflateSync(Buffer.concat(Array(height).fill(row)))), chunk('IEND', Buffer.alloc(0))])
}

async function upload(name, type, content) {
  const form = new FormData()
  form.append('files', new Blob([content], { type }), name)
  const response = await fetch(`${base}/api/upload`, { method: 'POST', body: form })
  if (!response.ok) throw new Error(`upload ${name}: ${response.status} ${await response.text()}`)
  return (await response.json())[0]
}
async function call(method, path, body) {
  const response = await fetch(`${base}/api${path}`, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ data: body }) })
  const text = await response.text()
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`)
  return JSON.parse(text).data
}

const red = await upload('red.png', 'image/png', png(40, 30, [255, 0, 0]))
const blue = await upload('blue.png', 'image/png', png(20, 20, [0, 0, 255]))
const notes = await upload('notes.txt', 'text/plain', Buffer.from('plain notes\n'))

// Contact first: the home page's zone links to it (a relation inside a component).
const contact = await call('POST', '/pages', { title: 'Contact', links: [{ label: 'Mail', url: 'mailto:a@example.com' }], sections: [{ __component: 'shared.link', label: 'Map', url: '/map' }] })
const home = await call('POST', '/pages', {
  title: 'Home', cover: red.id, gallery: [blue.id, notes.id],
  seo: { metaTitle: 'Home page', metaDescription: 'Welcome home', shareImage: blue.id },
  links: [{ label: 'Docs', url: '/docs' }, { label: 'Blog', url: '/blog' }],
  sections: [{ __component: 'shared.quote', text: 'Stay hungry', by: 'Someone' }, { __component: 'shared.link', label: 'More', url: '/more', page: contact.documentId }],
})
await call('PUT', `/pages/${home.documentId}?locale=fr`, {
  title: 'Accueil', gallery: [red.id], seo: { metaTitle: "Page d'accueil", metaDescription: null },
  sections: [{ __component: 'shared.quote', text: 'Restez affamés', by: "Quelqu'un" }],
})
const about = await call('POST', '/pages?status=draft', { title: 'About (draft)', cover: blue.id, seo: { metaTitle: 'About' } })
await call('PUT', `/pages/${contact.documentId}?status=draft`, { title: 'Contact (new draft)', sections: [{ __component: 'shared.quote', text: 'Call us', by: 'Team' }] })

const reads = [
  ...['en', 'fr'].flatMap((locale) => ['published', 'draft'].map((status) => `/pages?locale=${locale}&status=${status}&sort=title&populate=*`)),
  `/pages/${home.documentId}?populate[cover]=true&populate[gallery]=true&populate[seo]=true&populate[links]=true&populate[sections]=true`,
  `/pages/${home.documentId}?locale=fr&populate=*`,
  `/pages/${about.documentId}?status=draft&populate=*`,
  `/pages/${contact.documentId}?status=draft&populate[sections]=true`,
  `/pages/${home.documentId}?populate[seo][populate]=shareImage&populate[sections][on][shared.link][populate]=page&populate[sections][on][shared.quote]=true`,
  `/pages?locale=en&status=draft&sort=title&populate[seo][populate]=*&populate[sections][on][shared.link][populate][page][fields][0]=title&populate[sections][on][shared.quote]=true`,
  '/pages?sort=title',
]
const answers = {}
for (const path of reads) {
  const response = await fetch(`${base}/api${path}`)
  answers[path] = { status: response.status, body: await response.json().catch(() => null) }
}
mkdirSync(out, { recursive: true })
writeFileSync(join(out, 'answers.json'), `${JSON.stringify(answers, null, 1)}\n`)
const strapi = join(peerDir, 'node_modules/@strapi/strapi/bin/strapi.js')
execFileSync(process.execPath, [strapi, 'export', '--no-encrypt', '-f', 'fixture-media-export'], { cwd: peerDir, stdio: 'inherit', env: { ...process.env, STRAPI_TELEMETRY_DISABLED: 'true' } })
renameSync(join(peerDir, 'fixture-media-export.tar.gz'), join(out, 'content.tar.gz'))
console.log(`wrote ${out}: content.tar.gz, answers.json`)
