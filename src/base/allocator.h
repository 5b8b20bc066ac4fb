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
// virtual machines a fault costs microseconds (a quarter of `floe parquet write`'s time). Huge
// pages (2 MiB, one fault each) are given, with the kernel's THP in "madvise" mode, only to
// memory that asks for them. Two ways to ask, by who allocates:
//  - the main thread's heap can be asked for in place: it is grown once, advised, and freed
//    back to the allocator, which keeps it (below the trim threshold) and carves batches from it;
//  - every thread's heap needs glibc's tunable glibc.malloc.hugetlb=1, which glibc reads only
//    when a process starts: so the process re-executes itself once with it set, costing one
//    more start-up (about 20 ms).
#pragma once

namespace floe {

enum class HugePages {
  kMainThread,   // Commands that do their work on the main thread and exit (`floe parquet write`).
  kEveryThread,  // Servers and jobs that allocate on many threads, where a start-up is nothing.
};

// Call first thing in main (or straight after parsing the command line), before threads: the
// floe binary's main, and benchmarks, so that they measure what floe runs. With kEveryThread it
// may replace the process image, with the same pid, arguments and environment, to start it with
// the tunable set; after that the environment is as it was (the children floe starts do not
// inherit the tunable). No huge pages are asked for when the user set the tunable, when the
// kernel's transparent huge pages are off ("never"), or under AddressSanitizer (whose allocator
// ignores the tunable and has no glibc heap).
void ConfigureAllocatorForBatches(char** argv, HugePages scope);

}  // namespace floe
