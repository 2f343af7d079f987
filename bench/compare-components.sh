#!/usr/bin/env bash
# Side by side with components and media (issues 34 and 35): Strapi 5.54 on SQLite, in a copy of
# ../shared/peers/strapi given the model of bench/model/ (a `landing` type with a zone of 8 blocks,
# nested components inside, about 20 KB a version; `article` with a `cover` image), and this project
# (`npm start` with CONTENT_TYPES_DIR=bench/model/content-types, DynamoDB Local, local uploads).
#
#   bench/compare-components.sh [D] [ROUNDS]     from the project's root; D seconds a query (default 10),
#                                                ROUNDS uploads of the 2 MB JPEG each side (default 10)
#
# Data, the same on both sides (bench/seed-model.ts makes document i from document i % 100):
#   Strapi: 100 landings, 100 image files (1600 x 1067 JPEG, four formats each) and 100 articles through
#   its API, then copies in its database (bench/strapi-replicate.cjs) up to 1,000 landings and 10,000
#   articles, later 10,000 landings: seeding Strapi's components through its API takes about 0.4 s a
#   landing here. Ours: everything through the API (landings 1,000, then 9,000 more).
# Measured (autocannon, 10 connections, D seconds after WARM seconds of unmeasured load, default 60, the
# same for both sides: each side's processes are new at every start, and DynamoDB Local's new JVM keeps
# getting faster for minutes of this load: the zone page's Java CPU per request was 7.4 to 8.5 ms after
# 40 s, 6.0 to 6.5 ms in a JVM that had served for minutes, and with 5 s of warm-up the first query
# after a start read 93 to 109 req/s where the same process later answered 150; the replay floor,
# always measured after the server it stands beside, gets the warmer JVM):
#   zone page  /api/landings?populate=*&pagination[page]=3&pagination[pageSize]=25  at N = 1,000 and 10,000
#   cover page /api/articles?populate=cover&pagination[page]=3&pagination[pageSize]=25 at N = 10,000
# ours three times each time: as by default (page cache on), with API_REST_PAGE_CACHE=0 (populated
# documents still kept in the process), and with API_REST_POPULATE_CACHE_BYTES=0 as well; beside the
# second, the replay floor of each query (bench/replay-floor.ts: a bare HTTP server making the same
# DynamoDB calls and sending the same body, what no handler could beat on this DynamoDB Local). Then ROUNDS
# uploads of a 2 MB JPEG one after the other (POST /api/upload, multipart), median time of each side.
# PEER_COPY (default /work/peer-compbench) is the Strapi copy: copied from /work/peer-base (installed)
# on the first run. COVER_ONLY=1 seeds and measures the cover page alone (no zone pages, no uploads).
# Prints Markdown tables.
set -u
dur=${1:-10}; rounds=${2:-10}; warm=${WARM:-60}; only=${COVER_ONLY:-}
project=$(pwd)
[ -f "$project/bench/model/content-types/landing/schema.json" ] || { echo "run from the project's root" >&2; exit 1; }
strapi=${PEER_COPY:-/work/peer-compbench}
ac="$project/node_modules/.bin/autocannon"
seed() { (cd "$project" && node --import tsx bench/seed-model.ts "$@" 2>>/tmp/compare-components-seed.log); }
sp=${STRAPI_PORT:-4201}; op=${OURS_PORT:-4202}; fp=${FLOOR_PORT:-4203}
S=http://127.0.0.1:$sp; O=http://127.0.0.1:$op; F=http://127.0.0.1:$fp

# --- the Strapi copy ---------------------------------------------------------------------------------
setup_copy() {
  [ -d "$strapi" ] || cp -a /work/peer-base "$strapi" || return 1
  local api=$strapi/src/api
  mkdir -p "$strapi/src/components" "$api/landing/content-types/landing"
  cp -r "$project/bench/model/components/." "$strapi/src/components/"
  cp "$project/bench/model/content-types/landing/schema.json" "$api/landing/content-types/landing/"
  for part in controllers routes services; do
    mkdir -p "$api/landing/$part"
    sed "s/api::article.article/api::landing.landing/" "$api/article/$part/article.ts" >"$api/landing/$part/landing.ts"
  done
  node - "$api" <<'EOF' || return 1
const fs = require('fs'), api = process.argv[2]
const af = `${api}/article/content-types/article/schema.json`, a = JSON.parse(fs.readFileSync(af))
a.attributes.cover = { type: 'media', multiple: false, allowedTypes: ['images'], pluginOptions: { i18n: { localized: false } } }
fs.writeFileSync(af, JSON.stringify(a, null, 2) + '\n')
// The public role reads and writes landings as it does articles, and uploads (src/index.ts bootstrap).
const ix = `${api}/../index.ts`; let s = fs.readFileSync(ix, 'utf8')
if (!s.includes('api::landing.landing.find')) {
  const add = ['find', 'findOne', 'create', 'update', 'delete'].map((x) => `  'api::landing.landing.${x}',\n`).join('') +
    ['upload', 'find', 'findOne', 'destroy'].map((x) => `  'plugin::upload.content-api.${x}',\n`).join('')
  s = s.replace("  'api::article.article.delete',\n", (m) => m + add).replace("['api::article.', ", "['api::article.', 'api::landing.', 'plugin::upload.', ")
  if (!s.includes("'plugin::upload.',")) throw new Error('could not patch src/index.ts')
  fs.writeFileSync(ix, s)
}
EOF
}
setup_copy || { echo "could not set up the Strapi copy in $strapi" >&2; exit 1; }

# --- measuring -------------------------------------------------------------------------------------
page='pagination[page]=3&pagination[pageSize]=25'
zone="/api/landings?populate=*&$page"
cover="/api/articles?populate=cover&$page"
declare -A rps
measure() { # key name base path n
  local line
  for _ in 1 2 3; do curl -s -g -o /dev/null "$3$4"; done
  "$ac" -c 10 -d "$warm" "$3$4" >/dev/null 2>&1
  sleep 3
  line=$("$ac" -c 10 -d "$dur" -j "$3$4" 2>/dev/null | node -e '
    const r = JSON.parse(require("fs").readFileSync(0)); const bad = r.non2xx + r.errors + r.timeouts
    console.log(`${r.requests.average}\t| ${process.argv[1]} | ${process.argv[2]} | ${process.argv[3]} | ${r.requests.average} | ${r.latency.p50} | ${r.latency.p99} | ${(r.throughput.average / r.requests.average / 1000).toFixed(1)} | ${bad} |`)' "$2" "\`$4\`" "$5")
  rps[$1]=${line%%$'\t'*}; echo "${line#*$'\t'}"
}
shape() { # name base path: the answer summarised to stderr
  curl -s -g "$2$3" | node -e '
    const b = JSON.parse(require("fs").readFileSync(0)), d = b.data || [], f = d[0] || {}
    const blocks = Array.isArray(f.blocks) ? f.blocks.map((x) => x.__component).join(",") : ""
    console.error(`  ${process.argv[1]} ${process.argv[2]}: ${b.error ? JSON.stringify(b.error) : `${d.length} rows, total ${b.meta?.pagination?.total}; first: ${f.title}; blocks ${blocks}; cover ${f.cover ? `${f.cover.name}, formats ${Object.keys(f.cover.formats || {}).join(",")}` : "-"}`}`)' "$1" "$3"
}
uploads() { # key base [token]: ROUNDS uploads of the 2 MB JPEG, one after the other; the median of the last ROUNDS (2 unmeasured first)
  local times=() t auth=()
  [ -n "${3:-}" ] && auth=(-H "Authorization: Bearer $3")
  for i in $(seq 1 $((rounds + 2))); do
    t=$(curl -s -o /dev/null -w '%{http_code} %{time_total}' "${auth[@]}" -F "files=@$jpeg;type=image/jpeg;filename=photo-$i.jpg" "$2/api/upload")
    [ "${t%% *}" = 200 ] || [ "${t%% *}" = 201 ] || { echo "upload to $2 answered ${t%% *}" >&2; return 1; }
    [ "$i" -gt 2 ] && times+=("${t#* }")
  done
  rps[$1]=$(printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {print (NR % 2 ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2) * 1000}')
}
wait_health() { for _ in $(seq 1 240); do curl -s -o /dev/null -w '%{http_code}' "$1/_health" | grep -qE '^(200|204)$' && return 0; sleep 0.5; done; return 1; }
load() { cut -d' ' -f1-3 /proc/loadavg; }
strapi_start() { (cd "$strapi" && PORT=$sp ./start.sh "$@" >/dev/null) || { echo "Strapi did not start; see $strapi/run/strapi.log" >&2; exit 1; }; }
strapi_stop() { (cd "$strapi" && ./stop.sh >/dev/null); }
replicate() { node "$project/bench/strapi-replicate.cjs" "$strapi/.tmp/data.db" "$@" >&2; }

jpeg=$(mktemp --suffix=.jpg)
seed jpeg "$jpeg" 2000000 >&2
echo "$dur s per query after $warm s of warm-up, $rounds uploads of $(stat -c %s "$jpeg") bytes, $(nproc) cores, $(date -u '+%Y-%m-%d %H:%M UTC'), load $(load)"
echo
echo "| server | query | N | req/s | p50 ms | p99 ms | KB per answer | non-2xx, errors, timeouts |"
echo "|---|---|--:|--:|--:|--:|--:|--:|"

# The peer: 1,000 landings and 10,000 articles, then 10,000 landings (COVER_ONLY=1: the articles alone).
strapi_start --fresh
s_seed="$(seed "$S" landings 0 100); $(seed "$S" files 100); $(seed "$S" articles 0 100)"
strapi_stop; replicate landings 1000; replicate articles 10000; strapi_start
shape strapi "$S" "$zone"; shape strapi "$S" "$cover"
l1=$(load); [ -n "$only" ] || measure s.z1 strapi "$S" "$zone" 1000; measure s.c strapi "$S" "$cover" 10000
if [ -z "$only" ]; then
  strapi_stop; replicate landings 10000; strapi_start
  l2=$(load); measure s.z10 strapi "$S" "$zone" 10000
  uploads s.u "$S"
fi
strapi_stop

# This project, on a fresh data folder: page cache on (default), then API_REST_PAGE_CACHE=0.
admin=$(node -e 'console.log(require("crypto").randomBytes(24).toString("hex"))')
data=$(mktemp -d); pid=
trap '[ -n "$pid" ] && kill -TERM -- -$pid 2>/dev/null; rm -f "$jpeg"' EXIT
start() { # extra env...
  env PORT=$op TABLE_NAME=compare_components DATA_DIR="$data" CONTENT_TYPES_DIR="$project/bench/model/content-types" ADMIN_TOKEN=$admin "$@" setsid npm start >>"$data/server.log" 2>&1 &
  pid=$!
  wait_health "$O" || { echo "the project did not start; see $data/server.log" >&2; exit 1; }
}
stop() { kill -TERM -- -"$pid" 2>/dev/null; wait "$pid" 2>/dev/null; pid=; }
both() { # label suffix queries...: a block with the page cache on, one with it off, one with no cache at all (each new JVM warmed first)
  local suffix=$1; shift
  start; measure_all on "$suffix" "$@"; stop
  start API_REST_PAGE_CACHE=0
  for q in "$@"; do "$ac" -c 10 -d 10 "$O${q##*|}" >/dev/null 2>&1; done; sleep 3
  measure_all off "$suffix" "$@"; floor_all "$suffix" "$@"; stop
  start API_REST_PAGE_CACHE=0 API_REST_POPULATE_CACHE_BYTES=0
  for q in "$@"; do "$ac" -c 10 -d 10 "$O${q##*|}" >/dev/null 2>&1; done; sleep 3
  measure_all none "$suffix" "$@"; stop
}
measure_all() { # on|off|none suffix key|n|path...
  local name
  case $1 in on) name="ours, page cache on" ;; off) name="ours, API_REST_PAGE_CACHE=0" ;; *) name="ours, both caches off" ;; esac
  local q k n path
  for q in "${@:3}"; do IFS='|' read -r k n path <<<"$q"; measure "$1.$k$2" "$name" "$O" "$path" "$n"; done
}
floor_all() { # suffix key|n|path...: each query's replay floor (bench/replay-floor.ts) beside the server running with API_REST_PAGE_CACHE=0
  local endpoint fpid q k n path
  endpoint=$(grep -o 'DynamoDB Local at http://[0-9.:]*' "$data/server.log" | tail -1 | cut -d' ' -f4)
  for q in "${@:2}"; do
    IFS='|' read -r k n path <<<"$q"
    DATA_DIR="$data" CONTENT_TYPES_DIR="$project/bench/model/content-types" API_REST_PAGE_CACHE=0 \
      setsid node --import tsx "$project/bench/replay-floor.ts" "$endpoint" compare_components "$path" "$fp" >>"$data/floor.log" 2>&1 &
    fpid=$!
    for _ in $(seq 1 120); do curl -s -o /dev/null "$F/" && break; sleep 0.5; done
    measure "floor.$k$1" "replay floor: the calls of API_REST_PAGE_CACHE=0" "$F" "$path" "$n"
    kill -TERM -- -"$fpid" 2>/dev/null; wait "$fpid" 2>/dev/null
  done
}
token() { # a new full-access API key, for the server just started
  curl -s -X POST "$O/admin/api-tokens" -H "Authorization: Bearer $admin" -H 'Content-Type: application/json' \
    -d "{\"name\":\"seed $RANDOM\",\"type\":\"full-access\"}" | node -pe 'JSON.parse(require("fs").readFileSync(0)).data.accessKey'
}
start; key=$(token)
o_seed="$(seed "$O" landings 0 $([ -n "$only" ] && echo 100 || echo 1000) "$key"); $(seed "$O" files 100 "$key"); $(seed "$O" articles 0 10000 "$key")"
shape ours "$O" "$zone"; shape ours "$O" "$cover"
stop
if [ -n "$only" ]; then
  l3=$(load); both "" "c|10000|$cover"
else
  l3=$(load); both "" "z1|1000|$zone" "c|10000|$cover"
  start; key=$(token); o_seed="$o_seed; $(seed "$O" landings 1000 9000 "$key")"; stop
  l4=$(load); both "" "z10|10000|$zone"
  start; key=$(token); uploads on.u "$O" "$key"; stop
fi

echo
echo "| query | N | Strapi req/s | ours req/s, cache on | ratio | page cache off | ratio | both caches off | ratio | replay floor of page cache off | ratio |"
echo "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|"
row() { node -e 'const [q, n, s, a, b, c, f] = process.argv.slice(1), r = (x) => (+s > 0 ? (x / s).toFixed(2) : "-")
  console.log(`| ${q} | ${n} | ${s} | ${a} | ${r(a)} | ${b} | ${r(b)} | ${c} | ${r(c)} | ${f} | ${r(f)} |`)' "$@"; }
[ -n "$only" ] || row "zone page, \`populate=*\`" 1,000 "${rps[s.z1]:-0}" "${rps[on.z1]:-0}" "${rps[off.z1]:-0}" "${rps[none.z1]:-0}" "${rps[floor.z1]:-0}"
[ -n "$only" ] || row "zone page, \`populate=*\`" 10,000 "${rps[s.z10]:-0}" "${rps[on.z10]:-0}" "${rps[off.z10]:-0}" "${rps[none.z10]:-0}" "${rps[floor.z10]:-0}"
row "cover page, \`populate=cover\`" 10,000 "${rps[s.c]:-0}" "${rps[on.c]:-0}" "${rps[off.c]:-0}" "${rps[none.c]:-0}" "${rps[floor.c]:-0}"
echo
[ -n "$only" ] || node -e 'const [s, o] = process.argv.slice(1).map(Number); console.log(`Upload of a 2 MB JPEG (POST /api/upload, median of the measured rounds): Strapi ${s.toFixed(0)} ms, ours ${o.toFixed(0)} ms (${(o / s).toFixed(2)}x Strapi'"'"'s time).`)' "${rps[s.u]:-0}" "${rps[on.u]:-0}"
echo
echo "Seeding: Strapi $s_seed (then copied in its database); ours $o_seed."
echo "Load average (1, 5, 15 min) before each block: Strapi N=1,000 $l1; Strapi N=10,000 ${l2:--}; ours N=1,000 / 10,000 articles $l3; ours N=10,000 ${l4:--}; at the end $(load)."
