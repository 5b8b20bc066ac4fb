// TableMaintenance: the stream job's housekeeping, on its own thread so ingestion never waits
// for it. Every interval it compacts small files (bin-pack per partition into the target size,
// sql/iceberg/compaction.h), expires old snapshots and what only they referenced, and, when
// asked, removes orphan files (files no metadata references, older than a threshold, such as
// those a killed job wrote but never committed). Its commits race the job's appends through
// compare-and-swap; a lost race is retried (a compaction whose files were removed, or that deletes
// arrived for, is skipped for the round while the other steps still run), manifests are merged
// past commit.manifest.min-count-to-merge, a failed round is logged and tried again next
// interval. A compaction commit (an Iceberg replace) carries its parent's source offsets over,
// so expiring the snapshot that wrote them never makes the job re-ingest; the job and fresh
// reads still look back to the nearest ancestor that has them.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>

#include "base/metrics.h"
#include "base/result.h"
#include "iceberg/table.h"

namespace floe::stream {

struct MaintenanceOptions {
  int64_t interval_ms = 5 * 60'000;                    // 0: no maintenance.
  // False: rounds skip compaction (small files stay) but still merge manifests and expire
  // snapshots; the playground turns it off to show small files pile up (docs/console.md).
  bool compact = true;
  int64_t target_file_size_bytes = int64_t{128} << 20;  // What compaction writes.
  int64_t compact_threshold_bytes = 0;                  // Files under it are rewritten; 0: 3/4 of the target.
  int64_t expire_older_than_ms = 24 * 3'600'000;        // Snapshots older than this may expire...
  int expire_retain_last = 100;                         // ...but the newest this many always stay.
  int64_t orphans_older_than_ms = 0;                    // 0: orphan files are not removed.
};

struct MaintenanceReport {
  size_t files_rewritten = 0;
  size_t files_added = 0;
  size_t manifests_merged = 0;
  size_t snapshots_expired = 0;
  size_t orphans_removed = 0;
};

class TableMaintenance {
 public:
  // `open_table` loads the table afresh (its own Table object, apart from the job's).
  using TableOpener = std::function<Result<std::unique_ptr<iceberg::Table>>()>;

  TableMaintenance(TableOpener open_table, MaintenanceOptions options, MetricsRegistry& metrics);
  ~TableMaintenance();  // Stops the thread.
  TableMaintenance(const TableMaintenance&) = delete;
  TableMaintenance& operator=(const TableMaintenance&) = delete;

  // Starts the thread (nothing when the interval is 0).
  void Start();
  void Stop();

  // One round, on the caller's thread.
  Result<MaintenanceReport> RunOnce();

 private:
  void Loop();

  TableOpener open_table_;
  MaintenanceOptions options_;
  Counter& runs_;
  Counter& failures_;
  Counter& files_rewritten_;
  Counter& snapshots_expired_;
  Counter& orphans_removed_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;  // Guarded by mutex_.
  std::thread thread_;
};

}  // namespace floe::stream
