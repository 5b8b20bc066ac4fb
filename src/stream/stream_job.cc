#include "stream/stream_job.h"

#include <algorithm>
#include <thread>

#include "base/clock.h"
#include "base/logging.h"

namespace floe::stream {

StreamJob::StreamJob(KafkaSource& source, BatchCommitter& committer, TriggerOptions trigger,
                     MetricsRegistry& metrics, const std::atomic<bool>* stop_requested)
    : source_(source),
      committer_(committer),
      trigger_(trigger),
      stop_requested_(stop_requested),
      records_in_(metrics.GetCounter("floe_stream_records_in_total", "Records read from Kafka")),
      rows_out_(metrics.GetCounter("floe_stream_rows_committed_total", "Rows committed to the table")),
      dead_letters_(metrics.GetCounter("floe_stream_dead_letters_total", "Records sent to the dead-letter table")),
      conflicts_(metrics.GetCounter("floe_stream_commit_conflicts_total",
                                    "Batches discarded because the table's offsets moved (re-read, not lost)")),
      files_written_(metrics.GetCounter("floe_stream_files_written_total", "Data files committed to the table")),
      commit_seconds_(metrics.GetHistogram("floe_stream_commit_seconds", "Time to write and commit one batch")),
      batch_seconds_(metrics.GetHistogram("floe_stream_batch_seconds",
                                          "Time from opening a batch to its commit (collecting included)")),
      metrics_(metrics) {}

Result<bool> StreamJob::Collect(MicroBatch& batch) {
  Clock& clock = Clock::System();
  int64_t deadline = clock.MonotonicNanos() + trigger_.interval_millis * 1'000'000;
  while (!Stopping()) {
    int64_t remaining_ms = (deadline - clock.MonotonicNanos()) / 1'000'000;
    if (remaining_ms <= 0 || batch.record_count() >= trigger_.max_records || batch.value_bytes() >= trigger_.max_bytes) {
      return true;
    }
    bool rebalanced = false;
    FLOE_ASSIGN_OR_RETURN(size_t added,
                          source_.Poll(batch, static_cast<int>(std::min<int64_t>(remaining_ms, 100)),
                                       trigger_.max_records - batch.record_count(), trigger_.max_bytes, &rebalanced));
    // Counted before the rebalance check: after a rebalance the source restarts the batch but
    // keeps what it read from the new assignment (`added`), which would otherwise never be
    // counted (the first assignment is a rebalance, so a job's first records were missed).
    records_in_.Increment(added);
    if (rebalanced) continue;
    if (added == 0 && trigger_.available_now) {
      if (!batch.empty()) return true;  // Nothing more is coming soon: commit what there is.
      FLOE_ASSIGN_OR_RETURN(bool caught_up, CaughtUp());
      if (caught_up) return false;
    }
  }
  return false;
}

Result<bool> StreamJob::CaughtUp() {
  std::vector<int32_t> assigned = source_.AssignedPartitions();
  if (assigned.empty()) return false;  // Not part of the group yet.
  FLOE_ASSIGN_OR_RETURN(SourceOffsets committed, committer_.CommittedOffsets());
  for (int32_t partition : assigned) {
    auto target = end_targets_.find(partition);
    if (target == end_targets_.end()) {
      // The end the last fetch response reported costs nothing; asking the broker waits behind
      // the consumer's long-polling fetch on the same connection (~100 ms per partition).
      int64_t end = source_.CachedHighWatermark(partition);
      if (end < 0) {
        FLOE_ASSIGN_OR_RETURN(end, source_.HighWatermark(partition));
      }
      target = end_targets_.emplace(partition, end).first;
    }
    auto done = committed.find(partition);
    if ((done == committed.end() ? 0 : done->second) < target->second) return false;
  }
  return true;
}

Status StreamJob::CommitBatch(MicroBatch& batch) {
  auto log = Logger("stream");
  FLOE_ASSIGN_OR_RETURN(SourceOffsets committed, committer_.CommittedOffsets());
  size_t before = batch.record_count();
  batch.DropCommitted(committed);
  if (batch.record_count() < before) {
    log->info("dropped {} record(s) the table already holds", before - batch.record_count());
  }
  if (batch.empty()) {
    // Everything read is already in the table: another worker or an earlier life got there
    // first. Move to the table's offsets so the next batch starts where it ends.
    return source_.Reseek();
  }
  SourceOffsets expected;
  for (const auto& [partition, start] : batch.start_offsets()) {
    auto it = committed.find(partition);
    if (it != committed.end()) expected[partition] = it->second;
  }
  Clock& clock = Clock::System();
  int64_t started = clock.MonotonicNanos();
  auto report = committer_.Commit(batch, expected, batch.end_offsets());
  if (!report) {
    if (report.error().kind() == ErrorKind::kConflict) {
      conflicts_.Increment();
      log->warn("{}; re-reading from the table's offsets", report.error().message());
      return source_.Reseek();
    }
    // The commit's outcome is reported as failed: nothing of it is in the table (or it is, and
    // the next batch's DropCommitted will see it). Either way Run re-reads from the table.
    return std::unexpected(report.error());
  }
  const double commit_seconds = static_cast<double>(clock.MonotonicNanos() - started) / 1e9;
  commit_seconds_.Observe(commit_seconds);
  rows_out_.Increment(report->rows);
  files_written_.Increment(report->files);
  dead_letters_.Increment(report->dead_letters);
  rows_committed_.fetch_add(report->rows);
  batches_committed_.fetch_add(1);
  log->info("committed snapshot {}: {} rows, {} dead letters, {} files in {:.0f} ms, offsets {}", report->snapshot_id,
            report->rows, report->dead_letters, report->files, commit_seconds * 1000, OffsetsToJson(batch.end_offsets()));
  source_.CommitGroupOffsets(batch.end_offsets());
  UpdateLag(batch.end_offsets());
  return OkStatus();
}

void StreamJob::UpdateLag(const SourceOffsets& next) {
  for (const auto& [partition, offset] : next) {
    int64_t end = source_.CachedHighWatermark(partition);
    if (end < 0) continue;  // Unknown yet: leave the gauge as it was rather than report 0.
    metrics_.GetGauge("floe_stream_lag", "Records in the partition past what the table holds",
                      {{"partition", std::to_string(partition)}})
        .Set(static_cast<double>(std::max<int64_t>(0, end - offset)));
  }
}

Status StreamJob::Run() {
  auto log = Logger("stream");
  MicroBatch batch;
  int consecutive_failures = 0;
  // After any failure the consumer's position is past records the table may not hold. Reading on
  // from there would leave a gap that the next commit closes over (found by the chaos test: a
  // catalog outage while reading the table's offsets lost a batch). So nothing is collected until
  // the source is back at the table's offsets.
  bool must_reseek = false;
  auto back_off = [&] {
    ++consecutive_failures;
    std::this_thread::sleep_for(std::chrono::milliseconds(std::min(10'000, 100 << std::min(consecutive_failures, 7))));
  };
  Clock& clock = Clock::System();
  while (!Stopping()) {
    batch.Clear();
    int64_t opened = clock.MonotonicNanos();
    if (must_reseek) {
      if (auto status = source_.Reseek(); !status) {
        log->error("re-reading from the table's offsets: {}", status.error().ToString());
        back_off();
        continue;
      }
      must_reseek = false;
    }
    auto collected = Collect(batch);
    if (!collected) {
      log->error("reading from the topic: {}", collected.error().ToString());
      must_reseek = true;
      back_off();
      continue;
    }
    bool keep_going = *collected;
    if (!batch.empty()) {
      if (auto status = CommitBatch(batch); !status) {
        // Storage or catalog trouble: back off (up to 10 s) and read the batch again.
        log->error("batch of {} records not committed: {}", batch.record_count(), status.error().ToString());
        must_reseek = true;
        back_off();
        continue;
      }
      consecutive_failures = 0;
      batch_seconds_.Observe(static_cast<double>(clock.MonotonicNanos() - opened) / 1e9);
    }
    if (!keep_going) break;
    if (trigger_.max_batches > 0 && batches_committed_.load() >= trigger_.max_batches) break;
  }
  source_.Close();
  return OkStatus();
}

}  // namespace floe::stream
