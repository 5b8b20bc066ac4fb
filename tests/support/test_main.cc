// The main() of every googletest binary. It runs the tests as gtest_main does, then, when some
// tests were skipped and none failed, prints one line naming them. ctest's
// SKIP_REGULAR_EXPRESSION (cmake/FloeTargets.cmake) matches that line, so a binary that skipped
// work shows as "Skipped" instead of "Passed". The line is never printed after a failure:
// ctest's skip match overrides the exit code, and a failure must stay a failure.
//
// With FLOE_STRICT_SKIPS=1 (`make test-strict`, for CI machines set up with every dependency) a
// skip that tests/expected_skips.txt does not list is a failure instead: a missing dependency
// must not quietly turn a suite into a pass.
//
// A test that hangs prints every thread's stack before ctest's timeout kills it (hang_watchdog.h).
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <set>
#include <string>

#include "support/hang_watchdog.h"

namespace {

// The names of tests/expected_skips.txt: each line up to its '#', trimmed (node test titles
// have spaces).
std::set<std::string> ExpectedSkips() {
  std::set<std::string> names;
  std::ifstream in(FLOE_EXPECTED_SKIPS_FILE);
  for (std::string line; std::getline(in, line);) {
    line = line.substr(0, line.find('#'));
    size_t start = line.find_first_not_of(" \t");
    if (start == std::string::npos) continue;
    names.insert(line.substr(start, line.find_last_not_of(" \t") + 1 - start));
  }
  return names;
}

bool StrictSkips() {
  const char* strict = std::getenv("FLOE_STRICT_SKIPS");
  return strict != nullptr && std::string(strict) == "1";
}

}  // namespace

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  floe::testing::InstallHangWatchdog();
  int rc = RUN_ALL_TESTS();
  const ::testing::UnitTest& unit = *::testing::UnitTest::GetInstance();
  if (rc != 0 || unit.failed_test_count() > 0 || unit.skipped_test_count() == 0) return rc;
  const bool strict = StrictSkips();
  const std::set<std::string> expected = strict ? ExpectedSkips() : std::set<std::string>{};
  std::string names;
  std::string unexpected;
  for (int s = 0; s < unit.total_test_suite_count(); ++s) {
    const ::testing::TestSuite& suite = *unit.GetTestSuite(s);
    for (int t = 0; t < suite.total_test_count(); ++t) {
      const ::testing::TestInfo& info = *suite.GetTestInfo(t);
      if (!info.result()->Skipped()) continue;
      std::string name = std::string(suite.name()) + "." + info.name();
      if (strict && !expected.contains(name)) unexpected += (unexpected.empty() ? "" : ", ") + name;
      names += (names.empty() ? "" : ", ") + name;
    }
  }
  if (!unexpected.empty()) {
    std::printf("floe-test: FAILED: skipped, and not listed in tests/expected_skips.txt: %s\n", unexpected.c_str());
    return 1;
  }
  std::printf("floe-test: %d of %d tests SKIPPED: %s\n", unit.skipped_test_count(), unit.test_to_run_count(),
              names.c_str());
  return rc;
}
