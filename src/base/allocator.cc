#include "base/allocator.h"

#include <malloc.h>

namespace floe {

void ConfigureAllocatorForBatches() {
  // Chunks below 64 MiB come from the heap and are reused rather than mapped and unmapped.
  mallopt(M_MMAP_THRESHOLD, 64 << 20);
  // Up to 128 MiB of free memory at the top of a heap stays for the next batch.
  mallopt(M_TRIM_THRESHOLD, 128 << 20);
  // Grow the heap in 16 MiB steps rather than page by page.
  mallopt(M_TOP_PAD, 16 << 20);
}

}  // namespace floe
