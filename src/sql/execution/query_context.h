// Per-query execution state shared by every operator and worker thread of one query: the
// options the caller set (threads, memory limit, time limit, cancellation flag), the memory
// tracker, the query's start time (what now() returns), per-operator counters for EXPLAIN
// ANALYZE, and the hook through which expressions run subqueries. Owned by the executor for the
// duration of one statement; every member is safe to use from any of its worker threads.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "sql/execution/dynamic_filter.h"
#include "sql/execution/spill.h"
#include "sql/planner/logical_plan.h"
#include "sql/catalog/table_scan.h"
#include "sql/execution/vector.h"

namespace floe::sql {

// What the caller of a query controls. The query server sets these per query.
struct QueryOptions {
  int threads = 0;                                // Worker threads; 0 means one per core.
  int64_t memory_limit_bytes = int64_t{1} << 30;  // Bytes of operator state (hash tables, sorts, results).
  // Hash joins and aggregations past the memory limit spill to a folder under this one (empty:
  // the system's temporary folder) instead of failing (spill.h).
  std::string spill_dir;
  bool spill = true;
  std::chrono::milliseconds time_limit{0};        // 0: no limit.
  const std::atomic<bool>* cancel = nullptr;      // Set to true to stop the query between batches.
  Freshness freshness = Freshness::kLive;         // Session property `freshness` (table_scan.h).
  int64_t live_tail_max_bytes = int64_t{256} << 20;  // Session property `live_tail_max_bytes`.
};

// "1 GiB", "512 MiB", "64 KiB", "100 bytes".
std::string FormatBytes(int64_t bytes);

// Counts bytes held by operators against the query's limit. Thread-safe.
class MemoryTracker {
 public:
  explicit MemoryTracker(int64_t limit) : limit_(limit) {}

  // Adds `bytes` (may be negative); fails with kResourceExhausted naming `operator_name` when
  // the total would pass the limit.
  Status Reserve(int64_t bytes, std::string_view operator_name);
  void Release(int64_t bytes) { used_.fetch_sub(bytes); }
  int64_t used() const { return used_.load(); }
  int64_t peak() const { return peak_.load(); }
  // Whether a Reserve was refused since the last call (then clears it): tells an operator that
  // may spill that its input's failure was the memory limit, not the time limit or a cancel.
  bool TakeExceeded() { return exceeded_.exchange(false); }

 private:
  int64_t limit_;
  std::atomic<bool> exceeded_{false};
  std::atomic<int64_t> used_{0};
  std::atomic<int64_t> peak_{0};
};

// Charges an operator's growing state to the tracker and gives it back when destroyed.
class MemoryReservation {
 public:
  MemoryReservation(MemoryTracker& tracker, std::string name) : tracker_(&tracker), name_(std::move(name)) {}
  MemoryReservation(const MemoryReservation&) = delete;
  MemoryReservation& operator=(const MemoryReservation&) = delete;
  ~MemoryReservation() { tracker_->Release(held_); }

  // Sets the reservation to `bytes` in total.
  Status Resize(int64_t bytes) {
    FLOE_RETURN_IF_ERROR(tracker_->Reserve(bytes - held_, name_));
    held_ = bytes;
    return OkStatus();
  }
  Status Grow(int64_t bytes) { return Resize(held_ + bytes); }
  int64_t held() const { return held_; }

 private:
  MemoryTracker* tracker_;
  std::string name_;
  int64_t held_ = 0;
};

// Actual figures of one plan node, for EXPLAIN ANALYZE.
struct OperatorStats {
  std::atomic<int64_t> rows{0};
  std::atomic<int64_t> batches{0};
  std::mutex mutex;
  ScanStats scan;           // Scans only (under mutex).
  std::string scan_detail;  // TableScan::Describe() (under mutex).
  bool has_scan = false;
  std::atomic<bool> shared_result{false};  // Its rows came from an identical subplan's run.
  std::atomic<bool> spilled{false};        // It passed the memory limit and spilled to disk.
};

// Runs a subquery's plan with the outer columns it reads bound to values; returns its rows.
class SubqueryRunner {
 public:
  virtual ~SubqueryRunner() = default;
  virtual Result<std::vector<DataChunk>> RunSubquery(const LogicalOperator& plan, const std::map<ColumnId, Value>& outer) = 0;
};

class QueryContext {
 public:
  QueryContext(const SqlCatalog& catalog, const QueryOptions& options, std::string_view sql);

  const SqlCatalog& catalog() const { return catalog_; }
  const QueryOptions& options() const { return options_; }
  int threads() const { return threads_; }
  MemoryTracker& memory() { return memory_; }
  std::string_view sql() const { return sql_; }
  int64_t start_micros() const { return start_micros_; }

  // kInvalidArgument-free check between batches: cancelled, past the time limit, or another
  // worker already failed.
  Status CheckInterrupt() const;

  // Counters of `node` (created on first use).
  OperatorStats& StatsFor(const LogicalOperator* node);
  const OperatorStats* FindStats(const LogicalOperator* node) const;

  // Key ranges hash joins publish for the scans on their probe side (dynamic_filter.h).
  DynamicFilters& dynamic_filters() { return dynamic_filters_; }
  // Where this query spills (spill.h): one folder, removed with the context.
  SpillFolder& spill_folder() { return spill_folder_; }

  SubqueryRunner* subqueries = nullptr;
  std::string session_catalog = "floe";
  std::string session_schema = "default";

  // An error whose message points at byte `location` of the query text ("line 1:8: ...").
  Error ErrorAt(int location, const Error& error) const;

  // Notes for the client that do not fail the query (PostgreSQL notices, Trino warnings);
  // a repeated text is kept once.
  void AddWarning(std::string text);
  std::vector<std::string> warnings() const;

 private:
  const SqlCatalog& catalog_;
  QueryOptions options_;
  std::string_view sql_;
  int threads_ = 1;
  MemoryTracker memory_;
  std::chrono::steady_clock::time_point started_;
  int64_t start_micros_ = 0;
  mutable std::mutex stats_mutex_;
  std::map<const LogicalOperator*, std::unique_ptr<OperatorStats>> stats_;
  std::vector<std::string> warnings_;  // Guarded by stats_mutex_.
  DynamicFilters dynamic_filters_;
  SpillFolder spill_folder_;
};

}  // namespace floe::sql
