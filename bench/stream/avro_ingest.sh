#!/usr/bin/env bash
# Avro and Protobuf ingest against JSON ingest (issue #26): the same order events, as the
# generator's JSON lines, as Confluent-framed Avro and as Confluent-framed Protobuf (the .proto
# text registered) with the writer's schema in `floe registry`, published
# by the same producer in the same batches (bench/stream/publish_orders.mjs), drained by
# `floe stream --available-now` into tables of the same schema, same trigger and batch size: 100k
# records a batch for both (a batch also closes at 48 MiB of record bytes, which the JSON values
# reach at less than half the records the Avro ones need: without a record limit the Avro drain
# would be one batch, its commit overlapping no fetch, while JSON's first commit overlaps the
# second batch's fetch). Prints events/s, wall and CPU seconds of each (the best of three
# drains) and the Avro/JSON and Protobuf/JSON throughput ratios (target >= 1: binary is cheaper to
# decode than text). The events are read from JSONL (the bench's backlog, read back with kcat).
# Usage: avro_ingest.sh FLOE BROKER WORK_DIR JSONL
set -euo pipefail
floe=$1 broker=$2 work=$3 jsonl=$4
root=$(cd "$(dirname "$0")/../.." && pwd)
catalog="sqlite:$work/avro-catalog.db"
registry_pid=
cleanup() { [ -n "$registry_pid" ] && kill "$registry_pid" 2>/dev/null; wait "$registry_pid" 2>/dev/null || true; }
trap cleanup EXIT

"$floe" registry --listen 127.0.0.1:0 --brokers "$broker" > "$work/registry.log" 2>&1 &
registry_pid=$!
registry_port=
for _ in $(seq 100); do
  registry_port=$(grep -o 'listening on [^:]*:[0-9]*' "$work/registry.log" | grep -o '[0-9]*$' || true)
  [ -n "$registry_port" ] && break
  sleep 0.1
done
[ -n "$registry_port" ] || { echo "floe registry did not start: $(cat "$work/registry.log")"; exit 1; }
registry="http://127.0.0.1:$registry_port"
for format in json avro protobuf; do
  "$floe" topic create "orders_$format" --partitions 4 --brokers "$broker" > /dev/null
  node "$root/bench/stream/publish_orders.mjs" "$broker" "$registry" "$jsonl" "orders_$format" "$format" \
    > "$work/orders_$format.out"
done
"$floe" produce --print-schema > "$work/orders-avro-bench.json"

drain() {  # drain TABLE TOPIC EXTRA_ARGS... -> "wall_s cpu_s"
  local table=$1 topic=$2; shift 2
  local start end user sys
  start=$(date +%s.%N)
  /usr/bin/time -f '%U %S' -o "$work/$table.time" "$floe" stream --brokers "$broker" --topic "$topic" --table "$table" \
    --catalog "$catalog" --warehouse "file://$work/avro-wh" --schema "$work/orders-avro-bench.json" --trigger 10s \
    --available-now --maintenance-interval 0 --max-batch-records 100000 --group "bench-$table" "$@" \
    > "$work/$table.log" 2>&1
  end=$(date +%s.%N)
  read -r user sys < "$work/$table.time"
  /usr/bin/python3 -c "print($end - $start, $user + $sys)"
}
# Best of three drains each, alternating, into fresh tables: the machine may be shared.
json_s=999999 json_cpu=0 avro_s=999999 avro_cpu=0 proto_s=999999 proto_cpu=0
for round in 1 2 3; do
  read -r s cpu <<< "$(drain "shop.orders_json_$round" orders_json)"
  if /usr/bin/python3 -c "import sys; sys.exit(0 if $s < $json_s else 1)"; then json_s=$s json_cpu=$cpu; fi
  read -r s cpu <<< "$(drain "shop.orders_avro_$round" orders_avro --format avro --registry "$registry")"
  if /usr/bin/python3 -c "import sys; sys.exit(0 if $s < $avro_s else 1)"; then avro_s=$s avro_cpu=$cpu; fi
  read -r s cpu <<< "$(drain "shop.orders_protobuf_$round" orders_protobuf --format protobuf --registry "$registry")"
  if /usr/bin/python3 -c "import sys; sys.exit(0 if $s < $proto_s else 1)"; then proto_s=$s proto_cpu=$cpu; fi
done
count() { "$floe" sql --catalog "$catalog" --format csv -e "SELECT count(*), round(sum(amount), 2) FROM $1" | tail -1; }
json_rows=$(count shop.orders_json_1)
avro_rows=$(count shop.orders_avro_1)
proto_rows=$(count shop.orders_protobuf_1)
if [ "$json_rows" != "$avro_rows" ] || [ "$json_rows" != "$proto_rows" ]; then
  echo "the tables disagree (count, sum of amount): JSON $json_rows, Avro $avro_rows, Protobuf $proto_rows"
  exit 1
fi
/usr/bin/python3 - "${json_rows%%,*}" "$json_s" "$json_cpu" "$avro_s" "$avro_cpu" "$proto_s" "$proto_cpu" <<'PY'
import sys
rows = int(sys.argv[1])
json_s, json_cpu, avro_s, avro_cpu, proto_s, proto_cpu = map(float, sys.argv[2:8])
for name, s, cpu in (("avro", avro_s, avro_cpu), ("protobuf", proto_s, proto_cpu)):
    print(f"{name} ingest of {rows} order events: {s:.2f} s, cpu {cpu:.2f} s ({rows / s:,.0f} ev/s) against JSON "
          f"{json_s:.2f} s, cpu {json_cpu:.2f} s ({rows / json_s:,.0f} ev/s): throughput ratio {json_s / s:.3f}, "
          f"CPU ratio {cpu / json_cpu:.3f} (targets: throughput >= 1, CPU <= 1)")
PY
