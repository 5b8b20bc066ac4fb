#include "stream/source/protobuf_table_schema.h"

#include <algorithm>

namespace floe::stream {
namespace {

using iceberg::NestedField;
using iceberg::Type;
using iceberg::TypeId;
using protobuf::ProtoType;

constexpr int kMaxDepth = 32;

Result<iceberg::TypePtr> ValueType(const protobuf::ProtoField& field, int32_t* next_id, int depth,
                                   std::vector<const protobuf::ProtoMessage*>& path);

Result<std::vector<NestedField>> MessageFields(const protobuf::ProtoMessage& message, int32_t* next_id, int depth,
                                               std::vector<const protobuf::ProtoMessage*>& path) {
  if (depth > kMaxDepth) return NotImplemented("message {}: nested deeper than {}", message.full_name, kMaxDepth);
  if (std::find(path.begin(), path.end(), &message) != path.end()) {
    return NotImplemented("message {} contains itself: a recursive message has no table schema", message.full_name);
  }
  path.push_back(&message);
  std::vector<NestedField> fields;
  for (const protobuf::ProtoField& f : message.fields) fields.push_back({.id = (*next_id)++, .name = f.name});
  for (size_t i = 0; i < fields.size(); ++i) {
    const protobuf::ProtoField& f = message.fields[i];
    iceberg::TypePtr type;
    if (f.IsMap()) {
      const protobuf::ProtoField& key = f.message->fields[0].number == 1 ? f.message->fields[0] : f.message->fields[1];
      const protobuf::ProtoField& value = f.message->fields[0].number == 1 ? f.message->fields[1] : f.message->fields[0];
      NestedField k{.id = (*next_id)++, .name = "key", .required = true};
      NestedField v{.id = (*next_id)++, .name = "value", .required = value.type != ProtoType::kMessage};
      FLOE_ASSIGN_OR_RETURN(k.type, ValueType(key, next_id, depth + 1, path));
      FLOE_ASSIGN_OR_RETURN(v.type, ValueType(value, next_id, depth + 1, path));
      type = Type::Map(std::move(k), std::move(v));
    } else if (f.IsRepeated()) {
      NestedField element{.id = (*next_id)++, .name = "element", .required = true};
      FLOE_ASSIGN_OR_RETURN(element.type, ValueType(f, next_id, depth + 1, path));
      type = Type::List(std::move(element));
    } else {
      FLOE_ASSIGN_OR_RETURN(type, ValueType(f, next_id, depth + 1, path));
    }
    fields[i].type = std::move(type);
  }
  path.pop_back();
  return fields;
}

Result<iceberg::TypePtr> ScalarType(ProtoType type) {
  switch (type) {
    case ProtoType::kBool: return Type::Primitive(TypeId::kBoolean);
    case ProtoType::kInt32:
    case ProtoType::kSint32:
    case ProtoType::kSfixed32: return Type::Primitive(TypeId::kInt);
    case ProtoType::kInt64:
    case ProtoType::kSint64:
    case ProtoType::kSfixed64:
    case ProtoType::kUint32:
    case ProtoType::kFixed32:
    case ProtoType::kUint64:
    case ProtoType::kFixed64: return Type::Primitive(TypeId::kLong);
    case ProtoType::kFloat: return Type::Primitive(TypeId::kFloat);
    case ProtoType::kDouble: return Type::Primitive(TypeId::kDouble);
    case ProtoType::kString:
    case ProtoType::kEnum: return Type::Primitive(TypeId::kString);
    case ProtoType::kBytes: return Type::Primitive(TypeId::kBinary);
    default: return NotImplemented("Protobuf {} has no column type", protobuf::ProtoTypeName(type));
  }
}

Result<iceberg::TypePtr> ValueType(const protobuf::ProtoField& field, int32_t* next_id, int depth,
                                   std::vector<const protobuf::ProtoMessage*>& path) {
  if (field.type != ProtoType::kMessage) return ScalarType(field.type);
  const protobuf::ProtoMessage& m = *field.message;
  if (m.well_known == protobuf::WellKnown::kTimestamp) return Type::Primitive(TypeId::kTimestampTz);
  if (m.well_known == protobuf::WellKnown::kWrapper) return ScalarType(m.fields[0].type);
  FLOE_ASSIGN_OR_RETURN(std::vector<NestedField> fields, MessageFields(m, next_id, depth, path));
  return Type::Struct(std::move(fields));
}

}  // namespace

Result<iceberg::TypePtr> ProtoFieldToIcebergType(const protobuf::ProtoField& field, int32_t* next_id) {
  protobuf::ProtoMessage holder;
  holder.name = holder.full_name = "field";
  holder.fields.push_back(field);
  std::vector<const protobuf::ProtoMessage*> path;
  FLOE_ASSIGN_OR_RETURN(std::vector<NestedField> fields, MessageFields(holder, next_id, 0, path));
  return fields[0].type;
}

Result<iceberg::Schema> ProtoMessageToSchema(const protobuf::ProtoMessage& message) {
  int32_t next_id = 1;
  std::vector<const protobuf::ProtoMessage*> path;
  FLOE_ASSIGN_OR_RETURN(std::vector<NestedField> fields, MessageFields(message, &next_id, 0, path));
  iceberg::Schema schema(0, std::move(fields));
  FLOE_RETURN_IF_ERROR(schema.Validate());
  return schema;
}

}  // namespace floe::stream
