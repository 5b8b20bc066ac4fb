// The IS forms: IS [NOT] NULL, IS [NOT] TRUE | FALSE, IS [NOT] DISTINCT FROM.
#include "sql/binder/binder_internal.h"
#include "sql/types/type_rules.h"

namespace floe::sql {

Result<BoundExprPtr> BinderImpl::BindIsNull(const ast::IsNull& expr, ExprContext& context) {
  int at = expr.location;
  FLOE_ASSIGN_OR_RETURN(auto arg, BindExpr(*expr.args[0], context));
  auto out = std::make_unique<BoundIsNull>(SqlType::Boolean());
  out->location = at;
  out->negated = expr.negated;
  out->args.push_back(std::move(arg));
  return out;
}

Result<BoundExprPtr> BinderImpl::BindIsBool(const ast::IsBool& expr, ExprContext& context) {
  int at = expr.location;
  // x IS TRUE == coalesce(x, false); IS FALSE == NOT coalesce(x, true); negations invert.
  FLOE_ASSIGN_OR_RETURN(auto arg, BindExpr(*expr.args[0], context));
  FLOE_ASSIGN_OR_RETURN(arg, Coerce(std::move(arg), SqlType::Boolean(), at, "IS TRUE/FALSE"));
  std::vector<BoundExprPtr> args;
  args.push_back(std::move(arg));
  args.push_back(MakeConstant(Value::Boolean(!expr.bool_value)));
  auto out = MakeCall("coalesce", SqlType::Boolean(), std::move(args));
  out->location = at;
  bool invert = expr.bool_value == expr.negated;
  if (!invert) return out;
  return MakeNot(std::move(out), at);
}

Result<BoundExprPtr> BinderImpl::BindIsDistinct(const ast::IsDistinct& expr, ExprContext& context) {
  int at = expr.location;
  FLOE_ASSIGN_OR_RETURN(auto left, BindExpr(*expr.args[0], context));
  FLOE_ASSIGN_OR_RETURN(auto right, BindExpr(*expr.args[1], context));
  auto common = CommonSuperType(left->type, right->type);
  if (!common) {
    return ErrorAt(
        at, fmt::format("Cannot apply operator: {} IS DISTINCT FROM {}", left->type.ToString(), right->type.ToString()),
        ErrorKind::kInvalidArgument, ErrorCode::kTypeMismatch);
  }
  std::vector<BoundExprPtr> args;
  FLOE_ASSIGN_OR_RETURN(auto l, Coerce(std::move(left), *common, at, "IS DISTINCT FROM"));
  FLOE_ASSIGN_OR_RETURN(auto r, Coerce(std::move(right), *common, at, "IS DISTINCT FROM"));
  args.push_back(std::move(l));
  args.push_back(std::move(r));
  auto out = MakeCall("is_distinct_from", SqlType::Boolean(), std::move(args));
  out->location = at;
  if (!expr.negated) return out;
  return MakeNot(std::move(out), at);
}

}  // namespace floe::sql
