// One SQL value of a known type: literals, folded constants and parameters. Temporal values
// are numbers (days, microseconds, months); decimals are 128-bit unscaled integers with the
// type's scale. Immutable after construction; any thread may read it.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "base/result.h"
#include "sql/types/sql_type.h"

namespace floe::sql {

using Int128 = __int128;

class Value {
 public:
  Value() = default;

  static Value Null(SqlType type) { return Value(std::move(type)); }
  static Value Boolean(bool v) { return Value(SqlType::Boolean(), v); }
  // Integers, dates (days), timestamps (micros), intervals (micros or months).
  static Value Int(SqlType type, int64_t v) { return Value(std::move(type), v); }
  static Value Decimal(SqlType type, Int128 unscaled) { return Value(std::move(type), unscaled); }
  // A REAL keeps a float's value (held as a double).
  static Value Double(SqlType type, double v) {
    if (type.kind() == TypeKind::kReal) v = static_cast<double>(static_cast<float>(v));
    return Value(std::move(type), v);
  }
  // varchar text, varbinary bytes, uuid's 36-character text.
  static Value String(SqlType type, std::string v) { return Value(std::move(type), std::move(v)); }
  // A row's field values, in the type's field order.
  static Value Row(SqlType type, std::vector<Value> fields) {
    return Value(std::move(type), std::make_shared<const std::vector<Value>>(std::move(fields)));
  }
  // An array's elements, in order.
  static Value Array(SqlType type, std::vector<Value> elements) { return Row(std::move(type), std::move(elements)); }
  // A map's entries as key, value, key, value, ... in the map's order (keys distinct).
  static Value Map(SqlType type, std::vector<Value> keys_and_values) {
    return Row(std::move(type), std::move(keys_and_values));
  }

  const SqlType& type() const { return type_; }
  bool is_null() const { return std::holds_alternative<std::monostate>(data_); }
  bool as_bool() const { return std::get<bool>(data_); }
  int64_t as_int() const { return std::get<int64_t>(data_); }
  Int128 as_decimal() const { return std::get<Int128>(data_); }
  double as_double() const { return std::get<double>(data_); }
  const std::string& as_string() const { return std::get<std::string>(data_); }
  const std::vector<Value>& as_fields() const { return *std::get<std::shared_ptr<const std::vector<Value>>>(data_); }
  const std::vector<Value>& as_elements() const { return as_fields(); }
  size_t map_size() const { return as_fields().size() / 2; }
  const Value& map_key(size_t i) const { return as_fields()[2 * i]; }
  const Value& map_value(size_t i) const { return as_fields()[2 * i + 1]; }

  // SQL literal text: NULL, TRUE, 42, 12.50, 'it''s', DATE '2024-01-01', X'0aff'.
  std::string ToSql() const;
  // Plain text for result output: 12.50, 2024-01-01, it's; rows, arrays and maps as Trino
  // prints them: {name=ann, geo={lat=1.0, lon=2.0}}, [1, 2, NULL], {a=1, b=2}.
  std::string ToText() const;

  bool operator==(const Value& other) const;

 private:
  explicit Value(SqlType type) : type_(std::move(type)) {}
  template <typename T>
  Value(SqlType type, T data) : type_(std::move(type)), data_(std::move(data)) {}

  SqlType type_;
  std::variant<std::monostate, bool, int64_t, Int128, double, std::string, std::shared_ptr<const std::vector<Value>>> data_;
};

// The decimal text of `unscaled` at `scale`: (12345, 2) -> "123.45".
std::string DecimalToString(Int128 unscaled, int scale);
// Parses exact numeric text ("-12.50") into an unscaled value, its precision and scale.
Result<Value> ParseDecimalLiteral(std::string_view text);
// 10^n for 0 <= n <= 38.
Int128 PowerOfTen(int n);

}  // namespace floe::sql
