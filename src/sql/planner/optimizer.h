// The logical optimizer: rewrites a bound plan with rules that need no storage access.
//   - subquery decorrelation: correlated EXISTS and scalar aggregates become joins
//     (subquery_decorrelation.cc);
//   - constant folding (sql/constant_folding.cc), including filters proven true or false;
//   - predicate pushdown into joins and scans, where simple column predicates become the
//     scan's ScanPredicate for the Iceberg planner and Parquet reader (filter_pushdown.cc);
//   - projection pushdown: scans read only the columns used (projection_pushdown.cc);
//   - top-N: ORDER BY + LIMIT as one operator (top_n.cc);
//   - common subexpressions of an aggregation's arguments computed once, in a projection
//     below it (common_subexpressions.cc);
//   - join order by estimated size: the smaller input becomes the build side, and chains of
//     inner joins are reordered greedily (join_order.cc).
// Single-threaded over one plan.
#pragma once

#include <optional>

#include "base/result.h"
#include "sql/planner/logical_plan.h"

namespace floe::sql {

struct OptimizerOptions {
  bool decorrelate_subqueries = true;
  bool fold_constants = true;
  bool push_filters = true;
  bool push_projections = true;
  bool top_n = true;
  bool order_joins = true;
  bool share_subexpressions = true;
};

Result<LogicalPtr> Optimize(LogicalPtr plan, const OptimizerOptions& options = {});

// The rules, each usable alone (tests).
LogicalPtr DecorrelateSubqueries(LogicalPtr plan);
LogicalPtr FoldConstants(LogicalPtr plan);
LogicalPtr PushDownFilters(LogicalPtr plan);
LogicalPtr PushDownProjections(LogicalPtr plan);
LogicalPtr IntroduceTopN(LogicalPtr plan);
LogicalPtr OrderJoins(LogicalPtr plan);
LogicalPtr ExtractCommonSubexpressions(LogicalPtr plan);
// Sets estimated_rows on every node (from table estimates and fixed selectivities).
void EstimateCardinality(LogicalOperator& plan);

// Optimizes the plans of the subqueries inside `expr` (an UPDATE's, DELETE's or MERGE's
// expressions, which are evaluated on the rows storage hands over rather than planned).
void OptimizeSubqueryPlans(BoundExpr& expr);

// Folds constant subexpressions of `expr`; a wholly constant expression becomes a constant.
BoundExprPtr FoldExpression(BoundExprPtr expr);
// The value of a constant expression, if the folder can compute it.
std::optional<Value> EvaluateConstant(const BoundExpr& expr);

}  // namespace floe::sql
