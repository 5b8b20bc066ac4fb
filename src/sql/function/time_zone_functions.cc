#include "sql/function/time_zone_functions.h"

#include "base/time_zone.h"
#include "sql/types/temporal.h"
#include "sql/types/type_rules.h"

namespace floe::sql {
namespace {

using ZonePtr = std::shared_ptr<const TimeZone>;

// The user sees the zone's own message ("unknown time zone 'Mars/Olympus'").
Result<ZonePtr> FindZone(std::string_view name) { return TimeZone::Find(name); }

// A kernel's zone-name argument: a constant is looked up once per batch, a column once per row.
class ZoneArgument {
 public:
  static Result<ZoneArgument> Of(const KernelArgument& arg) {
    ZoneArgument zones(arg);
    if (arg.constant && arg.valid(0)) {
      FLOE_ASSIGN_OR_RETURN(zones.constant_, FindZone(arg.vector->StringAt(0)));
    }
    return zones;
  }
  // The zone of non-null row i.
  Result<ZonePtr> At(int64_t i) const {
    if (constant_) return constant_;
    return FindZone(arg_->vector->StringAt(arg_->row(i)));
  }

 private:
  explicit ZoneArgument(const KernelArgument& arg) : arg_(&arg) {}
  const KernelArgument* arg_;
  ZonePtr constant_;
};

// timezone(zone, value) on one non-null value.
int64_t ConvertAt(const TimeZone& zone, TypeKind from, int64_t value) {
  switch (from) {
    case TypeKind::kTimestampTz:
      return zone.UtcMicrosToLocal(value);
    case TypeKind::kDate:
      return zone.LocalMicrosToUtc(value * kMicrosPerDay);
    default:
      return zone.LocalMicrosToUtc(value);  // a wall-clock timestamp
  }
}

std::unexpected<Error> NotATimestamp(std::string_view text) {
  return InvalidArgument("Value cannot be cast to timestamp(6) with time zone: {}", text);
}

Result<VectorPtr> TimeZoneKernel(const std::vector<KernelArgument>& args, const SqlType& result, int64_t rows) {
  auto out = NewVector(result, rows);
  TypeKind from = args[1].type.kind();
  FLOE_ASSIGN_OR_RETURN(ZoneArgument zones, ZoneArgument::Of(args[0]));
  const int64_t* values = args[1].vector->Data<int64_t>();
  for (int64_t i = 0; i < rows; ++i) {
    if (!args[0].valid(i) || !args[1].valid(i)) {
      out->AppendNull();
      continue;
    }
    FLOE_ASSIGN_OR_RETURN(ZonePtr zone, zones.At(i));
    out->Append<int64_t>(ConvertAt(*zone, from, values[args[1].row(i)]));
  }
  return VectorPtr(out);
}

template <bool kTry>
Result<VectorPtr> ParseKernel(const std::vector<KernelArgument>& args, const SqlType& result, int64_t rows) {
  auto out = NewVector(result, rows);
  FLOE_ASSIGN_OR_RETURN(ZoneArgument zones, ZoneArgument::Of(args[1]));
  for (int64_t i = 0; i < rows; ++i) {
    if (!args[0].valid(i) || !args[1].valid(i)) {
      out->AppendNull();
      continue;
    }
    FLOE_ASSIGN_OR_RETURN(ZonePtr zone, zones.At(i));
    std::string_view text = args[0].vector->StringAt(args[0].row(i));
    auto micros = ParseTimestampInZone(text, *zone);
    if (micros) {
      out->Append<int64_t>(*micros);
    } else if (kTry) {
      out->AppendNull();
    } else {
      return NotATimestamp(text);
    }
  }
  return VectorPtr(out);
}

Result<ResolvedCall> ResolveTimeZone(const std::vector<SqlType>& in) {
  if (in.size() != 2 || !CanCoerce(in[0], SqlType::Varchar()) ||
      !(in[1].kind() == TypeKind::kTimestampTz || in[1].kind() == TypeKind::kTimestamp ||
        in[1].kind() == TypeKind::kDate || in[1].IsUnknown())) {
    return InvalidArgument(
        "Unexpected parameters for function timezone. Expected: timezone(varchar, timestamp with time zone | "
        "timestamp | date)");
  }
  SqlType value = in[1].IsUnknown() ? SqlType::TimestampTz() : in[1];
  SqlType result = value.kind() == TypeKind::kTimestampTz ? SqlType::Timestamp() : SqlType::TimestampTz();
  return ResolvedCall{result, {SqlType::Varchar(), value}};
}

}  // namespace

bool IsTimeZoneFunction(std::string_view name) {
  return name == "timezone" || name == "parse_timestamptz" || name == "try_parse_timestamptz" ||
         name == "with_timezone" || name == "at_timezone";
}

Result<Value> EvaluateTimeZoneCall(std::string_view name, const SqlType& type, const std::vector<Value>& args) {
  for (const Value& arg : args) {
    if (arg.is_null()) return Value::Null(type);
  }
  if (name == "timezone" || name == "with_timezone") {
    // timezone(zone, value); Trino's with_timezone(timestamp, zone) is the same conversion.
    const Value& zone_name = name == "timezone" ? args[0] : args[1];
    const Value& value = name == "timezone" ? args[1] : args[0];
    FLOE_ASSIGN_OR_RETURN(ZonePtr zone, FindZone(zone_name.as_string()));
    return Value::Int(type, ConvertAt(*zone, value.type().kind(), value.as_int()));
  }
  if (name == "at_timezone") {
    // Trino keeps a zone per value; floe's values are instants shown in the session's zone, so
    // the instant is unchanged (the zone is still checked).
    FLOE_RETURN_IF_ERROR(FindZone(args[1].as_string()));
    return Value::Int(type, args[0].as_int());
  }
  FLOE_ASSIGN_OR_RETURN(ZonePtr zone, FindZone(args[1].as_string()));
  auto micros = ParseTimestampInZone(args[0].as_string(), *zone);
  if (micros) return Value::Int(type, *micros);
  if (name == "try_parse_timestamptz") return Value::Null(type);
  return NotATimestamp(args[0].as_string());
}

void RegisterTimeZoneFunctions(FunctionRegistry& registry) {
  AddKernelFunction(registry, "timezone",
                    "timezone(varchar, timestamp with time zone) -> timestamp; "
                    "timezone(varchar, timestamp|date) -> timestamp with time zone",
                    ResolveTimeZone, TimeZoneKernel);
  for (const char* name : {"parse_timestamptz", "try_parse_timestamptz"}) {
    AddKernelFunction(registry, name, fmt::format("{}(varchar, varchar) -> timestamp with time zone", name),
                      OverloadResolver(name, {{{"varchar", "varchar"}, "timestamptz"}}),
                      std::string_view(name) == "parse_timestamptz" ? VectorKernel(ParseKernel<false>)
                                                                    : VectorKernel(ParseKernel<true>));
  }
}

}  // namespace floe::sql
