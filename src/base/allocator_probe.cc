// allocator_probe: configures the allocator as floe's main does, then prints what allocator_test
// checks: the environment the program now sees, and the one it was (re-)executed with.
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>

#include "base/allocator.h"

int main(int, char** argv) {
  floe::ConfigureAllocatorForBatches(argv);
  const char* tunables = std::getenv("GLIBC_TUNABLES");
  const char* marker = std::getenv("FLOE_MALLOC_REEXEC");
  std::ifstream comm("/proc/self/comm");
  std::string name;
  std::getline(comm, name);
  std::ifstream in("/proc/self/environ", std::ios::binary);
  std::string started_with((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::printf("tunables=%s\nmarker=%s\nname=%s\nstarted_with_hugetlb=%d\nargs=%s,%s\n", tunables ? tunables : "(unset)",
              marker ? marker : "(unset)", name.c_str(), started_with.find("glibc.malloc.hugetlb=1") != std::string::npos,
              argv[1] ? argv[1] : "", argv[1] && argv[2] ? argv[2] : "");
  return 0;
}
