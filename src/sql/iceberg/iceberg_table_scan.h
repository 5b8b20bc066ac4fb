// Scans of an Iceberg table's data: PlanDataScan prunes manifests by their partition summaries,
// files by partition tuples (the predicate projected through each spec's transforms) and by
// column bounds and null counts, and cuts the surviving files into splits (a file, or one row
// group of a file with several). Reading a split prunes row groups by Parquet statistics,
// decodes only the requested columns, fills columns a file does not store (identity partition
// values, or nulls), converts promoted types and applies position and equality deletes.
// The returned scan is immutable apart from atomic counters; any thread may read any split.
#pragma once

#include <memory>

#include "sql/iceberg/file_caches.h"
#include "sql/iceberg/resolved_table.h"
#include "sql/catalog/table_scan.h"

namespace floe::sql::iceberg_sql {

// Rows per batch handed to the executor.
inline constexpr int64_t kScanBatchRows = 8192;

Result<std::unique_ptr<TableScan>> PlanDataScan(std::shared_ptr<const ResolvedTable> table, const ScanRequest& request,
                                                std::shared_ptr<FileCaches> caches);

}  // namespace floe::sql::iceberg_sql
