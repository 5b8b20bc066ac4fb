#include "sql/planner/optimizer.h"

namespace floe::sql {
namespace {

// Optimizes the plans of subqueries inside expressions (they are shared and immutable, so
// each is copied, optimized and replaced). Decorrelation already went through them, with
// column ids unique across the whole statement, so it is not repeated there.
void OptimizeSubqueries(LogicalOperator& op, const OptimizerOptions& options);

void OptimizeExpression(BoundExpr& e, const OptimizerOptions& options) {
  if (e.kind == BoundKind::kSubquery && e.As<BoundSubquery>().plan) {
    auto& subquery = e.As<BoundSubquery>();
    OptimizerOptions nested = options;
    nested.decorrelate_subqueries = false;
    auto optimized = Optimize(subquery.plan->Clone(), nested);
    if (optimized.has_value()) subquery.plan = std::shared_ptr<const LogicalOperator>(std::move(*optimized));
  }
  for (auto& arg : e.args) OptimizeExpression(*arg, options);
}

void OptimizeSubqueries(LogicalOperator& op, const OptimizerOptions& options) {
  auto visit = [&](BoundExprPtr& e) {
    if (e) OptimizeExpression(*e, options);
  };
  // The slots whose subqueries EXPLAIN shows: filters, join conditions, projections, unnested
  // arrays, a scan's residual filter.
  switch (op.kind) {
    case LogicalKind::kFilter:
      visit(op.As<LogicalFilter>().predicate);
      break;
    case LogicalKind::kJoin:
      visit(op.As<LogicalJoin>().condition);
      break;
    case LogicalKind::kProject:
      for (auto& e : op.As<LogicalProject>().expressions) visit(e);
      break;
    case LogicalKind::kUnnest:
      for (auto& e : op.As<LogicalUnnest>().expressions) visit(e);
      break;
    case LogicalKind::kScan:
      for (auto& e : op.As<LogicalScan>().pushed.residual) visit(e);
      break;
    default:
      break;
  }
  for (auto& child : op.children) OptimizeSubqueries(*child, options);
}

}  // namespace

void OptimizeSubqueryPlans(BoundExpr& expr) { OptimizeExpression(expr, OptimizerOptions{}); }

Result<LogicalPtr> Optimize(LogicalPtr plan, const OptimizerOptions& options) {
  if (options.decorrelate_subqueries) plan = DecorrelateSubqueries(std::move(plan));
  if (options.fold_constants) plan = FoldConstants(std::move(plan));
  if (options.push_filters) {
    plan = PushDownFilters(std::move(plan));
    if (options.fold_constants) plan = FoldConstants(std::move(plan));
  }
  if (options.order_joins) plan = OrderJoins(std::move(plan));
  if (options.push_projections) plan = PushDownProjections(std::move(plan));
  if (options.top_n) plan = IntroduceTopN(std::move(plan));
  if (options.share_subexpressions) plan = ExtractCommonSubexpressions(std::move(plan));
  OptimizeSubqueries(*plan, options);
  EstimateCardinality(*plan);
  return plan;
}

}  // namespace floe::sql
