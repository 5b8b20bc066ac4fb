// Column statistics for the optimizer from an Iceberg snapshot's manifests: each live data
// file's lower and upper bounds, combined over the table (reading them costs the manifests the
// scan reads anyway, the same caches); and distinct counts from the table's statistics file
// (theta sketches, iceberg/table_statistics.h) where one exists.
#pragma once

#include "sql/catalog/catalog.h"
#include "sql/iceberg/file_caches.h"
#include "sql/iceberg/resolved_table.h"

namespace floe::sql::iceberg_sql {

// Fills `out.column_statistics` (parallel to out.columns, matched by field id).
Status AddColumnStatistics(const ResolvedTable& table, FileCaches& caches, CatalogTable& out);

}  // namespace floe::sql::iceberg_sql
