#!/usr/bin/env bash
# librdkafka's own integration tests (the tests/0nnn-*.c programs of the librdkafka release that
# Debian bookworm ships, 2.0.2, which floe's stream job links against) run against `floe broker`.
# Not part of `make test`: the build takes minutes and the run tens of minutes.
#
#   tests/kafka-suite/run.sh [TEST ...]      # e.g. 0001 0012; default: every 0nnn test
#
# The source comes from Debian's archive (the project's allowed registry), checked against its
# SHA-256. Each test runs alone (TESTS=nnnn, quick mode -Q, no socket emulation -E) against a
# fresh broker on a loopback port, with a timeout; one line per test is printed: passed, failed
# or skipped (the test runner's reason, e.g. a broker version or a feature it needs), and the
# summary goes to $WORK/results.txt.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
FLOE=${FLOE:-$ROOT/build/release/floe}
WORK=${WORK:-$ROOT/build/kafka-suite}
VERSION=2.0.2
URL=http://deb.debian.org/debian/pool/main/libr/librdkafka/librdkafka_${VERSION}.orig.tar.gz
SHA256=f321bcb1e015a34114c83cf1aa7b99ee260236aab096b85c003170c90a47ca9d
PER_TEST_TIMEOUT=${PER_TEST_TIMEOUT:-300}
# Auto-created topics get 4 partitions, as on the test clusters librdkafka's suite is written
# for (several tests produce to partitions 0..3 of a topic they never create).
# The broker version the tests adapt to (they skip what needs a newer one): floe answers the
# API versions of Kafka 3.x for what it implements.
export TEST_KAFKA_VERSION=${TEST_KAFKA_VERSION:-3.1.0}

[ -x "$FLOE" ] || { echo "no floe binary at $FLOE (build it: ninja -C build/release floe)" >&2; exit 2; }
mkdir -p "$WORK"
# A copy, so a rebuild of floe during the run cannot take the broker away between tests.
cp "$FLOE" "$WORK/floe.run"
FLOE=$WORK/floe.run
SRC=$WORK/librdkafka-$VERSION
if [ ! -x "$SRC/tests/test-runner" ]; then
  if [ ! -f "$WORK/librdkafka.tar.gz" ]; then
    curl -sSfL -o "$WORK/librdkafka.tar.gz.part" "$URL"
    mv "$WORK/librdkafka.tar.gz.part" "$WORK/librdkafka.tar.gz"
  fi
  echo "$SHA256  $WORK/librdkafka.tar.gz" | sha256sum -c --quiet -
  rm -rf "$SRC" && tar -xzf "$WORK/librdkafka.tar.gz" -C "$WORK"
  (cd "$SRC" && ./configure --disable-gssapi > "$WORK/configure.log" 2>&1 &&
   make -j"${JOBS:-$(nproc)}" libs > "$WORK/build.log" 2>&1 &&
   make -C tests -j"${JOBS:-$(nproc)}" test-runner >> "$WORK/build.log" 2>&1) ||
    { echo "building librdkafka's tests failed; see $WORK/build.log" >&2; exit 2; }
fi

if [ $# -gt 0 ]; then
  TESTS_LIST=("$@")
else
  mapfile -t TESTS_LIST < <(cd "$SRC/tests" && ls 0[0-9][0-9][0-9]-*.c 0[0-9][0-9][0-9]-*.cpp 2>/dev/null |
                             cut -c1-4 | sort -u)
fi

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

RESULTS=$WORK/results.txt
: > "$RESULTS"
passed=0 failed=0 skipped=0
for t in "${TESTS_LIST[@]}"; do
  data=$(mktemp -d "$WORK/broker.XXXXXX")
  port=$(free_port)
  "$FLOE" broker --listen "127.0.0.1:$port" --data "$data" --metrics-listen "" --fsync interval \
    --partitions 4 > "$data/broker.log" 2>&1 &
  broker=$!
  for _ in $(seq 100); do (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break; sleep 0.1; done
  printf 'metadata.broker.list=127.0.0.1:%s\n' "$port" > "$data/test.conf"
  log="$WORK/$t.log"
  set +e
  (cd "$SRC/tests" && RDKAFKA_TEST_CONF="$data/test.conf" TESTS="$t" timeout "$PER_TEST_TIMEOUT" ./test-runner -Q -E) > "$log" 2>&1
  rc=$?
  set -e
  kill "$broker" 2>/dev/null || true
  wait "$broker" 2>/dev/null || true
  sed -i 's/\x1b\[[0-9;]*m//g' "$log"  # The runner colours its output.
  name=$(grep -o "${t}_[A-Za-z0-9_]*" "$log" | head -1 || true)
  # The runner prints "SKIPPED" with its reason for tests it does not run here.
  if [ $rc -ne 0 ] && grep -qE "KAFKA_PATH( and BROKERS)? must be set" "$log"; then
    # The test drives Kafka's own command-line tools (kafka-topics.sh), which this setup lacks.
    line="skipped $t ${name:-} — needs Kafka's command-line tools (KAFKA_PATH)"; skipped=$((skipped + 1))
  elif grep -q "SKIPPED" "$log" && [ $rc -eq 0 ]; then
    reason=$(grep -m1 -o "SKIPPED.*" "$log" | tr -s ' ' | cut -c1-160)
    line="skipped $t ${name:-} — $reason"; skipped=$((skipped + 1))
  elif [ $rc -eq 0 ]; then
    line="passed  $t ${name:-}"; passed=$((passed + 1))
  else
    why=$(grep -m1 -E "FAIL|Assert|assert|Test timed out|Timed out" "$log" | tr -s ' ' | cut -c1-200 || true)
    [ $rc -eq 124 ] && why="timed out after ${PER_TEST_TIMEOUT}s"
    line="failed  $t ${name:-} — ${why:-exit $rc}"; failed=$((failed + 1))
  fi
  echo "$line" | tee -a "$RESULTS"
  rm -rf "$data"
done
echo "librdkafka $VERSION tests against floe broker: $passed passed, $failed failed, $skipped skipped" | tee -a "$RESULTS"
