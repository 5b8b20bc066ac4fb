// Operators: unary NOT, + and -, binary arithmetic, comparison and ||, and AND/OR. Binary operators
// are calls of the functions they name (add, eq, ...), resolved as any function call is.
#include "sql/binder/binder_internal.h"

namespace floe::sql {

Result<BoundExprPtr> BinderImpl::BindUnary(const ast::Unary& expr, ExprContext& context) {
  int at = expr.location;
  FLOE_ASSIGN_OR_RETURN(auto arg, BindExpr(*expr.args[0], context));
  if (expr.op == "NOT") {
    FLOE_ASSIGN_OR_RETURN(arg, Coerce(std::move(arg), SqlType::Boolean(), at, "NOT"));
    return MakeNot(std::move(arg), at);
  }
  if (expr.op == "+") return arg;
  if (expr.op != "-") return ErrorAt(at, fmt::format("Unknown operator: {}", expr.op), ErrorKind::kNotImplemented);
  std::vector<SqlType> types{arg->type};
  auto resolved = functions_.Find("negate")->resolve(types);
  if (!resolved.has_value()) return UserErrorAt(at, resolved.error());
  std::vector<BoundExprPtr> args;
  args.push_back(std::move(arg));
  auto out = MakeCall("negate", resolved->result, std::move(args));
  out->location = at;
  return out;
}

Result<BoundExprPtr> BinderImpl::BindOperatorCall(const std::string& function, BoundExprPtr left, BoundExprPtr right,
                                                  int location, std::string_view what) {
  std::vector<BoundExprPtr> args;
  args.push_back(std::move(left));
  args.push_back(std::move(right));
  // Untyped string literals next to a typed value take its type first: ts > '2024-01-01'.
  if (IsComparison(function) || function == "add" || function == "subtract") {
    for (int side = 0; side < 2; ++side) {
      const SqlType& other = args[1 - side]->type;
      if (IsTextLiteral(*args[side]) && other.kind() != TypeKind::kVarchar && !other.IsUnknown()) {
        FLOE_ASSIGN_OR_RETURN(args[side], Coerce(std::move(args[side]), other, location, what));
      }
    }
  }
  std::vector<SqlType> types{args[0]->type, args[1]->type};
  auto resolved = functions_.Find(function)->resolve(types);
  if (!resolved.has_value()) return UserErrorAt(location, resolved.error());
  for (size_t i = 0; i < args.size() && i < resolved->arguments.size(); ++i) {
    FLOE_ASSIGN_OR_RETURN(args[i], Coerce(std::move(args[i]), resolved->arguments[i], location, what));
  }
  auto out = MakeCall(function, resolved->result, std::move(args));
  out->location = location;
  return out;
}

Result<BoundExprPtr> BinderImpl::BindBinary(const ast::Binary& expr, ExprContext& context) {
  const char* function = OperatorFunction(expr.op);
  if (function == nullptr) {
    return ErrorAt(expr.location, fmt::format("Operator {} is not supported", expr.op), ErrorKind::kNotImplemented);
  }
  FLOE_ASSIGN_OR_RETURN(auto left, BindExpr(*expr.args[0], context));
  FLOE_ASSIGN_OR_RETURN(auto right, BindExpr(*expr.args[1], context));
  return BindOperatorCall(function, std::move(left), std::move(right), expr.location, function);
}

Result<BoundExprPtr> BinderImpl::BindConjunction(const ast::Expr& expr, ExprContext& context) {
  int at = expr.location;
  BoundExprPtr out;
  if (expr.kind == ast::ExprKind::kAnd) {
    out = std::make_unique<BoundAnd>(SqlType::Boolean());
  } else {
    out = std::make_unique<BoundOr>(SqlType::Boolean());
  }
  out->location = at;
  for (const auto& arg : expr.args) {
    FLOE_ASSIGN_OR_RETURN(auto bound, BindExpr(*arg, context));
    FLOE_ASSIGN_OR_RETURN(bound, Coerce(std::move(bound), SqlType::Boolean(), arg->location,
                                        expr.kind == ast::ExprKind::kAnd ? "AND" : "OR"));
    out->args.push_back(std::move(bound));
  }
  return out;
}

}  // namespace floe::sql
