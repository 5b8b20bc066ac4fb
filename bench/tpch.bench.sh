#!/usr/bin/env bash
# TPC-H (issue #23): the 22 queries of bench/tpch/queries (qgen's default substitutions) at scale
# factor TPCH_SF, floe against DuckDB (npm), same machine, same run, TPCH_THREADS threads each.
# The data comes from TPC-H's dbgen, built here from its public sources (TPCH_DBGEN_DIR: a
# checkout of tpch-dbgen; they are not part of this repository). DuckDB converts dbgen's output
# to one Parquet file per table; floe loads those files into Iceberg tables with `floe sql`
# (CREATE TABLE), `floe table append` and ANALYZE, as a user would; DuckDB reads the Parquet files with its
# metadata cache on. Each side runs in one process: the first run of a query is its cold time,
# then the best of TPCH_REPEAT; CPU seconds (all threads) of the best run are printed beside it.
# Every answer of floe (via `floe sql --format json`) is compared with DuckDB's
# (bench/tpch/tpch_compare.mjs); a disagreement fails the bench.
# TPCH_WORK_DIR keeps the generated data between runs (it is rebuilt only if missing).
set -euo pipefail
build=${FLOE_BUILD_DIR:-build/release}
root=$(cd "$(dirname "$0")/.." && pwd)
sf=${TPCH_SF:-1}
threads=${TPCH_THREADS:-2}
repeat=${TPCH_REPEAT:-3}
memory_mb=${TPCH_MEMORY_MB:-1024}
dbgen_src=${TPCH_DBGEN_DIR:-}
floe="$build/floe"
if [ -z "$dbgen_src" ] || [ ! -f "$dbgen_src/driver.c" ]; then
  echo "tpch: SKIPPED (set TPCH_DBGEN_DIR to a checkout of the public tpch-dbgen sources)"
  exit 0
fi
if [ -n "${TPCH_WORK_DIR:-}" ]; then
  work=$TPCH_WORK_DIR
  mkdir -p "$work"
else
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
fi
data="$work/sf$sf"
if [ ! -f "$data/parquet/lineitem.parquet" ]; then
  rm -rf "$work/dbgen" "$data"
  mkdir -p "$data/tbl" "$data/parquet"
  cp -r "$dbgen_src" "$work/dbgen"
  make -s -C "$work/dbgen" dbgen >/dev/null 2>&1
  (cd "$data/tbl" && "$work/dbgen/dbgen" -b "$work/dbgen/dists.dss" -s "$sf" -f >/dev/null)
  node "$root/bench/tpch/tpch_tables.mjs" parquet "$data/tbl" "$data/parquet"
  rm -rf "$data/tbl"
fi
rm -rf "$data/warehouse"
load_start=$(date +%s.%N)
node -e "import('$root/bench/tpch/tpch_floe.mjs').then(m => m.loadWarehouse('$floe', '$data/parquet', '$data/warehouse'))"
echo "TPC-H SF $sf: $(du -sh "$data/parquet" | cut -f1) of Parquet, loaded into floe in $(echo "$(date +%s.%N) - $load_start" | bc) s"

# One line per query for the in-process driver: NAME<TAB>SQL on one line.
for q in "$root"/bench/tpch/queries/*.sql; do
  printf '%s\t%s\n' "$(basename "$q" .sql)" "$(tr '\n\t' '  ' < "$q" | sed 's/; *$//')"
done > "$work/queries.tsv"
mkdir -p "$work/duck"
FLOE_BENCH_MEMORY_MB=$memory_mb FLOE_BENCH_TIME_LIMIT_S=${TPCH_TIME_LIMIT_S:-120} "$build/bench/sql_dashboard_bench" "$data/warehouse" "$threads" "$repeat" tpch < "$work/queries.tsv" > "$work/floe.out" 2> "$work/floe.err" || true
node "$root/bench/tpch/tpch_duckdb.mjs" "$data/parquet" "$root/bench/tpch/queries" "$threads" "$repeat" "$work/duck" > "$work/duck.out"

# Agreement, query by query.
node --input-type=module -e "
import { readFileSync, readdirSync } from 'node:fs';
import { floeQuery } from '$root/bench/tpch/tpch_floe.mjs';
import { compareRows } from '$root/bench/tpch/tpch_compare.mjs';
for (const f of readdirSync('$root/bench/tpch/queries').filter((x) => x.endsWith('.sql')).sort()) {
  const name = f.replace('.sql', '');
  let verdict;
  try {
    const actual = floeQuery('$floe', '$data/warehouse', readFileSync('$root/bench/tpch/queries/' + f, 'utf8'), $threads,
                             ['--query-memory-mb', '$memory_mb']);
    verdict = compareRows(actual, JSON.parse(readFileSync('$work/duck/' + name + '.json', 'utf8'))) ?? 'equal';
  } catch (e) {
    verdict = 'error: ' + String(e.stderr || e.message).split('\n')[0];
  }
  console.log(name + '\t' + verdict);
}" > "$work/agree.out"

node --input-type=module -e "
import { readFileSync } from 'node:fs';
const parse = (f) => Object.fromEntries(readFileSync(f, 'utf8').split('\n').filter(Boolean).map((l) => { const o = JSON.parse(l); return [o.name, o]; }));
const floe = parse('$work/floe.out'), duck = parse('$work/duck.out');
const agree = Object.fromEntries(readFileSync('$work/agree.out', 'utf8').split('\n').filter(Boolean).map((l) => l.split('\t')));
const pad = (s, n) => String(s).padStart(n);
console.log('query  floe s (cold)    cpu   DuckDB s (cold)    cpu   ratio  result');
let ft = 0, dt = 0, answered = 0, failed = false;
for (const name of Object.keys(duck)) {
  const f = floe[name], d = duck[name];
  const verdict = agree[name] ?? 'missing';
  if (verdict !== 'equal') failed = true;
  if (!f) { console.log(name.padEnd(6) + pad('-', 8) + '  ' + pad(d.seconds.toFixed(3), 26) + '          ' + verdict); continue; }
  answered++; ft += f.seconds; dt += d.seconds;
  console.log(name.padEnd(6) + pad(f.seconds.toFixed(3), 7) + pad('(' + f.cold.toFixed(3) + ')', 9) + pad(f.cpu.toFixed(2), 7) +
    pad(d.seconds.toFixed(3), 9) + pad('(' + d.cold.toFixed(3) + ')', 9) + pad(d.cpu.toFixed(2), 7) +
    pad((d.seconds / f.seconds).toFixed(2) + 'x', 8) + '  ' + verdict);
}
console.log('total ' + pad(ft.toFixed(3), 7) + pad('', 16) + pad(dt.toFixed(3), 9) + pad('', 16) + pad((dt / ft).toFixed(2) + 'x', 8) +
  '  ' + answered + '/22 answered (ratio: DuckDB time over floe time, > 1: floe is faster; targets: total >= 1x, no query < 0.33x)');
if (failed) { console.log('tpch: FAILED: some answers disagree with DuckDB or are missing'); process.exit(1); }
"
[ -s "$work/floe.err" ] && sed 's/^/floe: /' "$work/floe.err"
exit 0
