#include "base/allocator.h"

#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "support/run_process.h"

namespace floe {
namespace {

// Runs the probe (which calls ConfigureAllocatorForBatches first thing, for `scope`) with
// GLIBC_TUNABLES set to `tunables`, or unset when null.
std::string Probe(const char* tunables, const char* scope = "every-thread") {
  std::vector<std::string> argv = {"/usr/bin/env"};
  if (tunables == nullptr) {
    argv.push_back("-u");
    argv.push_back("GLIBC_TUNABLES");
  } else {
    argv.push_back(std::string("GLIBC_TUNABLES=") + tunables);
  }
  argv.insert(argv.end(), {FLOE_ALLOCATOR_PROBE, scope, "second arg"});
  auto run = testing::RunProcess(argv);
  EXPECT_EQ(run.exit_code, 0) << run.err;
  return run.out;
}

class AllocatorTest : public ::testing::Test {
 protected:
  void SetUp() override {
#if defined(__SANITIZE_ADDRESS__)
    GTEST_SKIP() << "AddressSanitizer's allocator has no glibc tunables: nothing is re-executed";
#endif
    std::ifstream enabled("/sys/kernel/mm/transparent_hugepage/enabled");
    std::string mode;
    std::getline(enabled, mode);
    if (mode.find("[always]") == std::string::npos && mode.find("[madvise]") == std::string::npos) {
      GTEST_SKIP() << "transparent huge pages are off here (" << mode << "): nothing is re-executed";
    }
  }
};

TEST_F(AllocatorTest, ReExecutesWithHugePagesAndGivesTheEnvironmentBack) {
  EXPECT_EQ(Probe(nullptr), "tunables=(unset)\nmarker=(unset)\nname=allocator_probe\nstarted_with_hugetlb=1\nargs=every-thread,second arg\nhuge_pages=1\n");
}

TEST_F(AllocatorTest, KeepsTheUsersOtherTunables) {
  EXPECT_EQ(Probe("glibc.malloc.check=0"),
            "tunables=glibc.malloc.check=0\nmarker=(unset)\nname=allocator_probe\nstarted_with_hugetlb=1\nargs=every-thread,second arg\nhuge_pages=1\n");
}

TEST_F(AllocatorTest, LeavesAUsersOwnHugePageChoiceAlone) {
  EXPECT_EQ(Probe("glibc.malloc.hugetlb=0"),
            "tunables=glibc.malloc.hugetlb=0\nmarker=(unset)\nname=allocator_probe\nstarted_with_hugetlb=0\nargs=every-thread,second arg\nhuge_pages=0\n");
  EXPECT_EQ(Probe("glibc.malloc.hugetlb=0", "main-thread"),
            "tunables=glibc.malloc.hugetlb=0\nmarker=(unset)\nname=allocator_probe\nstarted_with_hugetlb=0\nargs=main-thread,second arg\nhuge_pages=0\n");
}

// The main thread's heap gets huge pages without a second start-up.
TEST_F(AllocatorTest, AdvisesTheMainHeapInPlace) {
  EXPECT_EQ(Probe(nullptr, "main-thread"),
            "tunables=(unset)\nmarker=(unset)\nname=allocator_probe\nstarted_with_hugetlb=0\nargs=main-thread,second arg\nhuge_pages=1\n");
}

}  // namespace
}  // namespace floe
