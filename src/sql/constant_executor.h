// Runs plans whose rows need no storage: VALUES, SELECT without FROM, SHOW and
// information_schema (rows the binder took from the catalog), through Project, Filter, Limit,
// Distinct-free paths. Everything else is left to the vectorized executor, which is not built
// yet (NotImplemented). Stateless; any thread may call.
#pragma once

#include <vector>

#include "base/result.h"
#include "sql/logical_plan.h"

namespace floe::sql {

// The rows of `plan`, or kNotImplemented when it needs the real executor.
Result<std::vector<std::vector<Value>>> ExecuteConstantPlan(const LogicalOperator& plan);

}  // namespace floe::sql
