#include "broker/log/partition_log.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <filesystem>

#include "base/logging.h"
#include "base/sync_directory.h"
#include "broker/protocol/batch_records.h"

namespace floe::broker {
namespace {

// A small file holding one decimal offset: nullopt when absent, kCorruption when it is not one.
Result<std::optional<int64_t>> ReadOffsetFile(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return errno == ENOENT ? Result<std::optional<int64_t>>(std::nullopt) : ErrnoError(errno, "open", path);
  char text[32] = {};
  ssize_t n = ::read(fd, text, sizeof(text) - 1);
  ::close(fd);
  int64_t value = -1;
  auto [end, ec] = std::from_chars(text, text + std::max<ssize_t>(n, 0), value);
  if (n <= 0 || ec != std::errc() || (end != text + n && *end != '\n') || value < 0) {
    return Corruption("{}: not an offset", path);
  }
  return value;
}

// Replaces `path` with `offset` atomically and durably (temp file, fsync, rename, directory fsync).
Status WriteOffsetFile(const std::string& dir, const std::string& path, int64_t offset) {
  std::string tmp = path + ".tmp";
  int fd = ::open(tmp.c_str(), O_CREAT | O_TRUNC | O_WRONLY | O_CLOEXEC, 0644);
  if (fd < 0) return ErrnoError(errno, "create", tmp);
  std::string text = fmt::format("{}\n", offset);
  bool written = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size()) && ::fsync(fd) == 0;
  int err = errno;
  ::close(fd);
  if (!written) return ErrnoError(err, "write", tmp);
  if (::rename(tmp.c_str(), path.c_str()) != 0) return ErrnoError(errno, "rename", tmp);
  return SyncDirectory(dir);
}

}  // namespace

Result<std::shared_ptr<PartitionLog>> PartitionLog::Open(std::string dir, LogConfig config, Clock& clock,
                                                         Flusher* flusher) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return IoError("create {}: {}", dir, ec.message());
  std::shared_ptr<PartitionLog> log(new PartitionLog(dir, config, clock, flusher));
  FLOE_RETURN_IF_ERROR(RecoverCleaning(dir));
  std::vector<int64_t> bases;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    std::string name = entry.path().filename().string();
    if (name.size() != 24 || !name.ends_with(".log")) continue;
    int64_t base = 0;
    bool digits = std::all_of(name.begin(), name.begin() + 20, [](char c) { return c >= '0' && c <= '9'; });
    if (!digits) continue;
    base = std::stoll(name.substr(0, 20));
    bases.push_back(base);
  }
  if (ec) return IoError("list {}: {}", dir, ec.message());
  std::sort(bases.begin(), bases.end());
  for (size_t i = 0; i < bases.size(); ++i) {
    bool last = i + 1 == bases.size();
    FLOE_ASSIGN_OR_RETURN(auto segment, Segment::Open(dir, bases[i], config.index_interval_bytes, last));
    if (segment->truncated_bytes() > 0) {
      Logger("broker")->warn("{}: truncated a torn tail of {} bytes at offset {}", segment->log_path(),
                             segment->truncated_bytes(), segment->next_offset());
    }
    log->segments_.emplace(bases[i], std::move(segment));
  }
  if (log->segments_.empty()) {
    FLOE_ASSIGN_OR_RETURN(auto segment, Segment::Create(dir, 0, config.index_interval_bytes));
    log->segments_.emplace(0, std::move(segment));
    FLOE_RETURN_IF_ERROR(SyncDirectory(dir));
  }
  // Idempotent producers resume from what the active segment remembers; open and aborted
  // transactions from every segment (a transaction may span a roll), which is walked only once
  // the partition has held a transactional batch: a plain partition's start reads no more.
  log->transactional_ = std::filesystem::exists(log->TransactionalFlagPath(), ec);
  for (const auto& [base, segment] : log->segments_) {
    const bool active = segment.get() == &log->active();
    if (!active && !log->transactional_) continue;
    Segment* seg = segment.get();
    FLOE_RETURN_IF_ERROR(seg->ForEachBatch([&](const BatchHeader& header, uint64_t position) -> Status {
      if (active) log->producers_.Record(header, header.base_offset);
      if (!header.transactional()) return OkStatus();
      std::optional<ControlType> type;
      if (header.control()) {
        FLOE_ASSIGN_OR_RETURN(std::string bytes, seg->Read(position, header.size()));
        auto parsed = ParseControlType(bytes);
        if (!parsed) {
          Logger("broker")->warn("{}: control batch at offset {} unreadable ({}); taken as a commit",
                                 seg->log_path(), header.base_offset, parsed.error().ToString());
          type = ControlType::kCommit;
        } else {
          type = *parsed;
        }
      }
      log->TrackTransaction(header, header.base_offset, type);
      return OkStatus();
    }));
  }
  log->durable_offset_ = log->high_watermark();
  FLOE_RETURN_IF_ERROR(log->LoadLogStartOffset());
  log->first_dirty_offset_ = log->log_start_offset();
  log->LoadCleanerCheckpoint();
  return log;
}

Status PartitionLog::RecoverCleaning(const std::string& dir) {
  std::error_code ec;
  std::vector<std::pair<int64_t, int64_t>> swaps;
  std::vector<std::pair<int64_t, std::string>> segment_files;  // .log, .index, .timeindex by base offset.
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    std::string name = entry.path().filename().string();
    int64_t base = 0, end = 0;
    if (name.ends_with(".cleaned")) {
      // A pass that had not committed: the segments it read are all still there.
      Logger("broker")->warn("{}/{}: removing an unfinished log compaction file", dir, name);
      if (::unlink(entry.path().c_str()) != 0) return ErrnoError(errno, "unlink", entry.path().string());
    } else if (ParseSwapFileName(name, &base, &end)) {
      swaps.emplace_back(base, end);
    } else if (name.size() > 20 && name[20] == '.' &&
               std::all_of(name.begin(), name.begin() + 20, [](char c) { return c >= '0' && c <= '9'; })) {
      std::string_view ext = std::string_view(name).substr(20);
      if (ext == ".log" || ext == ".index" || ext == ".timeindex")
        segment_files.emplace_back(std::stoll(name.substr(0, 20)), name);
    }
  }
  if (ec) return IoError("list {}: {}", dir, ec.message());
  std::sort(swaps.begin(), swaps.end());
  for (const auto& [base, end] : swaps) {
    // Committed: finish replacing segments [base, end) with it, as InstallCleaned would have.
    std::string swap = fmt::format("{}/{}", dir, SwapFileName(base, end));
    auto verified = VerifySegmentFile(swap, base);
    if (!verified || *verified > end) {
      return Corruption(
          "{}: a log compaction swap that does not read back ({}); move it away to open the "
          "partition with the segments it was to replace",
          swap, verified ? fmt::format("offsets up to {}", *verified) : verified.error().message());
    }
    // Every file of the replaced segments goes (the indexes of the first too: they describe
    // the old bytes), but the first's log, which the rename replaces atomically.
    for (const auto& [b, name] : segment_files) {
      if (b < base || b >= end || (b == base && name.ends_with(".log"))) continue;
      std::string path = fmt::format("{}/{}", dir, name);
      if (::unlink(path.c_str()) != 0 && errno != ENOENT) return ErrnoError(errno, "unlink", path);
    }
    std::string log_path = fmt::format("{}/{}", dir, SegmentFileName(base, ".log"));
    if (::rename(swap.c_str(), log_path.c_str()) != 0) return ErrnoError(errno, "rename", swap);
    FLOE_RETURN_IF_ERROR(SyncDirectory(dir));
    Logger("broker")->warn("{}: finished a log compaction swap of offsets {}..{}", dir, base, end);
  }
  return OkStatus();
}

PartitionLog::CleanableRange PartitionLog::Cleanable(int64_t now_ms) const {
  CleanableRange range;
  if (!config_.compact) return range;
  const int64_t lso = last_stable_offset();
  const int64_t first_dirty = std::max(first_dirty_offset_, log_start_offset());
  for (auto it = segments_.begin(); it != segments_.end(); ++it) {
    auto next = std::next(it);
    if (next == segments_.end()) break;  // The active segment is never cleaned.
    const Segment& segment = *it->second;
    const int64_t end = next->first;
    // Offsets of an open transaction: whether they commit or abort is not known yet.
    if (end > lso) break;
    if (config_.min_compaction_lag_ms > 0 && segment.max_timestamp() > now_ms - config_.min_compaction_lag_ms) break;
    range.segments.push_back({it->first, end, segment.file(), segment.size(), segment.log_path()});
    (end <= first_dirty ? range.clean_bytes : range.dirty_bytes) += segment.size();
  }
  return range;
}

double PartitionLog::DirtyRatio(int64_t now_ms) const {
  CleanableRange range = Cleanable(now_ms);
  uint64_t total = range.clean_bytes + range.dirty_bytes;
  return total == 0 ? 0.0 : static_cast<double>(range.dirty_bytes) / static_cast<double>(total);
}

std::optional<CleanJob> PartitionLog::PlanClean(int64_t now_ms, uint64_t map_limit_bytes) const {
  CleanableRange range = Cleanable(now_ms);
  if (range.dirty_bytes == 0) return std::nullopt;
  double ratio = static_cast<double>(range.dirty_bytes) / static_cast<double>(range.clean_bytes + range.dirty_bytes);
  if (ratio <= config_.min_cleanable_dirty_ratio) return std::nullopt;
  CleanJob job;
  job.dir = dir_;
  job.segments = std::move(range.segments);
  job.first_dirty_offset = std::max(first_dirty_offset_, log_start_offset());
  for (const AbortedTransaction& a : aborted_) job.aborted.push_back({a.producer_id, a.first_offset, a.last_offset});
  job.segment_bytes = config_.segment_bytes;
  job.delete_retention_ms = config_.delete_retention_ms;
  job.now_ms = now_ms;
  job.map_limit_bytes = map_limit_bytes;
  return job;
}

Result<PartitionLog::InstallStats> PartitionLog::InstallCleaned(
    const CleanResult& result, const std::function<void(std::string_view step)>& checkpoint) {
  InstallStats stats;
  for (const CleanedGroup& group : result.groups) {
    // The group's segments must be exactly those cleaned, and closed.
    bool same = !group.input_bases.empty() && group.input_bases.size() == group.input_files.size();
    size_t in_range = 0;
    for (auto it = segments_.lower_bound(group.base_offset);
         same && it != segments_.end() && it->first < group.end_offset; ++it) {
      same = in_range < group.input_bases.size() && it->first == group.input_bases[in_range] &&
             it->second->file() == group.input_files[in_range] && it->second.get() != &active();
      ++in_range;
    }
    if (!same || in_range != group.input_bases.size()) {
      Logger("broker")->info("{}: segments at {}..{} changed while being cleaned; the cleaned copy is dropped", dir_,
                             group.base_offset, group.end_offset);
      ::unlink(group.cleaned_path.c_str());
      continue;
    }
    std::string swap = fmt::format("{}/{}", dir_, SwapFileName(group.base_offset, group.end_offset));
    if (::rename(group.cleaned_path.c_str(), swap.c_str()) != 0) return ErrnoError(errno, "rename", group.cleaned_path);
    FLOE_RETURN_IF_ERROR(SyncDirectory(dir_));
    if (checkpoint) checkpoint("swap");
    // From here a crash is finished by RecoverCleaning on the next open.
    for (size_t i = 0; i < group.input_bases.size(); ++i) {
      auto it = segments_.find(group.input_bases[i]);
      FLOE_RETURN_IF_ERROR(it->second->Remove());
      segments_.erase(it);
      if (i == 0 && checkpoint) checkpoint("swapping");
    }
    std::string log_path = fmt::format("{}/{}", dir_, SegmentFileName(group.base_offset, ".log"));
    if (::rename(swap.c_str(), log_path.c_str()) != 0) return ErrnoError(errno, "rename", swap);
    FLOE_RETURN_IF_ERROR(SyncDirectory(dir_));
    FLOE_ASSIGN_OR_RETURN(auto cleaned, Segment::Open(dir_, group.base_offset, config_.index_interval_bytes, false));
    segments_.emplace(group.base_offset, std::move(cleaned));
    ++stats.groups;
    stats.bytes_removed += group.bytes_before - group.bytes_after;
    stats.records_removed += group.records_removed;
  }
  first_dirty_offset_ = std::max(first_dirty_offset_, result.cleaned_up_to);
  SaveCleanerCheckpoint();
  return stats;
}

std::string PartitionLog::CleanerCheckpointPath() const { return dir_ + "/cleaner-offset-checkpoint"; }

void PartitionLog::LoadCleanerCheckpoint() {
  Result<std::optional<int64_t>> value = ReadOffsetFile(CleanerCheckpointPath());
  if (!value) {
    Logger("broker")->warn("{}; the whole log counts as dirty", value.error().message());
  } else if (*value) {
    // Retention or DeleteRecords may have moved the log start past it.
    first_dirty_offset_ = std::clamp(**value, log_start_offset(), high_watermark());
  }
}

void PartitionLog::SaveCleanerCheckpoint() {
  // A lost checkpoint costs one pass over the whole log after a restart, nothing more.
  if (Status saved = WriteOffsetFile(dir_, CleanerCheckpointPath(), first_dirty_offset_); !saved) {
    Logger("broker")->warn("cleaner checkpoint not saved: {}", saved.error().message());
  }
}

uint64_t PartitionLog::size_bytes() const {
  uint64_t total = 0;
  for (const auto& [base, segment] : segments_) total += segment->size();
  return total;
}

Status PartitionLog::Roll() {
  Segment& old = active();
  if (flusher_) flusher_->Request(old.file(), nullptr);
  int64_t base = old.next_offset();
  FLOE_ASSIGN_OR_RETURN(auto segment, Segment::Create(dir_, base, config_.index_interval_bytes));
  segment->set_created_ms(clock_.NowMillis());
  segments_.emplace(base, std::move(segment));
  return SyncDirectory(dir_);
}

std::string PartitionLog::TransactionalFlagPath() const { return dir_ + "/transactional"; }

Status PartitionLog::MarkTransactional() {
  std::string path = TransactionalFlagPath();
  int fd = ::open(path.c_str(), O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
  if (fd < 0) return ErrnoError(errno, "create", path);
  int rc = ::fsync(fd);
  int err = errno;
  ::close(fd);
  if (rc != 0) return ErrnoError(err, "fsync", path);
  FLOE_RETURN_IF_ERROR(SyncDirectory(dir_));
  transactional_ = true;
  return OkStatus();
}

Result<PartitionLog::AppendResult> PartitionLog::Append(char* records, const std::vector<BatchView>& batches) {
  AppendResult result;
  if (!transactional_) {
    for (const BatchView& b : batches) {
      if (b.header.transactional()) {
        FLOE_RETURN_IF_ERROR(MarkTransactional());
        break;
      }
    }
  }
  for (size_t i = 0; i < batches.size(); ++i) {
    const BatchHeader& header = batches[i].header;
    ProducerState::Verdict verdict = producers_.Check(header);
    if (verdict.duplicate_of) {
      if (i == 0) result.base_offset = *verdict.duplicate_of;
      continue;
    }
    if (verdict.error != ErrorCode::kNone) {
      result.error = verdict.error;
      return result;
    }
    if (active().size() > 0 && active().size() + header.size() > static_cast<uint64_t>(config_.segment_bytes)) {
      FLOE_RETURN_IF_ERROR(Roll());
    }
    int64_t offset = high_watermark();
    char* batch = records + batches[i].position;
    StampBaseOffset(batch, offset);
    BatchHeader stamped = header;
    stamped.base_offset = offset;
    FLOE_RETURN_IF_ERROR(active().Append(std::string_view(batch, header.size()), stamped));
    producers_.Record(stamped, offset);
    std::optional<ControlType> control_type;
    if (header.control()) {
      auto parsed = ParseControlType(std::string_view(batch, header.size()));
      control_type = parsed ? *parsed : ControlType::kCommit;
    }
    TrackTransaction(stamped, offset, control_type);
    if (result.base_offset < 0) result.base_offset = offset;
  }
  if (!append_waiters_.empty()) {
    auto waiters = std::move(append_waiters_);
    append_waiters_.clear();
    for (auto& [id, wake] : waiters) wake();
  }
  return result;
}

void PartitionLog::TrackTransaction(const BatchHeader& header, int64_t offset, std::optional<ControlType> control_type) {
  if (!header.transactional() || header.producer_id < 0) return;
  if (!control_type) {
    open_transactions_.try_emplace(header.producer_id, offset);
    return;
  }
  auto open = open_transactions_.find(header.producer_id);
  // A marker with nothing open here (a retried completion) changes nothing.
  if (open == open_transactions_.end()) return;
  if (*control_type == ControlType::kAbort) aborted_.push_back({header.producer_id, open->second, offset});
  open_transactions_.erase(open);
}

Result<int64_t> PartitionLog::AppendMarker(const ControlMarker& marker) {
  std::string batch = BuildControlBatch(marker);
  FLOE_ASSIGN_OR_RETURN(BatchHeader header, ValidateBatch(batch));
  FLOE_ASSIGN_OR_RETURN(AppendResult appended, Append(batch.data(), {BatchView{header, 0}}));
  if (appended.error != ErrorCode::kNone) {
    return Internal("{}: marker for producer {} refused with error {}", dir_, marker.producer_id,
                    static_cast<int>(appended.error));
  }
  return appended.base_offset;
}

int64_t PartitionLog::last_stable_offset() const {
  int64_t lso = high_watermark();
  for (const auto& [producer, first] : open_transactions_) lso = std::min(lso, first);
  return lso;
}

std::vector<AbortedTransaction> PartitionLog::AbortedTransactions(int64_t from, int64_t to) const {
  std::vector<AbortedTransaction> out;
  auto it = std::lower_bound(aborted_.begin(), aborted_.end(), from,
                             [](const AbortedTransaction& a, int64_t offset) { return a.last_offset < offset; });
  for (; it != aborted_.end(); ++it) {
    if (it->first_offset < to) out.push_back(*it);
  }
  return out;
}

Result<std::string> PartitionLog::Read(int64_t offset, uint64_t max_bytes) const {
  if (offset >= high_watermark() || offset < log_start_offset()) return std::string();
  auto it = segments_.upper_bound(offset);
  --it;
  for (; it != segments_.end(); ++it) {
    FLOE_ASSIGN_OR_RETURN(uint64_t position, it->second->FindPosition(offset));
    if (position < it->second->size()) return it->second->Read(position, max_bytes);
  }
  return std::string();
}

Result<FileRegion> PartitionLog::ReadRegion(int64_t offset, uint64_t max_bytes, int64_t end_offset) const {
  if (offset >= std::min(high_watermark(), end_offset) || offset < log_start_offset()) return FileRegion{};
  auto it = segments_.upper_bound(offset);
  --it;
  for (; it != segments_.end(); ++it) {
    FLOE_ASSIGN_OR_RETURN(uint64_t position, it->second->FindPosition(offset));
    if (position < it->second->size()) return it->second->ReadRegion(position, max_bytes, end_offset);
  }
  return FileRegion{};
}

Result<std::optional<PartitionLog::TimestampedOffset>> PartitionLog::OffsetForTimestamp(int64_t timestamp) const {
  const int64_t start = log_start_offset();
  // From the segment holding the log start on.
  auto it = segments_.upper_bound(start);
  if (it != segments_.begin()) --it;
  {
    for (; it != segments_.end(); ++it) {
      const Segment& segment = *it->second;
      FLOE_ASSIGN_OR_RETURN(auto base, segment.FindOffsetForTimestamp(timestamp));
      if (!base) continue;
      // Walk that batch (and, if all its records are older or below the log start, the next)
      // for the first record at or after `timestamp`.
      FLOE_ASSIGN_OR_RETURN(uint64_t position, segment.FindPosition(*base));
      while (position < segment.size()) {
        FLOE_ASSIGN_OR_RETURN(std::string batch, segment.Read(position, kBatchHeaderSize));
        FLOE_ASSIGN_OR_RETURN(BatchHeader header, ParseBatchHeader(batch));
        position += header.size();
        if (header.last_offset() < start || header.max_timestamp < timestamp || header.control()) continue;
        const bool log_append_time = (header.attributes & 0x8) != 0;
        if (header.compression() != 0 || log_append_time) {
          return std::optional<TimestampedOffset>({std::max(header.base_offset, start), header.max_timestamp});
        }
        std::optional<TimestampedOffset> found;
        FLOE_RETURN_IF_ERROR(ForEachRecord(batch, [&](const RecordView& r) {
          const int64_t offset = header.base_offset + r.offset_delta;
          const int64_t at = header.first_timestamp + r.timestamp_delta;
          if (!found && offset >= start && at >= timestamp) found = TimestampedOffset{offset, at};
        }));
        if (found) return found;
      }
    }
  }
  return std::optional<TimestampedOffset>();
}

std::string PartitionLog::LogStartOffsetPath() const { return dir_ + "/log-start-offset"; }

Status PartitionLog::LoadLogStartOffset() {
  FLOE_ASSIGN_OR_RETURN(std::optional<int64_t> value, ReadOffsetFile(LogStartOffsetPath()));
  if (value) deleted_before_ = std::min(*value, high_watermark());
  return OkStatus();
}

Result<int64_t> PartitionLog::DeleteRecordsBefore(int64_t offset) {
  offset = std::min(offset, high_watermark());
  if (offset <= log_start_offset()) return log_start_offset();
  // Durable before anything is deleted or served: a crash must not bring the records back.
  FLOE_RETURN_IF_ERROR(WriteOffsetFile(dir_, LogStartOffsetPath(), offset));
  deleted_before_ = offset;
  while (segments_.size() > 1 && std::next(segments_.begin())->first <= offset) {
    Segment& oldest = *segments_.begin()->second;
    Logger("broker")->info("{}: DeleteRecords removes segment at offset {}", dir_, oldest.base_offset());
    FLOE_RETURN_IF_ERROR(oldest.Remove());
    segments_.erase(segments_.begin());
  }
  std::erase_if(aborted_, [start = log_start_offset()](const AbortedTransaction& a) { return a.last_offset < start; });
  return log_start_offset();
}

void PartitionLog::RequestFlush(std::function<void()> done) {
  int64_t target = high_watermark();
  std::weak_ptr<PartitionLog> weak = weak_from_this();
  auto on_synced = [weak, target, done = std::move(done)] {
    if (auto self = weak.lock()) self->durable_offset_ = std::max(self->durable_offset_, target);
    if (done) done();
  };
  if (flusher_ == nullptr) {
    on_synced();
    return;
  }
  flusher_->Request(active().file(), std::move(on_synced));
}

uint64_t PartitionLog::AddAppendWaiter(std::function<void()> wake) {
  uint64_t id = next_waiter_id_++;
  append_waiters_.emplace(id, std::move(wake));
  return id;
}

void PartitionLog::RemoveAppendWaiter(uint64_t id) { append_waiters_.erase(id); }

Status PartitionLog::ApplyRetention() {
  int64_t now = clock_.NowMillis();
  if (active().size() > 0 && now - active().created_ms() >= config_.segment_ms) FLOE_RETURN_IF_ERROR(Roll());
  // A compacted topic's old records may be the only record of their key (log_config.h).
  if (!config_.delete_old_segments) return OkStatus();
  uint64_t total = size_bytes();
  while (segments_.size() > 1) {
    Segment& oldest = *segments_.begin()->second;
    int64_t newest_ms = oldest.max_timestamp() >= 0 ? oldest.max_timestamp() : oldest.created_ms();
    bool too_old = config_.retention_ms >= 0 && now - newest_ms > config_.retention_ms;
    bool too_big = config_.retention_bytes >= 0 && total - oldest.size() >= static_cast<uint64_t>(config_.retention_bytes);
    if (!too_old && !too_big) break;
    total -= oldest.size();
    Logger("broker")->info("{}: retention removes segment at offset {}", dir_, oldest.base_offset());
    FLOE_RETURN_IF_ERROR(oldest.Remove());
    segments_.erase(segments_.begin());
  }
  // Aborted transactions wholly below the log start are of no use to any fetch.
  std::erase_if(aborted_, [start = log_start_offset()](const AbortedTransaction& a) { return a.last_offset < start; });
  return OkStatus();
}

Status PartitionLog::SyncNow() {
  if (::fdatasync(active().file()->fd()) != 0) return ErrnoError(errno, "fdatasync", active().log_path());
  durable_offset_ = high_watermark();
  return OkStatus();
}

Status PartitionLog::RemoveFiles() {
  for (auto& [base, segment] : segments_) FLOE_RETURN_IF_ERROR(segment->Remove());
  std::error_code ec;
  std::filesystem::remove_all(dir_, ec);
  if (ec) return IoError("remove {}: {}", dir_, ec.message());
  return OkStatus();
}

}  // namespace floe::broker
