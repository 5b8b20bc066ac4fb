#include "sql/iceberg/iceberg_types.h"

#include <cmath>

#include <nlohmann/json.hpp>

#include "sql/types/temporal.h"

namespace floe::sql::iceberg_sql {

using iceberg::Literal;
using IT = iceberg::TypeId;
using BT = formats::TypeId;

Result<SqlType> SqlTypeFor(const iceberg::Type& type) {
  switch (type.id()) {
    case IT::kBoolean: return SqlType::Boolean();
    case IT::kInt: return SqlType::Integer();
    case IT::kLong: return SqlType::Bigint();
    case IT::kFloat: return SqlType(TypeKind::kReal);
    case IT::kDouble: return SqlType::Double();
    case IT::kDecimal: return SqlType::Decimal(type.precision(), type.scale());
    case IT::kDate: return SqlType::Date();
    case IT::kTime: return SqlType(TypeKind::kTime);
    case IT::kTimestamp: return SqlType::Timestamp();
    case IT::kTimestampTz: return SqlType::TimestampTz();
    // SQL timestamps hold microseconds: nanosecond columns read rounded down to the microsecond.
    case IT::kTimestampNs: return SqlType::Timestamp();
    case IT::kTimestampTzNs: return SqlType::TimestampTz();
    case IT::kString: return SqlType::Varchar();
    case IT::kUuid: return SqlType(TypeKind::kUuid);
    case IT::kFixed:
    case IT::kBinary: return SqlType(TypeKind::kVarbinary);
    case IT::kStruct: {
      std::vector<RowField> fields;
      for (const iceberg::NestedField& f : type.fields()) {
        FLOE_ASSIGN_OR_RETURN(SqlType t, SqlTypeFor(*f.type));
        fields.push_back({f.name, std::move(t)});
      }
      return SqlType::Row(std::move(fields));
    }
    case IT::kList: {
      FLOE_ASSIGN_OR_RETURN(SqlType e, SqlTypeFor(*type.element().type));
      return SqlType::Array(std::move(e));
    }
    case IT::kMap: {
      FLOE_ASSIGN_OR_RETURN(SqlType k, SqlTypeFor(*type.key().type));
      FLOE_ASSIGN_OR_RETURN(SqlType v, SqlTypeFor(*type.value().type));
      return SqlType::Map(std::move(k), std::move(v));
    }
    default: return NotImplemented("Iceberg type {} has no SQL type yet", type.ToString());
  }
}

formats::DataType BatchTypeFor(const SqlType& type) {
  switch (type.kind()) {
    case TypeKind::kBoolean: return formats::Primitive(BT::kBoolean);
    case TypeKind::kTinyint:
    case TypeKind::kSmallint:
    case TypeKind::kInteger: return formats::Primitive(BT::kInt32);
    case TypeKind::kBigint: return formats::Primitive(BT::kInt64);
    case TypeKind::kReal: return formats::Primitive(BT::kFloat);
    case TypeKind::kDouble: return formats::Primitive(BT::kDouble);
    case TypeKind::kDecimal: return formats::DecimalType(type.precision(), type.scale());
    case TypeKind::kDate: return formats::Primitive(BT::kDate);
    case TypeKind::kTime: return formats::Primitive(BT::kTime);
    case TypeKind::kTimestamp: return formats::Primitive(BT::kTimestamp);
    case TypeKind::kTimestampTz: return formats::Primitive(BT::kTimestampTz);
    case TypeKind::kUuid: return formats::Primitive(BT::kUuid);
    case TypeKind::kVarbinary: return formats::Primitive(BT::kBinary);
    case TypeKind::kRow: {
      std::vector<formats::Field> fields;
      for (const RowField& f : type.fields()) fields.push_back({f.name, -1, true, BatchTypeFor(f.type)});
      return formats::StructType(std::move(fields));
    }
    case TypeKind::kArray: return formats::ListType({"element", -1, true, BatchTypeFor(type.element())});
    case TypeKind::kMap:
      return formats::MapType({"key", -1, false, BatchTypeFor(type.element())},
                              {"value", -1, true, BatchTypeFor(type.value())});
    case TypeKind::kIntervalDayTime:
    case TypeKind::kIntervalYearMonth: return formats::Primitive(BT::kInt64);
    default: return formats::Primitive(BT::kString);
  }
}

Result<iceberg::TypePtr> IcebergTypeFor(const SqlType& type, int32_t* next_id) {
  using iceberg::Type;
  switch (type.kind()) {
    case TypeKind::kBoolean: return Type::Primitive(IT::kBoolean);
    case TypeKind::kTinyint:
    case TypeKind::kSmallint:
    case TypeKind::kInteger: return Type::Primitive(IT::kInt);
    case TypeKind::kBigint: return Type::Primitive(IT::kLong);
    case TypeKind::kReal: return Type::Primitive(IT::kFloat);
    case TypeKind::kDouble: return Type::Primitive(IT::kDouble);
    case TypeKind::kDecimal: return Type::Decimal(type.precision(), type.scale());
    case TypeKind::kDate: return Type::Primitive(IT::kDate);
    case TypeKind::kTime: return Type::Primitive(IT::kTime);
    case TypeKind::kTimestamp: return Type::Primitive(IT::kTimestamp);
    case TypeKind::kTimestampTz: return Type::Primitive(IT::kTimestampTz);
    case TypeKind::kVarchar: return Type::Primitive(IT::kString);
    case TypeKind::kUuid: return Type::Primitive(IT::kUuid);
    case TypeKind::kVarbinary: return Type::Primitive(IT::kBinary);
    case TypeKind::kRow: {
      std::vector<iceberg::NestedField> fields;
      for (const RowField& f : type.fields()) {
        iceberg::NestedField n;
        n.id = (*next_id)++;
        n.name = f.name;
        FLOE_ASSIGN_OR_RETURN(n.type, IcebergTypeFor(f.type, next_id));
        fields.push_back(std::move(n));
      }
      return Type::Struct(std::move(fields));
    }
    case TypeKind::kArray: {
      iceberg::NestedField e;
      e.id = (*next_id)++;
      e.name = "element";
      FLOE_ASSIGN_OR_RETURN(e.type, IcebergTypeFor(type.element(), next_id));
      return Type::List(std::move(e));
    }
    case TypeKind::kMap: {
      iceberg::NestedField k, v;
      k.id = (*next_id)++;
      k.name = "key";
      k.required = true;
      v.id = (*next_id)++;
      v.name = "value";
      FLOE_ASSIGN_OR_RETURN(k.type, IcebergTypeFor(type.element(), next_id));
      FLOE_ASSIGN_OR_RETURN(v.type, IcebergTypeFor(type.value(), next_id));
      return Type::Map(std::move(k), std::move(v));
    }
    default: return InvalidArgument("type {} cannot be stored in an Iceberg table", type.ToString());
  }
}

std::optional<Literal> LiteralFor(const Value& value, const iceberg::Type& type) {
  if (value.is_null()) return std::nullopt;
  const SqlType& vt = value.type();
  switch (type.id()) {
    case IT::kBoolean:
      if (vt.kind() != TypeKind::kBoolean) return std::nullopt;
      return Literal::Boolean(value.as_bool());
    case IT::kInt:
    case IT::kLong: {
      if (!vt.IsInteger()) return std::nullopt;
      int64_t v = value.as_int();
      if (type.id() == IT::kLong) return Literal::Long(v);
      if (v < INT32_MIN || v > INT32_MAX) return std::nullopt;
      return Literal::Int(static_cast<int32_t>(v));
    }
    case IT::kFloat:
    case IT::kDouble: {
      double d = 0;
      if (vt.kind() == TypeKind::kDouble || vt.kind() == TypeKind::kReal) {
        d = value.as_double();
      } else if (vt.IsInteger()) {
        d = static_cast<double>(value.as_int());
      } else {
        return std::nullopt;
      }
      if (std::isnan(d)) return std::nullopt;
      if (type.id() == IT::kDouble) return Literal::Double(d);
      auto f = static_cast<float>(d);
      if (static_cast<double>(f) != d) return std::nullopt;
      return Literal::Float(f);
    }
    case IT::kDecimal: {
      Int128 unscaled = 0;
      int scale = 0;
      if (vt.kind() == TypeKind::kDecimal) {
        unscaled = value.as_decimal();
        scale = vt.scale();
      } else if (vt.IsInteger()) {
        unscaled = value.as_int();
      } else {
        return std::nullopt;
      }
      // Rescale exactly to the column's scale, or give up.
      while (scale < type.scale()) {
        unscaled *= 10;
        ++scale;
      }
      while (scale > type.scale()) {
        if (unscaled % 10 != 0) return std::nullopt;
        unscaled /= 10;
        --scale;
      }
      return Literal::Decimal(unscaled, scale);
    }
    case IT::kDate:
      if (vt.kind() != TypeKind::kDate) return std::nullopt;
      return Literal::Int(static_cast<int32_t>(value.as_int()));
    case IT::kTime:
      if (vt.kind() != TypeKind::kTime) return std::nullopt;
      return Literal::Long(value.as_int());
    case IT::kTimestamp:
    case IT::kTimestampTz:
      if (vt.kind() != TypeKind::kTimestamp && vt.kind() != TypeKind::kTimestampTz) return std::nullopt;
      return Literal::Long(value.as_int());
    case IT::kString:
      if (vt.kind() != TypeKind::kVarchar) return std::nullopt;
      return Literal::String(value.as_string());
    case IT::kUuid:
      if (vt.kind() != TypeKind::kUuid && vt.kind() != TypeKind::kVarchar) return std::nullopt;
      return iceberg::CastLiteral(Literal::String(value.as_string()), type);
    case IT::kBinary:
    case IT::kFixed:
      if (vt.kind() != TypeKind::kVarbinary) return std::nullopt;
      return Literal::Binary(value.as_string());
    default: return std::nullopt;
  }
}

Value ValueFor(const Literal& literal, const iceberg::Type& type, const SqlType& sql_type) {
  if (literal.is_null()) return Value::Null(sql_type);
  switch (type.id()) {
    case IT::kBoolean: return Value::Boolean(literal.as_bool());
    case IT::kFloat:
    case IT::kDouble: return Value::Double(sql_type, literal.as_double());
    case IT::kDecimal: return Value::Decimal(sql_type, literal.unscaled());
    case IT::kString:
    case IT::kBinary:
    case IT::kFixed: return Value::String(sql_type, literal.as_bytes());
    case IT::kUuid: return Value::String(sql_type, iceberg::ToJsonValue(type, literal).get<std::string>());
    case IT::kTimestampNs:
    case IT::kTimestampTzNs: return Value::Int(sql_type, FloorDiv(literal.as_long(), 1000));
    default: return Value::Int(sql_type, literal.as_long());
  }
}

}  // namespace floe::sql::iceberg_sql
