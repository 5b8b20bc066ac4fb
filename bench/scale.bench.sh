#!/usr/bin/env bash
# Cost curves (issue #28): the pipeline (floe produce -> floe broker -> floe stream) and the
# dashboard (floe sql) at SCALE_EVENTS sizes, default 1M, 10M and 100M events, each size skipped
# with a SKIPPED line when the disk cannot hold it. Prints ingest rate, files, bytes, each
# dashboard query's best and cold time with CPU seconds and peak RSS, then redraws
# docs/performance-scale.svg from the results when SCALE_PLOT=1 (bench/scale/scale_plot.mjs).
# Full scans should grow linearly with the data and selective queries (the last 1% of the time
# span) stay nearly flat; anything worse is a finding.
set -euo pipefail
build=${FLOE_BUILD_DIR:-build/release}
root=$(cd "$(dirname "$0")/.." && pwd)
floe=$(cd "$build" && pwd)/floe
sizes=${SCALE_EVENTS:-"1000000 10000000 100000000"}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# shellcheck disable=SC2086  # the sizes are words
node "$root/bench/scale/scale_run.mjs" "$floe" "$work/run" "$work/results.jsonl" $sizes
if [ "${SCALE_PLOT:-0}" = 1 ]; then
  node "$root/bench/scale/scale_plot.mjs" "$work/results.jsonl" "$root/docs/performance-scale.svg"
  cp "$work/results.jsonl" "$root/docs/performance-scale.jsonl"
  echo "wrote docs/performance-scale.svg"
fi
