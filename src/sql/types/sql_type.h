// SQL data types as the engine sees them (Trino's names and rules): the scalar types, exact
// decimals with precision and scale, and row/array/map. Immutable values, cheap to copy (nested
// parts are shared); any thread may read them. Iceberg types map onto these in the catalog
// adapter; the rules for implicit coercion and decimal arithmetic live in sql/type_rules.h.
#pragma once

#include <memory>
#include <string>
#include <vector>

namespace floe::sql {

enum class TypeKind {
  kUnknown,  // The type of a bare NULL: coerces to anything.
  kBoolean,
  kTinyint,
  kSmallint,
  kInteger,
  kBigint,
  kReal,
  kDouble,
  kDecimal,
  kVarchar,
  kDate,
  kTime,
  kTimestamp,    // Microseconds, no zone.
  kTimestampTz,  // Microseconds since the epoch in UTC, shown in the session zone.
  kIntervalDayTime,
  kIntervalYearMonth,
  kUuid,
  kVarbinary,
  kRow,
  kArray,
  kMap,
};

struct RowField;

class SqlType {
 public:
  static constexpr int kMaxDecimalPrecision = 38;

  SqlType() = default;
  explicit SqlType(TypeKind kind) : kind_(kind) {}

  static SqlType Unknown() { return SqlType(TypeKind::kUnknown); }
  static SqlType Boolean() { return SqlType(TypeKind::kBoolean); }
  static SqlType Integer() { return SqlType(TypeKind::kInteger); }
  static SqlType Bigint() { return SqlType(TypeKind::kBigint); }
  static SqlType Double() { return SqlType(TypeKind::kDouble); }
  static SqlType Varchar() { return SqlType(TypeKind::kVarchar); }
  static SqlType Date() { return SqlType(TypeKind::kDate); }
  static SqlType Timestamp() { return SqlType(TypeKind::kTimestamp); }
  static SqlType TimestampTz() { return SqlType(TypeKind::kTimestampTz); }
  static SqlType Decimal(int precision, int scale);
  static SqlType Row(std::vector<RowField> fields);
  static SqlType Array(SqlType element);
  static SqlType Map(SqlType key, SqlType value);

  TypeKind kind() const { return kind_; }
  int precision() const { return precision_; }
  int scale() const { return scale_; }
  const std::vector<RowField>& fields() const;  // kRow
  const SqlType& element() const;               // kArray element, kMap key
  const SqlType& value() const;                 // kMap value

  bool IsUnknown() const { return kind_ == TypeKind::kUnknown; }
  bool IsInteger() const {
    return kind_ == TypeKind::kTinyint || kind_ == TypeKind::kSmallint || kind_ == TypeKind::kInteger ||
           kind_ == TypeKind::kBigint;
  }
  bool IsExactNumeric() const { return IsInteger() || kind_ == TypeKind::kDecimal; }
  bool IsNumeric() const { return IsExactNumeric() || kind_ == TypeKind::kReal || kind_ == TypeKind::kDouble; }
  bool IsTemporal() const {
    return kind_ == TypeKind::kDate || kind_ == TypeKind::kTimestamp || kind_ == TypeKind::kTimestampTz ||
           kind_ == TypeKind::kTime;
  }
  bool IsInterval() const { return kind_ == TypeKind::kIntervalDayTime || kind_ == TypeKind::kIntervalYearMonth; }
  bool IsNested() const { return kind_ == TypeKind::kArray || kind_ == TypeKind::kMap || kind_ == TypeKind::kRow; }
  // Types whose values have an order (`<`, ORDER BY): every scalar, and arrays and rows of
  // orderable types (lexicographic, as Trino orders them); never a map.
  bool IsOrderable() const;
  // Whether values of this type can be told equal (grouped, DISTINCT, joined on): every scalar,
  // and arrays, maps and rows of comparable types.
  bool IsComparable() const;

  // Trino's spelling: "bigint", "decimal(10,2)", "timestamp(6) with time zone", "row(a bigint)".
  std::string ToString() const;

  bool operator==(const SqlType& other) const;

 private:
  TypeKind kind_ = TypeKind::kUnknown;
  int precision_ = 0;
  int scale_ = 0;
  std::shared_ptr<const std::vector<RowField>> fields_;
  std::shared_ptr<const SqlType> element_;
  std::shared_ptr<const SqlType> value_;
};

struct RowField {
  std::string name;
  SqlType type;
};

}  // namespace floe::sql
