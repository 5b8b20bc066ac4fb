#!/usr/bin/env bash
# The dashboard suite of issue #9: floe's SQL engine over the Iceberg table shop.orders (order
# events of floe's generator over 24 hours, partitioned by hour(ts), written in COMMITS commits)
# beside DuckDB reading the very Parquet data files of that table (read_parquet of the paths
# "orders$files" lists), same run, same machine, THREADS threads each. Times are the best of
# REPEAT runs measured inside each process; the ratio is DuckDB's time over floe's (> 1: floe is
# faster). Selective time-range queries show partition pruning (floe reads one hour's files).
# DuckDB runs with its Parquet metadata cache on; each side's first run is printed as its cold
# time and the best run's CPU seconds (all threads) beside its wall time. Every floe answer (from
# `floe sql --format json`) is compared with DuckDB's (bench/tpch/tpch_compare.mjs: NULL and ''
# apart, numbers within 1e-6 relative); a disagreement fails the bench. Queries order their rows
# fully, so the comparison is row by row.
set -euo pipefail
build=${FLOE_BUILD_DIR:-build/release}
root=$(cd "$(dirname "$0")/.." && pwd)
events=${SQL_BENCH_EVENTS:-1000000}
commits=${SQL_BENCH_COMMITS:-48}
threads=${SQL_BENCH_THREADS:-2}
repeat=${SQL_BENCH_REPEAT:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
floe="$build/floe"

"$build/bench/sql_orders_table" "$work/wh" "$events" "$commits" 24 >/dev/null
"$floe" sql --warehouse "$work/wh" --format csv -e 'SELECT file_path FROM shop."orders$files"' | tail -n +2 | sed 's|^file://||' > "$work/files"
echo "shop.orders: $events events over 24 hours in $commits commits, $(wc -l < "$work/files") data files, $(du -sh "$work/wh" | cut -f1)"

# NAME<TAB>SQL with T for the table and TS(...) for a UTC timestamp literal; the hour from
# 23:00 and the ten minutes from 12:00 are the selective time ranges.
t0="2025-01-01"
cat > "$work/suite" <<SUITE
count	SELECT count(*) FROM T
by_type	SELECT type, count(*) FROM T GROUP BY type ORDER BY 1
revenue_by_region	SELECT region, sum(amount), count(*) FROM T WHERE type = 'paid' GROUP BY region ORDER BY 1
region_type	SELECT region, type, count(*) FROM T GROUP BY region, type ORDER BY 1, 2
hourly_revenue	SELECT date_trunc('hour', ts) AS h, sum(amount) FROM T WHERE type = 'paid' GROUP BY 1 ORDER BY 1
top_customers	SELECT customer_id, sum(amount) AS spent FROM T WHERE type = 'paid' GROUP BY customer_id ORDER BY spent DESC, customer_id LIMIT 10
distinct_counts	SELECT count(DISTINCT customer_id), count(DISTINCT order_id) FROM T
coupon_share	SELECT region, count(*) FILTER (WHERE coupon IS NOT NULL), count(*) FROM T GROUP BY region ORDER BY 1
last_hour	SELECT count(*), sum(amount) FROM T WHERE ts >= TS(${t0} 23:00:00)
last_hour_by_region	SELECT region, count(*), avg(amount) FROM T WHERE ts >= TS(${t0} 23:00:00) GROUP BY region ORDER BY 1
per_minute_10min	SELECT date_trunc('minute', ts) AS m, count(*), sum(amount) FROM T WHERE ts >= TS(${t0} 12:00:00) AND ts < TS(${t0} 12:10:00) GROUP BY 1 ORDER BY 1
per_minute_3h	SELECT date_trunc('minute', ts) AS m, count(*) FROM T WHERE ts >= TS(${t0} 21:00:00) GROUP BY 1 ORDER BY 1
SUITE
sed -E "s/\bT\b/shop.orders/; s/TS\(([^)]*)\)/TIMESTAMP '\1 UTC'/g" "$work/suite" > "$work/floe.q"
sed -E "s/\bT\b/orders/; s/TS\(([^)]*)\)/TIMESTAMPTZ '\1+00'/g" "$work/suite" > "$work/duck.q"

"$build/bench/sql_dashboard_bench" "$work/wh" "$threads" "$repeat" < "$work/floe.q" > "$work/floe.out"
mkdir -p "$work/duck"
node "$root/bench/sql/duckdb_dashboard.mjs" "$work/files" "$threads" "$repeat" "$work/duck" < "$work/duck.q" > "$work/duck.out"

# Agreement, query by query, and the table.
node --input-type=module -e "
import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { compareRows, parseFloeJsonLines } from '$root/bench/tpch/tpch_compare.mjs';
const parse = (f) => readFileSync(f, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
const floe = parse('$work/floe.out'), duck = parse('$work/duck.out');
const queries = readFileSync('$work/floe.q', 'utf8').split('\n').filter(Boolean).map((l) => l.split('\t'));
const pad = (s, n) => String(s).padStart(n);
console.log('query ($threads threads)      floe s (cold)    cpu   DuckDB s (cold)    cpu   ratio  result');
let ft = 0, dt = 0, failed = false;
queries.forEach(([name, sql], i) => {
  const f = floe[i], d = duck[i];
  let verdict;
  try {
    const out = execFileSync('$floe', ['sql', '--warehouse', '$work/wh', '--threads', '$threads', '--format', 'json', '-e', sql],
                             { encoding: 'utf8', maxBuffer: 1 << 26 });
    verdict = compareRows(parseFloeJsonLines(out), JSON.parse(readFileSync('$work/duck/' + name + '.json', 'utf8'))) ?? 'equal';
  } catch (e) {
    verdict = 'error: ' + String(e.stderr || e.message).split('\n')[0];
  }
  if (verdict !== 'equal') failed = true;
  ft += f.seconds; dt += d.seconds;
  console.log(name.padEnd(26) + pad(f.seconds.toFixed(4), 8) + pad('(' + f.cold.toFixed(3) + ')', 9) + pad(f.cpu.toFixed(2), 7) +
    pad(d.seconds.toFixed(4), 9) + pad('(' + d.cold.toFixed(3) + ')', 9) + pad(d.cpu.toFixed(2), 7) +
    pad((d.seconds / f.seconds).toFixed(2) + 'x', 8) + '  ' + verdict);
});
console.log('total'.padEnd(26) + pad(ft.toFixed(4), 8) + pad('', 16) + pad(dt.toFixed(4), 9) + pad('', 16) + pad((dt / ft).toFixed(2) + 'x', 8) +
  '  (ratio: DuckDB time over floe time; target: floe total <= DuckDB total, selective queries <= half)');
if (failed) { console.log('sql: FAILED: some answers disagree with DuckDB'); process.exit(1); }
"
