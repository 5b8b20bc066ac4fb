// x [NOT] LIKE | ILIKE pattern: calls of like / ilike over text.
#include "sql/binder/binder_internal.h"

namespace floe::sql {

Result<BoundExprPtr> BinderImpl::BindLike(const ast::Like& expr, ExprContext& context) {
  int at = expr.location;
  std::vector<BoundExprPtr> args;
  for (const auto& arg : expr.args) {
    FLOE_ASSIGN_OR_RETURN(auto bound, BindExpr(*arg, context));
    FLOE_ASSIGN_OR_RETURN(bound, Coerce(std::move(bound), SqlType::Varchar(), arg->location, "LIKE"));
    args.push_back(std::move(bound));
  }
  auto like = MakeCall(expr.case_insensitive ? "ilike" : "like", SqlType::Boolean(), std::move(args));
  like->location = at;
  if (!expr.negated) return like;
  return MakeNot(std::move(like), at);
}

}  // namespace floe::sql
