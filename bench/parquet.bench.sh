#!/usr/bin/env bash
# Parquet benchmarks, floe beside DuckDB in the same run, one thread each (see docs/parquet.md):
#  1. ingest: 1M order events as JSON lines -> zstd Parquet (`floe parquet write` vs DuckDB's
#     COPY (SELECT ... FROM read_json(...)) TO ... (FORMAT parquet, COMPRESSION zstd)), with sizes;
#  2. full scan (sum of every column) of the file floe wrote, and of the file DuckDB wrote.
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

# Ingest: floe parquet write, timed around the whole command (it includes process start-up).
best_floe=999999
for _ in $(seq "$repeat"); do
  start=$(date +%s.%N)
  "$floe" parquet write --schema "$work/schema.json" --compression zstd "$work/orders.jsonl" "$work/floe.parquet" 2>/dev/null
  end=$(date +%s.%N)
  best_floe=$(echo "$end - $start" | bc -l | awk -v b="$best_floe" '{print ($1 < b) ? $1 : b}')
done
duck_ingest=$($duck ingest "$work/orders.jsonl" "$work/duck.parquet" "$repeat" | sed -E 's/.*"seconds":([0-9.eE+-]+).*/\1/')
floe_size=$(stat -c %s "$work/floe.parquet")
duck_size=$(stat -c %s "$work/duck.parquet")
awk -v f="$best_floe" -v d="$duck_ingest" -v fs="$floe_size" -v ds="$duck_size" 'BEGIN {
  printf "ingest JSON -> zstd Parquet: floe %.3f s, DuckDB %.3f s, speed-up %.2fx (target >= 2x)\n", f, d, d / f;
  printf "ingest output size: floe %d bytes, DuckDB %d bytes, ratio %.3f (target <= 1.10)\n", fs, ds, fs / ds }'

# Full scan of each file by each engine.
for file in floe duck; do
  f=$("$bench" scan "$work/$file.parquet" "$repeat" | sed -E 's/.*"seconds":([0-9.eE+-]+).*/\1/')
  d=$($duck scan "$work/$file.parquet" "$repeat" | sed -E 's/.*"seconds":([0-9.eE+-]+).*/\1/')
  awk -v f="$f" -v d="$d" -v n="$file" 'BEGIN {
    printf "full scan of the %s-written file (sum of every column): floe %.3f s, DuckDB %.3f s, speed-up %.2fx (target >= 1x)\n", n, f, d, d / f }'
done
