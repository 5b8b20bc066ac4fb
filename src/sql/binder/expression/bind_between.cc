// x [NOT] BETWEEN a AND b, bound as x >= a AND x <= b.
#include "sql/binder/binder_internal.h"

namespace floe::sql {

Result<BoundExprPtr> BinderImpl::BindBetween(const ast::Between& expr, ExprContext& context) {
  int at = expr.location;
  // x BETWEEN a AND b  ==  x >= a AND x <= b
  FLOE_ASSIGN_OR_RETURN(auto value, BindExpr(*expr.args[0], context));
  FLOE_ASSIGN_OR_RETURN(auto low, BindExpr(*expr.args[1], context));
  FLOE_ASSIGN_OR_RETURN(auto high, BindExpr(*expr.args[2], context));
  FLOE_ASSIGN_OR_RETURN(auto lower, BindOperatorCall("gte", value->Clone(), std::move(low), at, "BETWEEN"));
  FLOE_ASSIGN_OR_RETURN(auto upper, BindOperatorCall("lte", std::move(value), std::move(high), at, "BETWEEN"));
  auto both = std::make_unique<BoundAnd>(SqlType::Boolean());
  both->location = at;
  both->args.push_back(std::move(lower));
  both->args.push_back(std::move(upper));
  if (!expr.negated) return both;
  return MakeNot(std::move(both), at);
}

}  // namespace floe::sql
