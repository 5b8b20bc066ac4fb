// Live scans (session property freshness = live): a stream-fed table's current snapshot plus
// the records of its source topic past the offsets that snapshot recorded, so a query sees
// every acknowledged event, each exactly once: from the log before its commit, from the table
// after. The tail is planned with the snapshot (one split per partition, read in parallel and
// decoded before the query starts) so that either the whole tail is part of the result or, when
// it cannot be read or outgrows the bound, none of it is and the client is warned.
#pragma once

#include <memory>

#include "sql/iceberg/log_tail.h"
#include "sql/iceberg/resolved_table.h"
#include "sql/catalog/table_scan.h"

namespace floe::sql::iceberg_sql {

// True when a scan of `table` for `request` should include the log tail.
bool WantsLiveScan(const ResolvedTable& table, const ScanRequest& request);

// `snapshot` (the planned scan of the table's snapshot) extended with the log tail; on any
// failure to read the tail, `snapshot` itself, after a warning through request.warn.
Result<std::unique_ptr<TableScan>> PlanLiveScan(std::unique_ptr<TableScan> snapshot, const ResolvedTable& table,
                                                const ScanRequest& request, LogTailCache& tails);

}  // namespace floe::sql::iceberg_sql
