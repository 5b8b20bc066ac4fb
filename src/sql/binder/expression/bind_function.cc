// Function calls: scalar functions, aggregates (collected for the aggregation node, replaced by
// its output column) and window calls (bind_window.cc); CURRENT_DATE and friends.
#include <cctype>

#include "sql/binder/binder_internal.h"
#include "sql/types/temporal.h"

namespace floe::sql {

Result<BoundExprPtr> BinderImpl::BindFunction(const ast::FunctionCall& expr, ExprContext& context) {
  int at = expr.location;
  if (expr.names.size() > 1) {
    return ErrorAt(at, fmt::format("Function '{}' not registered", DottedName(expr.names)), ErrorKind::kInvalidArgument,
                   ErrorCode::kNoSuchFunction);
  }
  std::string name = expr.names[0];
  if (name == "grouping" && !expr.window) return BindGrouping(expr, context);
  const FunctionInfo* info = functions_.Find(name);
  if (info == nullptr) {
    return ErrorAt(at, fmt::format("Function '{}' not registered", name), ErrorKind::kInvalidArgument,
                   ErrorCode::kNoSuchFunction);
  }
  bool is_aggregate_call = info->kind == FunctionKind::kAggregate && !expr.window;
  if (expr.window && info->kind == FunctionKind::kScalar) {
    return ErrorAt(at, fmt::format("'{}' is not a window function", name));
  }
  if (!expr.window && info->kind == FunctionKind::kWindow) {
    return ErrorAt(at, fmt::format("Window function {} requires an OVER clause", name));
  }
  if (expr.star_arg && name != "count") return ErrorAt(at, fmt::format("'{}(*)' is not allowed", name));
  if (info->kind == FunctionKind::kScalar && (expr.distinct || expr.filter || !expr.order_by.empty())) {
    return ErrorAt(at,
                   fmt::format("DISTINCT, FILTER and ORDER BY are only allowed for aggregate functions, not {}", name));
  }
  if (is_aggregate_call && !context.allow_aggregates) {
    return ErrorAt(at, fmt::format("{} cannot contain aggregations: {}", context.clause, name));
  }
  if (expr.window && !context.allow_windows) {
    return ErrorAt(at, fmt::format("{} cannot contain window functions: {}", context.clause, name));
  }

  // Arguments of an aggregate or window call see the input rows: no nested aggregates, and
  // no group-key rewriting (that applies to the call's result, not its inputs).
  ExprContext argument_context = context;
  if (is_aggregate_call || expr.window) {
    argument_context.allow_aggregates = expr.window != nullptr && context.allow_aggregates;
    argument_context.allow_windows = false;
    argument_context.clause = is_aggregate_call ? "Aggregate arguments" : "Window function arguments";
  }
  std::vector<BoundExprPtr> args;
  for (const auto& arg : expr.args) {
    if (arg->kind == ast::ExprKind::kStar) return ErrorAt(arg->location, "'*' is not allowed here");
    FLOE_ASSIGN_OR_RETURN(auto bound, BindExpr(*arg, argument_context));
    args.push_back(std::move(bound));
  }
  // extract('year', ts), date_trunc('hour', ts) and friends: the unit must be a known constant.
  if ((name == "extract" || name == "date_trunc" || name == "date_add" || name == "date_diff") && !args.empty()) {
    if (args[0]->kind != BoundKind::kConstant || args[0]->type.kind() != TypeKind::kVarchar ||
        args[0]->As<BoundConstant>().value.is_null()) {
      return ErrorAt(expr.args[0]->location, fmt::format("{}: the unit must be a constant string", name));
    }
    const std::string& given = args[0]->As<BoundConstant>().value.as_string();
    std::string unit;
    for (char c : given) unit.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
    bool known = name == "extract" ? ExtractField(unit, 0).has_value() : TruncateMicros(unit, 0).has_value();
    if (!known) return ErrorAt(expr.args[0]->location, fmt::format("'{}' is not a valid {} unit", given, name));
    args[0] = MakeConstant(Value::String(SqlType::Varchar(), unit));
  }
  std::vector<SqlType> types;
  for (const auto& a : args) types.push_back(a->type);
  auto resolved = info->resolve(types);
  if (!resolved.has_value()) return UserErrorAt(at, resolved.error());
  for (size_t i = 0; i < args.size() && i < resolved->arguments.size(); ++i) {
    FLOE_ASSIGN_OR_RETURN(args[i], Coerce(std::move(args[i]), resolved->arguments[i], expr.args[i]->location, name));
  }

  if (!is_aggregate_call && !expr.window) {
    auto out = MakeCall(name, resolved->result, std::move(args));
    out->location = at;
    return out;
  }

  BoundExprPtr filter;
  if (expr.filter) {
    ExprContext filter_context = argument_context;
    filter_context.clause = "FILTER";
    FLOE_ASSIGN_OR_RETURN(filter, BindPredicate(*expr.filter, filter_context));
  }
  ColumnId id = NewColumn();
  if (expr.window) {
    // array_agg(x ORDER BY y) OVER (...) would need the frame's rows sorted per call; refused
    // rather than answered in frame order.
    if (!expr.order_by.empty()) {
      return ErrorAt(expr.order_by[0].expr->location, "ORDER BY in the arguments of a window function is not supported",
                     ErrorKind::kNotImplemented);
    }
    WindowCall call;
    call.function = name;
    call.args = std::move(args);
    call.star = expr.star_arg;
    call.distinct = expr.distinct;
    call.filter = std::move(filter);
    call.type = resolved->result;
    return BindWindowCall(*expr.window, std::move(call), id, context, argument_context, at);
  }
  std::vector<SortKey> order;
  for (const auto& item : expr.order_by) {
    FLOE_ASSIGN_OR_RETURN(auto key, BindExpr(*item.expr, argument_context));
    order.push_back(SortKey{std::move(key), item.descending, item.nulls_first.value_or(false)});
  }
  AggregateCall call;
  call.function = name;
  call.args = std::move(args);
  call.star = expr.star_arg;
  call.distinct = expr.distinct;
  call.filter = std::move(filter);
  call.order = std::move(order);
  call.type = resolved->result;
  context.aggregates->push_back(std::move(call));
  context.aggregate_ids->push_back(id);
  auto result_column = MakeColumn(id, resolved->result, name);
  result_column->location = at;
  return result_column;
}

Result<BoundExprPtr> BinderImpl::BindCurrent(const ast::Current& expr) {
  int at = expr.location;
  const FunctionInfo* info = functions_.Find(expr.name);
  if (info == nullptr) return ErrorAt(at, fmt::format("{} is not supported", expr.name), ErrorKind::kNotImplemented);
  auto resolved = info->resolve({});
  if (!resolved.has_value()) return UserErrorAt(at, resolved.error());
  auto out = MakeCall(expr.name, resolved->result, {});
  out->location = at;
  return out;
}

}  // namespace floe::sql
