// An append-only file of CRC-framed records, the broker's small durable stores (committed group
// offsets, the transaction log) are made of: each record is `u32 length | u32 crc32c(body) |
// body`, big-endian. Opening replays every record in order; the first one that is torn, longer
// than the bound, fails its CRC or is refused by the caller's decoder ends the file, which is
// cut there (what a crash mid-append leaves), so later appends never land after garbage.
// The owner decides when the file holds mostly superseded records and rewrites it with only the
// live ones (written beside it, synced, renamed over it, then the directory synced).
//
// The file knows nothing of what a record means: its owner encodes and decodes bodies.
// Not thread-safe: one owner, one thread.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"

namespace floe::broker {

class FramedRecordFile {
 public:
  struct Options {
    uint32_t max_record_bytes = 1 << 20;
    // fdatasync after every append (and after cutting a torn tail) before returning.
    bool sync = false;
  };
  // Receives each valid record body in file order; an error ends the replay at that record.
  using ReplayFn = std::function<Status(std::string_view body)>;

  // Opens (creating) `path`, replays it through `replay` and cuts whatever follows the last
  // record it accepted, logging why.
  static Result<std::unique_ptr<FramedRecordFile>> Open(std::string path, Options options, const ReplayFn& replay);
  ~FramedRecordFile();
  FramedRecordFile(const FramedRecordFile&) = delete;
  FramedRecordFile& operator=(const FramedRecordFile&) = delete;

  // Appends one record. On a failed write the partial record is cut off again.
  Status Append(std::string_view body);
  // Replaces the whole file by `bodies`, atomically: a crash leaves either the old or the new file.
  Status Rewrite(const std::vector<std::string>& bodies);

  // Records in the file (replayed + appended since the last rewrite), superseded ones included.
  uint64_t records() const { return records_; }
  // Bytes cut off the tail when the file was opened.
  uint64_t truncated_bytes() const { return truncated_bytes_; }
  const std::string& path() const { return path_; }

 private:
  FramedRecordFile(std::string path, Options options) : path_(std::move(path)), options_(options) {}
  Status Replay(const ReplayFn& replay);

  std::string path_;
  Options options_;
  int fd_ = -1;
  uint64_t records_ = 0;
  uint64_t truncated_bytes_ = 0;
};

}  // namespace floe::broker
