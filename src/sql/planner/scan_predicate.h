// The filter pushed into a table scan, in a form storage can use without knowing SQL
// expressions: a conjunction of simple column predicates (comparisons with constants, IN
// lists, IS [NOT] NULL, prefix LIKE as a range) that the Iceberg planner evaluates against
// partition values and column bounds and the Parquet reader against row-group and page
// statistics. Terms that do not fit stay as residual bound expressions evaluated after
// decoding. Immutable once planned; any thread may read it.
#pragma once

#include <string>
#include <vector>

#include "sql/binder/bound_expr.h"

namespace floe::sql {

struct ColumnPredicate {
  enum class Op { kEq, kNotEq, kLt, kLtEq, kGt, kGtEq, kIn, kIsNull, kIsNotNull, kStartsWith };
  std::string column;     // Top-level table column name.
  int32_t field_id = 0;   // Iceberg field id when known.
  Op op = Op::kEq;
  std::vector<Value> values;  // One for comparisons and kStartsWith; several for kIn.
  // A dynamic filter's term: the join that published it drops the rows it rejects anyway, so it
  // prunes, but filtering rows by it is optional (worth it only where it rejects many).
  bool advisory = false;

  std::string ToString() const;
};

struct ScanPredicate {
  std::vector<ColumnPredicate> terms;   // All must hold (AND). Pruning may use each alone.
  std::vector<BoundExprPtr> residual;   // Also ANDed; evaluated on decoded rows.

  bool empty() const { return terms.empty() && residual.empty(); }
  std::string ToString() const;
};

}  // namespace floe::sql
