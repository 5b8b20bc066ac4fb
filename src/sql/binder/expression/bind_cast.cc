// CAST, TRY_CAST and typed literals (DATE '...', INTERVAL '3' DAY, TIMESTAMP '... UTC'): a cast of
// a string literal is folded to a constant here, so a bad literal is an error at bind time.
#include "sql/binder/binder_internal.h"
#include "sql/types/temporal.h"
#include "sql/types/type_rules.h"
#include "sql/types/value_cast.h"

namespace floe::sql {

namespace {

// Trino's INTERVAL 'n' unit: PostgreSQL's field mask bits.
std::optional<Value> IntervalLiteral(const std::string& text, int fields) {
  char* end = nullptr;
  std::string trimmed = text;
  double amount = std::strtod(trimmed.c_str(), &end);
  if (trimmed.empty() || end == nullptr || *end != '\0') return std::nullopt;
  constexpr int kMonth = 1 << 1, kYear = 1 << 2, kDay = 1 << 3, kHour = 1 << 10, kMinute = 1 << 11, kSecond = 1 << 12;
  if (fields == kYear) return Value::Int(SqlType(TypeKind::kIntervalYearMonth), static_cast<int64_t>(amount * 12));
  if (fields == kMonth) return Value::Int(SqlType(TypeKind::kIntervalYearMonth), static_cast<int64_t>(amount));
  double micros_per_unit = fields == kDay      ? kMicrosPerDay
                           : fields == kHour   ? 3600.0 * kMicrosPerSecond
                           : fields == kMinute ? 60.0 * kMicrosPerSecond
                           : fields == kSecond ? kMicrosPerSecond
                                               : 0;
  if (micros_per_unit == 0) return std::nullopt;
  return Value::Int(SqlType(TypeKind::kIntervalDayTime), static_cast<int64_t>(amount * micros_per_unit));
}

}  // namespace

Result<BoundExprPtr> BinderImpl::BindCast(const ast::Cast& expr, ExprContext& context) {
  int at = expr.location;
  FLOE_ASSIGN_OR_RETURN(auto arg, BindExpr(*expr.args[0], context));
  auto target = TypeFromName(expr.type);
  if (!target.has_value()) return UserErrorAt(expr.type.location >= 0 ? expr.type.location : at, target.error());
  // INTERVAL '3' DAY
  if (target->IsInterval() && arg->kind == BoundKind::kConstant && arg->type.kind() == TypeKind::kVarchar) {
    const std::string& text = arg->As<BoundConstant>().value.as_string();
    auto interval = IntervalLiteral(text, expr.type.interval_fields);
    if (!interval) {
      return ErrorAt(
          at,
          fmt::format("Invalid INTERVAL literal '{}' (give one unit: YEAR, MONTH, DAY, HOUR, MINUTE or SECOND)", text),
          ErrorKind::kNotImplemented);
    }
    auto out = MakeConstant(std::move(*interval));
    out->location = at;
    return out;
  }
  if (!arg->type.IsUnknown() && !CanCast(arg->type, *target)) {
    return ErrorAt(at, fmt::format("Cannot cast {} to {}", arg->type.ToString(), target->ToString()));
  }
  if (arg->kind == BoundKind::kConstant && arg->type.kind() == TypeKind::kVarchar &&
      !arg->As<BoundConstant>().value.is_null() && target->kind() != TypeKind::kVarchar && !expr.try_cast) {
    const std::string& text = arg->As<BoundConstant>().value.as_string();
    // TIMESTAMP '... UTC' (a zone in the text: an offset, UTC or a name such as Europe/Berlin)
    // is a timestamp with time zone, as in Trino.
    if (target->kind() == TypeKind::kTimestamp && !ParseTimestamp(text, false) &&
        ParseTimestampInZone(text, *TimeZone::Utc())) {
      target = SqlType::TimestampTz();
    }
    auto converted = CastFromText(text, *target, options_.time_zone.get());
    if (!converted) {
      return ErrorAt(expr.args[0]->location >= 0 ? expr.args[0]->location : at,
                     fmt::format("Value cannot be cast to {}: {}", target->ToString(), text));
    }
    auto out = MakeConstant(std::move(*converted));
    out->location = at;
    return out;
  }
  int arg_location = arg->location;
  auto out = std::make_unique<BoundCast>(*target);
  out->try_cast = expr.try_cast;
  out->location = arg_location >= 0 ? arg_location : at;
  out->args.push_back(std::move(arg));
  if (out->args[0]->type == *target && !expr.try_cast) return std::move(out->args[0]);
  return out;
}

}  // namespace floe::sql
