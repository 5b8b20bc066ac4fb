#include "broker/log/segment.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

#include "base/append_uninitialized.h"
#include "base/bytes.h"
#include "base/clock.h"

namespace floe::broker {
namespace {

constexpr size_t kOffsetEntrySize = 8;
constexpr size_t kTimeEntrySize = 12;
constexpr uint64_t kScanChunk = 64 * 1024;
constexpr uint64_t kRecoverChunk = 4 * 1024 * 1024;

Status PreadAll(int fd, char* out, size_t n, uint64_t position, std::string_view path) {
  size_t done = 0;
  while (done < n) {
    ssize_t r = ::pread(fd, out + done, n - done, static_cast<off_t>(position + done));
    if (r < 0) {
      if (errno == EINTR) continue;
      return ErrnoError(errno, "pread", path);
    }
    if (r == 0) return Corruption("{}: unexpected end of file at byte {}", path, position + done);
    done += static_cast<size_t>(r);
  }
  return OkStatus();
}

Status WriteAll(int fd, std::string_view bytes, std::string_view path) {
  while (!bytes.empty()) {
    ssize_t r = ::write(fd, bytes.data(), bytes.size());
    if (r < 0) {
      if (errno == EINTR) continue;
      return ErrnoError(errno, "write", path);
    }
    bytes.remove_prefix(static_cast<size_t>(r));
  }
  return OkStatus();
}

Status PwriteAll(int fd, std::string_view bytes, uint64_t position, std::string_view path) {
  while (!bytes.empty()) {
    ssize_t r = ::pwrite(fd, bytes.data(), bytes.size(), static_cast<off_t>(position));
    if (r < 0) {
      if (errno == EINTR) continue;
      return ErrnoError(errno, "pwrite", path);
    }
    bytes.remove_prefix(static_cast<size_t>(r));
    position += static_cast<uint64_t>(r);
  }
  return OkStatus();
}

}  // namespace

SegmentFile::~SegmentFile() {
  if (fd_ >= 0) ::close(fd_);
}

std::string SegmentFileName(int64_t base_offset, std::string_view extension) {
  return fmt::format("{:020d}{}", base_offset, extension);
}

std::string Segment::Path(std::string_view extension) const {
  return dir_ + "/" + SegmentFileName(base_offset_, extension);
}

std::string Segment::log_path() const { return Path(".log"); }

Result<std::unique_ptr<Segment>> Segment::Create(const std::string& dir, int64_t base_offset, int32_t index_interval) {
  std::unique_ptr<Segment> segment(new Segment(dir, base_offset, index_interval));
  std::string path = segment->Path(".log");
  int fd = ::open(path.c_str(), O_CREAT | O_RDWR | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return ErrnoError(errno, "create", path);
  segment->file_ = std::make_shared<SegmentFile>(fd);
  segment->created_ms_ = Clock::System().NowMillis();
  FLOE_RETURN_IF_ERROR(segment->RewriteIndexes());
  return segment;
}

Result<std::unique_ptr<Segment>> Segment::Open(const std::string& dir, int64_t base_offset, int32_t index_interval,
                                               bool recover) {
  std::unique_ptr<Segment> segment(new Segment(dir, base_offset, index_interval));
  std::string path = segment->Path(".log");
  int fd = ::open(path.c_str(), O_RDWR | O_CLOEXEC);
  if (fd < 0) return ErrnoError(errno, "open", path);
  segment->file_ = std::make_shared<SegmentFile>(fd);
  struct stat st;
  if (::fstat(fd, &st) != 0) return ErrnoError(errno, "stat", path);
  segment->size_ = static_cast<uint64_t>(st.st_size);
  segment->created_ms_ = static_cast<int64_t>(st.st_mtim.tv_sec) * 1000;
  if (recover) {
    FLOE_RETURN_IF_ERROR(segment->Recover(true));
  } else {
    FLOE_RETURN_IF_ERROR(segment->LoadIndexes());
  }
  return segment;
}

void Segment::AddIndexEntries(const BatchHeader& header, uint64_t position, std::string* index_out,
                              std::string* time_out) {
  max_timestamp_ = std::max(max_timestamp_, header.max_timestamp);
  bytes_since_index_ += header.size();
  if (bytes_since_index_ < static_cast<uint64_t>(index_interval_)) return;
  bytes_since_index_ = 0;
  auto relative = static_cast<uint32_t>(header.base_offset - base_offset_);
  offset_index_.push_back({relative, static_cast<uint32_t>(position)});
  time_index_.push_back({max_timestamp_, relative});
  ByteWriter index(index_out);
  index.AppendBig<uint32_t>(relative);
  index.AppendBig<uint32_t>(static_cast<uint32_t>(position));
  ByteWriter time(time_out);
  time.AppendBig<int64_t>(max_timestamp_);
  time.AppendBig<uint32_t>(relative);
}

Status Segment::Append(std::string_view batch, const BatchHeader& header) {
  // A write that fails part-way (a full disk) is undone, on disk and in memory, so the segment
  // stays exactly its appended batches and the next append, once there is room, continues it.
  struct stat index_stat {}, time_stat {};
  if (::fstat(index_fd_, &index_stat) != 0) return ErrnoError(errno, "fstat", Path(".index"));
  if (::fstat(time_fd_, &time_stat) != 0) return ErrnoError(errno, "fstat", Path(".timeindex"));
  const uint64_t saved_bytes_since_index = bytes_since_index_;
  const int64_t saved_max_timestamp = max_timestamp_;
  const size_t saved_offsets = offset_index_.size(), saved_times = time_index_.size();
  Status written = PwriteAll(file_->fd(), batch, size_, log_path());
  if (written) {
    std::string index_bytes, time_bytes;
    AddIndexEntries(header, size_, &index_bytes, &time_bytes);
    if (!index_bytes.empty()) {
      written = WriteAll(index_fd_, index_bytes, Path(".index"));
      if (written) written = WriteAll(time_fd_, time_bytes, Path(".timeindex"));
    }
  }
  if (!written) {
    // Truncating only frees space, so it works on a full disk; if it fails anyway, recovery
    // on the next start cuts the torn tail.
    (void)::ftruncate(file_->fd(), static_cast<off_t>(size_));
    (void)::ftruncate(index_fd_, index_stat.st_size);
    (void)::ftruncate(time_fd_, time_stat.st_size);
    bytes_since_index_ = saved_bytes_since_index;
    max_timestamp_ = saved_max_timestamp;
    offset_index_.resize(saved_offsets);
    time_index_.resize(saved_times);
    return written;
  }
  size_ += batch.size();
  next_offset_ = header.last_offset() + 1;
  return OkStatus();
}

// Reads every batch, checking framing, order and CRC; the first bad one ends the valid log.
Status Segment::Recover(bool truncate_tail) {
  offset_index_.clear();
  time_index_.clear();
  bytes_since_index_ = 0;
  max_timestamp_ = -1;
  next_offset_ = base_offset_;
  std::string index_bytes, time_bytes;
  std::string chunk;
  uint64_t position = 0;
  std::string path = log_path();
  while (position < size_) {
    uint64_t want = std::min<uint64_t>(kRecoverChunk, size_ - position);
    chunk.resize(want);
    FLOE_RETURN_IF_ERROR(PreadAll(file_->fd(), chunk.data(), want, position, path));
    size_t at = 0;
    bool need_more = false;
    bool bad = false;
    while (at < chunk.size()) {
      std::string_view rest(chunk.data() + at, chunk.size() - at);
      if (rest.size() < kBatchHeaderSize) {
        need_more = position + at + rest.size() < size_;
        bad = !need_more;
        break;
      }
      auto header = ParseBatchHeader(rest);
      if (!header || header->size() > (1ULL << 31)) {
        bad = true;
        break;
      }
      if (header->size() > rest.size()) {
        if (position + at + header->size() > size_) {
          bad = true;
        } else if (at == 0) {
          chunk.resize(header->size());
          FLOE_RETURN_IF_ERROR(PreadAll(file_->fd(), chunk.data(), chunk.size(), position, path));
          continue;
        } else {
          need_more = true;
        }
        break;
      }
      auto valid = ValidateBatch(rest.substr(0, header->size()), BatchSource::kCompactedLog);
      if (!valid || valid->base_offset < next_offset_) {
        bad = true;
        break;
      }
      AddIndexEntries(*valid, position + at, &index_bytes, &time_bytes);
      next_offset_ = valid->last_offset() + 1;
      at += valid->size();
    }
    position += at;
    if (bad) break;
    if (!need_more && at == chunk.size()) continue;
    if (!need_more) break;
  }
  if (position < size_) {
    truncated_bytes_ = size_ - position;
    if (!truncate_tail) return Corruption("{}: invalid batch at byte {}", path, position);
    if (::ftruncate(file_->fd(), static_cast<off_t>(position)) != 0) return ErrnoError(errno, "truncate", path);
    if (::fdatasync(file_->fd()) != 0) return ErrnoError(errno, "fdatasync", path);
    size_ = position;
  }
  return RewriteIndexes();
}

Status Segment::RewriteIndexes() {
  std::string index_bytes, time_bytes;
  ByteWriter index(&index_bytes), time(&time_bytes);
  for (size_t i = 0; i < offset_index_.size(); ++i) {
    index.AppendBig<uint32_t>(offset_index_[i].relative_offset);
    index.AppendBig<uint32_t>(offset_index_[i].position);
    time.AppendBig<int64_t>(time_index_[i].timestamp);
    time.AppendBig<uint32_t>(time_index_[i].relative_offset);
  }
  for (auto [fd, ext, bytes] : {std::tuple{&index_fd_, ".index", &index_bytes}, std::tuple{&time_fd_, ".timeindex", &time_bytes}}) {
    if (*fd >= 0) ::close(*fd);
    std::string path = Path(ext);
    *fd = ::open(path.c_str(), O_CREAT | O_RDWR | O_TRUNC | O_APPEND | O_CLOEXEC, 0644);
    if (*fd < 0) return ErrnoError(errno, "create", path);
    FLOE_RETURN_IF_ERROR(WriteAll(*fd, *bytes, path));
  }
  return OkStatus();
}

// Trusts the index files of a closed segment when they are consistent with the log file, then
// walks the batch headers after the last entry to learn the next offset and max timestamp.
Status Segment::LoadIndexes() {
  std::string index_bytes, time_bytes;
  bool sane = true;
  for (auto [ext, bytes] : {std::pair{".index", &index_bytes}, std::pair{".timeindex", &time_bytes}}) {
    std::string path = Path(ext);
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
      sane = false;
      continue;
    }
    struct stat st;
    if (::fstat(fd, &st) == 0 && st.st_size < (1LL << 30)) {
      bytes->resize(static_cast<size_t>(st.st_size));
      if (!PreadAll(fd, bytes->data(), bytes->size(), 0, path)) sane = false;
    } else {
      sane = false;
    }
    ::close(fd);
  }
  size_t entries = index_bytes.size() / kOffsetEntrySize;
  sane = sane && index_bytes.size() % kOffsetEntrySize == 0 && time_bytes.size() == entries * kTimeEntrySize;
  if (sane) {
    ByteReader index(index_bytes), time(time_bytes);
    for (size_t i = 0; i < entries && sane; ++i) {
      OffsetEntry o{*index.ReadBig<uint32_t>("index"), *index.ReadBig<uint32_t>("index")};
      TimeEntry t{*time.ReadBig<int64_t>("timeindex"), *time.ReadBig<uint32_t>("timeindex")};
      if (o.position >= size_ || o.relative_offset != t.relative_offset ||
          (!offset_index_.empty() && (o.position <= offset_index_.back().position ||
                                      o.relative_offset <= offset_index_.back().relative_offset))) {
        sane = false;
      }
      offset_index_.push_back(o);
      time_index_.push_back(t);
    }
  }
  if (!sane) return Recover(false);
  uint64_t position = offset_index_.empty() ? 0 : offset_index_.back().position;
  max_timestamp_ = time_index_.empty() ? -1 : time_index_.back().timestamp;
  std::string chunk(kBatchHeaderSize, '\0');
  while (position < size_) {
    if (size_ - position < kBatchHeaderSize) return Recover(false);
    FLOE_RETURN_IF_ERROR(PreadAll(file_->fd(), chunk.data(), kBatchHeaderSize, position, log_path()));
    auto header = ParseBatchHeader(chunk);
    if (!header || position + header->size() > size_) return Recover(false);
    max_timestamp_ = std::max(max_timestamp_, header->max_timestamp);
    next_offset_ = header->last_offset() + 1;
    position += header->size();
  }
  for (auto [fd, ext] : {std::pair{&index_fd_, ".index"}, std::pair{&time_fd_, ".timeindex"}}) {
    std::string path = Path(ext);
    *fd = ::open(path.c_str(), O_RDWR | O_APPEND | O_CLOEXEC);
    if (*fd < 0) return ErrnoError(errno, "open", path);
  }
  return OkStatus();
}

Result<uint64_t> Segment::ScanTo(uint64_t position, int64_t offset) const {
  std::string chunk;
  while (position < size_) {
    uint64_t want = std::min<uint64_t>(kScanChunk, size_ - position);
    chunk.resize(want);
    FLOE_RETURN_IF_ERROR(PreadAll(file_->fd(), chunk.data(), want, position, log_path()));
    size_t at = 0;
    // A batch may end past the chunk: `at` then points beyond it, at the next batch's header.
    while (at + kBatchHeaderSize <= chunk.size()) {
      FLOE_ASSIGN_OR_RETURN(BatchHeader header, ParseBatchHeader(std::string_view(chunk).substr(at)));
      if (header.last_offset() >= offset) return position + at;
      at += header.size();
    }
    if (at == 0) return Corruption("{}: batch header at byte {} is truncated", log_path(), position);
    position += at;
  }
  return size_;
}

Result<uint64_t> Segment::FindPosition(int64_t offset) const {
  uint64_t start = 0;
  if (offset > base_offset_) {
    auto relative = static_cast<uint64_t>(offset - base_offset_);
    auto it = std::upper_bound(offset_index_.begin(), offset_index_.end(), relative,
                               [](uint64_t r, const OffsetEntry& e) { return r < e.relative_offset; });
    if (it != offset_index_.begin()) start = std::prev(it)->position;
  }
  return ScanTo(start, offset);
}

Result<std::optional<int64_t>> Segment::FindOffsetForTimestamp(int64_t timestamp) const {
  if (max_timestamp_ < timestamp) return std::optional<int64_t>();
  auto it = std::lower_bound(time_index_.begin(), time_index_.end(), timestamp,
                             [](const TimeEntry& e, int64_t t) { return e.timestamp < t; });
  size_t i = static_cast<size_t>(it - time_index_.begin());
  uint64_t position = i == 0 ? 0 : offset_index_[i - 1].position;
  std::string header_bytes(kBatchHeaderSize, '\0');
  while (position + kBatchHeaderSize <= size_) {
    FLOE_RETURN_IF_ERROR(PreadAll(file_->fd(), header_bytes.data(), kBatchHeaderSize, position, log_path()));
    FLOE_ASSIGN_OR_RETURN(BatchHeader header, ParseBatchHeader(header_bytes));
    if (header.max_timestamp >= timestamp) return std::optional<int64_t>(header.base_offset);
    position += header.size();
  }
  return std::optional<int64_t>();
}

Result<std::string> Segment::Read(uint64_t position, uint64_t max_bytes) const {
  std::string out;
  if (position >= size_) return out;
  uint64_t want = std::min<uint64_t>(std::max<uint64_t>(max_bytes, kBatchHeaderSize), size_ - position);
  // Fetches can be many megabytes: read straight into the string without zero-filling it first.
  Status read = OkStatus();
  AppendUninitialized(&out, want, [&](char* data) -> size_t {
    read = PreadAll(file_->fd(), data, want, position, log_path());
    return read ? want : 0;
  });
  FLOE_RETURN_IF_ERROR(read);
  size_t at = 0;
  while (out.size() - at >= kBatchHeaderSize) {
    FLOE_ASSIGN_OR_RETURN(BatchHeader header, ParseBatchHeader(std::string_view(out).substr(at)));
    if (at + header.size() > out.size()) break;
    at += header.size();
  }
  if (at == 0) {
    // The first batch alone is larger than max_bytes: return it whole so the consumer progresses.
    if (out.size() < kBatchHeaderSize) return Corruption("{}: truncated batch at byte {}", log_path(), position);
    FLOE_ASSIGN_OR_RETURN(BatchHeader header, ParseBatchHeader(out));
    if (position + header.size() > size_) return Corruption("{}: truncated batch at byte {}", log_path(), position);
    out.resize(header.size());
    FLOE_RETURN_IF_ERROR(PreadAll(file_->fd(), out.data(), out.size(), position, log_path()));
    return out;
  }
  out.resize(at);
  return out;
}

Result<FileRegion> Segment::ReadRegion(uint64_t position, uint64_t max_bytes, int64_t end_offset) const {
  FileRegion region{file_, position, 0};
  std::string chunk;
  uint64_t at = position;
  while (at < size_) {
    uint64_t want = std::min<uint64_t>(kScanChunk, size_ - at);
    if (want < kBatchHeaderSize) return Corruption("{}: truncated batch at byte {}", log_path(), at);
    chunk.resize(want);
    FLOE_RETURN_IF_ERROR(PreadAll(file_->fd(), chunk.data(), want, at, log_path()));
    // Walk every header inside the chunk; a batch may extend past it.
    uint64_t inside = 0;
    while (inside + kBatchHeaderSize <= want) {
      FLOE_ASSIGN_OR_RETURN(BatchHeader header, ParseBatchHeader(std::string_view(chunk).substr(inside)));
      if (at + inside + header.size() > size_) return Corruption("{}: truncated batch at byte {}", log_path(), at + inside);
      if (header.base_offset >= end_offset) return region;
      // Whole batches up to max_bytes, but always the first one.
      if (region.length > 0 && region.length + header.size() > max_bytes) return region;
      region.length += header.size();
      inside += header.size();
      if (region.length >= max_bytes) return region;
    }
    at += inside;
  }
  return region;
}

Status Segment::ForEachBatch(const std::function<Status(const BatchHeader&, uint64_t position)>& visit) const {
  std::string header_bytes(kBatchHeaderSize, '\0');
  uint64_t position = 0;
  while (position + kBatchHeaderSize <= size_) {
    FLOE_RETURN_IF_ERROR(PreadAll(file_->fd(), header_bytes.data(), kBatchHeaderSize, position, log_path()));
    FLOE_ASSIGN_OR_RETURN(BatchHeader header, ParseBatchHeader(header_bytes));
    FLOE_RETURN_IF_ERROR(visit(header, position));
    position += header.size();
  }
  return OkStatus();
}

Status Segment::Remove() {
  if (index_fd_ >= 0) ::close(index_fd_);
  if (time_fd_ >= 0) ::close(time_fd_);
  index_fd_ = time_fd_ = -1;
  for (const char* ext : {".log", ".index", ".timeindex"}) {
    std::string path = Path(ext);
    if (::unlink(path.c_str()) != 0 && errno != ENOENT) return ErrnoError(errno, "unlink", path);
  }
  return OkStatus();
}

}  // namespace floe::broker
