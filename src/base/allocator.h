// How floe's processes set up glibc malloc for columnar work.
//
// Readers, writers and the engine allocate and free buffers of hundreds of kilobytes to tens of
// megabytes per batch. glibc's defaults hand those back to the kernel on free (mmap'd chunks are
// unmapped; a free top of the heap over 128 KiB is trimmed), so the next batch faults every
// page in again: a Parquet scan spent over a third of its time in page faults. Raising the mmap
// and trim thresholds keeps freed batch memory in the heap for the next batch; memory in use is
// unchanged and at most the trim threshold of free memory stays resident per arena.
//
// Memory touched for the first time still faults, one 4 KiB page at a time: a writer that
// buffers a 30 MB row group, or a decoder whose batch grows, took one fault per page, and on
// virtual machines a fault costs microseconds (a quarter of `floe parquet write`'s time). glibc
// asks for transparent huge pages (2 MiB, one fault each) on its heaps only when the tunable
// glibc.malloc.hugetlb=1 is set, and tunables are read only when a process starts: so the
// process re-executes itself once with it set (see ConfigureAllocatorForBatches).
#pragma once

namespace floe {

// Call first thing in main, before threads (the floe binary's main; benchmarks too, so that they
// measure what floe runs). May replace the process image, with the same pid, arguments and
// environment, to start it with the tunable set; after that the environment is as it was (the
// children floe starts do not inherit the tunable). Nothing is re-executed when the tunable is
// already set by the user, when the kernel's transparent huge pages are off ("never"), or
// under AddressSanitizer (whose allocator ignores the tunable).
void ConfigureAllocatorForBatches(char** argv);

}  // namespace floe
