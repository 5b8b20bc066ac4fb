// Log compaction (cleanup.policy=compact): rewrites the closed segments of one partition so that
// each key keeps only its last record, as Kafka's log cleaner does (docs/kafka.md, "Log
// compaction"). Offsets never change: a kept record stays in its batch at its offset, and the
// offsets of removed records become gaps, which consumers skip.
//
// One pass (CleanLog) takes a CleanJob made by the partition on the I/O thread: the closed
// segments from the log start to the end of the cleanable range, where the dirty part (not
// cleaned since the broker started) begins, and the partition's aborted transactions. It
//   1. reads the dirty segments into an offset map, key -> offset of its last record (records
//      of aborted transactions and control batches do not count),
//   2. copies every segment of the range, in groups of consecutive segments whose sizes add up
//      to at most segment.bytes, into `<first base offset>.cleaned`, keeping
//      - control batches (transaction markers) always,
//      - no batch of an aborted transaction,
//      - a record whose key has no later record in the map, except a tombstone (null value)
//        whose segment was last modified more than delete.retention.ms ago, and no record
//        without a key (Kafka drops those too);
//      compressed batches are decompressed, and rebuilt with their codec when they lose
//      records; a batch whose records cannot be decoded (undecodable compressed bytes,
//      records that do not parse, more than 128 MiB decompressed) is copied whole and its
//      keys stay unknown, so nothing is dropped for it,
//   3. fdatasyncs each `.cleaned` file, gives it the modification time of the newest input it
//      kept a tombstone from (the clock of delete.retention.ms; else the newest input's), and
//      reports the groups that shrank.
// The partition then swaps each group in (PartitionLog::InstallCleaned): rename to
// `<base>.<end>.swap` (the commit point), delete the group's other segments, rename the swap
// over `<base>.log`. Opening a partition deletes `.cleaned` leftovers and finishes swaps.
//
// CleanLog reads only through the job's shared file descriptors and writes only `.cleaned`
// files, so it runs on the cleaner thread (cleaner_thread.h) while the I/O thread appends.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "base/result.h"
#include "broker/log/segment.h"

namespace floe::broker {

// A closed segment to clean: its file and the offsets it may hold, [base_offset, end_offset).
struct CleanInput {
  int64_t base_offset = 0;
  int64_t end_offset = 0;  // The next segment's base offset.
  std::shared_ptr<SegmentFile> file;
  uint64_t size = 0;
  std::string path;
};

// A transaction aborted in the partition: producer `producer_id`'s transactional batches in
// [first_offset, marker_offset) are dropped.
struct CleanAbortedRange {
  int64_t producer_id = -1;
  int64_t first_offset = -1;
  int64_t marker_offset = -1;
};

struct CleanJob {
  std::string dir;
  std::vector<CleanInput> segments;  // From the log start, in offset order, all closed.
  int64_t first_dirty_offset = 0;    // Segments from here on build the offset map.
  std::vector<CleanAbortedRange> aborted;
  int64_t segment_bytes = 1LL << 30;
  int64_t delete_retention_ms = 0;
  int64_t now_ms = 0;
  // Bound on the offset map (Kafka's log.cleaner.dedupe.buffer.size): the dirty range ends
  // after the segment that fills it.
  uint64_t map_limit_bytes = 128ULL << 20;
};

// One group of consecutive segments replaced by one cleaned file.
struct CleanedGroup {
  int64_t base_offset = 0;                                // The first segment's, kept by the cleaned segment.
  int64_t end_offset = 0;                                 // The cleaned file replaces segments in [base, end).
  std::vector<int64_t> input_bases;                       // The segments it replaces...
  std::vector<std::shared_ptr<SegmentFile>> input_files;  // ...and their files, to check they still are.
  std::string cleaned_path;                               // `<dir>/<base>.cleaned`, fdatasynced.
  uint64_t bytes_before = 0;
  uint64_t bytes_after = 0;
  uint64_t records_removed = 0;
};

struct CleanResult {
  std::vector<CleanedGroup> groups;  // Only those that shrank; the others' files are deleted.
  int64_t cleaned_up_to = 0;         // The end of the offset map: the next pass's first dirty offset.
  uint64_t bytes_read = 0;
  uint64_t opaque_batches = 0;  // Copied whole: their records could not be decoded.
};

// One pass over `job`. A segment that does not read back as whole, CRC-valid batches in
// increasing offsets is a Corruption error naming its file and byte; no `.cleaned` file is
// left behind on any error.
Result<CleanResult> CleanLog(const CleanJob& job);

// Checks that the file at `path` holds whole, CRC-valid batches in increasing offsets from
// `base_offset` (a swap found when a partition opens), and returns the last offset + 1.
Result<int64_t> VerifySegmentFile(const std::string& path, int64_t base_offset);

// `<base, 20 digits>.<end, 20 digits>.swap`, and back.
std::string SwapFileName(int64_t base_offset, int64_t end_offset);
bool ParseSwapFileName(std::string_view name, int64_t* base_offset, int64_t* end_offset);

}  // namespace floe::broker
