// allocator_probe SCOPE ARG: configures the allocator as floe's main does (SCOPE: "every-thread"
// or "main-thread"), then prints what allocator_test checks: the environment the program now
// sees, the one it was (re-)executed with, and whether 64 MiB the main thread then allocates
// and touches got huge pages.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>

#include "base/allocator.h"

namespace {

// Kilobytes of the process's anonymous memory in transparent huge pages.
long AnonHugePagesKb() {
  std::ifstream rollup("/proc/self/smaps_rollup");
  std::string line;
  while (std::getline(rollup, line)) {
    if (line.starts_with("AnonHugePages:")) return std::atol(line.c_str() + 14);
  }
  return -1;
}

}  // namespace

int main(int, char** argv) {
  const bool every_thread = argv[1] != nullptr && std::string(argv[1]) == "every-thread";
  floe::ConfigureAllocatorForBatches(argv, every_thread ? floe::HugePages::kEveryThread : floe::HugePages::kMainThread);
  constexpr size_t kBytes = 64 << 20;
  auto* block = static_cast<char*>(std::malloc(kBytes));
  std::memset(block, 1, kBytes);
  const long huge_kb = AnonHugePagesKb();
  const char* tunables = std::getenv("GLIBC_TUNABLES");
  const char* marker = std::getenv("FLOE_MALLOC_REEXEC");
  std::ifstream comm("/proc/self/comm");
  std::string name;
  std::getline(comm, name);
  std::ifstream in("/proc/self/environ", std::ios::binary);
  std::string started_with((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::printf("tunables=%s\nmarker=%s\nname=%s\nstarted_with_hugetlb=%d\nargs=%s,%s\nhuge_pages=%d\n", tunables ? tunables : "(unset)",
              marker ? marker : "(unset)", name.c_str(), started_with.find("glibc.malloc.hugetlb=1") != std::string::npos,
              argv[1] ? argv[1] : "", argv[1] && argv[2] ? argv[2] : "", huge_kb > 0);
  std::free(block);
  return 0;
}
