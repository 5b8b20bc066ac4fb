// CASE [operand] WHEN ... THEN ... [ELSE ...] END: an operand form becomes equality tests; every
// result is coerced to the results' common type.
#include "sql/binder/binder_internal.h"
#include "sql/types/type_rules.h"

namespace floe::sql {

Result<BoundExprPtr> BinderImpl::BindCase(const ast::Case& expr, ExprContext& context) {
  int at = expr.location;
  std::vector<BoundExprPtr> conditions, results;
  BoundExprPtr operand;
  if (expr.case_operand) {
    FLOE_ASSIGN_OR_RETURN(operand, BindExpr(*expr.case_operand, context));
  }
  for (size_t i = 0; i + 1 < expr.args.size(); i += 2) {
    FLOE_ASSIGN_OR_RETURN(auto when, BindExpr(*expr.args[i], context));
    if (operand) {
      auto common = CommonSuperType(operand->type, when->type);
      if (!common) {
        return ErrorAt(expr.args[i]->location, fmt::format("CASE operand type {} does not match WHEN type {}",
                                                           operand->type.ToString(), when->type.ToString()));
      }
      std::vector<BoundExprPtr> eq_args;
      FLOE_ASSIGN_OR_RETURN(auto left, Coerce(operand->Clone(), *common, at, "CASE"));
      FLOE_ASSIGN_OR_RETURN(auto right, Coerce(std::move(when), *common, at, "CASE"));
      eq_args.push_back(std::move(left));
      eq_args.push_back(std::move(right));
      when = MakeCall("eq", SqlType::Boolean(), std::move(eq_args));
    } else {
      FLOE_ASSIGN_OR_RETURN(when, Coerce(std::move(when), SqlType::Boolean(), expr.args[i]->location, "WHEN"));
    }
    conditions.push_back(std::move(when));
    FLOE_ASSIGN_OR_RETURN(auto then, BindExpr(*expr.args[i + 1], context));
    results.push_back(std::move(then));
  }
  BoundExprPtr otherwise;
  if (expr.case_else) {
    FLOE_ASSIGN_OR_RETURN(otherwise, BindExpr(*expr.case_else, context));
  }
  SqlType type = SqlType::Unknown();
  auto unify = [&](const BoundExprPtr& e, int location) -> Status {
    auto common = CommonSuperType(type, e->type);
    if (!common) {
      return ErrorAt(location, fmt::format("All CASE results must be the same type or coercible to a common type. "
                                           "Cannot find common type between {} and {}",
                                           type.ToString(), e->type.ToString()));
    }
    type = *common;
    return OkStatus();
  };
  for (size_t i = 0; i < results.size(); ++i) FLOE_RETURN_IF_ERROR(unify(results[i], expr.args[2 * i + 1]->location));
  if (otherwise) FLOE_RETURN_IF_ERROR(unify(otherwise, expr.case_else->location));
  auto out = std::make_unique<BoundCase>(type);
  out->location = at;
  for (size_t i = 0; i < conditions.size(); ++i) {
    out->args.push_back(std::move(conditions[i]));
    FLOE_ASSIGN_OR_RETURN(auto result, Coerce(std::move(results[i]), type, at, "CASE"));
    out->args.push_back(std::move(result));
  }
  if (otherwise) {
    out->has_else = true;
    FLOE_ASSIGN_OR_RETURN(auto result, Coerce(std::move(otherwise), type, at, "CASE"));
    out->args.push_back(std::move(result));
  }
  return out;
}

}  // namespace floe::sql
