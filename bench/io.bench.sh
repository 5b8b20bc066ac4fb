#!/usr/bin/env bash
# io: ranged reads of a 64 MiB object from s3rver, floe's S3 store vs curl, same run.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${FLOE_BUILD_DIR:-build/release}
"$build/bench/io_s3_range_bench" "$root"
