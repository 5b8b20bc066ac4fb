#include "sql/types/value_cast.h"

#include <cctype>
#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdlib>

#include "sql/types/temporal.h"

namespace floe::sql {

// Converts a varchar constant to `type` the way CAST does; empty when the text does not parse.
std::optional<Value> CastFromText(const std::string& text, const SqlType& type, const TimeZone* zone) {
  std::string trimmed = text;
  while (!trimmed.empty() && std::isspace(static_cast<unsigned char>(trimmed.back()))) trimmed.pop_back();
  while (!trimmed.empty() && std::isspace(static_cast<unsigned char>(trimmed.front()))) trimmed.erase(trimmed.begin());
  switch (type.kind()) {
    case TypeKind::kVarchar:
      return Value::String(type, text);
    case TypeKind::kDate: {
      auto days = ParseDate(trimmed);
      if (!days) return std::nullopt;
      return Value::Int(type, *days);
    }
    case TypeKind::kTimestamp:
    case TypeKind::kTimestampTz: {
      auto micros = type.kind() == TypeKind::kTimestampTz && zone != nullptr
                        ? ParseTimestampInZone(trimmed, *zone)
                        : ParseTimestamp(trimmed, type.kind() == TypeKind::kTimestampTz);
      if (!micros) return std::nullopt;
      return Value::Int(type, *micros);
    }
    case TypeKind::kBoolean: {
      std::string lower;
      for (char c : trimmed) lower.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
      if (lower == "true" || lower == "t" || lower == "1") return Value::Boolean(true);
      if (lower == "false" || lower == "f" || lower == "0") return Value::Boolean(false);
      return std::nullopt;
    }
    case TypeKind::kTinyint:
    case TypeKind::kSmallint:
    case TypeKind::kInteger:
    case TypeKind::kBigint: {
      if (trimmed.empty()) return std::nullopt;
      errno = 0;
      char* end = nullptr;
      long long v = std::strtoll(trimmed.c_str(), &end, 10);
      if (errno != 0 || end == nullptr || *end != '\0') return std::nullopt;
      int64_t lo = type.kind() == TypeKind::kTinyint ? -128 : type.kind() == TypeKind::kSmallint ? -32768
                 : type.kind() == TypeKind::kInteger ? INT32_MIN : INT64_MIN;
      int64_t hi = type.kind() == TypeKind::kTinyint ? 127 : type.kind() == TypeKind::kSmallint ? 32767
                 : type.kind() == TypeKind::kInteger ? INT32_MAX : INT64_MAX;
      if (v < lo || v > hi) return std::nullopt;
      return Value::Int(type, v);
    }
    case TypeKind::kReal:
    case TypeKind::kDouble: {
      if (trimmed.empty()) return std::nullopt;
      char* end = nullptr;
      double v = std::strtod(trimmed.c_str(), &end);
      if (end == nullptr || *end != '\0') return std::nullopt;
      return Value::Double(type, v);
    }
    case TypeKind::kDecimal: {
      auto parsed = ParseDecimalLiteral(trimmed);
      if (!parsed.has_value()) return std::nullopt;
      int scale = parsed->type().scale();
      Int128 v = parsed->as_decimal();
      if (scale > type.scale()) {
        Int128 divisor = PowerOfTen(scale - type.scale());
        Int128 q = v / divisor, r = v % divisor;
        if (r * 2 >= divisor) ++q;  // Round half up (away from zero for positives).
        if (r * 2 <= -divisor) --q;
        v = q;
      } else {
        v *= PowerOfTen(type.scale() - scale);
      }
      Int128 limit = PowerOfTen(type.precision());
      if (v >= limit || v <= -limit) return std::nullopt;
      return Value::Decimal(type, v);
    }
    case TypeKind::kUuid: {
      if (trimmed.size() != 36) return std::nullopt;
      for (size_t i = 0; i < trimmed.size(); ++i) {
        bool dash = i == 8 || i == 13 || i == 18 || i == 23;
        if (dash ? trimmed[i] != '-' : !std::isxdigit(static_cast<unsigned char>(trimmed[i]))) return std::nullopt;
      }
      std::string lower;
      for (char c : trimmed) lower.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
      return Value::String(type, lower);
    }
    case TypeKind::kIntervalDayTime:
    case TypeKind::kIntervalYearMonth: {
      // A plain number: the unit comes from the INTERVAL qualifier, applied by the caller.
      return std::nullopt;
    }
    default:
      return std::nullopt;
  }
}

std::string ValueText(const Value& value, const TimeZone* zone) {
  if (zone != nullptr && !value.is_null() && value.type().kind() == TypeKind::kTimestampTz) {
    return FormatTimestampInZone(value.as_int(), *zone);
  }
  return value.ToText();
}

std::optional<Value> CastValue(const Value& value, const SqlType& type) {
  if (value.type() == type) return value;
  if (value.is_null()) return Value::Null(type);
  const SqlType& from = value.type();
  if (from.kind() == TypeKind::kVarchar) return CastFromText(value.as_string(), type);
  if (type.kind() == TypeKind::kVarchar) {
    if (from.kind() == TypeKind::kVarbinary) return std::nullopt;
    return Value::String(type, value.ToText());
  }
  auto int_range_ok = [&](int64_t v) {
    switch (type.kind()) {
      case TypeKind::kTinyint: return v >= -128 && v <= 127;
      case TypeKind::kSmallint: return v >= -32768 && v <= 32767;
      case TypeKind::kInteger: return v >= INT32_MIN && v <= INT32_MAX;
      default: return true;
    }
  };
  if (from.IsInteger()) {
    int64_t v = value.as_int();
    if (type.IsInteger()) return int_range_ok(v) ? std::optional<Value>(Value::Int(type, v)) : std::nullopt;
    if (type.kind() == TypeKind::kDecimal) {
      Int128 unscaled = static_cast<Int128>(v) * PowerOfTen(type.scale());
      Int128 limit = PowerOfTen(type.precision());
      if (unscaled >= limit || unscaled <= -limit) return std::nullopt;
      return Value::Decimal(type, unscaled);
    }
    if (type.kind() == TypeKind::kDouble || type.kind() == TypeKind::kReal) return Value::Double(type, static_cast<double>(v));
    if (type.kind() == TypeKind::kBoolean) return Value::Boolean(v != 0);
    return std::nullopt;
  }
  if (from.kind() == TypeKind::kDecimal) {
    Int128 v = value.as_decimal();
    if (type.kind() == TypeKind::kDouble || type.kind() == TypeKind::kReal) {
      return Value::Double(type, static_cast<double>(v) / static_cast<double>(PowerOfTen(from.scale())));
    }
    if (type.kind() == TypeKind::kDecimal || type.IsInteger()) {
      int target_scale = type.kind() == TypeKind::kDecimal ? type.scale() : 0;
      Int128 out = v;
      if (from.scale() > target_scale) {
        Int128 divisor = PowerOfTen(from.scale() - target_scale);
        Int128 q = v / divisor, r = v % divisor;
        if (r * 2 >= divisor) ++q;
        if (r * 2 <= -divisor) --q;
        out = q;
      } else {
        out = v * PowerOfTen(target_scale - from.scale());
      }
      if (type.kind() == TypeKind::kDecimal) {
        Int128 limit = PowerOfTen(type.precision());
        if (out >= limit || out <= -limit) return std::nullopt;
        return Value::Decimal(type, out);
      }
      if (out > INT64_MAX || out < INT64_MIN || !int_range_ok(static_cast<int64_t>(out))) return std::nullopt;
      return Value::Int(type, static_cast<int64_t>(out));
    }
    return std::nullopt;
  }
  if (from.kind() == TypeKind::kDouble || from.kind() == TypeKind::kReal) {
    double v = value.as_double();
    if (type.kind() == TypeKind::kDouble || type.kind() == TypeKind::kReal) return Value::Double(type, v);
    if (!std::isfinite(v)) return std::nullopt;
    if (type.IsInteger()) {
      double r = std::round(v);
      if (r < -9.2e18 || r > 9.2e18 || !int_range_ok(static_cast<int64_t>(r))) return std::nullopt;
      return Value::Int(type, static_cast<int64_t>(r));
    }
    if (type.kind() == TypeKind::kDecimal) {
      double scaled = std::round(v * std::pow(10.0, type.scale()));
      if (std::fabs(scaled) >= std::pow(10.0, type.precision())) return std::nullopt;
      return Value::Decimal(type, static_cast<Int128>(scaled));
    }
    return std::nullopt;
  }
  if (from.kind() == TypeKind::kBoolean && type.IsInteger()) return Value::Int(type, value.as_bool() ? 1 : 0);
  if (from.kind() == TypeKind::kDate && (type.kind() == TypeKind::kTimestamp || type.kind() == TypeKind::kTimestampTz)) {
    return Value::Int(type, value.as_int() * kMicrosPerDay);
  }
  if ((from.kind() == TypeKind::kTimestamp || from.kind() == TypeKind::kTimestampTz) && type.kind() == TypeKind::kDate) {
    return Value::Int(type, FloorDiv(value.as_int(), kMicrosPerDay));
  }
  if ((from.kind() == TypeKind::kTimestamp || from.kind() == TypeKind::kTimestampTz) &&
      (type.kind() == TypeKind::kTimestamp || type.kind() == TypeKind::kTimestampTz)) {
    return Value::Int(type, value.as_int());  // The session zone is UTC.
  }
  return std::nullopt;
}

}  // namespace floe::sql
