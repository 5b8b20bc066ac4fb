// The log of one topic partition: an ordered run of segments, the offsets clients see, the
// idempotent-producer state, and the hooks that let produce and fetch requests wait for
// durability or for new data.
//
// Owned (shared) by the TopicRegistry and by in-flight flush callbacks; every method runs on
// the broker's I/O thread.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/clock.h"
#include "base/result.h"
#include "broker/log/flusher.h"
#include "broker/log/log_cleaner.h"
#include "broker/log/log_config.h"
#include "broker/log/producer_state.h"
#include "broker/log/segment.h"
#include "broker/protocol/control_batch.h"
#include "broker/protocol/error_code.h"
#include "broker/protocol/record_batch.h"

namespace floe::broker {

// A transaction aborted in this partition: its producer, its first offset here and the offset
// of its abort marker (Fetch's aborted_transactions list, KIP-98).
struct AbortedTransaction {
  int64_t producer_id = -1;
  int64_t first_offset = -1;
  int64_t last_offset = -1;
};

class PartitionLog : public std::enable_shared_from_this<PartitionLog> {
 public:
  // Opens (or creates) the log in `dir`, recovering the active segment's tail. The open
  // transactions and the aborted-transaction index are rebuilt from every segment's batch
  // headers (and the control batches' records).
  static Result<std::shared_ptr<PartitionLog>> Open(std::string dir, LogConfig config, Clock& clock, Flusher* flusher);

  struct AppendResult {
    ErrorCode error = ErrorCode::kNone;
    int64_t base_offset = -1;
  };
  // Validated batches inside `records` (which the log may modify: base offsets are stamped in
  // place) are appended in order. A duplicate idempotent batch returns its original offset.
  // Transactional batches open a transaction of their producer here; control batches (which
  // only the coordinator writes) close it.
  Result<AppendResult> Append(char* records, const std::vector<BatchView>& batches);
  // Appends a transaction marker; returns its offset.
  Result<int64_t> AppendMarker(const ControlMarker& marker);

  // The last stable offset: the first offset of the oldest open transaction, or the high
  // watermark when none is open. read_committed consumers read up to here.
  int64_t last_stable_offset() const;
  // Aborted transactions that may hold offsets in [from, to): those whose abort marker is at
  // `from` or later and whose first offset is below `to`, by marker offset.
  std::vector<AbortedTransaction> AbortedTransactions(int64_t from, int64_t to) const;

  // The first offset a consumer may read: the first segment's base offset, or past it after
  // DeleteRecords (kept in `<dir>/log-start-offset`).
  int64_t log_start_offset() const { return std::max(segments_.begin()->second->base_offset(), deleted_before_); }
  int64_t high_watermark() const { return active().next_offset(); }
  uint64_t size_bytes() const;
  const LogConfig& config() const { return config_; }
  const std::string& dir() const { return dir_; }
  void set_config(const LogConfig& config) { config_ = config; }

  // Whole batches starting with the one containing `offset`, at most `max_bytes` unless the
  // first batch alone is larger. Empty at the high watermark. Callers check the range first.
  Result<std::string> Read(int64_t offset, uint64_t max_bytes) const;
  // As Read, but returns where the bytes are instead of the bytes (length 0 at the end), and
  // only batches below `end_offset` (the last stable offset for read_committed).
  Result<FileRegion> ReadRegion(int64_t offset, uint64_t max_bytes, int64_t end_offset = INT64_MAX) const;
  // The first offset whose batch has a timestamp >= `timestamp`, if any.
  // ListOffsets by time: the first record whose timestamp is >= `timestamp`, and that
  // timestamp (record granularity in uncompressed batches; a compressed batch answers with its
  // base offset and max timestamp).
  struct TimestampedOffset {
    int64_t offset = -1;
    int64_t timestamp = -1;
  };
  Result<std::optional<TimestampedOffset>> OffsetForTimestamp(int64_t timestamp) const;

  // Asks the flusher to make everything appended so far durable; `done` runs (on the I/O
  // thread) once it is. Without a flusher (FsyncPolicy::kNever) `done` is posted at once.
  void RequestFlush(std::function<void()> done);
  int64_t durable_offset() const { return durable_offset_; }

  // Fetch long-polls register here to be woken by the next append.
  uint64_t AddAppendWaiter(std::function<void()> wake);
  void RemoveAppendWaiter(uint64_t id);

  // Deletes closed segments past the retention time or size (unless the cleanup policy is
  // compact alone), and rolls an old active segment.
  Status ApplyRetention();

  // Log compaction (log_cleaner.h). The cleanable range is the closed segments from the log
  // start up to the first one that holds an offset at or past the last stable offset or a
  // record younger than min.compaction.lag.ms; its dirty part starts at the end of the last
  // pass (the log start after a restart). A pass is due when the dirty share of the range's
  // bytes exceeds min.cleanable.dirty.ratio; PlanClean then describes it, else nullopt. The
  // end of the last pass survives restarts in `cleaner-offset-checkpoint`.
  std::optional<CleanJob> PlanClean(int64_t now_ms, uint64_t map_limit_bytes) const;
  // The dirty share of the cleanable bytes (0 when nothing is cleanable), for /metrics.
  double DirtyRatio(int64_t now_ms) const;
  struct InstallStats {
    uint64_t groups = 0;
    uint64_t bytes_removed = 0;
    uint64_t records_removed = 0;
  };
  // Swaps the cleaned groups of a finished pass in, each still made of the segments it was
  // cleaned from (retention or deletion may have changed them since: such a group's file is
  // deleted). `checkpoint` is called at each step of a swap ("swap": committed, "swapping": an
  // old segment removed) for crash tests. Called on the I/O thread.
  Result<InstallStats> InstallCleaned(const CleanResult& result,
                                      const std::function<void(std::string_view step)>& checkpoint = nullptr);
  // fdatasyncs the active segment on the calling thread (clean shutdown).
  Status SyncNow();
  // DeleteRecords: moves the log start offset up to `offset` (at most the high watermark),
  // durably, and deletes the closed segments wholly below it. Returns the new log start.
  Result<int64_t> DeleteRecordsBefore(int64_t offset);
  // Removes every file of the log (topic deletion).
  Status RemoveFiles();

 private:
  PartitionLog(std::string dir, LogConfig config, Clock& clock, Flusher* flusher)
      : dir_(std::move(dir)), config_(config), clock_(clock), flusher_(flusher) {}

  Segment& active() const { return *segments_.rbegin()->second; }
  Status Roll();
  // Deletes `.cleaned` files and finishes `.swap`s a crash left in `dir` (log_cleaner.h).
  static Status RecoverCleaning(const std::string& dir);
  // The closed segments log compaction may read now, and how many of their bytes are dirty.
  struct CleanableRange {
    std::vector<CleanInput> segments;
    uint64_t clean_bytes = 0;
    uint64_t dirty_bytes = 0;
  };
  CleanableRange Cleanable(int64_t now_ms) const;
  // `<dir>/transactional`, created (durably) before the partition's first transactional batch:
  // only then does Open walk the closed segments for transactions.
  std::string TransactionalFlagPath() const;
  std::string LogStartOffsetPath() const;
  Status LoadLogStartOffset();
  // `<dir>/cleaner-offset-checkpoint`: the first dirty offset, so that a restart does not count
  // the whole log as dirty (Kafka's cleaner-offset-checkpoint). Only an optimization: a missing
  // or unreadable one means "clean from the log start".
  std::string CleanerCheckpointPath() const;
  void LoadCleanerCheckpoint();
  void SaveCleanerCheckpoint();
  Status MarkTransactional();
  // Tracks the transaction a batch appended at `offset` opens or closes; `control_type` is set
  // for control batches.
  void TrackTransaction(const BatchHeader& header, int64_t offset, std::optional<ControlType> control_type);

  std::string dir_;
  LogConfig config_;
  Clock& clock_;
  Flusher* flusher_;
  std::map<int64_t, std::unique_ptr<Segment>> segments_;  // By base offset; never empty.
  ProducerState producers_;
  bool transactional_ = false;                       // Whether the flag file exists.
  std::map<int64_t, int64_t> open_transactions_;     // Producer id -> first offset here.
  std::vector<AbortedTransaction> aborted_;          // In marker (last offset) order.
  int64_t durable_offset_ = 0;
  int64_t first_dirty_offset_ = 0;  // Where the next cleaning pass's offset map starts (persisted).
  int64_t deleted_before_ = 0;      // DeleteRecords' log start offset (0: none).
  uint64_t next_waiter_id_ = 1;
  std::map<uint64_t, std::function<void()>> append_waiters_;
};

}  // namespace floe::broker
