// Scans of a table's metadata tables ("t$snapshots", $history, $files, $manifests,
// $partitions, $refs, $properties) with the columns the binder declares (sql/metadata_tables.h,
// Trino's Iceberg connector): the rows are computed from the metadata, the manifest list and
// the manifests of the version the query reads, as one split. Any thread may read the scan.
#pragma once

#include <memory>

#include "sql/iceberg/file_caches.h"
#include "sql/iceberg/resolved_table.h"
#include "sql/catalog/table_scan.h"

namespace floe::sql::iceberg_sql {

Result<std::unique_ptr<TableScan>> PlanMetadataScan(std::shared_ptr<const ResolvedTable> table, const ScanRequest& request,
                                                    std::shared_ptr<FileCaches> caches);

}  // namespace floe::sql::iceberg_sql
