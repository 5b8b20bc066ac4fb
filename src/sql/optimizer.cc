#include "sql/optimizer.h"

namespace floe::sql {
namespace {

// Optimizes the plans of subqueries inside expressions (they are shared and immutable, so
// each is copied, optimized and replaced).
void OptimizeSubqueries(LogicalOperator& op, const OptimizerOptions& options);

void OptimizeExpression(BoundExpr& e, const OptimizerOptions& options) {
  if (e.kind == BoundKind::kSubquery && e.plan) {
    auto optimized = Optimize(e.plan->Clone(), options);
    if (optimized.has_value()) e.plan = std::shared_ptr<const LogicalOperator>(std::move(*optimized));
  }
  for (auto& arg : e.args) OptimizeExpression(*arg, options);
}

void OptimizeSubqueries(LogicalOperator& op, const OptimizerOptions& options) {
  auto visit = [&](BoundExprPtr& e) {
    if (e) OptimizeExpression(*e, options);
  };
  visit(op.predicate);
  visit(op.condition);
  for (auto& e : op.expressions) visit(e);
  for (auto& e : op.pushed.residual) visit(e);
  for (auto& child : op.children) OptimizeSubqueries(*child, options);
}

}  // namespace

Result<LogicalPtr> Optimize(LogicalPtr plan, const OptimizerOptions& options) {
  if (options.fold_constants) plan = FoldConstants(std::move(plan));
  if (options.push_filters) {
    plan = PushDownFilters(std::move(plan));
    if (options.fold_constants) plan = FoldConstants(std::move(plan));
  }
  if (options.order_joins) plan = OrderJoins(std::move(plan));
  if (options.push_projections) plan = PushDownProjections(std::move(plan));
  if (options.top_n) plan = IntroduceTopN(std::move(plan));
  OptimizeSubqueries(*plan, options);
  EstimateCardinality(*plan);
  return plan;
}

}  // namespace floe::sql
