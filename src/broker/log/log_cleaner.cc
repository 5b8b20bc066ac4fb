#include "broker/log/log_cleaner.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <optional>
#include <unordered_map>

#include "broker/protocol/batch_records.h"
#include "broker/protocol/record_batch.h"

namespace floe::broker {
namespace {

constexpr uint64_t kReadChunk = 1 << 20;
constexpr size_t kWriteChunk = 1 << 20;
// Per key in the offset map beyond its bytes: the node, the hash slot, the offset.
constexpr uint64_t kMapEntryOverhead = 64;
// Batches are never larger than this (max.message.bytes is at most 1 GiB).
constexpr uint64_t kMaxBatchBytes = 1ULL << 30;

// Reads the batches of one segment file in order through a buffer, checking each one's framing,
// CRC and offset order; the first bad one is a Corruption error naming the file and byte.
class BatchFileReader {
 public:
  BatchFileReader(int fd, uint64_t size, std::string path, int64_t first_offset)
      : fd_(fd), size_(size), path_(std::move(path)), next_offset_(first_offset) {}

  struct Batch {
    BatchHeader header;
    std::string_view bytes;  // Valid until the next call.
    uint64_t position = 0;
  };

  // The next batch, or nullopt at the end of the file.
  Result<std::optional<Batch>> Next() {
    if (position_ >= size_) return std::optional<Batch>();
    if (size_ - position_ < kBatchHeaderSize) {
      return Corruption("{}: batch at byte {} is truncated ({} bytes left)", path_, position_, size_ - position_);
    }
    FLOE_RETURN_IF_ERROR(Fill(kBatchHeaderSize));
    auto header = ParseBatchHeader(View(kBatchHeaderSize));
    if (!header) return Corruption("{}: batch at byte {}: {}", path_, position_, header.error().message());
    if (header->size() > kMaxBatchBytes || header->size() > size_ - position_) {
      return Corruption("{}: batch at byte {} declares {} bytes, {} are left", path_, position_, header->size(),
                        size_ - position_);
    }
    FLOE_RETURN_IF_ERROR(Fill(header->size()));
    std::string_view bytes = View(header->size());
    auto valid = ValidateBatch(bytes, BatchSource::kCompactedLog);
    if (!valid) return Corruption("{}: batch at byte {}: {}", path_, position_, valid.error().message());
    if (valid->base_offset < next_offset_) {
      return Corruption("{}: batch at byte {} has offset {}, below the expected {}", path_, position_,
                        valid->base_offset, next_offset_);
    }
    Batch batch{*valid, bytes, position_};
    next_offset_ = valid->last_offset() + 1;
    position_ += valid->size();
    return std::optional<Batch>(batch);
  }

  int64_t next_offset() const { return next_offset_; }

 private:
  // Makes [position_, position_ + n) present in the buffer.
  Status Fill(uint64_t n) {
    if (position_ >= buffer_start_ && position_ + n <= buffer_start_ + buffer_.size()) return OkStatus();
    buffer_start_ = position_;
    buffer_.resize(static_cast<size_t>(std::max(n, std::min(kReadChunk, size_ - position_))));
    size_t done = 0;
    while (done < buffer_.size()) {
      ssize_t r = ::pread(fd_, buffer_.data() + done, buffer_.size() - done, static_cast<off_t>(position_ + done));
      if (r < 0 && errno == EINTR) continue;
      if (r < 0) return ErrnoError(errno, "pread", path_);
      if (r == 0) return Corruption("{}: ends at byte {}, before its {} bytes", path_, position_ + done, size_);
      done += static_cast<size_t>(r);
    }
    return OkStatus();
  }
  std::string_view View(uint64_t n) const {
    return std::string_view(buffer_).substr(static_cast<size_t>(position_ - buffer_start_), static_cast<size_t>(n));
  }

  int fd_;
  uint64_t size_;
  std::string path_;
  int64_t next_offset_;
  uint64_t position_ = 0;
  uint64_t buffer_start_ = 0;
  std::string buffer_;
};

// The transactions aborted in the partition, by producer.
class AbortedIndex {
 public:
  explicit AbortedIndex(const std::vector<CleanAbortedRange>& ranges) {
    for (const CleanAbortedRange& r : ranges) by_producer_[r.producer_id].push_back(r);
  }
  // Whether `header` is a data batch of an aborted transaction.
  bool Covers(const BatchHeader& header) const {
    if (!header.transactional() || header.control()) return false;
    auto it = by_producer_.find(header.producer_id);
    if (it == by_producer_.end()) return false;
    return std::any_of(it->second.begin(), it->second.end(), [&](const CleanAbortedRange& r) {
      return r.first_offset <= header.base_offset && header.base_offset < r.marker_offset;
    });
  }

 private:
  std::unordered_map<int64_t, std::vector<CleanAbortedRange>> by_producer_;
};

// The offset of each key's last record in the dirty range.
struct OffsetMap {
  std::unordered_map<std::string, int64_t> last;
  uint64_t bytes = 0;

  void Put(std::string_view key, int64_t offset) {
    auto [it, inserted] = last.try_emplace(std::string(key), offset);
    if (inserted) {
      bytes += key.size() + kMapEntryOverhead;
    } else {
      it->second = std::max(it->second, offset);
    }
  }
  // Whether a record of `key` at `offset` has a later record.
  bool Superseded(std::string_view key, int64_t offset) const {
    auto it = last.find(std::string(key));
    return it != last.end() && it->second > offset;
  }
};

// A batch's records larger than this once decompressed are not decoded.
constexpr size_t kMaxDecodedBatch = 128 << 20;

// The batch's records, uncompressed (decompressed into `storage` if need be), or nullopt when
// they cannot be read: undecodable compressed bytes, records that do not parse (a producer's
// garbage under a valid CRC) or a batch expanding past kMaxDecodedBatch. Such a batch is
// opaque: copied whole, its keys unknown, so no record is dropped for it.
std::optional<std::string_view> Plain(const BatchFileReader::Batch& batch, std::string* storage) {
  std::string_view plain = batch.bytes;
  if (batch.header.compression() != 0) {
    auto decompressed = DecompressBatch(batch.bytes, kMaxDecodedBatch);
    if (!decompressed) return std::nullopt;
    *storage = std::move(*decompressed);
    plain = *storage;
  }
  if (!ForEachRecord(plain, [](const RecordView&) {})) return std::nullopt;
  return plain;
}

Result<int64_t> ModifiedMillis(const CleanInput& segment) {
  struct stat st;
  if (::fstat(segment.file->fd(), &st) != 0) return ErrnoError(errno, "fstat", segment.path);
  return static_cast<int64_t>(st.st_mtim.tv_sec) * 1000 + st.st_mtim.tv_nsec / 1000000;
}

// Appends to one `.cleaned` file through a buffer; the file is unlinked unless Finish succeeds.
class CleanedFileWriter {
 public:
  static Result<std::unique_ptr<CleanedFileWriter>> Create(std::string path) {
    int fd = ::open(path.c_str(), O_CREAT | O_TRUNC | O_WRONLY | O_CLOEXEC, 0644);
    if (fd < 0) return ErrnoError(errno, "create", path);
    return std::unique_ptr<CleanedFileWriter>(new CleanedFileWriter(std::move(path), fd));
  }
  ~CleanedFileWriter() {
    if (fd_ >= 0) ::close(fd_);
    if (!kept_) ::unlink(path_.c_str());
  }

  uint64_t size() const { return written_ + buffer_.size(); }
  Status Append(std::string_view bytes) {
    buffer_.append(bytes);
    return buffer_.size() >= kWriteChunk ? Flush() : OkStatus();
  }
  // Writes what is buffered, fdatasyncs, stamps the modification time and keeps the file.
  Status Finish(int64_t modified_ms) {
    FLOE_RETURN_IF_ERROR(Flush());
    if (::fdatasync(fd_) != 0) return ErrnoError(errno, "fdatasync", path_);
    struct timespec times[2];
    times[0].tv_sec = 0;
    times[0].tv_nsec = UTIME_OMIT;
    times[1].tv_sec = modified_ms / 1000;
    times[1].tv_nsec = (modified_ms % 1000) * 1000000;
    if (::futimens(fd_, times) != 0) return ErrnoError(errno, "futimens", path_);
    if (::close(fd_) != 0) {
      fd_ = -1;
      return ErrnoError(errno, "close", path_);
    }
    fd_ = -1;
    kept_ = true;
    return OkStatus();
  }
  const std::string& path() const { return path_; }

 private:
  CleanedFileWriter(std::string path, int fd) : path_(std::move(path)), fd_(fd) {}
  Status Flush() {
    std::string_view rest = buffer_;
    while (!rest.empty()) {
      ssize_t n = ::write(fd_, rest.data(), rest.size());
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) return ErrnoError(errno, "write", path_);
      rest.remove_prefix(static_cast<size_t>(n));
    }
    written_ += buffer_.size();
    buffer_.clear();
    return OkStatus();
  }

  std::string path_;
  int fd_;
  bool kept_ = false;
  uint64_t written_ = 0;
  std::string buffer_;
};

// Removes the `.cleaned` files of groups already written when a later step fails.
struct CleanedFilesGuard {
  std::vector<CleanedGroup>* groups;
  bool keep = false;
  ~CleanedFilesGuard() {
    if (keep) return;
    for (const CleanedGroup& g : *groups) ::unlink(g.cleaned_path.c_str());
  }
};

}  // namespace

std::string SwapFileName(int64_t base_offset, int64_t end_offset) {
  return fmt::format("{:020d}.{:020d}.swap", base_offset, end_offset);
}

bool ParseSwapFileName(std::string_view name, int64_t* base_offset, int64_t* end_offset) {
  if (name.size() != 46 || name[20] != '.' || !name.ends_with(".swap")) return false;
  auto digits = [](std::string_view s, int64_t* out) {
    if (!std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; })) return false;
    *out = std::stoll(std::string(s));
    return true;
  };
  return digits(name.substr(0, 20), base_offset) && digits(name.substr(21, 20), end_offset);
}

Result<int64_t> VerifySegmentFile(const std::string& path, int64_t base_offset) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return ErrnoError(errno, "open", path);
  SegmentFile file(fd);
  struct stat st;
  if (::fstat(fd, &st) != 0) return ErrnoError(errno, "fstat", path);
  BatchFileReader reader(fd, static_cast<uint64_t>(st.st_size), path, base_offset);
  for (;;) {
    FLOE_ASSIGN_OR_RETURN(auto batch, reader.Next());
    if (!batch) return reader.next_offset();
  }
}

Result<CleanResult> CleanLog(const CleanJob& job) {
  CleanResult result;
  AbortedIndex aborted(job.aborted);

  // 1. The offset map over the dirty segments, bounded by map_limit_bytes.
  OffsetMap map;
  size_t cleaned_segments = 0;
  for (size_t i = 0; i < job.segments.size(); ++i) {
    const CleanInput& segment = job.segments[i];
    cleaned_segments = i + 1;
    if (segment.end_offset <= job.first_dirty_offset) continue;
    BatchFileReader reader(segment.file->fd(), segment.size, segment.path, segment.base_offset);
    for (;;) {
      FLOE_ASSIGN_OR_RETURN(auto batch, reader.Next());
      if (!batch) break;
      const BatchHeader& h = batch->header;
      if (h.control() || aborted.Covers(h)) continue;
      std::string storage;
      std::optional<std::string_view> plain = Plain(*batch, &storage);
      if (!plain) continue;  // Opaque: its keys stay unknown (copied whole below).
      FLOE_RETURN_IF_ERROR(ForEachRecord(*plain, [&](const RecordView& record) {
        if (record.key) map.Put(*record.key, h.base_offset + record.offset_delta);
      }));
    }
    result.bytes_read += segment.size;
    if (map.bytes >= job.map_limit_bytes) break;
  }
  if (cleaned_segments == 0) return InvalidArgument("{}: nothing to clean", job.dir);
  result.cleaned_up_to = job.segments[cleaned_segments - 1].end_offset;

  // 2. Copy the segments up to the end of the map, group by group.
  CleanedFilesGuard guard{&result.groups};
  size_t i = 0;
  while (i < cleaned_segments) {
    const CleanInput& first = job.segments[i];
    CleanedGroup group;
    group.base_offset = first.base_offset;
    group.cleaned_path = fmt::format("{}/{}", job.dir, SegmentFileName(first.base_offset, ".cleaned"));
    FLOE_ASSIGN_OR_RETURN(auto writer, CleanedFileWriter::Create(group.cleaned_path));
    // The cleaned file's modification time is the clock of its tombstones: that of the newest
    // input a tombstone was kept from (so merging never shortens a tombstone's time, and
    // merging with segments without tombstones never lengthens it), else the newest input's.
    int64_t newest_modified_ms = 0, newest_tombstone_source_ms = 0;
    while (i < cleaned_segments) {
      const CleanInput& segment = job.segments[i];
      const bool fits =
          group.input_bases.empty() || (group.bytes_before + segment.size <= static_cast<uint64_t>(job.segment_bytes) &&
                                        segment.end_offset - group.base_offset <= INT32_MAX);
      if (!fits) break;
      FLOE_ASSIGN_OR_RETURN(int64_t modified_ms, ModifiedMillis(segment));
      newest_modified_ms = std::max(newest_modified_ms, modified_ms);
      const bool tombstones_expired = modified_ms < job.now_ms - job.delete_retention_ms;
      BatchFileReader reader(segment.file->fd(), segment.size, segment.path, segment.base_offset);
      std::vector<std::string_view> kept;
      for (;;) {
        FLOE_ASSIGN_OR_RETURN(auto batch, reader.Next());
        if (!batch) break;
        const BatchHeader& h = batch->header;
        if (aborted.Covers(h)) {
          group.records_removed += static_cast<uint64_t>(h.records_count);
          continue;
        }
        std::string storage;
        std::optional<std::string_view> plain = h.control() ? std::nullopt : Plain(*batch, &storage);
        if (!plain) {
          // Markers, and opaque batches (their tombstones, if any, count for the clock).
          if (!h.control()) {
            ++result.opaque_batches;
            newest_tombstone_source_ms = std::max(newest_tombstone_source_ms, modified_ms);
          }
          FLOE_RETURN_IF_ERROR(writer->Append(batch->bytes));
          continue;
        }
        kept.clear();
        FLOE_RETURN_IF_ERROR(ForEachRecord(*plain, [&](const RecordView& record) {
          const int64_t offset = h.base_offset + record.offset_delta;
          bool keep = record.key && !map.Superseded(*record.key, offset) && !(!record.value && tombstones_expired);
          if (keep) kept.push_back(record.bytes);
          if (keep && !record.value) newest_tombstone_source_ms = std::max(newest_tombstone_source_ms, modified_ms);
        }));
        group.records_removed += static_cast<uint64_t>(h.records_count) - kept.size();
        if (kept.size() == static_cast<size_t>(h.records_count)) {
          FLOE_RETURN_IF_ERROR(writer->Append(batch->bytes));
        } else if (!kept.empty()) {
          std::string rebuilt = RebuildBatch(*plain, kept);
          if (h.compression() != 0) {
            // Written back with the producer's codec.
            FLOE_ASSIGN_OR_RETURN(rebuilt, CompressBatch(rebuilt, h.compression()));
          }
          FLOE_RETURN_IF_ERROR(writer->Append(rebuilt));
        }
      }
      group.input_bases.push_back(segment.base_offset);
      group.input_files.push_back(segment.file);
      group.bytes_before += segment.size;
      group.end_offset = segment.end_offset;
      ++i;
    }
    group.bytes_after = writer->size();
    // A lone segment that lost nothing is left alone; merging small segments is worth a swap.
    if (group.records_removed == 0 && group.input_bases.size() == 1) continue;
    FLOE_RETURN_IF_ERROR(
        writer->Finish(newest_tombstone_source_ms > 0 ? newest_tombstone_source_ms : newest_modified_ms));
    result.groups.push_back(std::move(group));
  }
  guard.keep = true;
  return result;
}

}  // namespace floe::broker
