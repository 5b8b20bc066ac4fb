#include "stream/maintenance.h"

#include <chrono>

#include "base/clock.h"
#include "base/logging.h"
#include "iceberg/maintenance.h"
#include "sql/iceberg/compaction.h"

namespace floe::stream {
namespace {
// The shortest --expire-older-than / --orphans-older-than the job accepts (see RunOnce).
constexpr int64_t kMinRetentionMs = 3'600'000;
}  // namespace

TableMaintenance::TableMaintenance(TableOpener open_table, MaintenanceOptions options, MetricsRegistry& metrics)
    : open_table_(std::move(open_table)),
      options_(options),
      runs_(metrics.GetCounter("floe_stream_maintenance_runs_total", "Maintenance rounds run")),
      failures_(metrics.GetCounter("floe_stream_maintenance_failures_total", "Maintenance rounds that failed")),
      files_rewritten_(metrics.GetCounter("floe_stream_compacted_files_total", "Small data files rewritten by compaction")),
      snapshots_expired_(metrics.GetCounter("floe_stream_expired_snapshots_total", "Snapshots expired")),
      orphans_removed_(metrics.GetCounter("floe_stream_orphan_files_removed_total", "Orphan files removed")) {}

TableMaintenance::~TableMaintenance() { Stop(); }

void TableMaintenance::Start() {
  if (options_.interval_ms <= 0 || thread_.joinable()) return;
  thread_ = std::thread([this] { Loop(); });
}

void TableMaintenance::Stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void TableMaintenance::Loop() {
  auto log = Logger("stream");
  std::unique_lock lock(mutex_);
  while (!wake_.wait_for(lock, std::chrono::milliseconds(options_.interval_ms), [this] { return stopping_; })) {
    lock.unlock();
    auto report = RunOnce();
    if (!report) {
      failures_.Increment();
      log->warn("maintenance: {} (trying again in {} ms)", report.error().ToString(), options_.interval_ms);
    } else if (report->files_rewritten + report->manifests_merged + report->snapshots_expired + report->orphans_removed > 0) {
      log->info("maintenance: compacted {} files into {}, merged {} manifests, expired {} snapshots, removed {} orphan files",
                report->files_rewritten, report->files_added, report->manifests_merged, report->snapshots_expired,
                report->orphans_removed);
    }
    lock.lock();
  }
}

Result<MaintenanceReport> TableMaintenance::RunOnce() {
  runs_.Increment();
  MaintenanceReport report;
  FLOE_ASSIGN_OR_RETURN(auto table, open_table_());
  int64_t threshold = options_.compact_threshold_bytes > 0 ? options_.compact_threshold_bytes
                                                           : options_.target_file_size_bytes / 4 * 3;
  Result<sql::iceberg_sql::CompactionResult> compacted = sql::iceberg_sql::CompactionResult{};
  if (options_.compact) {
    compacted = sql::iceberg_sql::CompactDataFiles(
        *table, {.file_size_threshold = threshold, .target_file_size_bytes = options_.target_file_size_bytes});
  }
  if (compacted) {
    report.files_rewritten = compacted->files_rewritten;
    report.files_added = compacted->files_added;
    files_rewritten_.Increment(compacted->files_rewritten);
  } else if (compacted.error().kind() == ErrorKind::kConflict) {
    // A rewritten file was removed or deletes arrived since planning: the next round plans
    // again; expiry and orphan removal still run now.
    Logger("stream")->warn("maintenance: compaction skipped: {}", compacted.error().ToString());
    FLOE_RETURN_IF_ERROR(table->Refresh());
  } else {
    return std::unexpected(compacted.error().WithContext("compaction"));
  }
  // Each append adds a manifest; past commit.manifest.min-count-to-merge (default 100) they are
  // merged so planning reads few.
  FLOE_RETURN_IF_ERROR_CTX(table->RewriteManifests(&report.manifests_merged), "manifest rewrite");

  int64_t now = Clock::System().NowMillis();
  iceberg::ExpireOptions expire;
  expire.older_than_ms = now - options_.expire_older_than_ms;
  expire.retain_last = std::max(1, options_.expire_retain_last);
  // The ages come from the operator's own flags, not from a client, and the job's own writes
  // finish within a trigger: an hour's floor keeps a typo from deleting what readers still use.
  expire.min_retention_ms = kMinRetentionMs;
  FLOE_ASSIGN_OR_RETURN_CTX(iceberg::ExpireResult expired, iceberg::ExpireSnapshots(*table, expire), "snapshot expiry");
  report.snapshots_expired = expired.expired_snapshot_ids.size();
  snapshots_expired_.Increment(report.snapshots_expired);

  if (options_.orphans_older_than_ms > 0) {
    iceberg::OrphanOptions orphans;
    orphans.older_than_ms = now - options_.orphans_older_than_ms;
    orphans.min_retention_ms = kMinRetentionMs;
    FLOE_ASSIGN_OR_RETURN_CTX(auto removed, iceberg::RemoveOrphanFiles(*table, orphans), "orphan removal");
    report.orphans_removed = removed.size();
    orphans_removed_.Increment(removed.size());
  }
  return report;
}

}  // namespace floe::stream
