#!/usr/bin/env bash
# Upsert drain against append drain (issue #25), on a backlog already in a broker: the same
# events drained by `floe stream --available-now` into an unpartitioned table in append mode and
# in upsert mode keyed by order_id (the generator keys messages by order id), then a full scan of
# the upsert table with its equality deletes pending against the same scan once `floe table
# compact` has folded them; and the upsert drain into a format v3 table, whose deletes are
# deletion vectors found by key in the data files. Usage: upsert_drain.sh FLOE BROKER WORK_DIR EVENTS
set -euo pipefail
floe=$1 broker=$2 work=$3 events=$4
catalog="sqlite:$work/upsert-catalog.db"

drain() {  # drain TABLE EXTRA_ARGS... -> wall seconds
  local table=$1; shift
  local start end
  start=$(date +%s.%N)
  "$floe" stream --brokers "$broker" --topic orders --table "$table" --catalog "$catalog" \
    --warehouse "file://$work/upsert-wh" --schema "$work/orders.json" --trigger 10s --available-now \
    --maintenance-interval 0 --group "bench-$table" "$@" > "$work/$table.log" 2>&1
  end=$(date +%s.%N)
  /usr/bin/python3 -c "print($end - $start)"
}
scan() {  # best wall seconds of three full scans of shop.order_state
  local best=999999 start end s
  for _ in 1 2 3; do
    start=$(date +%s.%N)
    "$floe" sql --catalog "$catalog" --threads 2 --format csv \
      -e 'SELECT count(*), round(sum(amount), 2), count(DISTINCT customer_id) FROM shop.order_state' > "$work/scan.csv"
    end=$(date +%s.%N)
    s=$(/usr/bin/python3 -c "print($end - $start)")
    best=$(/usr/bin/python3 -c "print(min($best, $s))")
  done
  echo "$best"
}

append_s=$(drain shop.orders_append)
upsert_s=$(drain shop.order_state --mode upsert --key order_id)
v3_s=$(drain shop.order_state_v3 --mode upsert --key order_id --format-version 3)
v3_keys=$("$floe" sql --catalog "$catalog" --format csv -e 'SELECT count(*) FROM shop.order_state_v3' | tail -1)
keys=$("$floe" sql --catalog "$catalog" --format csv -e 'SELECT count(*) FROM shop.order_state' | tail -1)
deletes=$("$floe" sql --catalog "$catalog" --format csv \
  -e 'SELECT count(*) FROM shop."order_state$files" WHERE content = 2' | tail -1)
# What the scan with pending deletes reads: superseded rows stay in the files until compaction.
deleted=$("$floe" sql --catalog "$catalog" --threads 2 -e 'EXPLAIN ANALYZE SELECT count(*) FROM shop.order_state' |
  grep -o '[0-9]* rows deleted' | head -1 | cut -d' ' -f1)
pending_s=$(scan)
pending_rows=$(tail -1 "$work/scan.csv")
"$floe" table compact shop.order_state --catalog "$catalog" > /dev/null
compacted_s=$(scan)
compacted_rows=$(tail -1 "$work/scan.csv")
if [ "$pending_rows" != "$compacted_rows" ]; then
  echo "upsert scan disagrees after compaction: $pending_rows vs $compacted_rows"
  exit 1
fi
if [ "$v3_keys" != "$keys" ]; then
  echo "the v3 upsert table has $v3_keys keys, the v2 one $keys"
  exit 1
fi
/usr/bin/python3 - "$events" "$keys" "$append_s" "$upsert_s" "$deletes" "$pending_s" "$compacted_s" "${deleted:-0}" "$v3_s" <<'PY'
import sys
events, keys = int(sys.argv[1]), int(sys.argv[2])
append, upsert, deletes = float(sys.argv[3]), float(sys.argv[4]), int(sys.argv[5])
pending, compacted, deleted = float(sys.argv[6]), float(sys.argv[7]), int(sys.argv[8])
v3 = float(sys.argv[9])
print(f"upsert drain of {events} events into {keys} keys: {upsert:.2f} s ({events / upsert:,.0f} ev/s) against append "
      f"{append:.2f} s ({events / append:,.0f} ev/s): throughput ratio {append / upsert:.3f} (target >= 0.5)")
print(f"  full scan of the upsert table with {deletes} equality delete files pending: {pending:.3f} s; "
      f"after compaction {compacted:.3f} s: ratio {pending / compacted:.3f} (target <= 1.5); the pending scan reads "
      f"{keys + deleted} rows of which the deletes remove {deleted}")
print(f"  upsert drain into a format v3 table (deletion vectors): {v3:.2f} s ({events / v3:,.0f} ev/s): throughput "
      f"ratio {append / v3:.3f} against append (target >= 0.5)")
PY
