// x [NOT] IN (a, b, ...): every item and x coerced to their common type.
#include "sql/binder/binder_internal.h"
#include "sql/types/type_rules.h"

namespace floe::sql {

Result<BoundExprPtr> BinderImpl::BindInList(const ast::InList& expr, ExprContext& context) {
  int at = expr.location;
  std::vector<BoundExprPtr> items;
  SqlType type = SqlType::Unknown();
  for (size_t i = 0; i < expr.args.size(); ++i) {
    FLOE_ASSIGN_OR_RETURN(auto item, BindExpr(*expr.args[i], context));
    items.push_back(std::move(item));
  }
  // String literals in the list take the tested value's type.
  for (size_t i = 1; i < items.size(); ++i) {
    if (items[i]->kind == BoundKind::kConstant && items[i]->type.kind() == TypeKind::kVarchar &&
        items[0]->type.kind() != TypeKind::kVarchar && !items[0]->type.IsUnknown()) {
      FLOE_ASSIGN_OR_RETURN(items[i], Coerce(std::move(items[i]), items[0]->type, expr.args[i]->location, "IN"));
    }
  }
  for (size_t i = 0; i < items.size(); ++i) {
    auto common = CommonSuperType(type, items[i]->type);
    if (!common) {
      return ErrorAt(expr.args[i]->location, fmt::format("IN value and list items must be the same type: {} vs {}",
                                                         type.ToString(), items[i]->type.ToString()));
    }
    type = *common;
  }
  auto out = std::make_unique<BoundInList>(SqlType::Boolean());
  out->location = at;
  out->negated = expr.negated;
  for (size_t i = 0; i < items.size(); ++i) {
    FLOE_ASSIGN_OR_RETURN(auto item, Coerce(std::move(items[i]), type, expr.args[i]->location, "IN"));
    out->args.push_back(std::move(item));
  }
  return out;
}

}  // namespace floe::sql
