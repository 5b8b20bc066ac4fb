#!/usr/bin/env bash
# fresh reads (issue #12): broker ack -> visible through PostgreSQL wire with `floe up --trigger
# 30s` at 50k events/s, freshness live (1,000 point lookups, 100 dashboard aggregates) beside
# freshness snapshot (20 point lookups); markers never seen count as infinitely late.
set -euo pipefail
build=${FLOE_BUILD_DIR:-build/release}
root=$(cd "$(dirname "$0")/.." && pwd)
node "$root/bench/fresh/fresh_reads.mjs" "$(cd "$build" && pwd)/floe" "${FLOE_FRESH_RATE:-50000}" 1000 20 100
