#!/usr/bin/env bash
# serve: protocol overhead over the engine for a point query, per protocol (PostgreSQL simple
# and extended, Trino, /api/query), beside a plain HTTP round trip and a real PostgreSQL.
set -euo pipefail
build=${FLOE_BUILD_DIR:-build/release}
"$build/bench/serve_protocol_bench" 2000
