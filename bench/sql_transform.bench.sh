#!/usr/bin/env bash
# The stream job's --transform (issue #8) beside DuckDB in the same run: one SELECT (a rename,
# upper(), arithmetic, a CAST from text, date_trunc and a WHERE) over N decoded events, floe's
# BatchTransform in 100k-event batches against DuckDB materializing the same SELECT over the same
# events held in a table, both on one thread; decoding and loading are not timed on either side.
set -euo pipefail
build=${FLOE_BUILD_DIR:-build/release}
root=$(cd "$(dirname "$0")/.." && pwd)
events=${TRANSFORM_BENCH_EVENTS:-1000000}
sql="SELECT id, upper(type) AS kind, amount * 1.1 AS amount_x, CAST(qty AS bigint) AS qty,
  date_trunc('hour', ts) AS hour FROM events WHERE amount > 10"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

floe_out=$("$build/bench/sql_transform_bench" "$events" "$work/events.jsonl" "$sql")
duck_out=$(node "$root/bench/sql/duckdb_transform.mjs" "$work/events.jsonl" "$sql")
/usr/bin/python3 - "$floe_out" "$duck_out" <<'PY'
import json, sys
floe, duck = json.loads(sys.argv[1]), json.loads(sys.argv[2])
if floe["rows"] != duck["rows"]:
    sys.exit(f"row counts differ: floe {floe['rows']}, DuckDB {duck['rows']}")
n = floe["events"]
print(f"transform over {n} events ({floe['rows']} rows out): floe {floe['seconds']:.3f}s "
      f"({n / floe['seconds'] / 1e6:.1f}M events/s), DuckDB {duck['seconds']:.3f}s "
      f"({n / duck['seconds'] / 1e6:.1f}M events/s); floe/DuckDB time ratio {floe['seconds'] / duck['seconds']:.2f}")
PY
