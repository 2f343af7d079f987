#!/usr/bin/env bash
# Import speed against Strapi (integration.md §21, issue 39): one archive of N documents in 2
# locales (a draft and a published row each; half articles with an author and two tags, half pages
# with a component, a repeatable component and a zone; bench/strapi-archive.ts), loaded by
# `npm run import` into a fresh local table (DynamoDB Local), then by `strapi import --force` into
# the Strapi peer (SQLite), one after the other in one run. Prints wall times (each command whole:
# process start, DynamoDB Local's or Strapi's boot included) and the importer's own time. DynamoDB
# Local holds its data in memory (it stands for DynamoDB, whose durability is not SQLite's fsync);
# IMPORT_ON_DISK=1 keeps it on disk instead, in a DATA_DIR (about 4x slower on this machine). With
# DYNAMODB_ENDPOINT set, ours imports into a new table there (no DynamoDB Local started).
#
#   bench/import-compare.sh N PEER_DIR       from the project's root; PEER_DIR: a copy of the peer
#                                            holding test/fixtures/strapi-archives/media/types and
#                                            its components (docs/moving-from-strapi.md); stopped
#                                            before, left stopped after; its data is replaced.
set -euo pipefail
n=${1:?usage: bench/import-compare.sh N PEER_DIR}; peer=${2:?usage: bench/import-compare.sh N PEER_DIR}
work=$(mktemp -d /tmp/import-compare-XXXXXX)
archive=$work/archive.tar.gz
now() { date +%s.%N; }

node --import tsx bench/strapi-archive.ts "$archive" "$n" >"$work/rows.json"
rows=$(node -e 'const c=require(process.argv[1]);console.log(Object.values(c).reduce((a,b)=>a+b,0))' "$work/rows.json")
echo "archive: $n documents, $rows rows ($(du -h "$archive" | cut -f1)): $(cat "$work/rows.json")"

t0=$(now)
in_memory=true; [[ ${IMPORT_ON_DISK:-} == 1 || -n ${DYNAMODB_ENDPOINT:-} ]] && in_memory=false
LOCAL_IN_MEMORY=$in_memory DATA_DIR=$work/data TABLE_NAME=import-compare-$$ CONTENT_TYPES_DIR=$PWD/test/fixtures/strapi-archives/media/types \
  npm run -s import -- "$archive" >"$work/ours.json" 2>"$work/ours.log"
t1=$(now)
ours=$(echo "$t1 - $t0" | bc)
inner=$(grep -o 'done in [0-9.]* s' "$work/ours.log" | grep -o '[0-9.]*' | head -1)

"$peer/stop.sh" >/dev/null
t2=$(now)
(cd "$peer" && STRAPI_TELEMETRY_DISABLED=true node node_modules/@strapi/strapi/bin/strapi.js import -f "$archive" --force >"$work/strapi.log" 2>&1)
t3=$(now)
strapi=$(echo "$t3 - $t2" | bc)

echo
echo "| N documents | rows | npm run import (s) | of which importing (s) | strapi import (s) | ratio strapi / ours |"
echo "|--:|--:|--:|--:|--:|--:|"
printf '| %s | %s | %.1f | %s | %.1f | %.2f |\n' "$n" "$rows" "$ours" "${inner:-?}" "$strapi" "$(echo "$strapi / $ours" | bc -l)"
echo
echo "logs and archive in $work"
