#!/usr/bin/env bash
# iceberg: scan planning over 10,000 files in 1,000 manifests (floe) beside icebird (npm) listing
# the same table's manifest entries over loopback HTTP, same run, with the ratio.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${FLOE_BUILD_DIR:-build/release}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
out=$("$build/bench/iceberg_plan_bench" "$work")
echo "$out" | grep -v '^FLOE_'
sel=$(echo "$out" | sed -n 's/^FLOE_SELECTIVE_MS=//p')
full=$(echo "$out" | sed -n 's/^FLOE_FULL_MS=//p')
peer=$(NODE_PATH="$root/tests/interop/node_modules" node "$root/bench/iceberg/icebird_manifests.mjs" "$work/wh/bench/events")
echo "icebird icebergManifests (reads every manifest): ${peer} ms"
awk -v s="$sel" -v f="$full" -v p="$peer" 'BEGIN {
  printf "ratio icebird / floe selective plan: %.1fx\n", p / s;
  printf "ratio icebird / floe full plan:      %.1fx\n", p / f }'
