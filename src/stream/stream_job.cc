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
    if (batch.record_count() >= trigger_.max_records || batch.value_bytes() >= trigger_.max_bytes) return true;
    // Past its interval, the batch still takes records until the commit before it has landed:
    // librdkafka 2.0 stops fetching for a whole second once its queue is full, so the queue is
    // kept drained rather than left to fill while the loop waits for a commit.
    const bool committing = CommitInFlight();
    int64_t remaining_ms = (deadline - clock.MonotonicNanos()) / 1'000'000;
    if (remaining_ms <= 0 && !committing) return true;
    int wait_ms = committing ? 10 : static_cast<int>(std::min<int64_t>(remaining_ms, 100));
    bool rebalanced = false;
    FLOE_ASSIGN_OR_RETURN(size_t added, source_.Poll(batch, wait_ms, trigger_.max_records - batch.record_count(),
                                                     trigger_.max_bytes, &rebalanced));
    // Counted before the rebalance check, in case a source keeps records across one.
    records_in_.Increment(added);
    if (rebalanced) continue;
    if (added == 0 && trigger_.available_now && !committing) {
      // Nothing more is coming soon: commit what there is, or let the commit in flight land
      // before asking whether the table caught up.
      if (!batch.empty() || in_flight_) return true;
      FLOE_ASSIGN_OR_RETURN(bool caught_up, CaughtUp());
      if (caught_up) return false;
    }
  }
  return false;
}

bool StreamJob::CommitInFlight() const {
  return in_flight_ && in_flight_->outcome.wait_for(std::chrono::seconds(0)) != std::future_status::ready;
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
    int64_t reached = done == committed.end() ? 0 : done->second;
    // Nothing is batched or in flight here, so every record below where the consumer last
    // reached the end is in the table: that counts too, and covers a transaction marker (or an
    // aborted transaction) at the end of the partition, which no record of the table reaches.
    reached = std::max(reached, source_.EndReached(partition));
    if (reached < target->second) return false;
  }
  return true;
}

Result<bool> StreamJob::StartCommit(MicroBatch& batch, int64_t opened_nanos) {
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
    FLOE_RETURN_IF_ERROR(source_.Reseek());
    return false;
  }
  SourceOffsets expected;
  for (const auto& [partition, start] : batch.start_offsets()) {
    auto it = committed.find(partition);
    if (it != committed.end()) expected[partition] = it->second;
  }
  in_flight_.emplace(InFlightCommit{
      .records = batch.record_count(),
      .end_offsets = batch.end_offsets(),
      .opened_nanos = opened_nanos,
      .outcome = std::async(std::launch::async, [this, &batch, expected = std::move(expected)] {
        Clock& clock = Clock::System();
        int64_t started = clock.MonotonicNanos();
        CommitOutcome outcome{.report = committer_.Commit(batch, expected, batch.end_offsets())};
        outcome.finished_nanos = clock.MonotonicNanos();
        outcome.seconds = static_cast<double>(outcome.finished_nanos - started) / 1e9;
        batch.Clear();
        return outcome;
      })});
  return true;
}

Result<StreamJob::Settled> StreamJob::FinishCommit() {
  if (!in_flight_) return Settled::kNothingInFlight;
  InFlightCommit commit = std::move(*in_flight_);
  in_flight_.reset();
  CommitOutcome outcome = commit.outcome.get();
  auto log = Logger("stream");
  if (!outcome.report) {
    if (outcome.report.error().kind() == ErrorKind::kConflict) {
      conflicts_.Increment();
      log->warn("{}; re-reading from the table's offsets", outcome.report.error().message());
      FLOE_RETURN_IF_ERROR(source_.Reseek());
      return Settled::kReRead;
    }
    // The commit's outcome is reported as failed: nothing of it is in the table (or it is, and
    // the next batch's DropCommitted will see it). Either way Run re-reads from the table.
    return std::unexpected(outcome.report.error().WithContext(
        fmt::format("batch of {} records not committed", commit.records)));
  }
  const CommitReport& report = *outcome.report;
  commit_seconds_.Observe(outcome.seconds);
  batch_seconds_.Observe(static_cast<double>(outcome.finished_nanos - commit.opened_nanos) / 1e9);
  rows_out_.Increment(report.rows);
  files_written_.Increment(report.files);
  dead_letters_.Increment(report.dead_letters);
  rows_committed_.fetch_add(report.rows);
  batches_committed_.fetch_add(1);
  log->info("committed snapshot {}: {} rows, {} dead letters, {} files in {:.0f} ms, offsets {}", report.snapshot_id,
            report.rows, report.dead_letters, report.files, outcome.seconds * 1000, OffsetsToJson(commit.end_offsets));
  source_.CommitGroupOffsets(commit.end_offsets);
  UpdateLag(commit.end_offsets);
  return Settled::kCommitted;
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
  // Two batches: one collecting while the other commits.
  MicroBatch batches[2];
  int collecting = 0;
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
  // Waits for the commit in flight. False when it failed or lost its race: then the batch
  // collected behind it starts from a position the table does not hold, and is thrown away.
  auto settle = [&] {
    auto settled = FinishCommit();
    if (!settled) {
      log->error("{}", settled.error().ToString());
      must_reseek = true;
      back_off();
      return false;
    }
    if (*settled == Settled::kCommitted) consecutive_failures = 0;
    return *settled != Settled::kReRead;
  };
  Clock& clock = Clock::System();
  while (!Stopping()) {
    MicroBatch& batch = batches[collecting];
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
    if (!settle()) continue;
    if (!collected) {
      log->error("reading from the topic: {}", collected.error().ToString());
      must_reseek = true;
      back_off();
      continue;
    }
    bool keep_going = *collected;
    if (!batch.empty()) {
      auto started = StartCommit(batch, opened);
      if (!started) {
        // Storage or catalog trouble: back off (up to 10 s) and read the batch again.
        log->error("batch of {} records not committed: {}", batch.record_count(), started.error().ToString());
        must_reseek = true;
        back_off();
        continue;
      }
      if (*started) collecting ^= 1;
    }
    const int64_t limit = trigger_.max_batches;
    if (!keep_going || (limit > 0 && batches_committed_.load() + (in_flight_ ? 1 : 0) >= limit)) {
      // Stop only on what is known to be committed: a last commit that failed is read again.
      if (!settle()) continue;
      if (!keep_going || batches_committed_.load() >= limit) break;
    }
  }
  // Stopped between batches: let the commit in flight land rather than abandon it.
  (void)settle();
  // Held messages go back to librdkafka before the consumer closes.
  for (MicroBatch& held : batches) held.Clear();
  source_.Close();
  return OkStatus();
}

}  // namespace floe::stream
