#include "iceberg/avro_conversion.h"

namespace floe::iceberg {
namespace {

using Json = nlohmann::json;
using avro::AvroValue;

Json TypeToAvro(const Type& type, const std::string& name_hint);

Json FieldToAvro(const NestedField& f) {
  Json type = TypeToAvro(*f.type, fmt::format("r{}", f.id));
  Json out = Json::object();
  out["name"] = f.name;
  if (f.required) {
    out["type"] = std::move(type);
  } else {
    out["type"] = Json::array({"null", std::move(type)});
    out["default"] = nullptr;
  }
  if (!f.doc.empty()) out["doc"] = f.doc;
  out["field-id"] = f.id;
  return out;
}

int32_t DecimalBytes(int32_t precision) {
  // The fewest bytes whose two's complement range holds 10^precision - 1.
  for (int32_t n = 1; n <= 16; ++n) {
    long double max = 1;
    for (int32_t i = 0; i < 8 * n - 1; ++i) max *= 2;
    long double need = 1;
    for (int32_t i = 0; i < precision; ++i) need *= 10;
    if (need <= max) return n;
  }
  return 16;
}

Json TypeToAvro(const Type& type, const std::string& name_hint) {
  switch (type.id()) {
    case TypeId::kBoolean: return "boolean";
    case TypeId::kInt: return "int";
    case TypeId::kLong: return "long";
    case TypeId::kFloat: return "float";
    case TypeId::kDouble: return "double";
    case TypeId::kDate: return {{"type", "int"}, {"logicalType", "date"}};
    case TypeId::kTime: return {{"type", "long"}, {"logicalType", "time-micros"}};
    case TypeId::kTimestamp: return {{"type", "long"}, {"logicalType", "timestamp-micros"}, {"adjust-to-utc", false}};
    case TypeId::kTimestampTz: return {{"type", "long"}, {"logicalType", "timestamp-micros"}, {"adjust-to-utc", true}};
    case TypeId::kTimestampNs: return {{"type", "long"}, {"logicalType", "timestamp-nanos"}, {"adjust-to-utc", false}};
    case TypeId::kTimestampTzNs: return {{"type", "long"}, {"logicalType", "timestamp-nanos"}, {"adjust-to-utc", true}};
    case TypeId::kString: return "string";
    case TypeId::kUuid: return {{"type", "fixed"}, {"name", "uuid_" + name_hint}, {"size", 16}, {"logicalType", "uuid"}};
    case TypeId::kFixed: return {{"type", "fixed"}, {"name", fmt::format("fixed_{}_{}", type.length(), name_hint)}, {"size", type.length()}};
    case TypeId::kBinary: return "bytes";
    case TypeId::kDecimal:
      return {{"type", "fixed"},
              {"name", fmt::format("decimal_{}_{}_{}", type.precision(), type.scale(), name_hint)},
              {"size", DecimalBytes(type.precision())},
              {"logicalType", "decimal"},
              {"precision", type.precision()},
              {"scale", type.scale()}};
    case TypeId::kStruct: return StructToAvroSchema(type, name_hint);
    case TypeId::kList: {
      const NestedField& e = type.element();
      Json items = TypeToAvro(*e.type, fmt::format("r{}", e.id));
      if (!e.required) items = Json::array({"null", std::move(items)});
      return {{"type", "array"}, {"items", std::move(items)}, {"element-id", e.id}};
    }
    case TypeId::kMap: {
      const NestedField& k = type.key();
      const NestedField& v = type.value();
      Json value = TypeToAvro(*v.type, fmt::format("r{}", v.id));
      if (!v.required) value = Json::array({"null", std::move(value)});
      if (k.type->id() == TypeId::kString) {
        return {{"type", "map"}, {"values", std::move(value)}, {"key-id", k.id}, {"value-id", v.id}};
      }
      Json record = {{"type", "record"},
                     {"name", fmt::format("k{}_v{}", k.id, v.id)},
                     {"fields", Json::array({{{"name", "key"}, {"type", TypeToAvro(*k.type, fmt::format("r{}", k.id))}, {"field-id", k.id}},
                                             {{"name", "value"}, {"type", std::move(value)}, {"field-id", v.id}}})}};
      return {{"type", "array"}, {"items", std::move(record)}, {"logicalType", "map"}};
    }
    default: return "null";
  }
}

}  // namespace

nlohmann::json StructToAvroSchema(const Type& struct_type, const std::string& record_name) {
  Json fields = Json::array();
  for (const NestedField& f : struct_type.fields()) fields.push_back(FieldToAvro(f));
  return {{"type", "record"}, {"name", record_name}, {"fields", std::move(fields)}};
}

Result<Literal> AvroToLiteral(const Type& type, const AvroValue& v) {
  using K = AvroValue::Kind;
  if (v.is_null()) return Literal::Null();
  auto wrong = [&]() { return Corruption("an Avro value of kind {} cannot hold {}", static_cast<int>(v.kind), type.ToString()); };
  switch (type.id()) {
    case TypeId::kBoolean:
      if (v.kind != K::kBoolean) return wrong();
      return Literal::Boolean(v.i != 0);
    case TypeId::kInt:
    case TypeId::kDate:
      if (v.kind != K::kInt && v.kind != K::kLong) return wrong();
      return Literal::Int(static_cast<int32_t>(v.i));
    case TypeId::kLong:
    case TypeId::kTime:
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs:
      if (v.kind != K::kInt && v.kind != K::kLong) return wrong();
      return Literal::Long(v.i);
    case TypeId::kFloat:
      if (v.kind != K::kFloat && v.kind != K::kDouble) return wrong();
      return Literal::Float(static_cast<float>(v.d));
    case TypeId::kDouble:
      if (v.kind != K::kFloat && v.kind != K::kDouble) return wrong();
      return Literal::Double(v.d);
    case TypeId::kString:
      if (v.kind != K::kString && v.kind != K::kBytes) return wrong();
      return Literal::String(v.s);
    case TypeId::kDecimal:
      if (v.kind != K::kFixed && v.kind != K::kBytes) return wrong();
      if (v.s.size() > 16) return Corruption("decimal of {} bytes", v.s.size());
      return Literal::Decimal(DecimalFromBytes(v.s), type.scale());
    case TypeId::kUuid:
    case TypeId::kFixed:
    case TypeId::kBinary:
      if (v.kind != K::kFixed && v.kind != K::kBytes && v.kind != K::kString) return wrong();
      return Literal::Binary(v.s);
    default:
      return Literal::Null();
  }
}

AvroValue LiteralToAvro(const Type& type, const Literal& v) {
  if (v.is_null()) return AvroValue::Null();
  switch (type.id()) {
    case TypeId::kBoolean: return AvroValue::Boolean(v.as_bool());
    case TypeId::kInt:
    case TypeId::kDate: return AvroValue::Int(v.as_int());
    case TypeId::kLong:
    case TypeId::kTime:
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs: return AvroValue::Long(v.as_long());
    case TypeId::kFloat: return AvroValue::Float(static_cast<float>(v.as_double()));
    case TypeId::kDouble: return AvroValue::Double(v.as_double());
    case TypeId::kString: return AvroValue::String(v.as_bytes());
    case TypeId::kBinary: return AvroValue::Bytes(v.as_bytes());
    case TypeId::kUuid:
    case TypeId::kFixed: return AvroValue::Fixed(v.as_bytes());
    case TypeId::kDecimal: {
      // Fixed of the precision's size: sign-extend the minimal bytes.
      std::string minimal = DecimalToMinimalBytes(v.unscaled());
      int32_t size = DecimalBytes(type.precision());
      char pad = v.unscaled() < 0 ? '\xff' : '\0';
      if (static_cast<int32_t>(minimal.size()) < size) minimal.insert(0, size - minimal.size(), pad);
      return AvroValue::Fixed(minimal);
    }
    default: return AvroValue::Null();
  }
}

namespace {

constexpr int kMaxAvroDepth = 32;

Result<TypePtr> AvroToIcebergTypeAt(const avro::AvroNode& node, int32_t* next_id, bool* optional, int depth);

Result<std::vector<NestedField>> AvroFieldsToIceberg(const avro::AvroNode& record, int32_t* next_id, int depth) {
  std::vector<NestedField> fields;
  // Ids of a struct's fields come first, then those of their children (as Iceberg assigns them).
  int32_t first = *next_id;
  *next_id += static_cast<int32_t>(record.fields.size());
  for (size_t i = 0; i < record.fields.size(); ++i) {
    const avro::AvroField& f = record.fields[i];
    bool is_optional = false;
    FLOE_ASSIGN_OR_RETURN_CTX(TypePtr type, AvroToIcebergTypeAt(*f.type, next_id, &is_optional, depth + 1),
                              fmt::format("field '{}'", f.name));
    fields.push_back(NestedField{.id = first + static_cast<int32_t>(i), .name = f.name, .required = !is_optional,
                                 .type = std::move(type), .doc = f.doc});
  }
  return fields;
}

Result<TypePtr> AvroToIcebergTypeAt(const avro::AvroNode& node, int32_t* next_id, bool* optional, int depth) {
  using avro::AvroType;
  if (depth > kMaxAvroDepth) return NotImplemented("avro schema nested deeper than {} (or recursive)", kMaxAvroDepth);
  if (optional != nullptr) *optional = false;
  const std::string& lt = node.logical_type;
  auto attribute = [&](const char* name, int32_t fallback) {
    auto it = node.extra.find(name);
    return it != node.extra.end() && it->is_number_integer() ? it->get<int32_t>() : fallback;
  };
  switch (node.type) {
    case AvroType::kUnion: {
      const avro::AvroNode* inner = node.NonNullBranch();
      if (inner == nullptr) {
        return NotImplemented("an Avro union other than [\"null\", T] has no Iceberg type");
      }
      if (optional != nullptr) *optional = true;
      return AvroToIcebergTypeAt(*inner, next_id, nullptr, depth + 1);
    }
    case AvroType::kNull: return NotImplemented("an Avro null field has no Iceberg type");
    case AvroType::kBoolean: return Type::Primitive(TypeId::kBoolean);
    case AvroType::kInt:
      if (lt == "date") return Type::Primitive(TypeId::kDate);
      if (lt == "time-millis") return Type::Primitive(TypeId::kTime);
      return Type::Primitive(TypeId::kInt);
    case AvroType::kLong: {
      if (lt == "time-micros") return Type::Primitive(TypeId::kTime);
      if (lt.starts_with("local-timestamp-")) return Type::Primitive(TypeId::kTimestamp);
      if (lt.starts_with("timestamp-")) {
        auto utc = node.extra.find("adjust-to-utc");
        bool adjusted = utc == node.extra.end() || !utc->is_boolean() || utc->get<bool>();
        return Type::Primitive(adjusted ? TypeId::kTimestampTz : TypeId::kTimestamp);
      }
      return Type::Primitive(TypeId::kLong);
    }
    case AvroType::kFloat: return Type::Primitive(TypeId::kFloat);
    case AvroType::kDouble: return Type::Primitive(TypeId::kDouble);
    case AvroType::kString:
      if (lt == "uuid") return Type::Primitive(TypeId::kUuid);
      return Type::Primitive(TypeId::kString);
    case AvroType::kEnum: return Type::Primitive(TypeId::kString);
    case AvroType::kBytes:
    case AvroType::kFixed:
      if (lt == "decimal") {
        int32_t precision = attribute("precision", 0), scale = attribute("scale", 0);
        if (precision < 1 || precision > 38 || scale < 0 || scale > precision) {
          return NotImplemented("an Avro decimal({}, {}) has no Iceberg type (precision 1 to 38)", precision, scale);
        }
        return Type::Decimal(precision, scale);
      }
      if (node.type == AvroType::kFixed) {
        if (lt == "uuid" && node.size == 16) return Type::Primitive(TypeId::kUuid);
        return Type::Fixed(node.size);
      }
      return Type::Primitive(TypeId::kBinary);
    case AvroType::kRecord: {
      FLOE_ASSIGN_OR_RETURN(std::vector<NestedField> fields, AvroFieldsToIceberg(node, next_id, depth));
      return Type::Struct(std::move(fields));
    }
    case AvroType::kArray: {
      int32_t element_id = (*next_id)++;
      bool element_optional = false;
      FLOE_ASSIGN_OR_RETURN(TypePtr element, AvroToIcebergTypeAt(*node.items, next_id, &element_optional, depth + 1));
      return Type::List(NestedField{.id = element_id, .name = "element", .required = !element_optional, .type = element});
    }
    case AvroType::kMap: {
      int32_t key_id = (*next_id)++, value_id = (*next_id)++;
      bool value_optional = false;
      FLOE_ASSIGN_OR_RETURN(TypePtr value, AvroToIcebergTypeAt(*node.items, next_id, &value_optional, depth + 1));
      return Type::Map(NestedField{.id = key_id, .name = "key", .required = true, .type = Type::Primitive(TypeId::kString)},
                       NestedField{.id = value_id, .name = "value", .required = !value_optional, .type = value});
    }
  }
  return NotImplemented("avro type {} has no Iceberg type", avro::AvroTypeName(node.type));
}

}  // namespace

Result<TypePtr> AvroToIcebergType(const avro::AvroNode& node, int32_t* next_id, bool* optional) {
  return AvroToIcebergTypeAt(node, next_id, optional, 0);
}

Result<Schema> AvroRecordToSchema(const avro::AvroNode& record) {
  if (record.type != avro::AvroType::kRecord) {
    return InvalidArgument("an Avro {} is no table row: a table needs a record schema", avro::AvroTypeName(record.type));
  }
  int32_t next_id = 1;
  FLOE_ASSIGN_OR_RETURN(std::vector<NestedField> fields, AvroFieldsToIceberg(record, &next_id, 0));
  Schema schema(0, std::move(fields));
  FLOE_RETURN_IF_ERROR(schema.Validate());
  return schema;
}

}  // namespace floe::iceberg
