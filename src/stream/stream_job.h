// StreamJob: the micro-batch loop of `floe stream`.
//
// Each batch collects records until the trigger interval passes or a record/byte limit is
// reached, drops whatever the table already holds, and hands the rest to the BatchCommitter.
// A rebalance or a lost commit race throws the half-built batch away and re-reads from the
// table's offsets: work may be redone, never committed twice.
//
// Batches are pipelined: while one commits on a thread of its own, the loop collects the next,
// so the consumer never stalls behind a commit (librdkafka stops prefetching once its queue is
// full). Commits still land one at a time and in order: the next starts only after the
// previous one's outcome is known, and a batch collected behind a commit that failed or lost
// its race is thrown away with it. Run() runs on the caller's thread; Stop() may be called from
// any thread (signals). The committer must be the one the source's offset provider reads
// through, and serialized (SerializedCommitter): a rebalance may read offsets mid-commit.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <future>
#include <map>
#include <optional>

#include "base/metrics.h"
#include "base/result.h"
#include "stream/batch_committer.h"
#include "stream/kafka_source.h"

namespace floe::stream {

struct TriggerOptions {
  int64_t interval_millis = 1000;
  size_t max_records = 1'000'000;
  // Record bytes per batch. Two batches are alive at once (one collecting, one committing), each
  // held as librdkafka's messages (about twice the record bytes), then as decoder input and
  // columns while it is written, so this bounds the job's memory: 48 MiB keeps it under 512 MB.
  size_t max_bytes = 48u << 20;
  // Stop after this many committed batches (0: run until stopped); for tests and backfills.
  int64_t max_batches = 0;
  // Spark's Trigger.AvailableNow: stop once the table holds everything that was in this
  // worker's partitions when it first owned them (drain a backlog, then exit).
  bool available_now = false;
};

class StreamJob {
 public:
  // `stop_requested`, when given, is the owner's flag: the job stops between batches once it is
  // set (the owner never needs a pointer to the job, which may be gone by then).
  StreamJob(KafkaSource& source, BatchCommitter& committer, TriggerOptions trigger, MetricsRegistry& metrics,
            const std::atomic<bool>* stop_requested = nullptr);

  Status Run();
  void Stop() { stop_.store(true); }

  int64_t batches_committed() const { return batches_committed_.load(); }
  uint64_t rows_committed() const { return rows_committed_.load(); }

 private:
  // How a commit in flight ended, once FinishCommit has waited for it.
  enum class Settled { kNothingInFlight, kCommitted, kReRead };
  struct CommitOutcome {
    Result<CommitReport> report;
    double seconds = 0;         // Writing and committing.
    int64_t finished_nanos = 0;  // Monotonic.
  };
  struct InFlightCommit {
    size_t records;
    SourceOffsets end_offsets;
    int64_t opened_nanos;  // When the batch started collecting.
    // The commit's thread clears the batch once committed: its held messages are released there,
    // off the loop's thread.
    std::future<CommitOutcome> outcome;
  };

  // Fills `batch` for one trigger interval, and for as long after it as the commit before it
  // takes. Returns false if the job should stop.
  Result<bool> Collect(MicroBatch& batch);
  // Whether a commit was started and has not finished yet.
  bool CommitInFlight() const;
  // Drops what the table already holds from `batch` and starts committing the rest on a thread
  // of its own. Returns whether a commit started (an emptied batch re-reads from the table).
  Result<bool> StartCommit(MicroBatch& batch, int64_t opened_nanos);
  // Waits for the commit in flight, if any, and records its outcome. A lost race re-reads from
  // the table's offsets (kReRead): whatever was collected meanwhile must be thrown away.
  Result<Settled> FinishCommit();
  // Sets floe_stream_lag{partition} to the records between `next` and the partition's end.
  void UpdateLag(const SourceOffsets& next);
  // With available_now: whether the table's offsets reached every assigned partition's end.
  Result<bool> CaughtUp();

  KafkaSource& source_;
  BatchCommitter& committer_;
  TriggerOptions trigger_;
  bool Stopping() const { return stop_.load() || (stop_requested_ != nullptr && stop_requested_->load()); }

  std::atomic<bool> stop_{false};
  const std::atomic<bool>* stop_requested_ = nullptr;
  std::map<int32_t, int64_t> end_targets_;  // available_now: partition -> end offset when first owned.
  std::optional<InFlightCommit> in_flight_;
  std::atomic<int64_t> batches_committed_{0};
  std::atomic<uint64_t> rows_committed_{0};
  Counter& records_in_;
  Counter& rows_out_;
  Counter& dead_letters_;
  Counter& conflicts_;
  Counter& files_written_;
  Histogram& commit_seconds_;
  Histogram& batch_seconds_;
  MetricsRegistry& metrics_;  // For the per-partition lag gauges, created as partitions show up.
};

}  // namespace floe::stream
