// Nested values: a row's field (r.f), an array's element or a map's value (a[i], m[k]), and the
// ARRAY[...] and ROW(...) constructors.
#include "sql/binder/binder_internal.h"
#include "sql/types/type_rules.h"

namespace floe::sql {

Result<BoundExprPtr> BinderImpl::BindFieldAccess(const ast::FieldAccess& expr, ExprContext& context) {
  int at = expr.location;
  FLOE_ASSIGN_OR_RETURN(auto base, BindExpr(*expr.args[0], context));
  if (base->type.kind() != TypeKind::kRow) {
    return ErrorAt(at, fmt::format("Expression of type {} has no field '{}'", base->type.ToString(), expr.field));
  }
  for (const RowField& field : base->type.fields()) {
    if (field.name != expr.field) continue;
    SqlType type = field.type;
    std::vector<BoundExprPtr> args;
    args.push_back(std::move(base));
    args.push_back(MakeConstant(Value::String(SqlType::Varchar(), expr.field)));
    auto out = MakeCall("field_access", type, std::move(args));
    out->location = at;
    return out;
  }
  return ErrorAt(at, fmt::format("Field '{}' not found in {}", expr.field, base->type.ToString()));
}

Result<BoundExprPtr> BinderImpl::BindSubscript(const ast::Subscript& expr, ExprContext& context) {
  int at = expr.location;
  FLOE_ASSIGN_OR_RETURN(auto base, BindExpr(*expr.args[0], context));
  FLOE_ASSIGN_OR_RETURN(auto index, BindExpr(*expr.args[1], context));
  if (base->type.kind() == TypeKind::kArray) {
    if (!CanCoerce(index->type, SqlType::Bigint()) && !IsTextLiteral(*index)) {
      return ErrorAt(expr.args[1]->location,
                     fmt::format("Array subscript must be an integer: actual type {}", index->type.ToString()),
                     ErrorKind::kInvalidArgument, ErrorCode::kTypeMismatch);
    }
    FLOE_ASSIGN_OR_RETURN(index, Coerce(std::move(index), SqlType::Bigint(), expr.args[1]->location, "array index"));
    SqlType type = base->type.element();
    std::vector<BoundExprPtr> args;
    args.push_back(std::move(base));
    args.push_back(std::move(index));
    auto out = MakeCall("subscript", type, std::move(args));
    out->location = at;
    return out;
  }
  if (base->type.kind() == TypeKind::kMap) {
    if (!CanCoerce(index->type, base->type.element()) && !IsTextLiteral(*index)) {
      return ErrorAt(expr.args[1]->location,
                     fmt::format("Map key must be of type {}: actual type {}", base->type.element().ToString(),
                                 index->type.ToString()),
                     ErrorKind::kInvalidArgument, ErrorCode::kTypeMismatch);
    }
    FLOE_ASSIGN_OR_RETURN(index, Coerce(std::move(index), base->type.element(), expr.args[1]->location, "map key"));
    SqlType type = base->type.value();
    std::vector<BoundExprPtr> args;
    args.push_back(std::move(base));
    args.push_back(std::move(index));
    auto out = MakeCall("subscript", type, std::move(args));
    out->location = at;
    return out;
  }
  return ErrorAt(at, fmt::format("Cannot use [] on {}: only arrays and maps have elements", base->type.ToString()),
                 ErrorKind::kInvalidArgument, ErrorCode::kTypeMismatch);
}

Result<BoundExprPtr> BinderImpl::BindConstructor(const ast::Expr& expr, ExprContext& context) {
  int at = expr.location;
  std::vector<BoundExprPtr> args;
  SqlType element = SqlType::Unknown();
  std::vector<RowField> fields;
  for (const auto& arg : expr.args) {
    FLOE_ASSIGN_OR_RETURN(auto bound, BindExpr(*arg, context));
    if (expr.kind == ast::ExprKind::kArray) {
      auto common = CommonSuperType(element, bound->type);
      if (!common) return ErrorAt(arg->location, "All ARRAY elements must be the same type");
      element = *common;
    } else {
      fields.push_back(RowField{"", bound->type});
    }
    args.push_back(std::move(bound));
  }
  if (expr.kind == ast::ExprKind::kArray) {
    for (auto& arg : args) {
      FLOE_ASSIGN_OR_RETURN(arg, Coerce(std::move(arg), element, at, "ARRAY"));
    }
  }
  auto out = MakeCall(expr.kind == ast::ExprKind::kArray ? "array_constructor" : "row_constructor",
                      expr.kind == ast::ExprKind::kArray ? SqlType::Array(element) : SqlType::Row(std::move(fields)),
                      std::move(args));
  out->location = at;
  return out;
}

}  // namespace floe::sql
