#include "sql/binder/session_time_zone.h"

#include <algorithm>
#include <cctype>
#include <string>

namespace floe::sql {
namespace {

bool IsTz(const BoundExpr& e) { return e.type.kind() == TypeKind::kTimestampTz; }

std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// The unit of date_add/date_diff when it is a constant; empty otherwise.
std::optional<std::string> ConstantUnit(const BoundExpr& e) {
  if (e.kind != BoundKind::kConstant) return std::nullopt;
  const Value& value = e.As<BoundConstant>().value;
  if (value.is_null() || e.type.kind() != TypeKind::kVarchar) return std::nullopt;
  return Lower(value.as_string());
}

// Units counted on the calendar (a day across a daylight-saving change is 23 or 25 hours).
bool IsCalendarUnit(std::string_view unit) {
  return unit == "day" || unit == "week" || unit == "month" || unit == "quarter" || unit == "year";
}

class Rewriter {
 public:
  explicit Rewriter(const TimeZone& zone) : zone_(zone) {}

  Status Plan(LogicalOperator& op) {
    for (auto& child : op.children) FLOE_RETURN_IF_ERROR(Plan(*child));
    Status status = OkStatus();
    ForEachExpression(op, [&](BoundExprPtr& e) {
      if (status) status = Expr(e);
    });
    return status;
  }

  Status Expr(BoundExprPtr& e) {
    for (auto& arg : e->args) FLOE_RETURN_IF_ERROR(Expr(arg));
    if (e->kind == BoundKind::kSubquery && e->As<BoundSubquery>().plan) {
      auto& subquery = e->As<BoundSubquery>();
      LogicalPtr copy = subquery.plan->Clone();
      FLOE_RETURN_IF_ERROR(Plan(*copy));
      subquery.plan = std::shared_ptr<const LogicalOperator>(std::move(copy));
    }
    if (e->kind == BoundKind::kCast) return Cast(e);
    if (e->kind == BoundKind::kCall) return Call(e);
    return OkStatus();
  }

 private:
  BoundExprPtr ZoneName() const { return MakeConstant(Value::String(SqlType::Varchar(), zone_.name())); }
  static BoundExprPtr Utc() { return MakeConstant(Value::String(SqlType::Varchar(), "UTC")); }

  // timezone(zone, x): an instant to its wall clock in the zone, or a wall clock to its instant.
  static BoundExprPtr TimezoneCall(BoundExprPtr zone, BoundExprPtr x, int location) {
    SqlType type = IsTz(*x) ? SqlType::Timestamp() : SqlType::TimestampTz();
    std::vector<BoundExprPtr> args;
    args.push_back(std::move(zone));
    args.push_back(std::move(x));
    auto out = MakeCall("timezone", type, std::move(args));
    out->location = location;
    return out;
  }
  BoundExprPtr AtZone(BoundExprPtr x, int location) const { return TimezoneCall(ZoneName(), std::move(x), location); }
  static BoundExprPtr AtUtc(BoundExprPtr x, int location) { return TimezoneCall(Utc(), std::move(x), location); }
  // The instant whose UTC wall clock is x's wall clock in Z, and back.
  BoundExprPtr Shift(BoundExprPtr x) const {
    int at = x->location;
    return AtUtc(AtZone(std::move(x), at), at);
  }
  BoundExprPtr Unshift(BoundExprPtr x) const {
    int at = x->location;
    return AtZone(AtUtc(std::move(x), at), at);
  }

  Status Cast(BoundExprPtr& e) {
    TypeKind from = e->args[0]->type.kind();
    TypeKind to = e->type.kind();
    int at = e->location;
    bool try_cast = e->As<BoundCast>().try_cast;
    using K = TypeKind;
    if (from == to) return OkStatus();
    if ((from == K::kTimestampTz && to == K::kTimestamp) || (from == K::kTimestamp && to == K::kTimestampTz)) {
      e = AtZone(std::move(e->args[0]), at);
    } else if (from == K::kTimestampTz && (to == K::kDate || to == K::kTime)) {
      e = MakeCast(AtZone(std::move(e->args[0]), at), e->type, try_cast);
    } else if (from == K::kDate && to == K::kTimestampTz) {
      e = AtZone(MakeCast(std::move(e->args[0]), SqlType::Timestamp(), try_cast), at);
    } else if (from == K::kTimestampTz && to == K::kVarchar) {
      std::vector<BoundExprPtr> args;
      args.push_back(MakeCast(AtZone(std::move(e->args[0]), at), SqlType::Varchar()));
      args.push_back(MakeConstant(Value::String(SqlType::Varchar(), " " + zone_.name())));
      e = MakeCall("concat", SqlType::Varchar(), std::move(args));
    } else if (from == K::kVarchar && to == K::kTimestampTz) {
      std::vector<BoundExprPtr> args;
      args.push_back(std::move(e->args[0]));
      args.push_back(ZoneName());
      e = MakeCall(try_cast ? "try_parse_timestamptz" : "parse_timestamptz", SqlType::TimestampTz(), std::move(args));
    } else {
      return OkStatus();
    }
    e->location = at;
    return OkStatus();
  }

  Status Call(BoundExprPtr& e) {
    const std::string& name = e->As<BoundCall>().name;
    int at = e->location;
    auto shift_tz_args = [&] {
      for (auto& arg : e->args) {
        if (IsTz(*arg)) arg = Shift(std::move(arg));
      }
    };
    if (name == "current_timezone") {
      e = MakeConstant(Value::String(SqlType::Varchar(), zone_.name()));
    } else if (name == "current_date" || name == "localtimestamp") {
      BoundExprPtr local = AtZone(MakeCall("now", SqlType::TimestampTz(), {}), at);
      e = name == "localtimestamp" ? std::move(local) : MakeCast(std::move(local), SqlType::Date());
    } else if (name == "date_trunc" && e->args.size() == 2 && IsTz(*e->args[1])) {
      shift_tz_args();
      e = Unshift(std::move(e));
    } else if (name == "extract" && e->args.size() == 2 && IsTz(*e->args[1])) {
      auto field = ConstantUnit(*e->args[0]);
      if (field == "epoch") return OkStatus();  // an instant's, not a wall clock's
      shift_tz_args();
    } else if (IsWallClockFunction(name)) {
      shift_tz_args();
    } else if (name == "date_add" && e->args.size() == 3 && IsTz(*e->args[2])) {
      auto unit = ConstantUnit(*e->args[0]);
      if (!unit) return UnitNotConstant(name);
      if (!IsCalendarUnit(*unit)) return OkStatus();
      shift_tz_args();
      e = Unshift(std::move(e));
    } else if (name == "date_diff" && e->args.size() == 3 && IsTz(*e->args[1])) {
      auto unit = ConstantUnit(*e->args[0]);
      if (!unit) return UnitNotConstant(name);
      if (!IsCalendarUnit(*unit)) return OkStatus();
      shift_tz_args();
    } else if ((name == "add" || name == "subtract") && e->args.size() == 2 && IsTz(*e) &&
               std::any_of(e->args.begin(), e->args.end(),
                           [](const BoundExprPtr& a) { return a->type.kind() == TypeKind::kIntervalYearMonth; })) {
      // Months are calendar months in the zone: shift, add, shift back.
      shift_tz_args();
      e = Unshift(std::move(e));
    } else {
      return OkStatus();
    }
    e->location = at;
    return OkStatus();
  }

  static bool IsWallClockFunction(std::string_view name) {
    static constexpr std::string_view kNames[] = {
        "year",        "quarter",     "month",           "week",         "day",
        "day_of_week", "dow",         "day_of_year",     "doy",          "hour",
        "minute",      "second",      "millisecond",     "day_of_month", "year_of_week",
        "date",        "date_format", "format_datetime", "to_char"};
    return std::find(std::begin(kNames), std::end(kNames), name) != std::end(kNames);
  }

  Status UnitNotConstant(std::string_view function) const {
    return NotImplemented("{} with a unit that is not a constant is not supported in time zone {} (only in UTC)",
                          function, zone_.name());
  }

  const TimeZone& zone_;
};

}  // namespace

Status ApplySessionTimeZone(LogicalOperator& plan, const TimeZone& zone) {
  if (zone.is_utc()) return OkStatus();
  return Rewriter(zone).Plan(plan);
}

Status ApplySessionTimeZone(BoundExprPtr& expr, const TimeZone& zone) {
  if (zone.is_utc() || !expr) return OkStatus();
  return Rewriter(zone).Expr(expr);
}

}  // namespace floe::sql
