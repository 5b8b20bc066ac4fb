#include "stream/routed_maintenance.h"

#include <chrono>

#include "base/logging.h"

namespace floe::stream {

RoutedMaintenance::RoutedMaintenance(TableLister tables, TableOpener open_table, MaintenanceOptions options,
                                     MetricsRegistry& metrics)
    : tables_(std::move(tables)),
      open_table_(std::move(open_table)),
      options_(options),
      metrics_(metrics),
      failures_(metrics.GetCounter("floe_stream_maintenance_failures_total", "Maintenance rounds that failed")) {}

RoutedMaintenance::~RoutedMaintenance() { Stop(); }

void RoutedMaintenance::Start() {
  if (options_.interval_ms <= 0 || thread_.joinable()) return;
  thread_ = std::thread([this] { Loop(); });
}

void RoutedMaintenance::Stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

std::map<catalog::TableIdentifier, Result<MaintenanceReport>> RoutedMaintenance::RunOnce() {
  std::map<catalog::TableIdentifier, Result<MaintenanceReport>> reports;
  for (const catalog::TableIdentifier& id : tables_()) {
    auto it = maintenance_.find(id);
    if (it == maintenance_.end()) {
      auto maintenance = std::make_unique<TableMaintenance>([this, id] { return open_table_(id); }, options_, metrics_);
      it = maintenance_.emplace(id, std::move(maintenance)).first;
    }
    reports.emplace(id, it->second->RunOnce());
  }
  return reports;
}

void RoutedMaintenance::Loop() {
  auto log = Logger("stream");
  std::unique_lock lock(mutex_);
  while (!wake_.wait_for(lock, std::chrono::milliseconds(options_.interval_ms), [this] { return stopping_; })) {
    lock.unlock();
    for (const auto& [id, report] : RunOnce()) {
      const std::string name = catalog::IdentifierToString(id);
      if (!report) {
        failures_.Increment();
        log->warn("maintenance of {}: {} (trying again in {} ms)", name, report.error().ToString(),
                  options_.interval_ms);
      } else if (report->files_rewritten + report->manifests_merged + report->snapshots_expired +
                     report->orphans_removed >
                 0) {
        log->info(
            "maintenance of {}: compacted {} files into {}, merged {} manifests, expired {} snapshots, removed {} "
            "orphan files",
            name, report->files_rewritten, report->files_added, report->manifests_merged, report->snapshots_expired,
            report->orphans_removed);
      }
    }
    lock.lock();
  }
}

}  // namespace floe::stream
