// Column statistics files: the number of distinct values of each column of a snapshot, as a
// Puffin file of `apache-datasketches-theta-v1` blobs (one per primitive top-level column, the
// estimate in each blob's "ndv" property) recorded in the table metadata's "statistics" list, as
// Trino's ANALYZE and Spark's compute_table_stats write them. Planners read the "ndv" property
// (Trino does; floe's join ordering does, through DistinctCounts).
//
// UpdateTableStatistics brings the current snapshot's file up to date. Where the newest file
// belongs to an ancestor and every snapshot since only appended or compacted ("append",
// "replace"), it reads only the data files appended since and unions their sketches with the
// stored ones; otherwise (deletes, overwrites, no file yet, or `full`) it reads the whole
// snapshot with its deletes applied. Runs on the caller's thread.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "base/result.h"
#include "iceberg/table.h"

namespace floe::iceberg {

struct TableStatisticsResult {
  int64_t snapshot_id = -1;            // -1: the table has no snapshot (nothing written).
  std::string path;                    // The Puffin file.
  std::map<int32_t, int64_t> ndv;      // By field id.
  int64_t rows_read = 0;               // Rows read to build it (0 when already up to date).
  int64_t files_read = 0;
  bool incremental = false;            // Built from an ancestor's file and the appends since.
  bool up_to_date = false;             // The current snapshot already had its file.
};

Result<TableStatisticsResult> UpdateTableStatistics(Table& table, bool full = false);

// The "ndv" of each field id in the newest statistics file of the current snapshot or its
// nearest ancestor that has one (distinct counts change slowly: an ancestor's still guides a
// planner). Empty when there is none.
std::map<int32_t, int64_t> DistinctCounts(const TableMetadata& metadata);

}  // namespace floe::iceberg
