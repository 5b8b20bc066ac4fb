// One segment of a partition log: `<base offset>.log` holding record batches back to back,
// with a sparse offset index (`.index`: relative offset -> file position, one entry per
// index.interval.bytes) and a time index (`.timeindex`: largest timestamp so far -> relative
// offset). See docs/kafka.md, "Storage".
//
// Owned by its PartitionLog; called only from the broker's I/O thread. The file descriptor is
// shared (SegmentFile) with the flusher thread, which may fdatasync it after the segment rolled.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "broker/protocol/record_batch.h"

namespace floe::broker {

// An open file descriptor, closed when the last owner lets go.
class SegmentFile {
 public:
  explicit SegmentFile(int fd) : fd_(fd) {}
  ~SegmentFile();
  SegmentFile(const SegmentFile&) = delete;
  SegmentFile& operator=(const SegmentFile&) = delete;
  int fd() const { return fd_; }

 private:
  int fd_;
};

// A run of whole batches inside a segment file, sent to a consumer without copying (sendfile).
// Holding the file keeps the bytes readable even if retention deletes the segment meanwhile.
struct FileRegion {
  std::shared_ptr<SegmentFile> file;
  uint64_t position = 0;
  uint64_t length = 0;
};

class Segment {
 public:
  // Creates an empty segment starting at `base_offset` in `dir`.
  static Result<std::unique_ptr<Segment>> Create(const std::string& dir, int64_t base_offset, int32_t index_interval);
  // Opens an existing segment. With `recover`, every batch is read and CRC-checked and the file
  // is truncated after the last valid one (the active segment after a crash); otherwise the
  // index files are trusted when they look sane and rebuilt when they do not.
  static Result<std::unique_ptr<Segment>> Open(const std::string& dir, int64_t base_offset, int32_t index_interval,
                                               bool recover);

  int64_t base_offset() const { return base_offset_; }
  int64_t next_offset() const { return next_offset_; }
  uint64_t size() const { return size_; }
  int64_t max_timestamp() const { return max_timestamp_; }
  int64_t created_ms() const { return created_ms_; }
  void set_created_ms(int64_t ms) { created_ms_ = ms; }
  const std::shared_ptr<SegmentFile>& file() const { return file_; }
  // Bytes cut off a torn tail when the segment was opened with `recover`.
  uint64_t truncated_bytes() const { return truncated_bytes_; }

  // Appends one validated batch whose base offset is already stamped.
  Status Append(std::string_view batch, const BatchHeader& header);

  // The file position of the batch containing `offset` (or the first batch after it), or
  // size() when every batch is below it.
  Result<uint64_t> FindPosition(int64_t offset) const;
  // The base offset of the first batch whose max timestamp is >= `timestamp`, if any.
  Result<std::optional<int64_t>> FindOffsetForTimestamp(int64_t timestamp) const;
  // Reads whole batches from `position`: at most `max_bytes`, but at least the first batch.
  Result<std::string> Read(uint64_t position, uint64_t max_bytes) const;
  // As Read, but only locates the batches: the bytes stay in the file. Stops before the first
  // batch whose base offset is `end_offset` or more (read_committed stops at the last stable
  // offset, which is always a batch boundary); empty when the first batch is already there.
  Result<FileRegion> ReadRegion(uint64_t position, uint64_t max_bytes, int64_t end_offset = INT64_MAX) const;
  // Walks batch headers from `position` until the batch containing `offset` (reading chunks).
  Result<uint64_t> ScanTo(uint64_t position, int64_t offset) const;

  // Removes the segment's files.
  Status Remove();
  std::string log_path() const;

  // Invokes `visit(header, file position)` for every batch header (recovery of producer and
  // transaction state).
  Status ForEachBatch(const std::function<Status(const BatchHeader&, uint64_t position)>& visit) const;

 private:
  Segment(std::string dir, int64_t base_offset, int32_t index_interval)
      : dir_(std::move(dir)), base_offset_(base_offset), next_offset_(base_offset), index_interval_(index_interval) {}

  std::string Path(std::string_view extension) const;
  Status Recover(bool truncate_tail);
  Status LoadIndexes();
  Status RewriteIndexes();
  void AddIndexEntries(const BatchHeader& header, uint64_t position, std::string* index_out, std::string* time_out);

  struct OffsetEntry {
    uint32_t relative_offset;
    uint32_t position;
  };
  struct TimeEntry {
    int64_t timestamp;
    uint32_t relative_offset;
  };

  std::string dir_;
  int64_t base_offset_;
  int64_t next_offset_;
  int32_t index_interval_;
  uint64_t size_ = 0;
  uint64_t bytes_since_index_ = 0;
  int64_t max_timestamp_ = -1;
  int64_t created_ms_ = 0;
  uint64_t truncated_bytes_ = 0;
  std::shared_ptr<SegmentFile> file_;
  int index_fd_ = -1;
  int time_fd_ = -1;
  std::vector<OffsetEntry> offset_index_;
  std::vector<TimeEntry> time_index_;
};

// The file name of a segment starting at `base_offset` (20 digits, so names sort by offset).
std::string SegmentFileName(int64_t base_offset, std::string_view extension);

}  // namespace floe::broker
