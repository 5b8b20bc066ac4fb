// RoutedMaintenance: TableMaintenance (maintenance.h) for every table a routed job writes. A
// routed job makes its tables as their routes first appear, so the set grows while it runs:
// each interval, one thread asks for the tables written so far and runs a maintenance round
// on each in turn (compaction, manifest merging, snapshot expiry and, when asked, orphan
// removal, each table on its own Table object). A table whose round fails is logged and tried
// again next interval; the others still get theirs.
#pragma once

#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "catalog/catalog.h"
#include "stream/maintenance.h"

namespace floe::stream {

class RoutedMaintenance {
 public:
  // `tables`: the tables to maintain now (called on the maintenance thread, so thread-safe).
  // `open_table`: loads one afresh.
  using TableLister = std::function<std::vector<catalog::TableIdentifier>()>;
  using TableOpener = std::function<Result<std::unique_ptr<iceberg::Table>>(const catalog::TableIdentifier&)>;

  RoutedMaintenance(TableLister tables, TableOpener open_table, MaintenanceOptions options, MetricsRegistry& metrics);
  ~RoutedMaintenance();  // Stops the thread.
  RoutedMaintenance(const RoutedMaintenance&) = delete;
  RoutedMaintenance& operator=(const RoutedMaintenance&) = delete;

  void Start();  // Nothing when the interval is 0.
  void Stop();

  // One round over every listed table, on the caller's thread: each table's report, or why its
  // round failed.
  std::map<catalog::TableIdentifier, Result<MaintenanceReport>> RunOnce();

 private:
  void Loop();

  TableLister tables_;
  TableOpener open_table_;
  MaintenanceOptions options_;
  MetricsRegistry& metrics_;
  Counter& failures_;
  // One per table seen; their counters are the registry's, shared by name.
  std::map<catalog::TableIdentifier, std::unique_ptr<TableMaintenance>> maintenance_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;  // Guarded by mutex_.
  std::thread thread_;
};

}  // namespace floe::stream
