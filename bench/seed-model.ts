// Seeds the model of bench/model/ through a server's REST API, the same data into Strapi and into
// this project (bench/compare-components.sh), 10 requests at a time (127.0.0.1 only):
//   tsx bench/seed-model.ts BASE landings FROM COUNT [TOKEN]   landings FROM.. (zone of 8 blocks, model-data.ts)
//   tsx bench/seed-model.ts BASE files COUNT [TOKEN]           COUNT uploads of a 1600 x 1067 JPEG (four formats each)
//   tsx bench/seed-model.ts BASE articles FROM COUNT [TOKEN]   articles FROM.., article i's cover the (i % files)-th file
//   tsx bench/seed-model.ts jpeg FILE BYTES                    writes a JPEG of about BYTES bytes (noise, 2400 px wide)
// Document i has the content of document i % TEMPLATES (its title and slug too), so that a server
// seeded with TEMPLATES documents through its API and then copied in its database
// (bench/strapi-replicate.cjs) holds the same data as one seeded wholly through its API.
// Prints one line: what was seeded and how long it took.
import { writeFile } from 'node:fs/promises'
import sharp from 'sharp'
import { landingBlocks } from './model-data.js'
import { random, words } from './seed.js'

const [base = '', what = '', ...rest] = process.argv.slice(2)
const TEMPLATES = 100

/** The zone as a write sends it: entries without their ids (new entries). */
function withoutIds(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutIds)
  if (typeof value !== 'object' || value === null) return value
  return Object.fromEntries(Object.entries(value).filter(([key]) => key !== 'id').map(([key, inner]) => [key, withoutIds(inner)]))
}

async function call(method: string, path: string, token: string | undefined, body?: string | FormData, json = true): Promise<unknown> {
  const headers: Record<string, string> = { connection: 'close', ...(token ? { authorization: `Bearer ${token}` } : {}), ...(json ? { 'content-type': 'application/json' } : {}) }
  const response = await fetch(`${base}${path}`, { method, headers, body })
  const text = await response.text()
  if (!response.ok) throw new Error(`${method} ${path} -> ${response.status} ${text.slice(0, 800)}`)
  return JSON.parse(text) as unknown
}

async function batched(from: number, count: number, make: (i: number) => Promise<unknown>): Promise<void> {
  for (let i = from; i < from + count; i += 10) await Promise.all(Array.from({ length: Math.min(10, from + count - i) }, (_, k) => make(i + k)))
}

/** A JPEG of noise, `width` wide (3:2), at `quality`. */
function jpeg(width: number, quality: number, seed: number): Promise<Buffer> {
  const height = Math.round((width * 2) / 3)
  const rnd = random(seed)
  const pixels = Buffer.alloc(width * height * 3)
  for (let p = 0; p < pixels.length; p++) pixels[p] = Math.floor(96 + rnd() * 64 + ((p / 3) % width) / (width / 64))
  return sharp(pixels, { raw: { width, height, channels: 3 } }).jpeg({ quality }).toBuffer()
}

async function upload(bytes: Buffer, name: string, token: string | undefined): Promise<number> {
  const form = new FormData()
  form.append('files', new Blob([bytes], { type: 'image/jpeg' }), name)
  const answer = await call('POST', '/api/upload', token, form, false) as { id: number }[]
  return answer[0]!.id
}

const started = Date.now()
const took = () => `${((Date.now() - started) / 1000).toFixed(1)} s`
if (base === 'jpeg') {
  const [file = '', bytes = ''] = [what, ...rest]
  const made = await jpeg(2400, 95, 1)
  // Noise at quality 95 is about 1.1 bytes a pixel: scale the width to the size asked.
  const width = Math.round(2400 * Math.sqrt(Number(bytes) / made.byteLength))
  const image = await jpeg(width, 95, 1)
  await writeFile(file, image)
  console.log(`${file}: ${image.byteLength} bytes, ${width} px wide`)
} else if (!/^http:\/\/127\.0\.0\.1:\d+$/.test(base)) {
  throw new Error('usage: seed-model.ts http://127.0.0.1:PORT landings|files|articles ...')
} else if (what === 'landings') {
  const [from = '0', count = '0', token] = rest
  await batched(Number(from), Number(count), (j) => {
    const i = j % TEMPLATES
    const rnd = random(7000 + i)
    return call('POST', '/api/landings', token, JSON.stringify({ data: { title: `${words(rnd, 'en', 3)} ${i}`, slug: `landing-${i}`, blocks: withoutIds(landingBlocks(rnd, i)) } }))
  })
  console.log(`landings ${from}..${Number(from) + Number(count) - 1} in ${took()}`)
} else if (what === 'files') {
  const [count = '0', token] = rest
  const image = await jpeg(1600, 80, 2)
  // One at a time: Strapi on SQLite answered concurrent uploads with errors.
  for (let i = 0; i < Number(count); i++) await upload(image, `cover-${i}.jpg`, token)
  console.log(`${count} files of ${image.byteLength} bytes in ${took()}`)
} else if (what === 'articles') {
  const [from = '0', count = '0', token] = rest
  // Both answer a plain array; ours pages it (25 by default), hence the page size.
  const files = (await call('GET', '/api/upload/files?pagination[pageSize]=100&sort=id', token) as { id: number }[]).map((file) => file.id).sort((a, b) => a - b)
  await batched(Number(from), Number(count), (j) => {
    const i = j % TEMPLATES
    const rnd = random(8000 + i)
    const body = [{ type: 'paragraph', children: [{ type: 'text', text: words(rnd, 'en', 180) }] }]
    return call('POST', '/api/articles', token, JSON.stringify({ data: { title: `${words(rnd, 'en', 3)} ${i}`, body, slug: `article-${i}`, views: i % 50, category: `c${i % 5}`, cover: files[i % files.length] } }))
  })
  console.log(`articles ${from}..${Number(from) + Number(count) - 1} (covers from ${files.length} files) in ${took()}`)
} else {
  throw new Error(`unknown part ${what}`)
}
