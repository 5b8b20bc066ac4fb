# floe: the two commands a user needs are `make run` and `make test`; the rest serve developers.
# Build folders: build/release (make run, every test, benchmarks) and build/asan (unit tests under
# AddressSanitizer + UndefinedBehaviorSanitizer: a smoke in make test, all in make test-asan).

JOBS ?= $(shell nproc)
# ccache shares objects between clones and build folders: paths are hashed relative to the
# clone, and the build folder is left out of the hash (debug info may name another folder).
export CCACHE_BASEDIR := $(CURDIR)
export CCACHE_NOHASHDIR := true
CMAKE_FLAGS ?=
RELEASE_DIR := build/release
DEBUG_DIR := build/debug
ASAN_DIR := build/asan
FUZZ_DIR := build/fuzz
FUZZ_SECONDS ?= 60
FLOE := $(RELEASE_DIR)/floe
CTEST_FLAGS ?= --output-on-failure

.PHONY: run test test-strict build debug asan asan-smoke test-unit test-asan bench format lint clean deps deps-run chaos fuzz

deps:
	@scripts/install-deps

# What building and running floe needs (the Debian packages), without the test clients.
deps-run:
	@scripts/install-deps --run

$(RELEASE_DIR)/build.ninja:
	cmake -S . -B $(RELEASE_DIR) -G Ninja -DCMAKE_BUILD_TYPE=Release $(CMAKE_FLAGS)

$(DEBUG_DIR)/build.ninja:
	cmake -S . -B $(DEBUG_DIR) -G Ninja -DCMAKE_BUILD_TYPE=Debug $(CMAKE_FLAGS)

# Sanitizer build: -O1 -g1 keeps reports readable (line tables) and compiles quicker than -O2 -g.
$(ASAN_DIR)/build.ninja:
	cmake -S . -B $(ASAN_DIR) -G Ninja -DCMAKE_BUILD_TYPE=Debug "-DCMAKE_CXX_FLAGS_DEBUG=-O1 -g1" -DFLOE_SANITIZE=ON $(CMAKE_FLAGS)

# libFuzzer needs clang: every library is instrumented, the targets in fuzz/ link libFuzzer.
# Warnings stay warnings there: -Werror is for the compiler the project builds with.
$(FUZZ_DIR)/build.ninja:
	CC=clang-19 CXX=clang++-19 cmake -S . -B $(FUZZ_DIR) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DFLOE_FUZZ=ON -DFLOE_WERROR=OFF $(CMAKE_FLAGS)

build: deps $(RELEASE_DIR)/build.ninja
	ninja -C $(RELEASE_DIR) -j $(JOBS)

debug: deps $(DEBUG_DIR)/build.ninja
	ninja -C $(DEBUG_DIR) -j $(JOBS)

# Starts the whole pipeline on the embedded defaults (data under ./floe-data). Builds only the
# floe binary (what floe up runs), not the tests and benchmarks `make build` adds.
run: deps-run $(RELEASE_DIR)/build.ninja
	ninja -C $(RELEASE_DIR) -j $(JOBS) floe
	$(FLOE) up

# Every test once, on the release build: the unit tests, the fuzz corpus replays, cli, interop,
# e2e and checks (not the benchmarks). First a sanitizer smoke: the parsers of outside files and
# messages, whose libraries are small (base, Avro, Parquet, Protobuf, JSON Schema), run their unit
# tests and fuzz corpora under ASan + UBSan. `make test-asan` runs every unit test under them.
# Most tests wait on servers and timers: ctest runs two per core (a test that keeps more cores
# busy, floe up with a browser, says so with PROCESSORS), the longest first (COST).
TEST_JOBS ?= $(shell echo $$(( 2 * $(JOBS) )))
SANITIZER_ENV := ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1
test: deps asan-smoke $(RELEASE_DIR)/build.ninja
	ninja -C $(RELEASE_DIR) -j $(JOBS) test-programs
	cd $(RELEASE_DIR) && ctest $(CTEST_FLAGS) -j $(TEST_JOBS)

asan-smoke: deps $(ASAN_DIR)/build.ninja
	ninja -C $(ASAN_DIR) -j $(JOBS) asan-smoke-tests
	cd $(ASAN_DIR) && $(SANITIZER_ENV) ctest $(CTEST_FLAGS) -j $(JOBS) -L asan-smoke

test-asan: deps $(ASAN_DIR)/build.ninja
	ninja -C $(ASAN_DIR) -j $(JOBS) unit-tests
	cd $(ASAN_DIR) && $(SANITIZER_ENV) ctest $(CTEST_FLAGS) -j $(JOBS) -L unit

# `make test` where every dependency is installed: a skip not listed in tests/expected_skips.txt
# fails (tests/README.md).
test-strict:
	FLOE_STRICT_SKIPS=1 $(MAKE) --no-print-directory test

test-unit: build
	cd $(RELEASE_DIR) && ctest $(CTEST_FLAGS) -j $(JOBS) -L unit

# Each fuzz target for FUZZ_SECONDS, starting from the committed corpus (fuzz/README.md).
# `make test` replays that corpus and fuzz/regressions under ASan without libFuzzer.
fuzz: deps $(FUZZ_DIR)/build.ninja
	ninja -C $(FUZZ_DIR) -j $(JOBS) fuzz-targets
	scripts/run-fuzz $(FUZZ_DIR) $(FUZZ_SECONDS)

# The chaos run of issue #13: ten minutes, twenty kill -9s of random roles under storage faults.
# `make test` runs a short version of the same test (chaos_smoke).
CHAOS_SECONDS ?= 600
CHAOS_KILLS ?= 20
chaos: build
	FLOE_BIN=$(CURDIR)/$(FLOE) FLOE_CHAOS_SECONDS=$(CHAOS_SECONDS) FLOE_CHAOS_KILLS=$(CHAOS_KILLS) \
	  node --test --test-reporter=spec tests/interop/chaos/chaos.test.mjs

bench: build
	scripts/run-bench $(RELEASE_DIR)

# Formats the C++ lines changed since .clang-format-since, which make test checks.
format:
	node tests/checks/clang_format.mjs --fix

lint: $(RELEASE_DIR)/build.ninja
	find src -name '*.cc' | xargs clang-tidy-19 -p $(RELEASE_DIR) --quiet

clean:
	rm -rf build
