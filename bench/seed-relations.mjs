// node bench/seed-relations.mjs BASE N [AUTHORS] [TAGS] [TOKEN]: seeds, through the REST API of BASE
// (127.0.0.1 only), AUTHORS authors (default 100), TAGS tags (default 50), then N articles in the
// default locale, 10 requests at a time. Each article has the fields of ../shared/peers/seed.mjs
// (title, views, category, slug, 1.5 KB rich-text body), one author and 0 to 10 tags, all chosen
// deterministically from i, so Strapi and this project get the same data:
//   author of article i: author (i * 13) % AUTHORS;  tags: i % 11 of them, (i * 7 + k) % TAGS, k = 0, 1, ...
// Author j is named `Author j` (email aj@example.com), tag j `Tag j` (slug tag-j).
// Prints one line: how long each part took.
const [base, nArg, aArg = '100', tArg = '50', token] = process.argv.slice(2)
const n = +nArg, na = +aArg, nt = +tArg
if (!/^http:\/\/127\.0\.0\.1:\d+$/.test(base)) throw new Error('base must be http://127.0.0.1:PORT')
if (!(n >= 0 && na >= 1 && nt >= 1)) throw new Error('usage: seed-relations.mjs BASE N [AUTHORS] [TAGS] [TOKEN]')
const headers = { 'content-type': 'application/json', connection: 'close', ...(token ? { authorization: `Bearer ${token}` } : {}) }

async function post(plural, data) {
  const r = await fetch(`${base}/api/${plural}`, { method: 'POST', headers, body: JSON.stringify({ data }) })
  const text = await r.text()
  if (!r.ok) throw new Error(`POST /api/${plural} ${JSON.stringify(data).slice(0, 300)} -> ${r.status} ${text.slice(0, 1000)}`)
  return JSON.parse(text).data.documentId
}
async function batched(count, make) {
  const out = new Array(count)
  for (let i = 0; i < count; i += 10)
    await Promise.all(Array.from({ length: Math.min(10, count - i) }, async (_, k) => { out[i + k] = await make(i + k) }))
  return out
}

const t0 = Date.now()
const authors = await batched(na, (j) => post('authors', { name: `Author ${j}`, email: `a${j}@example.com` }))
const tags = await batched(nt, (j) => post('tags', { name: `Tag ${j}`, slug: `tag-${j}` }))
const t1 = Date.now()
let links = 0
await batched(n, (i) => {
  const count = Math.min(i % 11, nt)
  const tagIds = Array.from({ length: count }, (_, k) => tags[(i * 7 + k) % nt])
  links += 1 + count
  return post('articles', {
    title: `T${(i * 7919) % n}`, views: i % 50, category: 'c' + (i % 5), slug: 's' + i,
    body: [{ type: 'paragraph', children: [{ type: 'text', text: 'x'.repeat(1500) }] }],
    author: authors[(i * 13) % na], tags: tagIds,
  })
})
const t2 = Date.now()
console.log(`${na} authors and ${nt} tags in ${((t1 - t0) / 1000).toFixed(1)} s, ${n} articles (${links} links) in ${((t2 - t1) / 1000).toFixed(1)} s`)
