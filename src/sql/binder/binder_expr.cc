// Expression binding, shared parts: coercions, constants, grouping, errors, and the dispatch of
// each expression kind to its binder in binder/expression/ (one file per kind, as DuckDB does).
#include <algorithm>

#include "sql/parser/ast_query.h"
#include "sql/binder/binder_internal.h"
#include "sql/types/sql_error.h"
#include "sql/types/temporal.h"
#include "sql/types/type_rules.h"
#include "sql/types/value_cast.h"

namespace floe::sql {

std::string DottedName(const std::vector<std::string>& parts) {
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i) out += (i > 0 ? "." : "") + parts[i];
  return out;
}

const char* OperatorFunction(const std::string& op) {
  static const std::pair<const char*, const char*> kOps[] = {
      {"+", "add"}, {"-", "subtract"}, {"*", "multiply"}, {"/", "divide"}, {"%", "modulus"}, {"=", "eq"},
      {"<>", "neq"}, {"!=", "neq"},    {"<", "lt"},       {"<=", "lte"},   {">", "gt"},      {">=", "gte"},
      {"||", "concat"},
  };
  for (auto [symbol, name] : kOps) {
    if (op == symbol) return name;
  }
  return nullptr;
}

bool IsComparison(const std::string& name) {
  return name == "eq" || name == "neq" || name == "lt" || name == "lte" || name == "gt" || name == "gte" ||
         name == "is_distinct_from";
}

bool IsTextLiteral(const BoundExpr& e) {
  return e.kind == BoundKind::kConstant && e.type.kind() == TypeKind::kVarchar &&
         !e.As<BoundConstant>().value.is_null();
}

std::vector<ColumnId> ColumnsReadBy(const LogicalOperator& plan) {
  std::vector<ColumnId> read;
  auto collect = [&](const LogicalOperator& op, auto&& self) -> void {
    ForEachExpression(op, [&](const BoundExpr& e) { e.CollectColumns(read); });
    for (const auto& child : op.children) self(*child, self);
  };
  collect(plan, collect);
  std::sort(read.begin(), read.end());
  read.erase(std::unique(read.begin(), read.end()), read.end());
  return read;
}

BoundExprPtr MakeNot(BoundExprPtr arg, int location) {
  auto out = std::make_unique<BoundNot>(SqlType::Boolean());
  out->location = location;
  out->args.push_back(std::move(arg));
  return out;
}

std::unexpected<Error> BinderImpl::ErrorAt(int location, std::string_view message, ErrorKind kind,
                                           ErrorCode code) const {
  return SqlError(kind, sql_, location, message, code);
}

std::unexpected<Error> BinderImpl::ErrorAt(int location, const Error& error) const {
  return std::unexpected(PointAt(error, sql_, location));
}

std::unexpected<Error> BinderImpl::NoSuchTableAt(int location, const QualifiedTableName& name, ErrorKind kind) const {
  return ErrorAt(location, fmt::format("Table '{}' does not exist", name.ToString()), kind, ErrorCode::kNoSuchTable);
}

std::unexpected<Error> BinderImpl::UserErrorAt(int location, const Error& error) const {
  return ErrorAt(location, error.message(), ErrorKind::kInvalidArgument, error.code());
}

std::optional<Value> BinderImpl::ConstantValue(const BoundExpr& expr) const {
  if (expr.kind == BoundKind::kConstant) return expr.As<BoundConstant>().value;
  if (expr.kind == BoundKind::kCast && expr.args[0]->kind == BoundKind::kConstant) {
    const Value& v = expr.args[0]->As<BoundConstant>().value;
    if (v.is_null()) return Value::Null(expr.type);
    if (v.type().kind() == TypeKind::kVarchar) return CastFromText(v.as_string(), expr.type, options_.time_zone.get());
    if (v.type().IsInteger() && expr.type.IsInteger()) return Value::Int(expr.type, v.as_int());
    if (v.type().IsInteger() && expr.type.kind() == TypeKind::kDecimal) {
      return Value::Decimal(expr.type, static_cast<Int128>(v.as_int()) * PowerOfTen(expr.type.scale()));
    }
    if (v.type().IsInteger() && (expr.type.kind() == TypeKind::kDouble || expr.type.kind() == TypeKind::kReal)) {
      return Value::Double(expr.type, static_cast<double>(v.as_int()));
    }
    if (v.type().kind() == TypeKind::kDate && expr.type.kind() == TypeKind::kTimestamp) {
      return Value::Int(expr.type, v.as_int() * kMicrosPerDay);
    }
  }
  return std::nullopt;
}

Result<BoundExprPtr> BinderImpl::Coerce(BoundExprPtr expr, const SqlType& type, int location, std::string_view what) {
  if (expr->type == type) return expr;
  // A string literal next to a typed value takes that type (as PostgreSQL's untyped literals do).
  if (expr->kind == BoundKind::kConstant && expr->type.kind() == TypeKind::kVarchar &&
      !expr->As<BoundConstant>().value.is_null() && type.kind() != TypeKind::kVarchar) {
    const std::string& text = expr->As<BoundConstant>().value.as_string();
    auto converted = CastFromText(text, type, options_.time_zone.get());
    if (!converted) {
      return ErrorAt(expr->location >= 0 ? expr->location : location,
                     fmt::format("Cannot cast '{}' to {}", text, type.ToString()));
    }
    auto out = MakeConstant(std::move(*converted));
    out->location = expr->location;
    return out;
  }
  if (!CanCoerce(expr->type, type)) {
    return ErrorAt(expr->location >= 0 ? expr->location : location,
                   fmt::format("{}: cannot use {} where {} is expected", what, expr->type.ToString(), type.ToString()));
  }
  if (expr->kind == BoundKind::kConstant && expr->As<BoundConstant>().value.is_null()) {
    auto out = MakeConstant(Value::Null(type));
    out->location = expr->location;
    return out;
  }
  return MakeCast(std::move(expr), type);
}

Result<BoundExprPtr> BinderImpl::BindPredicate(const ast::Expr& expr, ExprContext& context) {
  FLOE_ASSIGN_OR_RETURN(auto bound, BindExpr(expr, context));
  if (bound->type.kind() != TypeKind::kBoolean && !bound->type.IsUnknown()) {
    return ErrorAt(expr.location, fmt::format("{} clause must evaluate to a boolean: actual type {}", context.clause,
                                              bound->type.ToString()));
  }
  if (bound->type.IsUnknown()) return MakeConstant(Value::Null(SqlType::Boolean()));
  return bound;
}

Result<BoundExprPtr> BinderImpl::BindGrouping(const ast::Expr& expr, ExprContext& context) {
  if (context.group_keys == nullptr || context.grouping_sets == nullptr) {
    return ErrorAt(expr.location, fmt::format("{} cannot contain grouping(): it needs a GROUP BY", context.clause));
  }
  // Trino's limit: the bits must fit a bigint.
  if (expr.args.empty() || expr.args.size() > 62) return ErrorAt(expr.location, "grouping() takes 1 to 62 arguments");
  std::vector<int> keys;
  for (const auto& arg : expr.args) {
    ExprContext input = context;
    input.allow_aggregates = false;
    input.allow_windows = false;
    FLOE_ASSIGN_OR_RETURN(auto bound, BindExpr(*arg, input));
    int found = -1;
    for (size_t i = 0; i < context.group_keys->size() && found < 0; ++i) {
      if ((*context.group_keys)[i]->Equals(*bound)) found = static_cast<int>(i);
    }
    if (found < 0) return ErrorAt(arg->location, "the arguments of grouping() must be expressions of the GROUP BY");
    keys.push_back(found);
  }
  auto bits_of = [&](const std::vector<int>& set) {
    int64_t bits = 0;
    for (int key : keys) bits = (bits << 1) | (std::find(set.begin(), set.end(), key) == set.end() ? 1 : 0);
    return bits;
  };
  const GroupingSets& grouping = *context.grouping_sets;
  if (!grouping.set_column) return MakeConstant(Value::Int(SqlType::Bigint(), 0));
  auto out = std::make_unique<BoundCase>(SqlType::Bigint());
  out->location = expr.location;
  for (size_t s = 0; s < grouping.sets.size(); ++s) {
    std::vector<BoundExprPtr> compare;
    compare.push_back(MakeColumn(*grouping.set_column, SqlType::Bigint(), "$grouping_set"));
    compare.push_back(MakeConstant(Value::Int(SqlType::Bigint(), static_cast<int64_t>(s))));
    out->args.push_back(MakeCall("eq", SqlType::Boolean(), std::move(compare)));
    out->args.push_back(MakeConstant(Value::Int(SqlType::Bigint(), bits_of(grouping.sets[s]))));
  }
  return out;
}

Result<BoundExprPtr> BinderImpl::ApplyGrouping(BoundExprPtr expr, const ExprContext& context, int location) {
  if (context.group_keys == nullptr) return expr;
  for (size_t i = 0; i < context.group_keys->size(); ++i) {
    if (expr->Equals(*(*context.group_keys)[i])) {
      auto column = MakeColumn((*context.group_ids)[i], expr->type,
                               expr->kind == BoundKind::kColumn ? expr->As<BoundColumnRef>().name : "expr");
      column->location = expr->location;
      return column;
    }
  }
  if (expr->kind == BoundKind::kColumn && context.grouped_input->contains(expr->As<BoundColumnRef>().column)) {
    return ErrorAt(expr->location >= 0 ? expr->location : location,
                   fmt::format("'{}' must be an aggregate expression or appear in GROUP BY clause",
                               expr->As<BoundColumnRef>().name));
  }
  if (expr->kind == BoundKind::kSubquery) {
    for (ColumnId id : expr->As<BoundSubquery>().correlated) {
      if (context.grouped_input->contains(id)) {
        return ErrorAt(expr->location, "a correlated subquery may only reference grouped columns (not supported yet)",
                       ErrorKind::kNotImplemented);
      }
    }
  }
  for (auto& arg : expr->args) {
    FLOE_ASSIGN_OR_RETURN(arg, ApplyGrouping(std::move(arg), context, location));
  }
  return expr;
}

Result<BoundExprPtr> BinderImpl::BindExpr(const ast::Expr& expr, ExprContext& context) {
  switch (expr.kind) {
    case ast::ExprKind::kLiteral:
      return BindLiteral(expr.As<ast::Literal>());
    case ast::ExprKind::kParameter:
      return BindParameter(expr.As<ast::Parameter>());
    case ast::ExprKind::kColumnRef:
      return BindColumnRef(expr.As<ast::ColumnRef>(), context);
    case ast::ExprKind::kStar:
      return ErrorAt(expr.location, "'*' is not allowed here");
    case ast::ExprKind::kUnary:
      return BindUnary(expr.As<ast::Unary>(), context);
    case ast::ExprKind::kBinary:
      return BindBinary(expr.As<ast::Binary>(), context);
    case ast::ExprKind::kAnd:
    case ast::ExprKind::kOr:
      return BindConjunction(expr, context);
    case ast::ExprKind::kFunction:
      return BindFunction(expr.As<ast::FunctionCall>(), context);
    case ast::ExprKind::kCurrent:
      return BindCurrent(expr.As<ast::Current>());
    case ast::ExprKind::kCast:
      return BindCast(expr.As<ast::Cast>(), context);
    case ast::ExprKind::kCase:
      return BindCase(expr.As<ast::Case>(), context);
    case ast::ExprKind::kInList:
      return BindInList(expr.As<ast::InList>(), context);
    case ast::ExprKind::kBetween:
      return BindBetween(expr.As<ast::Between>(), context);
    case ast::ExprKind::kLike:
      return BindLike(expr.As<ast::Like>(), context);
    case ast::ExprKind::kIsNull:
      return BindIsNull(expr.As<ast::IsNull>(), context);
    case ast::ExprKind::kIsBool:
      return BindIsBool(expr.As<ast::IsBool>(), context);
    case ast::ExprKind::kIsDistinct:
      return BindIsDistinct(expr.As<ast::IsDistinct>(), context);
    case ast::ExprKind::kSubquery:
    case ast::ExprKind::kExists:
    case ast::ExprKind::kInSubquery:
      return BindSubquery(expr, context);
    case ast::ExprKind::kFieldAccess:
      return BindFieldAccess(expr.As<ast::FieldAccess>(), context);
    case ast::ExprKind::kSubscript:
      return BindSubscript(expr.As<ast::Subscript>(), context);
    case ast::ExprKind::kArray:
    case ast::ExprKind::kRow:
      return BindConstructor(expr, context);
  }
  return ErrorAt(expr.location, "unknown expression kind", ErrorKind::kInternal);
}

}  // namespace floe::sql
