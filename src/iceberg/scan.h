// Scan planning (format/spec.md, "Scan Planning"): which data files of a snapshot may hold rows
// matching a filter, and which delete files apply to each.
//
// Manifests are pruned by the manifest list's partition summaries, entries by their partition
// tuple (the filter's inclusive projection through each manifest's spec) and then by column
// metrics; each task carries the residual filter rows must still pass. Manifests that cannot
// match are never read.
//
// PlanScan runs on the caller's thread; the plan is an immutable value.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "iceberg/expression.h"
#include "iceberg/table.h"

namespace floe::iceberg {

struct ScanOptions {
  std::optional<int64_t> snapshot_id;  // Default: the current snapshot.
  std::optional<std::string> ref;      // A branch or tag name.
  std::optional<int64_t> as_of_ms;     // The snapshot current at this time.
  ExprPtr filter;                      // Unbound; null means true.
};

struct FileScanTask {
  DataFile file;
  int64_t data_sequence_number = 0;
  ExprPtr residual;               // Bound to the scan schema.
  std::vector<DataFile> deletes;  // Position and equality delete files that apply.
  std::vector<int64_t> delete_sequence_numbers;  // Parallel to deletes.
};

struct ScanPlan {
  std::optional<int64_t> snapshot_id;  // Null for a table without snapshots.
  Schema schema;                       // The schema rows are read with.
  ExprPtr filter;                      // Bound.
  std::vector<FileScanTask> tasks;
  int manifests_total = 0;
  int manifests_read = 0;
  int64_t entries_read = 0;
  int64_t files_pruned_by_partition = 0;
  int64_t files_pruned_by_metrics = 0;
};

Result<ScanPlan> PlanScan(Table& table, const ScanOptions& options);

}  // namespace floe::iceberg
