// node bench/strapi-replicate.cjs DB landings|articles TOTAL: copies, in a stopped Strapi copy's SQLite
// database DB, the first 100 landings (with their zone's components, nested ones included) or the
// first 100 articles (with their cover's link) until the table holds TOTAL rows: copy c of row x gets
// the id x + c * 1,000,000 in every table involved (so links between the copies stay consistent) and a
// documentId of its own. The seeding through Strapi's API (bench/seed-model.ts) takes about 0.4 s per
// landing on 2 cores; copies hold the same data as seeding all of them would (seed-model.ts makes
// document i from document i % 100). Uses the Strapi copy's better-sqlite3.
const [dbFile, what, totalArg] = process.argv.slice(2)
const Database = require(require.resolve('better-sqlite3', { paths: [require('path').dirname(dbFile) + '/..'] }))
const db = new Database(dbFile)
const TEMPLATES = 100
const OFFSET = 1_000_000
const main = what === 'landings' ? 'landings' : what === 'articles' ? 'articles' : undefined
if (main === undefined || !(Number(totalArg) % TEMPLATES === 0)) throw new Error('usage: strapi-replicate.cjs DB landings|articles TOTAL (a multiple of 100)')
const columns = (table) => db.prepare(`pragma table_info("${table}")`).all().map((c) => c.name)
const tables = db.prepare("select name from sqlite_master where type = 'table' and (name like 'components_%')").all().map((t) => t.name)
const have = db.prepare(`select count(*) n from ${main}`).get().n
// Copies already made (a later call continues after them).
const copiesDone = Math.floor(have / TEMPLATES) - 1
const copy = (table, c, shift) => {
  const cols = columns(table)
  const select = cols.map((col) => (shift.includes(col) ? `"${col}" + ${c * OFFSET}` : col === 'document_id' ? `substr(document_id, 1, 18) || printf('%06d', ${c})` : `"${col}"`))
  db.prepare(`insert into "${table}" (${cols.map((col) => `"${col}"`).join(', ')}) select ${select.join(', ')} from "${table}" where id <= ${OFFSET}`).run()
}
const run = db.transaction(() => {
  for (let c = copiesDone + 1; c < Number(totalArg) / TEMPLATES; c++) {
    if (main === 'landings') {
      copy('landings', c, ['id'])
      copy('landings_cmps', c, ['id', 'entity_id', 'cmp_id'])
      for (const table of tables) copy(table, c, table.endsWith('_cmps') ? ['id', 'entity_id', 'cmp_id'] : ['id'])
    } else {
      copy('articles', c, ['id'])
      db.prepare(`insert into files_related_mph (id, file_id, related_id, related_type, field, "order") select id + ${c * OFFSET}, file_id, related_id + ${c * OFFSET}, related_type, field, "order" from files_related_mph where related_type = 'api::article.article' and id <= ${OFFSET}`).run()
    }
  }
})
if (have !== TEMPLATES && have % TEMPLATES !== 0) throw new Error(`${main} holds ${have} rows, expected a multiple of ${TEMPLATES}`)
run()
console.log(`${main}: ${db.prepare(`select count(*) n from ${main}`).get().n} rows`)
