// ORDER BY keys: their compiled expressions and the row order they define, shared by the
// in-memory sort (sort_operator.cc) and the sort that spills sorted runs (external_sort.cc).
#pragma once

#include <map>
#include <vector>

#include "base/result.h"
#include "sql/execution/expression_evaluator.h"
#include "sql/execution/query_context.h"
#include "sql/execution/vector.h"
#include "sql/planner/logical_plan.h"

namespace floe::sql {

struct SortSpec {
  ExprNodePtr key;
  SqlType type;  // Arrays and rows are compared as Values (CompareForSort).
  PhysicalType physical = PhysicalType::kInt64;
  bool descending = false;
  bool nulls_first = false;
};

// The ORDER BY keys of a sort or top-N, compiled over its input's columns.
Result<std::vector<SortSpec>> CompileSortSpecs(const std::vector<SortKey>& order,
                                               const std::vector<OutputColumn>& input,
                                               const std::map<ColumnId, Value>* outer);

// Orders row `a` of key vectors `left` against row `b` of `right` (one vector per spec):
// negative, zero or positive. NULLs go where the spec says; NaN sorts after every number.
int CompareSortKeys(const std::vector<SortSpec>& specs, const std::vector<VectorPtr>& left, int64_t a,
                    const std::vector<VectorPtr>& right, int64_t b);

// Evaluates every spec's key over `chunk`.
Result<std::vector<VectorPtr>> EvaluateSortKeys(const std::vector<SortSpec>& specs, const DataChunk& chunk, QueryContext& context);

// The rows of `chunks` (columns typed `types`) in key order, at most `keep` of them; ties keep
// their input order (stable).
Result<DataChunk> SortRows(const std::vector<DataChunk>& chunks, const std::vector<SqlType>& types, const std::vector<SortSpec>& specs,
                           int64_t keep, QueryContext& context);

}  // namespace floe::sql
