#!/usr/bin/env bash
# Side-by-side with relations (issue 19): Strapi 5.54 on SQLite, in a copy of ../shared/peers/strapi
# whose `article` gets an `author` (manyToOne) and `tags` (manyToMany) as our shipped content types
# declare them, and this project (`npm start`, DynamoDB Local). Both are seeded alike through their
# APIs (bench/seed-relations.mjs: A authors, T tags, then N articles with one author and 0 to 10 tags
# each), then autocannon (10 connections, D seconds, after an unmeasured warm-up of WARM seconds,
# default 5) on the queries below. Prints Markdown tables.
#
#   bench/compare-relations.sh N [D] [A] [T]     from the project's root; defaults D=10, A=100, T=50
#
# PEER_COPY (default /tmp/peer-rel) is where the Strapi copy lives; it is set up (copied, schemas
# added, `npm install`: 3 to 6 minutes, 720 MB) on the first run and reused afterwards. Our server runs
# three times on the same table: as by default, with API_REST_PAGE_CACHE=0 (pages read from nothing,
# populated documents kept in the process as by default), and with API_REST_POPULATE_CACHE_BYTES=0
# as well (nothing kept). Extra environment for the project's server is passed through to `npm start`.
set -u
n=${1:?usage: compare-relations.sh N [SECONDS] [AUTHORS] [TAGS]}; dur=${2:-10}; na=${3:-100}; nt=${4:-50}; warm=${WARM:-5}
project=$(pwd)
peers=$(cd "$project/../shared/peers" 2>/dev/null && pwd) || { echo "run from the project's root (../shared/peers missing)" >&2; exit 1; }
copy=${PEER_COPY:-/tmp/peer-rel}; strapi="$copy/strapi"
ac="$project/node_modules/.bin/autocannon"
[ -x "$ac" ] || { echo "autocannon missing: run npm install in the project" >&2; exit 1; }
seed="$project/bench/seed-relations.mjs"

# --- the Strapi copy -------------------------------------------------------------------------------
setup_copy() {
  if [ ! -d "$strapi" ]; then
    mkdir -p "$copy" && cp -r "$peers/strapi" "$copy/" && chmod -R u+w "$strapi" || return 1
    rm -rf "$strapi/run" "$strapi/.tmp" "$strapi/dist"
  fi
  local api=$strapi/src/api
  for t in author tag; do
    mkdir -p "$api/$t/content-types/$t" "$api/$t/controllers" "$api/$t/routes" "$api/$t/services"
    for part in controllers routes services; do
      sed "s/api::article.article/api::$t.$t/" "$api/article/$part/article.ts" >"$api/$t/$part/$t.ts"
    done
  done
  # Schemas exactly as functions/content-types/*/schema.json declare the relations and fields; the
  # peer's article keeps draftAndPublish false (ours has draft & publish).
  node - "$api" <<'EOF' || return 1
const fs = require('fs'), api = process.argv[2]
const loc = (l) => ({ pluginOptions: { i18n: { localized: l } } })
const type = (s, p, d, attributes) => ({ kind: 'collectionType', collectionName: p,
  info: { singularName: s, pluralName: p, displayName: d }, options: { draftAndPublish: false },
  pluginOptions: { i18n: { localized: true } }, attributes })
const write = (s, o) => fs.writeFileSync(`${api}/${s}/content-types/${s}/schema.json`, JSON.stringify(o, null, 2) + '\n')
write('author', type('author', 'authors', 'Author', {
  name: { type: 'string', required: true, ...loc(true) },
  email: { type: 'email', unique: true, private: true, ...loc(false) },
  articles: { type: 'relation', relation: 'oneToMany', target: 'api::article.article', mappedBy: 'author' } }))
write('tag', type('tag', 'tags', 'Tag', {
  name: { type: 'string', ...loc(true) },
  slug: { type: 'uid', targetField: 'name', unique: true, ...loc(false) },
  articles: { type: 'relation', relation: 'manyToMany', target: 'api::article.article', mappedBy: 'tags' } }))
const af = `${api}/article/content-types/article/schema.json`, a = JSON.parse(fs.readFileSync(af))
a.attributes.author = { type: 'relation', relation: 'manyToOne', target: 'api::author.author', inversedBy: 'articles' }
a.attributes.tags = { type: 'relation', relation: 'manyToMany', target: 'api::tag.tag', inversedBy: 'articles' }
fs.writeFileSync(af, JSON.stringify(a, null, 2) + '\n')
// The public role reads and writes authors and tags as it does articles (src/index.ts bootstrap).
const ix = `${api}/../index.ts`; let s = fs.readFileSync(ix, 'utf8')
if (!s.includes('api::author.author.find')) {
  const add = ['author', 'tag'].flatMap((t) => ['find', 'findOne', 'create', 'update', 'delete'].map((x) => `  'api::${t}.${t}.${x}',\n`)).join('')
  s = s.replace("  'api::article.article.delete',\n", (m) => m + add)
       .replace("['api::article.', ", "['api::article.', 'api::author.', 'api::tag.', ")
  if (!s.includes("'api::tag.',")) throw new Error('could not patch src/index.ts')
  fs.writeFileSync(ix, s)
}
EOF
  if [ ! -d "$strapi/node_modules/@strapi/strapi" ]; then
    echo "installing the Strapi copy in $strapi (about 3 minutes)" >&2
    (cd "$strapi" && npm install --no-audit --no-fund >"$copy/npm-install.log" 2>&1) || { echo "npm install failed: $copy/npm-install.log" >&2; return 1; }
  fi
}
setup_copy || { echo "could not set up the Strapi copy in $strapi" >&2; exit 1; }
[ "$n" = setup ] && exit 0

# --- measuring ---------------------------------------------------------------------------------------
page='pagination[page]=3&pagination[pageSize]=25'
queries=("populate=*&$page"
         "populate[author][fields][0]=name&populate[tags][fields][0]=name&$page"
         "filters[author][name][\$eq]=Author%207&populate=*&pagination[pageSize]=25")
declare -A rps
bench() { # key name base
  local i=0 line
  for q in "${queries[@]}"; do
    i=$((i + 1))
    # Warm-up, not measured: a freshly started server (and its DynamoDB Local JVM) answers its first
    # requests many times slower than it does a few seconds later. Three requests one after the
    # other, WARM seconds of load, then a pause, so no warm-up request is still in flight when the
    # measured run starts (autocannon stops sending at its duration, not the server working).
    for _ in 1 2 3; do curl -s -g -o /dev/null "$3/api/articles?$q"; done
    "$ac" -c 10 -d "$warm" "$3/api/articles?$q" >/dev/null 2>&1
    sleep 3
    line=$("$ac" -c 10 -d "$dur" -j "$3/api/articles?$q" 2>/dev/null | node -e '
      const r = JSON.parse(require("fs").readFileSync(0)); const bad = r.non2xx + r.errors + r.timeouts
      console.log(`${r.requests.average}\t| ${process.argv[1]} | ${process.argv[2]} | ${r.requests.average} | ${r.latency.p50} | ${r.latency.p99} | ${bad} |`)' "$2" "$i")
    rps[$1.$i]=${line%%$'\t'*}; echo "${line#*$'\t'}"
  done
}
shape() { # name base: one answer per query, summarised (count, ids, author and tag counts) to stderr
  for q in "${queries[@]}"; do
    curl -s -g "$2/api/articles?$q" | node -e '
      const b = JSON.parse(require("fs").readFileSync(0)), d = b.data || []
      const f = d[0] || {}
      console.error(`  ${process.argv[1]} ${process.argv[2]}: ${b.error ? JSON.stringify(b.error) : `${d.length} rows, total ${b.meta?.pagination?.total}; first: ${f.title}, author ${JSON.stringify(f.author && (f.author.name ?? f.author))}, tags ${Array.isArray(f.tags) ? f.tags.map((t) => t.name).join(",") : JSON.stringify(f.tags)}; keys ${Object.keys(f).join(",")}`}`)' "$1" "$q"
  done
}
wait_health() { for _ in $(seq 1 240); do curl -s -o /dev/null -w '%{http_code}' "$1/_health" | grep -qE '^(200|204)$' && return 0; sleep 0.5; done; return 1; }
load() { cut -d' ' -f1-3 /proc/loadavg; }

echo "N = $n articles, $na authors, $nt tags, $dur s per query after $warm s of warm-up, $(nproc) cores, $(date -u '+%Y-%m-%d %H:%M UTC'), load $(load)"
echo
echo "| server | query | req/s | p50 ms | p99 ms | non-2xx, errors, timeouts |"
echo "|---|---|--:|--:|--:|--:|"
# The peer
(cd "$strapi" && PORT=4601 ./start.sh --fresh >/dev/null) || { echo "Strapi did not start; see $strapi/run/strapi.log" >&2; exit 1; }
strapi_seed=$(node "$seed" http://127.0.0.1:4601 "$n" "$na" "$nt") || { (cd "$strapi" && ./stop.sh >/dev/null); exit 1; }
echo "  strapi: $strapi_seed" >&2
shape strapi http://127.0.0.1:4601
l1=$(load); bench s strapi http://127.0.0.1:4601
(cd "$strapi" && ./stop.sh >/dev/null)
# This project, on a fresh table, with the page cache as by default and then off
admin=$(node -e 'console.log(require("crypto").randomBytes(24).toString("hex"))')
table="compare_rel_$$"; pid=
# A data folder of its own: in one kept across runs, DynamoDB Local would scan the earlier runs'
# stream records for every item this run's table touches (lib/storage/schema.ts, ensureTable).
data=$(mktemp -d /tmp/compare-rel-data.XXXXXX)
trap '[ -n "$pid" ] && kill -TERM -- -$pid 2>/dev/null; rm -rf "$data"' EXIT
start() { # extra env...
  env PORT=4602 TABLE_NAME="$table" DATA_DIR="$data" ADMIN_TOKEN=$admin "$@" setsid npm start >>"/tmp/compare-rel-$$.log" 2>&1 &
  pid=$!
  wait_health http://127.0.0.1:4602 || { echo "the project did not start; see /tmp/compare-rel-$$.log" >&2; exit 1; }
}
stop() { kill -TERM -- -"$pid" 2>/dev/null; wait "$pid" 2>/dev/null; pid=; }
start
key=$(curl -s -X POST http://127.0.0.1:4602/admin/api-tokens -H "Authorization: Bearer $admin" \
  -H 'Content-Type: application/json' -d '{"name":"seed","type":"full-access"}' | node -pe 'JSON.parse(require("fs").readFileSync(0)).data.accessKey')
ours_seed=$(node "$seed" http://127.0.0.1:4602 "$n" "$na" "$nt" "$key") || exit 1
echo "  ours: $ours_seed" >&2
shape ours http://127.0.0.1:4602
l2=$(load); bench on "ours, page cache on" http://127.0.0.1:4602
stop
start API_REST_PAGE_CACHE=0
# The restarted server's DynamoDB Local is a new, cold JVM (the first one was warmed by the seed):
# 10 s more of each query, unmeasured, before its block.
for q in "${queries[@]}"; do "$ac" -c 10 -d 10 "http://127.0.0.1:4602/api/articles?$q" >/dev/null 2>&1; done; sleep 3
l3=$(load); bench off "ours, API_REST_PAGE_CACHE=0" http://127.0.0.1:4602
stop
# And from nothing at all: no page cache, no populated documents kept (API_REST_POPULATE_CACHE_BYTES=0).
start API_REST_PAGE_CACHE=0 API_REST_POPULATE_CACHE_BYTES=0
for q in "${queries[@]}"; do "$ac" -c 10 -d 10 "http://127.0.0.1:4602/api/articles?$q" >/dev/null 2>&1; done; sleep 3
l4=$(load); bench none "ours, both caches off" http://127.0.0.1:4602
stop
echo
echo "| query | Strapi req/s | ours req/s, cache on | ratio | page cache off | ratio | both caches off | ratio |"
echo "|---|--:|--:|--:|--:|--:|--:|--:|"
i=0
for q in "${queries[@]}"; do
  i=$((i + 1))
  node -e 'const [q, s, a, b, c] = process.argv.slice(1), r = (x) => (+s > 0 ? (x / s).toFixed(2) : "-")
    console.log(`| ${q} | ${s} | ${a} | ${r(a)} | ${b} | ${r(b)} | ${c} | ${r(c)} |`)' "$i. \`$q\`" "${rps[s.$i]:-0}" "${rps[on.$i]:-0}" "${rps[off.$i]:-0}" "${rps[none.$i]:-0}"
done
echo
echo "Seeding through the APIs: Strapi $strapi_seed; ours $ours_seed."
echo "Load average (1, 5, 15 min) before each block: Strapi $l1; ours, cache on $l2; page cache off $l3; both off $l4; at the end $(load)."
