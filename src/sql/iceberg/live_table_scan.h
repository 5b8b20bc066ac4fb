// Live scans (session property freshness = live): a stream-fed table's current snapshot plus
// the records of its source topic past the offsets that snapshot recorded, so a query sees
// every acknowledged event, each exactly once: from the log before its commit, from the table
// after. The tail is planned with the snapshot (one split per partition, read in parallel and
// decoded before the query starts) so that either the whole tail is part of the result or, when
// it cannot be read or outgrows the bound, none of it is and the client is warned.
//
// A keyed table's tail (`floe stream --mode upsert`) is applied by key, as the job will commit
// it: the last change per key wins (offset order within a partition; partitions in order, as a
// key lives in one partition when producers key by it), the snapshot's rows of every key the
// tail touches are left out, and the tail's winning rows are added.
#pragma once

#include <functional>
#include <memory>

#include "sql/iceberg/log_tail.h"
#include "sql/iceberg/resolved_table.h"
#include "sql/catalog/table_scan.h"

namespace floe::sql::iceberg_sql {

// True when a scan of `table` for `request` should include the log tail.
bool WantsLiveScan(const ResolvedTable& table, const ScanRequest& request);

// Plans a scan of the table's committed snapshot for a request.
using SnapshotPlanner = std::function<Result<std::unique_ptr<TableScan>>(const ScanRequest&)>;

// The table's snapshot (planned by `plan_snapshot`) extended with the log tail; on any failure
// to read the tail, the snapshot alone, after a warning through request.warn.
Result<std::unique_ptr<TableScan>> PlanLiveScan(const SnapshotPlanner& plan_snapshot, const ResolvedTable& table,
                                                const ScanRequest& request, LogTailCache& tails);

}  // namespace floe::sql::iceberg_sql
