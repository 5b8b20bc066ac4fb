// A key under which a subplan's result may be shared within one query: two subplans with the
// same key produce the same rows in the same column order and types. The executor computes
// such a result once (a CTE referenced twice, as TPC-H Q15's revenue view: once joined, once
// under max()). The key is the subplan's EXPLAIN text with column ids renumbered in order of
// appearance and each node's output types added; only subplans of scans, filters, projections,
// joins, aggregations and DISTINCT whose expressions hold no subquery and no volatile function
// (random, uuid) get one. Stateless; any thread.
#pragma once

#include <optional>
#include <string>

#include "sql/planner/logical_plan.h"

namespace floe::sql {

std::optional<std::string> ReusableResultKey(const LogicalOperator& plan);

}  // namespace floe::sql
