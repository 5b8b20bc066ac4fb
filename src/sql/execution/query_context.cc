#include "sql/execution/query_context.h"

#include <algorithm>
#include <thread>

#include "sql/types/sql_error.h"

namespace floe::sql {

std::string FormatBytes(int64_t bytes) {
  static const char* kUnits[] = {"bytes", "KiB", "MiB", "GiB", "TiB"};
  double value = static_cast<double>(bytes);
  int unit = 0;
  while (value >= 1024 && unit < 4) {
    value /= 1024;
    ++unit;
  }
  if (unit == 0) return fmt::format("{} bytes", bytes);
  if (value == static_cast<double>(static_cast<int64_t>(value))) return fmt::format("{} {}", static_cast<int64_t>(value), kUnits[unit]);
  return fmt::format("{:.1f} {}", value, kUnits[unit]);
}

Status MemoryTracker::Reserve(int64_t bytes, std::string_view operator_name) {
  int64_t now = used_.fetch_add(bytes) + bytes;
  if (bytes > 0 && limit_ > 0 && now > limit_) {
    used_.fetch_sub(bytes);
    exceeded_ = true;
    return ResourceExhausted("Query exceeded memory limit of {} in {}", FormatBytes(limit_), operator_name);
  }
  int64_t peak = peak_.load();
  while (now > peak && !peak_.compare_exchange_weak(peak, now)) {
  }
  return OkStatus();
}

QueryContext::QueryContext(const SqlCatalog& catalog, const QueryOptions& options, std::string_view sql)
    : catalog_(catalog), options_(options), sql_(sql), memory_(options.memory_limit_bytes), spill_folder_(options.spill_dir) {
  threads_ = options.threads > 0 ? options.threads : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  started_ = std::chrono::steady_clock::now();
  start_micros_ = std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

Status QueryContext::CheckInterrupt() const {
  if (options_.cancel != nullptr && options_.cancel->load(std::memory_order_relaxed)) {
    return InvalidArgument("Query was cancelled");
  }
  if (options_.time_limit.count() > 0 && std::chrono::steady_clock::now() - started_ > options_.time_limit) {
    return ResourceExhausted("Query exceeded the time limit of {} ms", options_.time_limit.count());
  }
  return OkStatus();
}

OperatorStats& QueryContext::StatsFor(const LogicalOperator* node) {
  std::lock_guard lock(stats_mutex_);
  auto& slot = stats_[node];
  if (!slot) slot = std::make_unique<OperatorStats>();
  return *slot;
}

const OperatorStats* QueryContext::FindStats(const LogicalOperator* node) const {
  std::lock_guard lock(stats_mutex_);
  auto it = stats_.find(node);
  return it == stats_.end() ? nullptr : it->second.get();
}

Error QueryContext::ErrorAt(int location, const Error& error) const {
  if (sql_.empty()) return error;
  return PointAt(error, sql_, location);
}

void QueryContext::AddWarning(std::string text) {
  std::lock_guard lock(stats_mutex_);
  if (std::find(warnings_.begin(), warnings_.end(), text) == warnings_.end()) warnings_.push_back(std::move(text));
}

std::vector<std::string> QueryContext::warnings() const {
  std::lock_guard lock(stats_mutex_);
  return warnings_;
}

}  // namespace floe::sql
