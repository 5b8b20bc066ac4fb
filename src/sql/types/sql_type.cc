#include "sql/types/sql_type.h"

#include <fmt/format.h>

namespace floe::sql {

SqlType SqlType::Decimal(int precision, int scale) {
  SqlType type(TypeKind::kDecimal);
  type.precision_ = precision;
  type.scale_ = scale;
  return type;
}

SqlType SqlType::Row(std::vector<RowField> fields) {
  SqlType type(TypeKind::kRow);
  type.fields_ = std::make_shared<const std::vector<RowField>>(std::move(fields));
  return type;
}

SqlType SqlType::Array(SqlType element) {
  SqlType type(TypeKind::kArray);
  type.element_ = std::make_shared<const SqlType>(std::move(element));
  return type;
}

SqlType SqlType::Map(SqlType key, SqlType value) {
  SqlType type(TypeKind::kMap);
  type.element_ = std::make_shared<const SqlType>(std::move(key));
  type.value_ = std::make_shared<const SqlType>(std::move(value));
  return type;
}

const std::vector<RowField>& SqlType::fields() const {
  static const std::vector<RowField> kNone;
  return fields_ ? *fields_ : kNone;
}

const SqlType& SqlType::element() const {
  static const SqlType kNone;
  return element_ ? *element_ : kNone;
}

const SqlType& SqlType::value() const {
  static const SqlType kNone;
  return value_ ? *value_ : kNone;
}

bool SqlType::IsOrderable() const {
  switch (kind_) {
    case TypeKind::kRow:
      for (const RowField& field : fields()) {
        if (!field.type.IsOrderable()) return false;
      }
      return true;
    case TypeKind::kArray:
      return element().IsOrderable();
    case TypeKind::kMap:
      return false;
    default:
      return true;
  }
}

bool SqlType::IsComparable() const {
  switch (kind_) {
    case TypeKind::kRow:
      for (const RowField& field : fields()) {
        if (!field.type.IsComparable()) return false;
      }
      return true;
    case TypeKind::kArray:
      return element().IsComparable();
    case TypeKind::kMap:
      return element().IsComparable() && value().IsComparable();
    default:
      return true;
  }
}

std::string SqlType::ToString() const {
  switch (kind_) {
    case TypeKind::kUnknown: return "unknown";
    case TypeKind::kBoolean: return "boolean";
    case TypeKind::kTinyint: return "tinyint";
    case TypeKind::kSmallint: return "smallint";
    case TypeKind::kInteger: return "integer";
    case TypeKind::kBigint: return "bigint";
    case TypeKind::kReal: return "real";
    case TypeKind::kDouble: return "double";
    case TypeKind::kDecimal: return fmt::format("decimal({},{})", precision_, scale_);
    case TypeKind::kVarchar: return "varchar";
    case TypeKind::kDate: return "date";
    case TypeKind::kTime: return "time(6)";
    case TypeKind::kTimestamp: return "timestamp(6)";
    case TypeKind::kTimestampTz: return "timestamp(6) with time zone";
    case TypeKind::kIntervalDayTime: return "interval day to second";
    case TypeKind::kIntervalYearMonth: return "interval year to month";
    case TypeKind::kUuid: return "uuid";
    case TypeKind::kVarbinary: return "varbinary";
    case TypeKind::kRow: {
      std::string out = "row(";
      for (size_t i = 0; i < fields().size(); ++i) {
        if (i > 0) out += ", ";
        if (!fields()[i].name.empty()) out += fields()[i].name + " ";
        out += fields()[i].type.ToString();
      }
      return out + ")";
    }
    case TypeKind::kArray: return fmt::format("array({})", element().ToString());
    case TypeKind::kMap: return fmt::format("map({}, {})", element().ToString(), value().ToString());
  }
  return "?";
}

bool SqlType::operator==(const SqlType& other) const {
  if (kind_ != other.kind_) return false;
  switch (kind_) {
    case TypeKind::kDecimal:
      return precision_ == other.precision_ && scale_ == other.scale_;
    case TypeKind::kRow: {
      if (fields().size() != other.fields().size()) return false;
      for (size_t i = 0; i < fields().size(); ++i) {
        if (fields()[i].name != other.fields()[i].name || !(fields()[i].type == other.fields()[i].type)) return false;
      }
      return true;
    }
    case TypeKind::kArray:
      return element() == other.element();
    case TypeKind::kMap:
      return element() == other.element() && value() == other.value();
    default:
      return true;
  }
}

}  // namespace floe::sql
