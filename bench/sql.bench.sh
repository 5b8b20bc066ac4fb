#!/usr/bin/env bash
# The dashboard suite of issue #9: floe's SQL engine over the Iceberg table shop.orders (order
# events of floe's generator over 24 hours, partitioned by hour(ts), written in COMMITS commits)
# beside DuckDB reading the very Parquet data files of that table (read_parquet of the paths
# "orders$files" lists), same run, same machine, THREADS threads each. Times are the best of
# REPEAT runs measured inside each process; the ratio is DuckDB's time over floe's (> 1: floe is
# faster). Selective time-range queries show partition pruning (floe reads one hour's files).
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
by_type	SELECT type, count(*) FROM T GROUP BY type
revenue_by_region	SELECT region, sum(amount), count(*) FROM T WHERE type = 'paid' GROUP BY region
region_type	SELECT region, type, count(*) FROM T GROUP BY region, type
hourly_revenue	SELECT date_trunc('hour', ts) AS h, sum(amount) FROM T WHERE type = 'paid' GROUP BY 1 ORDER BY 1
top_customers	SELECT customer_id, sum(amount) AS spent FROM T WHERE type = 'paid' GROUP BY customer_id ORDER BY spent DESC LIMIT 10
distinct_counts	SELECT count(DISTINCT customer_id), count(DISTINCT order_id) FROM T
coupon_share	SELECT region, count(*) FILTER (WHERE coupon IS NOT NULL), count(*) FROM T GROUP BY region
last_hour	SELECT count(*), sum(amount) FROM T WHERE ts >= TS(${t0} 23:00:00)
last_hour_by_region	SELECT region, count(*), avg(amount) FROM T WHERE ts >= TS(${t0} 23:00:00) GROUP BY region
per_minute_10min	SELECT date_trunc('minute', ts) AS m, count(*), sum(amount) FROM T WHERE ts >= TS(${t0} 12:00:00) AND ts < TS(${t0} 12:10:00) GROUP BY 1 ORDER BY 1
per_minute_3h	SELECT date_trunc('minute', ts) AS m, count(*) FROM T WHERE ts >= TS(${t0} 21:00:00) GROUP BY 1 ORDER BY 1
SUITE
sed -E "s/\bT\b/shop.orders/; s/TS\(([^)]*)\)/TIMESTAMP '\1 UTC'/g" "$work/suite" > "$work/floe.q"
sed -E "s/\bT\b/orders/; s/TS\(([^)]*)\)/TIMESTAMPTZ '\1+00'/g" "$work/suite" > "$work/duck.q"

"$build/bench/sql_dashboard_bench" "$work/wh" "$threads" "$repeat" < "$work/floe.q" > "$work/floe.out"
node "$root/bench/sql/duckdb_dashboard.mjs" "$work/files" "$threads" "$repeat" < "$work/duck.q" > "$work/duck.out"

paste "$work/floe.out" "$work/duck.out" | awk -F'\t' -v threads="$threads" '
  function field(s, k,   m) { if (match(s, "\"" k "\":\"?[^,\"}]*")) { m = substr(s, RSTART, RLENGTH); sub(/^"[^"]*":"?/, "", m); return m } return "" }
  BEGIN { printf "%-22s %10s %10s %8s  %s\n", "query (" threads " threads)", "floe s", "DuckDB s", "ratio", "rows floe/DuckDB" }
  { n = field($1, "name"); f = field($1, "seconds"); d = field($2, "seconds"); ft += f; dt += d;
    printf "%-22s %10.4f %10.4f %7.2fx  %s/%s\n", n, f, d, d / f, field($1, "rows"), field($2, "rows") }
  END { printf "%-22s %10.4f %10.4f %7.2fx  (target: floe total <= DuckDB total; selective queries <= half)\n", "total", ft, dt, dt / ft }'
