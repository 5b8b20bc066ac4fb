#include "base/allocator.h"

#include <malloc.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace floe {
namespace {

constexpr char kTunables[] = "GLIBC_TUNABLES";
// Set across the re-execution: "unset" if GLIBC_TUNABLES was not set before, otherwise "was:"
// followed by its old value. Its presence also stops a second re-execution, should glibc ignore
// tunables (as it does for set-user-id programs).
constexpr char kMarker[] = "FLOE_MALLOC_REEXEC";
// The process name (comm) before the re-execution: executing /proc/self/exe would rename the
// process "exe" in ps, top and pkill.
constexpr char kName[] = "FLOE_MALLOC_REEXEC_NAME";

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kGlibcMalloc = false;
#else
constexpr bool kGlibcMalloc = true;
#endif

// Whether the kernel gives transparent huge pages to memory that asks for them ("always" or
// "madvise" in /sys/kernel/mm/transparent_hugepage/enabled, the mode in brackets).
bool TransparentHugePagesOnRequest() {
  char mode[128] = {};
  FILE* f = std::fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
  if (f == nullptr) return false;
  size_t n = std::fread(mode, 1, sizeof(mode) - 1, f);
  std::fclose(f);
  mode[n] = '\0';
  return std::strstr(mode, "[always]") != nullptr || std::strstr(mode, "[madvise]") != nullptr;
}

// Whether GLIBC_TUNABLES already says whether to use huge pages.
bool UserChoseHugePages() {
  const char* tunables = std::getenv(kTunables);
  return tunables != nullptr && std::strstr(tunables, "glibc.malloc.hugetlb") != nullptr;
}

// Puts GLIBC_TUNABLES back as `marker` (kMarker's value) records it, and drops the markers.
void RestoreEnvironment(const std::string& marker) {
  if (marker.starts_with("was:")) {
    ::setenv(kTunables, marker.c_str() + 4, 1);
  } else {
    ::unsetenv(kTunables);
  }
  ::unsetenv(kMarker);
  ::unsetenv(kName);
}

void AskForTransparentHugePages(char** argv) {
  if (const char* marker = std::getenv(kMarker)) {
    // The re-executed process: the tunables have been read; give the environment back.
    if (const char* name = std::getenv(kName)) ::prctl(PR_SET_NAME, name, 0, 0, 0);
    RestoreEnvironment(marker);
    return;
  }
  if (UserChoseHugePages()) return;
  if (!TransparentHugePagesOnRequest()) return;  // Re-executing would only cost a start-up.
  const char* tunables = std::getenv(kTunables);
  std::string marker = tunables == nullptr ? "unset" : std::string("was:") + tunables;
  std::string wanted = tunables == nullptr || *tunables == '\0' ? std::string("glibc.malloc.hugetlb=1")
                                                                : std::string(tunables) + ":glibc.malloc.hugetlb=1";
  char name[17] = {};
  ::prctl(PR_GET_NAME, name, 0, 0, 0);
  ::setenv(kMarker, marker.c_str(), 1);
  ::setenv(kName, name, 1);
  ::setenv(kTunables, wanted.c_str(), 1);
  ::execv("/proc/self/exe", argv);
  // Could not re-execute (no /proc?): run on with 4 KiB pages.
  RestoreEnvironment(marker);
}

// Grows the main heap by kMainHeapReserve, asks for huge pages on it and frees it: glibc keeps
// a free top of the heap under the trim threshold, and later allocations of the main thread are
// carved from it. Nothing is touched here, so nothing is resident until used.
constexpr size_t kMainHeapReserve = 96 << 20;
void AdviseMainHeap() {
  // Two blocks: each stays under the mmap threshold, so both come from the heap, one after the other.
  constexpr size_t kBlock = kMainHeapReserve / 2;
  void* first = std::malloc(kBlock);
  void* second = std::malloc(kBlock);
  constexpr uintptr_t kHugePage = 2 << 20;
  const auto begin = (reinterpret_cast<uintptr_t>(first) + kHugePage - 1) & ~(kHugePage - 1);
  const auto end = (reinterpret_cast<uintptr_t>(second) + kBlock) & ~(kHugePage - 1);
  // Only if the two are adjacent (another allocation could sit between them): advise nothing else.
  if (first != nullptr && second != nullptr && reinterpret_cast<uintptr_t>(second) > reinterpret_cast<uintptr_t>(first) &&
      reinterpret_cast<uintptr_t>(second) - reinterpret_cast<uintptr_t>(first) < kBlock + 4096 && end > begin) {
    ::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
  }
  std::free(second);
  std::free(first);
}

}  // namespace

void ConfigureAllocatorForBatches(char** argv, HugePages scope) {
  if (kGlibcMalloc && scope == HugePages::kEveryThread && argv != nullptr && argv[0] != nullptr) AskForTransparentHugePages(argv);
  // Chunks below 64 MiB come from the heap and are reused rather than mapped and unmapped.
  mallopt(M_MMAP_THRESHOLD, 64 << 20);
  // Up to 128 MiB of free memory at the top of a heap stays for the next batch.
  mallopt(M_TRIM_THRESHOLD, 128 << 20);
  // Grow the heap in 16 MiB steps rather than page by page.
  mallopt(M_TOP_PAD, 16 << 20);
  if (kGlibcMalloc && scope == HugePages::kMainThread && !UserChoseHugePages() && TransparentHugePagesOnRequest()) {
    AdviseMainHeap();
  }
}

}  // namespace floe
