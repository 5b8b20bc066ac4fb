#!/usr/bin/env bash
# The stream job (issue #8), beside DuckDB in the same run:
#  1. backlog: N order events in floe's broker drained by `floe stream --available-now` into
#     committed Iceberg snapshots, against DuckDB converting the same JSON lines to zstd Parquet
#     on one and on two threads; with the job's peak RSS, and CPU seconds beside every wall time
#     (the stream job decodes on two lanes, and librdkafka runs threads of its own);
#  2. upsert: the same backlog drained in upsert mode keyed by order_id against append mode, and a
#     scan with pending equality deletes against the compacted table (stream/upsert_drain.sh);
#  3. Avro and Protobuf: the same backlog republished by one producer as JSON and as
#     Confluent-framed Avro and Protobuf, drained with --format json, avro and protobuf, same
#     table schema and batch size (stream/avro_ingest.sh), and the record decoders alone
#     (stream/record_decode_bench.cc);
#  4. end to end: `floe up` with the generator at RATE events/s for a while: the rate the broker
#     took, the rate the table gained, and whether the lag grew.
set -euo pipefail
build=${FLOE_BUILD_DIR:-build/release}
root=$(cd "$(dirname "$0")/.." && pwd)
floe=$(cd "$build" && pwd)/floe
events=${STREAM_BENCH_EVENTS:-1000000}
rate=${STREAM_BENCH_RATE:-200000}
work=$(mktemp -d)
broker_pid=
cleanup() { [ -n "$broker_pid" ] && kill "$broker_pid" 2>/dev/null; wait 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT

port=$(/usr/bin/python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
"$floe" broker --listen "127.0.0.1:$port" --data "$work/broker" --metrics-listen "" > "$work/broker.log" 2>&1 &
broker_pid=$!
for _ in $(seq 100); do (echo > "/dev/tcp/127.0.0.1/$port") 2>/dev/null && break; sleep 0.1; done
"$floe" topic create orders --partitions 4 --brokers "127.0.0.1:$port" > /dev/null
"$floe" produce --print-schema > "$work/orders.json"
"$floe" produce --brokers "127.0.0.1:$port" --count "$events" --rate 0 --malformed-rate 0 --seed 3 > /dev/null
# kcat's read of the backlog is timed too: librdkafka's consuming alone, the floor under the
# stream job (which consumes through librdkafka as well).
kcat_start=$(date +%s.%N)
kcat -b "127.0.0.1:$port" -C -t orders -e -q -f '%s\n' > "$work/orders.jsonl"
kcat_end=$(date +%s.%N)
kcat_s=$(/usr/bin/python3 -c "print($kcat_end - $kcat_start)")
echo "backlog: $(wc -l < "$work/orders.jsonl") events, $(du -m "$work/orders.jsonl" | cut -f1) MB of JSON"

duck=$(node "$root/bench/stream/duckdb_orders.mjs" "$work/orders.jsonl" "$work/duck.parquet" 1)
duck2=$(node "$root/bench/stream/duckdb_orders.mjs" "$work/orders.jsonl" "$work/duck2.parquet" 2)

start=$(date +%s.%N)
/usr/bin/time -f '%M %U %S' -o "$work/rss" "$floe" stream --brokers "127.0.0.1:$port" --topic orders --table shop.orders \
  --catalog "sqlite:$work/catalog.db" --warehouse "file://$work/wh" --schema "$work/orders.json" \
  --partition 'hour(ts)' --trigger 10s --available-now --maintenance-interval 0 > "$work/stream.log" 2>&1
end=$(date +%s.%N)
floe_s=$(/usr/bin/python3 -c "print($end - $start)")
read -r rss_kb floe_user floe_sys < "$work/rss"
rows=$("$floe" sql --catalog "sqlite:$work/catalog.db" --format csv -e 'SELECT count(*) FROM shop.orders' | tail -1)
/usr/bin/python3 - "$floe_s" "$duck" "$duck2" "$rows" "$events" "$((rss_kb / 1024))" "$kcat_s" "$floe_user" "$floe_sys" <<'PY'
import json, sys
floe, rows, events, rss, kcat = float(sys.argv[1]), int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6]), float(sys.argv[7])
floe_cpu = float(sys.argv[8]) + float(sys.argv[9])
duck1, duck2 = json.loads(sys.argv[2]), json.loads(sys.argv[3])
print(f"drain {events} events into committed snapshots: floe stream {floe:.2f} s, cpu {floe_cpu:.2f} s "
      f"({rows / floe:,.0f} ev/s, {rows} rows; two decode lanes plus librdkafka's threads)")
for threads, d in ((1, duck1), (2, duck2)):
    print(f"  DuckDB JSON -> Parquet, {threads} thread{'s' if threads > 1 else ''}: {d['seconds']:.2f} s, cpu {d['cpu']:.2f} s "
          f"({events / d['seconds']:,.0f} ev/s)")
print(f"  kcat reading the backlog (librdkafka alone): {kcat:.2f} s ({events / kcat:,.0f} ev/s)")
print(f"  floe/DuckDB time ratio: {floe / duck1['seconds']:.3f} against 1 thread, {floe / duck2['seconds']:.3f} against 2 "
      f"(target <= 1.0); CPU ratio {floe_cpu / duck1['cpu']:.3f}; floe stream peak RSS {rss} MB (target < 512)")
PY
"$root/bench/stream/upsert_drain.sh" "$floe" "127.0.0.1:$port" "$work" "$events"
"$root/bench/stream/avro_ingest.sh" "$floe" "127.0.0.1:$port" "$work" "$work/orders.jsonl"
# The two decoders alone, over values back to back as a fetch delivers them.
"$(dirname "$floe")/bench/record_decode_bench" --benchmark_min_time=0.5 --benchmark_format=json > "$work/decode.json"
/usr/bin/python3 - "$work/decode.json" <<'PY'
import json, sys
runs = {b["name"]: b for b in json.load(open(sys.argv[1]))["benchmarks"]}
j, a, p = runs["BM_DecodeOrdersJson"], runs["BM_DecodeOrdersAvro"], runs["BM_DecodeOrdersProtobuf"]
print(f"  decoding alone (stream/record_decode_bench): JSON {j['items_per_second']:,.0f} records/s, Avro "
      f"{a['items_per_second']:,.0f} records/s, Protobuf {p['items_per_second']:,.0f} records/s (CPU time): ratios "
      f"{a['items_per_second'] / j['items_per_second']:.3f} and {p['items_per_second'] / j['items_per_second']:.3f} "
      f"(target >= 1)")
PY
kill "$broker_pid"; wait "$broker_pid" 2>/dev/null || true; broker_pid=

node "$root/bench/stream/end_to_end.mjs" "$floe" "$rate" 40
