# Helpers that give every floe target the same flags, and collect targets for the binary and
# for the test runners.

set(FLOE_WARNINGS -Wall -Wextra -Wno-unused-parameter -Wno-missing-field-initializers)
if(FLOE_SANITIZE)
  # GCC 12 reports false maybe-uninitialized warnings inside libstdc++'s std::regex automaton
  # when sanitizers are on: the code is the standard library's, so the warning is off there.
  list(APPEND FLOE_WARNINGS -Wno-maybe-uninitialized)
endif()
if(FLOE_WERROR)
  list(APPEND FLOE_WARNINGS -Werror)
endif()

# Batches a target's sources (see FLOE_UNITY_BUILD). GCC's -Wsubobject-linkage assumes a file
# that is #included is a header shared between translation units; a batch includes the .cc
# files, whose anonymous-namespace types stay in that one translation unit.
# `floe_enable_unity_build(target [BATCH n])`: the last targets of the build (the pipeline and the
# binary's commands) take smaller batches, so that both cores share the build's tail.
function(floe_enable_unity_build target)
  cmake_parse_arguments(ARG "" "BATCH" "" ${ARGN})
  if(NOT ARG_BATCH)
    set(ARG_BATCH ${FLOE_UNITY_BATCH_SIZE})
  endif()
  if(FLOE_UNITY_BUILD)
    set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE ${ARG_BATCH})
    target_compile_options(${target} PRIVATE -Wno-subobject-linkage)
  endif()
endfunction()

# floe_add_library(NAME SOURCES a.cc ... DEPS floe_base fmt::fmt ...)
# A static library of one area; its headers are included as "area/file.h" from src/.
function(floe_add_library name)
  cmake_parse_arguments(ARG "" "" "SOURCES;DEPS" ${ARGN})
  add_library(${name} STATIC ${ARG_SOURCES})
  target_include_directories(${name} PUBLIC ${PROJECT_SOURCE_DIR}/src)
  target_compile_options(${name} PRIVATE ${FLOE_WARNINGS})
  target_link_libraries(${name} PUBLIC ${ARG_DEPS})
  floe_enable_unity_build(${name})
  set_property(GLOBAL APPEND PROPERTY FLOE_LIBRARIES ${name})
endfunction()

# floe_add_test(NAME SOURCES a_test.cc ... DEPS floe_x ... [LABELS unit|interop|e2e|asan-smoke]
#               [TIMEOUT s] [COST s] [PROCESSORS n])
# A googletest binary run by ctest. Unit tests are collected into the `unit-tests` target (which
# `make test-asan` runs under the sanitizers), tests also labelled asan-smoke into
# `asan-smoke-tests` (what `make test` runs under them), the rest into `integration-tests`.
# COST: about how many seconds a run takes, so that ctest starts the longest tests first (a fresh
# clone has no timings of its own yet). PROCESSORS: the cores the test keeps busy (floe up and a
# browser), so that `ctest -j` never runs more of them at once than the machine has.
function(floe_add_test name)
  cmake_parse_arguments(ARG "" "TIMEOUT;COST;PROCESSORS" "SOURCES;DEPS;LABELS" ${ARGN})
  if(NOT ARG_LABELS)
    set(ARG_LABELS unit)
  endif()
  add_executable(${name} ${ARG_SOURCES})
  target_compile_options(${name} PRIVATE ${FLOE_WARNINGS})
  # A test's own code runs for milliseconds; the code it tests is in the libraries, built with the
  # build type's optimization. -O1 halves the compile time of a test batch against -O3.
  target_compile_options(${name} PRIVATE $<$<CONFIG:Release,RelWithDebInfo>:-O1>)
  target_link_libraries(${name} PRIVATE ${ARG_DEPS} GTest::gtest GTest::gmock floe_test_main)
  # googletest and gmock's headers are the heaviest part of a test file: a binary's files share
  # one parse of them.
  floe_enable_unity_build(${name})
  set_target_properties(${name} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/tests)
  add_test(NAME ${name} COMMAND ${name} --gtest_brief=1)
  set_tests_properties(${name} PROPERTIES SKIP_REGULAR_EXPRESSION "floe-test: [0-9]+ of [0-9]+ tests SKIPPED"
    ENVIRONMENT "FLOE_BIN=${PROJECT_BINARY_DIR}/floe;FLOE_SOURCE_DIR=${PROJECT_SOURCE_DIR}")
  floe_set_test_schedule(${name} LABELS ${ARG_LABELS} TIMEOUT "${ARG_TIMEOUT}" COST "${ARG_COST}"
    PROCESSORS "${ARG_PROCESSORS}")
  if("unit" IN_LIST ARG_LABELS)
    set_property(GLOBAL APPEND PROPERTY FLOE_UNIT_TESTS ${name})
  else()
    set_property(GLOBAL APPEND PROPERTY FLOE_INTEGRATION_TESTS ${name})
  endif()
  if("asan-smoke" IN_LIST ARG_LABELS)
    set_property(GLOBAL APPEND PROPERTY FLOE_ASAN_SMOKE_TESTS ${name})
  endif()
endfunction()

# The labels, timeout (300 s unless given), cost and processors of a test (see floe_add_test).
function(floe_set_test_schedule name)
  cmake_parse_arguments(ARG "" "TIMEOUT;COST;PROCESSORS" "LABELS" ${ARGN})
  if(NOT ARG_TIMEOUT)
    set(ARG_TIMEOUT 300)
  endif()
  set_tests_properties(${name} PROPERTIES LABELS "${ARG_LABELS}" TIMEOUT ${ARG_TIMEOUT})
  if(ARG_COST)
    set_tests_properties(${name} PROPERTIES COST ${ARG_COST})
  endif()
  if(ARG_PROCESSORS)
    set_tests_properties(${name} PROPERTIES PROCESSORS ${ARG_PROCESSORS})
  endif()
endfunction()

# floe_add_node_test(NAME FILE path/to/x.test.mjs [LABELS interop] [TIMEOUT s] [COST s]
#                    [PROCESSORS n])
# A Node.js test (node --test) driving a foreign client from tests/interop/node_modules.
function(floe_add_node_test name)
  cmake_parse_arguments(ARG "" "FILE;TIMEOUT;COST;PROCESSORS" "LABELS" ${ARGN})
  if(NOT ARG_LABELS)
    set(ARG_LABELS interop)
  endif()
  add_test(NAME ${name} COMMAND node --test --test-reporter=spec --test-reporter-destination=stdout
    --test-reporter=${PROJECT_SOURCE_DIR}/tests/support/skip_reporter.mjs --test-reporter-destination=stdout ${ARG_FILE})
  set_tests_properties(${name} PROPERTIES SKIP_REGULAR_EXPRESSION "floe-test: [0-9]+ tests SKIPPED"
    ENVIRONMENT "FLOE_BIN=${PROJECT_BINARY_DIR}/floe;FLOE_BUILD_DIR=${PROJECT_BINARY_DIR};FLOE_SOURCE_DIR=${PROJECT_SOURCE_DIR};NODE_PATH=${PROJECT_SOURCE_DIR}/tests/interop/node_modules")
  floe_set_test_schedule(${name} LABELS ${ARG_LABELS} TIMEOUT "${ARG_TIMEOUT}" COST "${ARG_COST}"
    PROCESSORS "${ARG_PROCESSORS}")
endfunction()
