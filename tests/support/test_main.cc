// The main() of every googletest binary. It runs the tests as gtest_main does, then, when some
// tests were skipped and none failed, prints one line naming them. ctest's
// SKIP_REGULAR_EXPRESSION (cmake/FloeTargets.cmake) matches that line, so a binary that skipped
// work shows as "Skipped" instead of "Passed". The line is never printed after a failure:
// ctest's skip match overrides the exit code, and a failure must stay a failure.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  int rc = RUN_ALL_TESTS();
  const ::testing::UnitTest& unit = *::testing::UnitTest::GetInstance();
  if (rc != 0 || unit.failed_test_count() > 0 || unit.skipped_test_count() == 0) return rc;
  std::string names;
  for (int s = 0; s < unit.total_test_suite_count(); ++s) {
    const ::testing::TestSuite& suite = *unit.GetTestSuite(s);
    for (int t = 0; t < suite.total_test_count(); ++t) {
      const ::testing::TestInfo& info = *suite.GetTestInfo(t);
      if (!info.result()->Skipped()) continue;
      names += names.empty() ? "" : ", ";
      names += std::string(suite.name()) + "." + info.name();
    }
  }
  std::printf("floe-test: %d of %d tests SKIPPED: %s\n", unit.skipped_test_count(), unit.test_to_run_count(),
              names.c_str());
  return rc;
}
