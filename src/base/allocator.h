// How floe's processes set up glibc malloc for columnar work.
//
// Readers, writers and the engine allocate and free buffers of hundreds of kilobytes to tens of
// megabytes per batch. glibc's defaults hand those back to the kernel on free (mmap'd chunks are
// unmapped; a free top of the heap over 128 KiB is trimmed), so the next batch faults every
// page in again: a Parquet scan spent over a third of its time in page faults. Raising the mmap
// and trim thresholds keeps freed batch memory in the heap for the next batch; memory in use is
// unchanged and at most the trim threshold of free memory stays resident per arena.
#pragma once

namespace floe {

// Call once at process start, before threads (the floe binary's main; benchmarks too, so that
// they measure what floe runs).
void ConfigureAllocatorForBatches();

}  // namespace floe
