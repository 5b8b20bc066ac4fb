#!/usr/bin/env bash
# catalog: REST commit latency (p50, p99) on SQLite + local storage beside the storage floor,
# and concurrent committers' throughput with a no-lost-update check, same run.
set -euo pipefail
build=${FLOE_BUILD_DIR:-build/release}
"$build/bench/catalog_commit_bench" 300 8 25
