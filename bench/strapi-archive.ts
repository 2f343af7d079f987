// Writes the import bench's archive (bench/import-compare.sh): N documents in 2 locales, a draft
// and a published row each, half articles (an author and two tags: relations), half pages (a
// component, a repeatable component and a zone), in the layout of `strapi export`.
//   tsx bench/strapi-archive.ts <archive> <N>
import { fileURLToPath } from 'node:url'
import { writeSyntheticArchive } from '../test/support/synthetic-archive.js'

const [path, raw] = process.argv.slice(2)
const n = Number(raw)
if (path === undefined || !Number.isInteger(n) || n < 2) {
  console.error('usage: tsx bench/strapi-archive.ts <archive> <N documents>')
  process.exit(2)
}
const typesDir = fileURLToPath(new URL('../test/fixtures/strapi-archives/media/types/', import.meta.url))
const counts = await writeSyntheticArchive(path, { articles: Math.ceil(n / 2), pages: Math.floor(n / 2), typesDir })
console.log(JSON.stringify(counts))
