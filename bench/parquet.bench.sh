#!/usr/bin/env bash
# Parquet benchmarks, floe beside DuckDB in the same run, one thread each (see docs/parquet.md):
#  1. ingest: 1M order events as JSON lines -> zstd Parquet (`floe parquet write` vs DuckDB's
#     COPY (SELECT ... FROM read_json(...)) TO ... (FORMAT parquet, COMPRESSION zstd)), with sizes;
#     from the generator's JSON lines and from the same events with shuffled keys and spaces;
#     DuckDB is given the column types and parses timestamps itself;
#  2. full scan (sum of every column) of each file floe and DuckDB wrote; both engines' sums
#     must agree (a mismatch fails the bench): floe's Parquet reader beside DuckDB's SQL, then
#     floe's SQL engine over an Iceberg table of floe's file beside DuckDB's SQL over its files.
# Times are the best of REPEAT runs, measured inside each process (no start-up costs).
set -euo pipefail
build=${FLOE_BUILD_DIR:-build/release}
root=$(cd "$(dirname "$0")/.." && pwd)
rows=${PARQUET_BENCH_ROWS:-1000000}
repeat=${PARQUET_BENCH_REPEAT:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bench="$build/bench/parquet_bench"
floe="$build/floe"
duck="node $root/bench/parquet/duckdb_parquet.mjs"

cat > "$work/schema.json" <<'JSON'
{"type":"struct","schema-id":0,"fields":[
 {"id":1,"name":"order_id","required":true,"type":"string"},
 {"id":2,"name":"event_time","required":true,"type":"timestamptz"},
 {"id":3,"name":"status","required":true,"type":"string"},
 {"id":4,"name":"region","required":true,"type":"string"},
 {"id":5,"name":"customer_id","required":true,"type":"long"},
 {"id":6,"name":"product_id","required":true,"type":"long"},
 {"id":7,"name":"quantity","required":true,"type":"int"},
 {"id":8,"name":"price","required":true,"type":"double"},
 {"id":9,"name":"currency","required":true,"type":"string"},
 {"id":10,"name":"coupon","required":false,"type":"string"}]}
JSON

"$bench" jsonl "$work/orders.jsonl" "$rows"
echo "order events: $rows rows, $(stat -c %s "$work/orders.jsonl") bytes of JSON lines"

# The same events with each line's keys in a random order and spaces after ':' and ',' (what
# other producers write): floe's fast path for its own key order must not be the whole story.
node -e "
const { readFileSync, writeFileSync } = require('node:fs');
let seed = 42;
const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
const out = readFileSync('$work/orders.jsonl', 'utf8').split('\n').filter(Boolean).map((line) => {
  const entries = Object.entries(JSON.parse(line));
  for (let i = entries.length - 1; i > 0; --i) { const j = Math.floor(random() * (i + 1)); [entries[i], entries[j]] = [entries[j], entries[i]]; }
  return '{' + entries.map(([k, v]) => JSON.stringify(k) + ': ' + JSON.stringify(v)).join(', ') + '}';
});
writeFileSync('$work/shuffled.jsonl', out.join('\n') + '\n');
"

# Ingest: floe parquet write, timed around the whole command (it includes process start-up).
for input in orders shuffled; do
  best_floe=999999
  for _ in $(seq "$repeat"); do
    start=$(date +%s.%N)
    "$floe" parquet write --schema "$work/schema.json" --compression zstd "$work/$input.jsonl" "$work/floe-$input.parquet" 2>/dev/null
    end=$(date +%s.%N)
    best_floe=$(echo "$end - $start" | bc -l | awk -v b="$best_floe" '{print ($1 < b) ? $1 : b}')
  done
  duck_ingest=$($duck ingest "$work/$input.jsonl" "$work/duck-$input.parquet" "$repeat" | sed -E 's/.*"seconds":([0-9.eE+-]+).*/\1/')
  floe_size=$(stat -c %s "$work/floe-$input.parquet")
  duck_size=$(stat -c %s "$work/duck-$input.parquet")
  label=$([ "$input" = orders ] && echo "JSON lines as floe's generator writes them" || echo "keys shuffled, spaces")
  awk -v f="$best_floe" -v d="$duck_ingest" -v fs="$floe_size" -v ds="$duck_size" -v l="$label" 'BEGIN {
    printf "ingest JSON -> zstd Parquet (%s): floe %.3f s, DuckDB %.3f s, speed-up %.2fx (target >= 2x)\n", l, f, d, d / f;
    printf "ingest output size: floe %d bytes, DuckDB %d bytes, ratio %.3f (target <= 1.10)\n", fs, ds, fs / ds }'
done

# Full scan of each file by each engine; both sum every column, and the sums must agree (the
# four files hold the same events, so every checksum is the same; both print 7 significant digits).
failed=0
for file in floe-orders duck-orders floe-shuffled duck-shuffled; do
  fo=$("$bench" scan "$work/$file.parquet" "$repeat")
  do=$($duck scan "$work/$file.parquet" "$repeat")
  f=$(echo "$fo" | sed -E 's/.*"seconds":([0-9.eE+-]+).*/\1/')
  d=$(echo "$do" | sed -E 's/.*"seconds":([0-9.eE+-]+).*/\1/')
  fc=$(echo "$fo" | sed -E 's/.*"checksum":"?([0-9.eE+-]+).*/\1/')
  dc=$(echo "$do" | sed -E 's/.*"checksum":"?([0-9.eE+-]+).*/\1/')
  verdict=$(awk -v a="$fc" -v b="$dc" 'BEGIN { d = a - b; if (d < 0) d = -d; m = (a < 0 ? -a : a); print (d <= 2e-6 * m) ? "checksums agree" : "CHECKSUMS DIFFER" }')
  [ "$verdict" = "checksums agree" ] || failed=1
  awk -v f="$f" -v d="$d" -v n="$file" -v fc="$fc" -v dc="$dc" -v v="$verdict" 'BEGIN {
    printf "full scan of %s.parquet (sum of every column): floe %.3f s, DuckDB %.3f s, speed-up %.2fx (target >= 1x); %s (%s / %s)\n", n, f, d, d / f, v, fc, dc }'
done
# The same full scan as SQL in both engines: floe's file appended to an Iceberg table (the append
# writes the table's own data files), queried through floe's SQL engine in process
# (sql_dashboard_bench, best of REPEAT, one thread), beside DuckDB's SQL over read_parquet of
# that table's data files: the same bytes, summed the same way.
wh="$work/scan-warehouse"
"$floe" sql --warehouse "file://$wh" -e "CREATE SCHEMA bench" > /dev/null
sql_sum="count(*), sum(length(order_id)) + sum(to_unixtime(event_time) * 1000000) + sum(length(status))
  + sum(length(region)) + sum(customer_id) + sum(product_id) + sum(quantity) + sum(price)
  + sum(length(currency)) + sum(length(coupon))"
for file in floe-orders floe-shuffled; do
  table=${file//-/_}
  "$floe" table create "bench.$table" --warehouse "file://$wh" --schema "$work/schema.json" > /dev/null
  "$floe" table append "bench.$table" --warehouse "file://$wh" "$work/$file.parquet" > /dev/null
  query="SELECT $(echo "$sql_sum" | tr '\n' ' ') FROM bench.$table"
  fo=$(printf 'scan\t%s\n' "$query" | "$build/bench/sql_dashboard_bench" "$wh" 1 "$repeat")
  f=$(echo "$fo" | sed -E 's/.*"seconds":([0-9.eE+-]+).*/\1/')
  fcpu=$(echo "$fo" | sed -E 's/.*"cpu":([0-9.eE+-]+).*/\1/')
  answer=$("$floe" sql --warehouse "file://$wh" --format json -e "$query")
  fc=$(echo "$answer" | sed -E 's/.*"_col1":([0-9.eE+-]+).*/\1/')
  frows=$(echo "$answer" | sed -E 's/.*"_col0":([0-9]+).*/\1/')
  do=$($duck scan "$wh/bench/$table/data/*.parquet" "$repeat")
  d=$(echo "$do" | sed -E 's/.*"seconds":([0-9.eE+-]+).*/\1/')
  dc=$(echo "$do" | sed -E 's/.*"checksum":"?([0-9.eE+-]+).*/\1/')
  drows=$(echo "$do" | sed -E 's/.*"rows":([0-9]+).*/\1/')
  verdict=$(awk -v a="$fc" -v b="$dc" -v ra="$frows" -v rb="$drows" 'BEGIN { d = a - b; if (d < 0) d = -d; m = (a < 0 ? -a : a); print (d <= 2e-6 * m && ra == rb) ? "checksums agree" : "CHECKSUMS DIFFER" }')
  [ "$verdict" = "checksums agree" ] || failed=1
  awk -v f="$f" -v c="$fcpu" -v d="$d" -v n="$file" -v fc="$fc" -v dc="$dc" -v v="$verdict" 'BEGIN {
    printf "SQL full scan of %s.parquet appended to a table (floe: the table, DuckDB: read_parquet of its data files): floe %.3f s (cpu %.3f s), DuckDB %.3f s, speed-up %.2fx; %s (%s / %s)\n", n, f, c, d, d / f, v, fc, dc }'
done
if [ "$failed" = 1 ]; then
  echo "parquet: FAILED: floe's and DuckDB's scans disagree"
  exit 1
fi
