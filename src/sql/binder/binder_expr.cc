// Expression binding: names to column ids, calls to typed functions, implicit coercions to
// explicit casts, aggregates and window calls collected for their plan nodes.
#include <algorithm>
#include <cctype>

#include "sql/parser/ast_query.h"
#include "sql/binder/binder_internal.h"
#include "sql/types/sql_error.h"
#include "sql/types/temporal.h"
#include "sql/types/type_rules.h"
#include "sql/types/value_cast.h"

namespace floe::sql {
namespace {

using namespace ast;

std::string Dotted(const std::vector<std::string>& parts) {
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

// Trino's INTERVAL 'n' unit: PostgreSQL's field mask bits.
std::optional<Value> IntervalLiteral(const std::string& text, int fields) {
  char* end = nullptr;
  std::string trimmed = text;
  double amount = std::strtod(trimmed.c_str(), &end);
  if (trimmed.empty() || end == nullptr || *end != '\0') return std::nullopt;
  constexpr int kMonth = 1 << 1, kYear = 1 << 2, kDay = 1 << 3, kHour = 1 << 10, kMinute = 1 << 11, kSecond = 1 << 12;
  if (fields == kYear) return Value::Int(SqlType(TypeKind::kIntervalYearMonth), static_cast<int64_t>(amount * 12));
  if (fields == kMonth) return Value::Int(SqlType(TypeKind::kIntervalYearMonth), static_cast<int64_t>(amount));
  double micros_per_unit = fields == kDay ? kMicrosPerDay : fields == kHour ? 3600.0 * kMicrosPerSecond
                         : fields == kMinute ? 60.0 * kMicrosPerSecond : fields == kSecond ? kMicrosPerSecond : 0;
  if (micros_per_unit == 0) return std::nullopt;
  return Value::Int(SqlType(TypeKind::kIntervalDayTime), static_cast<int64_t>(amount * micros_per_unit));
}

}  // namespace

// A string literal, which takes the type it is used as (Coerce casts its text).
static bool IsTextLiteral(const BoundExpr& e) {
  return e.kind == BoundKind::kConstant && e.type.kind() == TypeKind::kVarchar && !e.value.is_null();
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
  if (expr.kind == BoundKind::kConstant) return expr.value;
  if (expr.kind == BoundKind::kCast && expr.args[0]->kind == BoundKind::kConstant) {
    const Value& v = expr.args[0]->value;
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
  if (expr->kind == BoundKind::kConstant && expr->type.kind() == TypeKind::kVarchar && !expr->value.is_null() &&
      type.kind() != TypeKind::kVarchar) {
    auto converted = CastFromText(expr->value.as_string(), type, options_.time_zone.get());
    if (!converted) {
      return ErrorAt(expr->location >= 0 ? expr->location : location,
                     fmt::format("Cannot cast '{}' to {}", expr->value.as_string(), type.ToString()));
    }
    auto out = MakeConstant(std::move(*converted));
    out->location = expr->location;
    return out;
  }
  if (!CanCoerce(expr->type, type)) {
    return ErrorAt(expr->location >= 0 ? expr->location : location,
                   fmt::format("{}: cannot use {} where {} is expected", what, expr->type.ToString(), type.ToString()));
  }
  if (expr->kind == BoundKind::kConstant && expr->value.is_null()) {
    auto out = MakeConstant(Value::Null(type));
    out->location = expr->location;
    return out;
  }
  return MakeCast(std::move(expr), type);
}

Result<BoundExprPtr> BinderImpl::BindPredicate(const Expr& expr, ExprContext& context) {
  FLOE_ASSIGN_OR_RETURN(auto bound, BindExpr(expr, context));
  if (bound->type.kind() != TypeKind::kBoolean && !bound->type.IsUnknown()) {
    return ErrorAt(expr.location, fmt::format("{} clause must evaluate to a boolean: actual type {}", context.clause,
                                              bound->type.ToString()));
  }
  if (bound->type.IsUnknown()) return MakeConstant(Value::Null(SqlType::Boolean()));
  return bound;
}

Result<BoundExprPtr> BinderImpl::BindGrouping(const Expr& expr, ExprContext& context) {
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
  auto out = std::make_unique<BoundExpr>(BoundKind::kCase, SqlType::Bigint());
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
      auto column = MakeColumn((*context.group_ids)[i], expr->type, expr->kind == BoundKind::kColumn ? expr->name : "expr");
      column->location = expr->location;
      return column;
    }
  }
  if (expr->kind == BoundKind::kColumn && context.grouped_input->contains(expr->column)) {
    return ErrorAt(expr->location >= 0 ? expr->location : location,
                   fmt::format("'{}' must be an aggregate expression or appear in GROUP BY clause", expr->name));
  }
  if (expr->kind == BoundKind::kSubquery) {
    for (ColumnId id : expr->correlated) {
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

namespace {

// Finds `parts` among the relations of `scope`: [qualifier...] column [field...].
struct ColumnMatch {
  const ScopeColumn* column = nullptr;
  size_t consumed = 0;  // Name parts used for the qualifier and column; the rest are fields.
  int matches = 0;
};

bool QualifierMatches(const ScopeRelation& relation, const std::vector<std::string>& parts, size_t q) {
  if (q == 1) return relation.alias == parts[0];
  if (!relation.table) return false;
  if (q == 2) return relation.table->schema == parts[0] && relation.table->table == parts[1];
  if (q == 3) return relation.table->catalog == parts[0] && relation.table->schema == parts[1] && relation.table->table == parts[2];
  return false;
}

ColumnMatch FindColumn(const Scope& scope, const std::vector<std::string>& parts) {
  // Longest qualifier first: catalog.schema.table.column, schema.table.column, alias.column.
  for (size_t q = std::min<size_t>(3, parts.size() - 1); q >= 1; --q) {
    ColumnMatch match;
    for (const ScopeRelation& relation : scope.relations) {
      if (!QualifierMatches(relation, parts, q)) continue;
      for (const ScopeColumn& column : relation.columns) {
        if (column.name == parts[q]) {
          ++match.matches;
          match.column = &column;
          match.consumed = q + 1;
        }
      }
    }
    if (match.matches > 0) return match;
    if (q == 1) break;
  }
  ColumnMatch match;
  for (const ScopeRelation& relation : scope.relations) {
    for (const ScopeColumn& column : relation.columns) {
      if (column.name == parts[0] && !column.hidden) {
        ++match.matches;
        match.column = &column;
        match.consumed = 1;
      }
    }
  }
  return match;
}

}  // namespace

Result<BoundExprPtr> BinderImpl::BindExpr(const Expr& expr, ExprContext& context) {
  int at = expr.location;
  switch (expr.kind) {
    case ExprKind::kLiteral: {
      BoundExprPtr out;
      switch (expr.literal_kind) {
        case LiteralKind::kNull:
          out = MakeConstant(Value::Null(SqlType::Unknown()));
          break;
        case LiteralKind::kBool:
          out = MakeConstant(Value::Boolean(expr.bool_value));
          break;
        case LiteralKind::kInteger: {
          errno = 0;
          char* end = nullptr;
          long long v = std::strtoll(expr.text.c_str(), &end, 10);
          if (errno == 0 && end != nullptr && *end == '\0') {
            bool fits_int = v >= INT32_MIN && v <= INT32_MAX;
            out = MakeConstant(Value::Int(fits_int ? SqlType::Integer() : SqlType::Bigint(), v));
          } else {
            auto decimal = ParseDecimalLiteral(expr.text);
            if (!decimal.has_value()) return ErrorAt(at, fmt::format("Invalid numeric literal: {}", expr.text));
            out = MakeConstant(std::move(*decimal));
          }
          break;
        }
        case LiteralKind::kDecimal: {
          auto decimal = ParseDecimalLiteral(expr.text);
          if (!decimal.has_value()) return ErrorAt(at, fmt::format("Invalid numeric literal: {}", expr.text));
          out = MakeConstant(std::move(*decimal));
          break;
        }
        case LiteralKind::kDouble:
          out = MakeConstant(Value::Double(SqlType::Double(), std::strtod(expr.text.c_str(), nullptr)));
          break;
        case LiteralKind::kString:
          out = MakeConstant(Value::String(SqlType::Varchar(), expr.text));
          break;
        case LiteralKind::kBinary: {
          if (expr.text.size() % 2 != 0) return ErrorAt(at, "Binary literal must have an even number of hex digits");
          std::string bytes;
          for (size_t i = 0; i < expr.text.size(); i += 2) {
            bytes.push_back(static_cast<char>(std::stoi(expr.text.substr(i, 2), nullptr, 16)));
          }
          out = MakeConstant(Value::String(SqlType(TypeKind::kVarbinary), std::move(bytes)));
          break;
        }
      }
      out->location = at;
      return out;
    }
    case ExprKind::kColumnRef: {
      for (Scope* scope = context.scope; scope != nullptr; scope = scope->parent) {
        ColumnMatch match = FindColumn(*scope, expr.names);
        if (match.matches > 1) return ErrorAt(at, fmt::format("Column '{}' is ambiguous", Dotted(expr.names)));
        if (match.matches == 0) continue;
        // A column of an enclosing query: every level in between reads it from outside.
        for (Scope* s = context.scope; s != scope; s = s->parent) s->outer_references.push_back(match.column->id);
        BoundExprPtr out = MakeColumn(match.column->id, match.column->type, match.column->name);
        out->location = at;
        for (size_t i = match.consumed; i < expr.names.size(); ++i) {
          if (out->type.kind() != TypeKind::kRow) {
            return ErrorAt(at, fmt::format("Column '{}' cannot be resolved", Dotted(expr.names)),
                           ErrorKind::kInvalidArgument, ErrorCode::kNoSuchColumn);
          }
          const RowField* field = nullptr;
          for (const RowField& f : out->type.fields()) {
            if (f.name == expr.names[i]) field = &f;
          }
          if (field == nullptr) {
            return ErrorAt(at, fmt::format("Field '{}' not found in {}", expr.names[i], out->type.ToString()));
          }
          std::vector<BoundExprPtr> args;
          SqlType field_type = field->type;
          args.push_back(std::move(out));
          args.push_back(MakeConstant(Value::String(SqlType::Varchar(), expr.names[i])));
          out = MakeCall("field_access", field_type, std::move(args));
          out->location = at;
        }
        return out;
      }
      return ErrorAt(at, fmt::format("Column '{}' cannot be resolved", Dotted(expr.names)), ErrorKind::kInvalidArgument,
                     ErrorCode::kNoSuchColumn);
    }
    case ExprKind::kStar:
      return ErrorAt(at, "'*' is not allowed here");
    case ExprKind::kParameter: {
      auto out = std::make_unique<BoundExpr>(BoundKind::kParameter, SqlType::Unknown());
      out->parameter_index = expr.parameter_index;
      out->location = at;
      NoteParameter(expr.parameter_index);
      return out;
    }
    case ExprKind::kUnary: {
      FLOE_ASSIGN_OR_RETURN(auto arg, BindExpr(*expr.args[0], context));
      if (expr.op == "NOT") {
        FLOE_ASSIGN_OR_RETURN(arg, Coerce(std::move(arg), SqlType::Boolean(), at, "NOT"));
        auto out = std::make_unique<BoundExpr>(BoundKind::kNot, SqlType::Boolean());
        out->location = at;
        out->args.push_back(std::move(arg));
        return out;
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
    case ExprKind::kBinary: {
      const char* name = OperatorFunction(expr.op);
      if (name == nullptr) return ErrorAt(at, fmt::format("Operator {} is not supported", expr.op), ErrorKind::kNotImplemented);
      FLOE_ASSIGN_OR_RETURN(auto left, BindExpr(*expr.args[0], context));
      FLOE_ASSIGN_OR_RETURN(auto right, BindExpr(*expr.args[1], context));
      std::vector<BoundExprPtr> args;
      args.push_back(std::move(left));
      args.push_back(std::move(right));
      // Resolution shared with function calls (below) via a small lambda.
      auto resolve_call = [&](const std::string& function, std::vector<BoundExprPtr> call_args) -> Result<BoundExprPtr> {
        const FunctionInfo* info = functions_.Find(function);
        // Untyped string literals next to a typed value take its type first.
        if (call_args.size() == 2 && (IsComparison(function) || function == "add" || function == "subtract")) {
          for (int side = 0; side < 2; ++side) {
            BoundExpr& lit = *call_args[side];
            const SqlType& other = call_args[1 - side]->type;
            if (lit.kind == BoundKind::kConstant && lit.type.kind() == TypeKind::kVarchar && !lit.value.is_null() &&
                other.kind() != TypeKind::kVarchar && !other.IsUnknown()) {
              FLOE_ASSIGN_OR_RETURN(call_args[side], Coerce(std::move(call_args[side]), other, at, "comparison"));
            }
          }
        }
        std::vector<SqlType> types;
        for (const auto& a : call_args) types.push_back(a->type);
        auto resolved = info->resolve(types);
        if (!resolved.has_value()) return UserErrorAt(at, resolved.error());
        for (size_t i = 0; i < call_args.size() && i < resolved->arguments.size(); ++i) {
          FLOE_ASSIGN_OR_RETURN(call_args[i], Coerce(std::move(call_args[i]), resolved->arguments[i], at, function));
        }
        auto out = MakeCall(function, resolved->result, std::move(call_args));
        out->location = at;
        return out;
      };
      return resolve_call(name, std::move(args));
    }
    case ExprKind::kAnd:
    case ExprKind::kOr: {
      auto out = std::make_unique<BoundExpr>(expr.kind == ExprKind::kAnd ? BoundKind::kAnd : BoundKind::kOr, SqlType::Boolean());
      out->location = at;
      for (const auto& arg : expr.args) {
        FLOE_ASSIGN_OR_RETURN(auto bound, BindExpr(*arg, context));
        FLOE_ASSIGN_OR_RETURN(bound, Coerce(std::move(bound), SqlType::Boolean(), arg->location,
                                            expr.kind == ExprKind::kAnd ? "AND" : "OR"));
        out->args.push_back(std::move(bound));
      }
      return out;
    }
    case ExprKind::kFunction:
      break;  // Below.
    case ExprKind::kCast: {
      FLOE_ASSIGN_OR_RETURN(auto arg, BindExpr(*expr.args[0], context));
      auto target = TypeFromName(*expr.type);
      if (!target.has_value()) return UserErrorAt(expr.type->location >= 0 ? expr.type->location : at, target.error());
      // INTERVAL '3' DAY
      if (target->IsInterval() && arg->kind == BoundKind::kConstant && arg->type.kind() == TypeKind::kVarchar) {
        auto interval = IntervalLiteral(arg->value.as_string(), expr.type->interval_fields);
        if (!interval) {
          return ErrorAt(at, fmt::format("Invalid INTERVAL literal '{}' (give one unit: YEAR, MONTH, DAY, HOUR, MINUTE or SECOND)",
                                         arg->value.as_string()), ErrorKind::kNotImplemented);
        }
        auto out = MakeConstant(std::move(*interval));
        out->location = at;
        return out;
      }
      if (!arg->type.IsUnknown() && !CanCast(arg->type, *target)) {
        return ErrorAt(at, fmt::format("Cannot cast {} to {}", arg->type.ToString(), target->ToString()));
      }
      if (arg->kind == BoundKind::kConstant && arg->type.kind() == TypeKind::kVarchar && !arg->value.is_null() &&
          target->kind() != TypeKind::kVarchar && !expr.try_cast) {
        // TIMESTAMP '... UTC' (a zone in the text: an offset, UTC or a name such as Europe/Berlin)
        // is a timestamp with time zone, as in Trino.
        if (target->kind() == TypeKind::kTimestamp && !ParseTimestamp(arg->value.as_string(), false) &&
            ParseTimestampInZone(arg->value.as_string(), *TimeZone::Utc())) {
          target = SqlType::TimestampTz();
        }
        auto converted = CastFromText(arg->value.as_string(), *target, options_.time_zone.get());
        if (!converted) {
          return ErrorAt(expr.args[0]->location >= 0 ? expr.args[0]->location : at,
                         fmt::format("Value cannot be cast to {}: {}", target->ToString(), arg->value.as_string()));
        }
        auto out = MakeConstant(std::move(*converted));
        out->location = at;
        return out;
      }
      int arg_location = arg->location;
      auto out = std::make_unique<BoundExpr>(BoundKind::kCast, *target);
      out->try_cast = expr.try_cast;
      out->location = arg_location >= 0 ? arg_location : at;
      out->args.push_back(std::move(arg));
      if (out->args[0]->type == *target && !expr.try_cast) return std::move(out->args[0]);
      return out;
    }
    case ExprKind::kCase: {
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
      auto out = std::make_unique<BoundExpr>(BoundKind::kCase, type);
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
    case ExprKind::kInList: {
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
      auto out = std::make_unique<BoundExpr>(BoundKind::kInList, SqlType::Boolean());
      out->location = at;
      out->negated = expr.negated;
      for (size_t i = 0; i < items.size(); ++i) {
        FLOE_ASSIGN_OR_RETURN(auto item, Coerce(std::move(items[i]), type, expr.args[i]->location, "IN"));
        out->args.push_back(std::move(item));
      }
      return out;
    }
    case ExprKind::kBetween: {
      // x BETWEEN a AND b  ==  x >= a AND x <= b
      FLOE_ASSIGN_OR_RETURN(auto value, BindExpr(*expr.args[0], context));
      FLOE_ASSIGN_OR_RETURN(auto low, BindExpr(*expr.args[1], context));
      FLOE_ASSIGN_OR_RETURN(auto high, BindExpr(*expr.args[2], context));
      auto compare = [&](const char* function, BoundExprPtr a, BoundExprPtr b) -> Result<BoundExprPtr> {
        for (BoundExprPtr* side : {&a, &b}) {
          BoundExprPtr& other = side == &a ? b : a;
          if ((*side)->kind == BoundKind::kConstant && (*side)->type.kind() == TypeKind::kVarchar &&
              other->type.kind() != TypeKind::kVarchar && !other->type.IsUnknown()) {
            FLOE_ASSIGN_OR_RETURN(*side, Coerce(std::move(*side), other->type, at, "BETWEEN"));
          }
        }
        std::vector<SqlType> types{a->type, b->type};
        auto resolved = functions_.Find(function)->resolve(types);
        if (!resolved.has_value()) return UserErrorAt(at, resolved.error());
        FLOE_ASSIGN_OR_RETURN(a, Coerce(std::move(a), resolved->arguments[0], at, "BETWEEN"));
        FLOE_ASSIGN_OR_RETURN(b, Coerce(std::move(b), resolved->arguments[1], at, "BETWEEN"));
        std::vector<BoundExprPtr> args;
        args.push_back(std::move(a));
        args.push_back(std::move(b));
        auto out = MakeCall(function, SqlType::Boolean(), std::move(args));
        out->location = at;
        return out;
      };
      FLOE_ASSIGN_OR_RETURN(auto lower, compare("gte", value->Clone(), std::move(low)));
      FLOE_ASSIGN_OR_RETURN(auto upper, compare("lte", std::move(value), std::move(high)));
      auto both = std::make_unique<BoundExpr>(BoundKind::kAnd, SqlType::Boolean());
      both->location = at;
      both->args.push_back(std::move(lower));
      both->args.push_back(std::move(upper));
      if (!expr.negated) return both;
      auto out = std::make_unique<BoundExpr>(BoundKind::kNot, SqlType::Boolean());
      out->location = at;
      out->args.push_back(std::move(both));
      return out;
    }
    case ExprKind::kLike: {
      std::vector<BoundExprPtr> args;
      for (const auto& arg : expr.args) {
        FLOE_ASSIGN_OR_RETURN(auto bound, BindExpr(*arg, context));
        FLOE_ASSIGN_OR_RETURN(bound, Coerce(std::move(bound), SqlType::Varchar(), arg->location, "LIKE"));
        args.push_back(std::move(bound));
      }
      auto like = MakeCall(expr.case_insensitive ? "ilike" : "like", SqlType::Boolean(), std::move(args));
      like->location = at;
      if (!expr.negated) return like;
      auto out = std::make_unique<BoundExpr>(BoundKind::kNot, SqlType::Boolean());
      out->location = at;
      out->args.push_back(std::move(like));
      return out;
    }
    case ExprKind::kIsNull: {
      FLOE_ASSIGN_OR_RETURN(auto arg, BindExpr(*expr.args[0], context));
      auto out = std::make_unique<BoundExpr>(BoundKind::kIsNull, SqlType::Boolean());
      out->location = at;
      out->negated = expr.negated;
      out->args.push_back(std::move(arg));
      return out;
    }
    case ExprKind::kIsBool: {
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
      auto negation = std::make_unique<BoundExpr>(BoundKind::kNot, SqlType::Boolean());
      negation->location = at;
      negation->args.push_back(std::move(out));
      return negation;
    }
    case ExprKind::kIsDistinct: {
      FLOE_ASSIGN_OR_RETURN(auto left, BindExpr(*expr.args[0], context));
      FLOE_ASSIGN_OR_RETURN(auto right, BindExpr(*expr.args[1], context));
      auto common = CommonSuperType(left->type, right->type);
      if (!common) {
        return ErrorAt(
            at,
            fmt::format("Cannot apply operator: {} IS DISTINCT FROM {}", left->type.ToString(), right->type.ToString()),
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
      auto negation = std::make_unique<BoundExpr>(BoundKind::kNot, SqlType::Boolean());
      negation->location = at;
      negation->args.push_back(std::move(out));
      return negation;
    }
    case ExprKind::kSubquery:
    case ExprKind::kExists:
    case ExprKind::kInSubquery: {
      FLOE_ASSIGN_OR_RETURN(auto plan, BindQuery(*expr.subquery, context.scope, context.ctes));
      auto out = std::make_unique<BoundExpr>(BoundKind::kSubquery, SqlType::Boolean());
      out->location = at;
      // The subquery's outer references were recorded on the scope chain while binding it.
      std::vector<ColumnId> visible;
      for (Scope* s = context.scope; s != nullptr; s = s->parent) {
        for (const auto& relation : s->relations) {
          for (const auto& column : relation.columns) visible.push_back(column.id);
        }
      }
      std::vector<ColumnId> read;
      auto collect = [&](const LogicalOperator& op, auto&& self) -> void {
        auto scan = [&](const BoundExpr& e) {
          std::vector<ColumnId> ids;
          e.CollectColumns(ids);
          read.insert(read.end(), ids.begin(), ids.end());
        };
        if (op.predicate) scan(*op.predicate);
        if (op.condition) scan(*op.condition);
        for (const auto& e : op.expressions) scan(*e);
        for (const auto& e : op.groups) scan(*e);
        for (const auto& a : op.aggregates) {
          for (const auto& e : a.args) scan(*e);
          if (a.filter) scan(*a.filter);
        }
        for (const auto& k : op.order) scan(*k.expr);
        for (const auto& c : op.children) self(*c, self);
      };
      collect(*plan, collect);
      std::sort(read.begin(), read.end());
      read.erase(std::unique(read.begin(), read.end()), read.end());
      for (ColumnId id : read) {
        if (std::find(visible.begin(), visible.end(), id) != visible.end()) out->correlated.push_back(id);
      }
      if (expr.kind == ExprKind::kExists) {
        out->subquery_kind = SubqueryKind::kExists;
      } else {
        if (plan->output.size() != 1) {
          return ErrorAt(at, fmt::format("Subquery must return exactly one column, not {}", plan->output.size()));
        }
        if (expr.kind == ExprKind::kSubquery) {
          out->subquery_kind = SubqueryKind::kScalar;
          out->type = plan->output[0].type;
        } else {
          FLOE_ASSIGN_OR_RETURN(auto left, BindExpr(*expr.args[0], context));
          const SqlType& right_type = plan->output[0].type;
          auto common = CommonSuperType(left->type, right_type);
          if (!common) {
            return ErrorAt(at, fmt::format("Value expression and result of subquery must be of the same type: {} vs {}",
                                           left->type.ToString(), right_type.ToString()));
          }
          if (!(right_type == *common)) {
            // Cast the subquery's column with a projection on top of it.
            auto project = std::make_unique<LogicalOperator>(LogicalKind::kProject);
            ColumnId id = NewColumn();
            project->expressions.push_back(MakeCast(MakeColumn(plan->output[0].id, right_type, plan->output[0].name), *common));
            project->output.push_back(OutputColumn{id, plan->output[0].name, *common});
            project->children.push_back(std::move(plan));
            plan = std::move(project);
          }
          FLOE_ASSIGN_OR_RETURN(left, Coerce(std::move(left), *common, at, "IN"));
          out->args.push_back(std::move(left));
          const char* op = OperatorFunction(expr.op);
          if (op == nullptr || !IsComparison(op)) return ErrorAt(at, fmt::format("Operator {} is not supported with ANY/ALL", expr.op));
          out->compare_op = op;
          out->quantifier_all = expr.quantifier_all;
          out->subquery_kind = expr.op == "=" && !expr.quantifier_all ? SubqueryKind::kIn : SubqueryKind::kQuantified;
        }
      }
      out->plan = std::move(plan);
      return out;
    }
    case ExprKind::kFieldAccess: {
      FLOE_ASSIGN_OR_RETURN(auto base, BindExpr(*expr.args[0], context));
      if (base->type.kind() != TypeKind::kRow) {
        return ErrorAt(at, fmt::format("Expression of type {} has no field '{}'", base->type.ToString(), expr.names[0]));
      }
      for (const RowField& field : base->type.fields()) {
        if (field.name != expr.names[0]) continue;
        SqlType type = field.type;
        std::vector<BoundExprPtr> args;
        args.push_back(std::move(base));
        args.push_back(MakeConstant(Value::String(SqlType::Varchar(), expr.names[0])));
        auto out = MakeCall("field_access", type, std::move(args));
        out->location = at;
        return out;
      }
      return ErrorAt(at, fmt::format("Field '{}' not found in {}", expr.names[0], base->type.ToString()));
    }
    case ExprKind::kSubscript: {
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
    case ExprKind::kArray:
    case ExprKind::kRow: {
      std::vector<BoundExprPtr> args;
      SqlType element = SqlType::Unknown();
      std::vector<RowField> fields;
      for (const auto& arg : expr.args) {
        FLOE_ASSIGN_OR_RETURN(auto bound, BindExpr(*arg, context));
        if (expr.kind == ExprKind::kArray) {
          auto common = CommonSuperType(element, bound->type);
          if (!common) return ErrorAt(arg->location, "All ARRAY elements must be the same type");
          element = *common;
        } else {
          fields.push_back(RowField{"", bound->type});
        }
        args.push_back(std::move(bound));
      }
      if (expr.kind == ExprKind::kArray) {
        for (auto& arg : args) {
          FLOE_ASSIGN_OR_RETURN(arg, Coerce(std::move(arg), element, at, "ARRAY"));
        }
      }
      auto out = MakeCall(expr.kind == ExprKind::kArray ? "array_constructor" : "row_constructor",
                          expr.kind == ExprKind::kArray ? SqlType::Array(element) : SqlType::Row(std::move(fields)), std::move(args));
      out->location = at;
      return out;
    }
    case ExprKind::kCurrent: {
      const FunctionInfo* info = functions_.Find(expr.text);
      if (info == nullptr) return ErrorAt(at, fmt::format("{} is not supported", expr.text), ErrorKind::kNotImplemented);
      auto resolved = info->resolve({});
      if (!resolved.has_value()) return UserErrorAt(at, resolved.error());
      auto out = MakeCall(expr.text, resolved->result, {});
      out->location = at;
      return out;
    }
  }

  // ---- function calls
  if (expr.names.size() > 1) {
    return ErrorAt(at, fmt::format("Function '{}' not registered", Dotted(expr.names)), ErrorKind::kInvalidArgument,
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
    return ErrorAt(at, fmt::format("DISTINCT, FILTER and ORDER BY are only allowed for aggregate functions, not {}", name));
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
    if (arg->kind == ExprKind::kStar) return ErrorAt(arg->location, "'*' is not allowed here");
    FLOE_ASSIGN_OR_RETURN(auto bound, BindExpr(*arg, argument_context));
    args.push_back(std::move(bound));
  }
  // extract('year', ts), date_trunc('hour', ts) and friends: the unit must be a known constant.
  if ((name == "extract" || name == "date_trunc" || name == "date_add" || name == "date_diff") && !args.empty()) {
    if (args[0]->kind != BoundKind::kConstant || args[0]->type.kind() != TypeKind::kVarchar || args[0]->value.is_null()) {
      return ErrorAt(expr.args[0]->location, fmt::format("{}: the unit must be a constant string", name));
    }
    std::string unit;
    for (char c : args[0]->value.as_string()) unit.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
    bool known = name == "extract" ? ExtractField(unit, 0).has_value() : TruncateMicros(unit, 0).has_value();
    if (!known) return ErrorAt(expr.args[0]->location, fmt::format("'{}' is not a valid {} unit", args[0]->value.as_string(), name));
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
  std::vector<SortKey> order;
  for (const auto& item : expr.order_by) {
    FLOE_ASSIGN_OR_RETURN(auto key, BindExpr(*item.expr, argument_context));
    order.push_back(SortKey{std::move(key), item.descending, item.nulls_first.value_or(false)});
  }
  ColumnId id = NewColumn();
  auto result_column = MakeColumn(id, resolved->result, name);
  result_column->location = at;

  if (is_aggregate_call) {
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
    return result_column;
  }

  // Window call: resolve a named window, then bind partitioning, ordering and the frame.
  const WindowSpec* spec = expr.window.get();
  const WindowSpec* base = nullptr;
  if (!spec->base_name.empty()) {
    if (context.named_windows != nullptr) {
      for (const auto& named : *context.named_windows) {
        if (named.name == spec->base_name) base = named.spec.get();
      }
    }
    if (base == nullptr) return ErrorAt(spec->location >= 0 ? spec->location : at, fmt::format("Window '{}' is not defined", spec->base_name));
  }
  WindowCall call;
  call.function = name;
  call.args = std::move(args);
  call.star = expr.star_arg;
  call.distinct = expr.distinct;
  if (call.distinct) return ErrorAt(at, "DISTINCT in window functions is not supported", ErrorKind::kNotImplemented);
  call.filter = std::move(filter);
  call.type = resolved->result;
  const WindowSpec* partition_source = base != nullptr && spec->partition_by.empty() ? base : spec;
  for (const auto& p : partition_source->partition_by) {
    FLOE_ASSIGN_OR_RETURN(auto key, BindExpr(*p, argument_context));
    if (context.group_keys) {
      FLOE_ASSIGN_OR_RETURN(key, ApplyGrouping(std::move(key), context, p->location));
    }
    call.partition_by.push_back(std::move(key));
  }
  const WindowSpec* order_source = base != nullptr && spec->order_by.empty() ? base : spec;
  for (const auto& item : order_source->order_by) {
    FLOE_ASSIGN_OR_RETURN(auto key, BindExpr(*item.expr, argument_context));
    if (context.group_keys) {
      FLOE_ASSIGN_OR_RETURN(key, ApplyGrouping(std::move(key), context, item.expr->location));
    }
    call.order_by.push_back(SortKey{std::move(key), item.descending, item.nulls_first.value_or(false)});
  }
  if (context.group_keys) {
    for (auto& arg : call.args) {
      FLOE_ASSIGN_OR_RETURN(arg, ApplyGrouping(std::move(arg), context, at));
    }
  }
  const WindowSpec* frame_source = base != nullptr && !spec->has_frame ? base : spec;
  if (frame_source->has_frame) {
    call.frame_mode = frame_source->frame_mode == ast::FrameMode::kRows     ? floe::sql::FrameMode::kRows
                      : frame_source->frame_mode == ast::FrameMode::kGroups ? floe::sql::FrameMode::kGroups
                                                                           : floe::sql::FrameMode::kRange;
    auto bind_bound = [&](const FrameBound& in) -> Result<WindowFrameBound> {
      WindowFrameBound out;
      out.kind = static_cast<WindowFrameBound::Kind>(static_cast<int>(in.kind));
      if (in.offset) {
        ExprContext constant_context;
        constant_context.clause = "Window frame offset";
        FLOE_ASSIGN_OR_RETURN(out.offset, BindExpr(*in.offset, constant_context));
        bool interval = out.offset->type.kind() == TypeKind::kIntervalDayTime;
        if (!out.offset->IsConstant() || !(out.offset->type.IsNumeric() || (interval && call.frame_mode == floe::sql::FrameMode::kRange))) {
          return ErrorAt(in.offset->location, call.frame_mode == floe::sql::FrameMode::kRange
                                                  ? "Window frame offset must be a constant number or day-to-second interval"
                                                  : "Window frame offset must be a constant number");
        }
        if (call.frame_mode == floe::sql::FrameMode::kRange && call.order_by.size() != 1) {
          return ErrorAt(in.offset->location, "Window frame of type RANGE PRECEDING or FOLLOWING requires single sort item in ORDER BY");
        }
      }
      return out;
    };
    FLOE_ASSIGN_OR_RETURN(call.frame_start, bind_bound(frame_source->frame_start));
    FLOE_ASSIGN_OR_RETURN(call.frame_end, bind_bound(frame_source->frame_end));
  }
  context.windows->push_back(std::move(call));
  context.window_ids->push_back(id);
  return result_column;
}

}  // namespace floe::sql
