#include "serve/trino_json.h"

#include <fmt/format.h>

#include <cmath>
#include <string>

#include "sql/types/temporal.h"

namespace floe::serve {
namespace {

nlohmann::json LongArgument(int64_t value) { return {{"kind", "LONG"}, {"value", value}}; }
nlohmann::json TypeArgument(const sql::SqlType& type) { return {{"kind", "TYPE"}, {"value", TrinoTypeSignature(type)}}; }

}  // namespace

nlohmann::json TrinoTypeSignature(const sql::SqlType& type) {
  using sql::TypeKind;
  nlohmann::json arguments = nlohmann::json::array();
  std::string raw;
  switch (type.kind()) {
    case TypeKind::kVarchar:
      raw = "varchar";
      arguments.push_back(LongArgument(2147483647));
      break;
    case TypeKind::kDecimal:
      raw = "decimal";
      arguments.push_back(LongArgument(type.precision()));
      arguments.push_back(LongArgument(type.scale()));
      break;
    case TypeKind::kTime:
      raw = "time";
      arguments.push_back(LongArgument(6));
      break;
    case TypeKind::kTimestamp:
      raw = "timestamp";
      arguments.push_back(LongArgument(6));
      break;
    case TypeKind::kTimestampTz:
      raw = "timestamp with time zone";
      arguments.push_back(LongArgument(6));
      break;
    case TypeKind::kArray:
      raw = "array";
      arguments.push_back(TypeArgument(type.element()));
      break;
    case TypeKind::kMap:
      raw = "map";
      arguments.push_back(TypeArgument(type.element()));
      arguments.push_back(TypeArgument(type.value()));
      break;
    case TypeKind::kRow:
      raw = "row";
      for (const auto& field : type.fields()) {
        nlohmann::json named = {{"typeSignature", TrinoTypeSignature(field.type)}};
        if (!field.name.empty()) named["fieldName"] = {{"name", field.name}, {"delimited", false}};
        arguments.push_back({{"kind", "NAMED_TYPE"}, {"value", std::move(named)}});
      }
      break;
    default:
      raw = type.ToString();
  }
  return {{"rawType", raw}, {"arguments", std::move(arguments)}};
}

nlohmann::json TrinoColumn(const std::string& name, const sql::SqlType& type) {
  return {{"name", name}, {"type", type.ToString()}, {"typeSignature", TrinoTypeSignature(type)}};
}

nlohmann::json TrinoValue(const sql::Value& value, const TimeZone& zone) {
  using sql::TypeKind;
  if (value.is_null()) return nullptr;
  switch (value.type().kind()) {
    case TypeKind::kBoolean: return value.as_bool();
    case TypeKind::kTinyint:
    case TypeKind::kSmallint:
    case TypeKind::kInteger:
    case TypeKind::kBigint: return value.as_int();
    case TypeKind::kReal:
    case TypeKind::kDouble: {
      double d = value.as_double();
      if (std::isnan(d)) return "NaN";
      if (std::isinf(d)) return d > 0 ? "Infinity" : "-Infinity";
      // A REAL goes out with a float's shortest digits (1.1), as Trino sends it, not the
      // digits of the double that holds it (1.100000023841858).
      if (value.type().kind() == TypeKind::kReal) return std::stod(fmt::format("{}", static_cast<float>(d)));
      return d;
    }
    case TypeKind::kVarbinary: return Base64Encode(value.as_string());
    case TypeKind::kRow: {
      // Rows travel as JSON arrays of their field values; the names are in the typeSignature.
      nlohmann::json fields = nlohmann::json::array();
      for (const sql::Value& f : value.as_fields()) fields.push_back(TrinoValue(f, zone));
      return fields;
    }
    case TypeKind::kArray: {
      nlohmann::json elements = nlohmann::json::array();
      for (const sql::Value& e : value.as_elements()) elements.push_back(TrinoValue(e, zone));
      return elements;
    }
    case TypeKind::kMap: {
      // Maps travel as JSON objects; a key is its value as text (JSON keys are strings), as
      // Trino's client reads them back by the key type in the typeSignature.
      nlohmann::json entries = nlohmann::json::object();
      for (size_t i = 0; i < value.map_size(); ++i) {
        nlohmann::json key = TrinoValue(value.map_key(i), zone);
        entries[key.is_string() ? key.get<std::string>() : key.dump()] = TrinoValue(value.map_value(i), zone);
      }
      return entries;
    }
    case TypeKind::kTimestampTz:
      return sql::FormatTimestampInZone(value.as_int(), zone);
    default: return value.ToText();
  }
}

nlohmann::json TrinoError(const QueryError& error) {
  nlohmann::json out = {
      {"message", error.message},
      {"errorCode", error.code},
      {"errorName", error.name},
      {"errorType", error.type},
  };
  nlohmann::json failure = {{"type", "io.trino.spi.TrinoException"},
                            {"message", error.message},
                            {"suppressed", nlohmann::json::array()},
                            {"stack", nlohmann::json::array()}};
  if (error.line.has_value()) {
    nlohmann::json location = {{"lineNumber", *error.line}, {"columnNumber", error.column.value_or(1)}};
    out["errorLocation"] = location;
    failure["errorLocation"] = location;
  }
  out["failureInfo"] = std::move(failure);
  return out;
}

}  // namespace floe::serve
