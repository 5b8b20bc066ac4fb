#include "iceberg/schema_json.h"

#include <utility>

#include "iceberg/json_fields.h"

namespace floe::iceberg {
namespace {

using json::Json;

// Nested types deeper than this are refused rather than recursed into.
constexpr int kMaxDepth = 64;

Result<TypePtr> ParseType(const Json& value, std::string_view where, int depth);

Result<NestedField> ParseStructField(const Json& value, std::string_view where, int depth) {
  FLOE_RETURN_IF_ERROR(json::ExpectObject(value, where));
  NestedField f;
  FLOE_ASSIGN_OR_RETURN(f.id, json::RequiredInt(value, "id", where));
  FLOE_ASSIGN_OR_RETURN(f.name, json::RequiredString(value, "name", where));
  std::string here = fmt::format("{} field '{}' (id {})", where, f.name, f.id);
  FLOE_ASSIGN_OR_RETURN(f.required, json::RequiredBool(value, "required", here));
  FLOE_ASSIGN_OR_RETURN(const Json* type, json::Member(value, "type", here));
  FLOE_ASSIGN_OR_RETURN(f.type, ParseType(*type, here, depth + 1));
  FLOE_ASSIGN_OR_RETURN(auto doc, json::OptionalString(value, "doc", here));
  if (doc) f.doc = *doc;
  if (const Json* d = json::OptionalMember(value, "initial-default")) f.initial_default = d->dump();
  if (const Json* d = json::OptionalMember(value, "write-default")) f.write_default = d->dump();
  return f;
}

Result<std::vector<NestedField>> ParseFields(const Json& value, std::string_view where, int depth) {
  FLOE_ASSIGN_OR_RETURN(const Json* fields, json::Member(value, "fields", where));
  if (!fields->is_array()) return InvalidArgument("{}: 'fields' must be a list", where);
  std::vector<NestedField> out;
  out.reserve(fields->size());
  for (const Json& f : *fields) {
    FLOE_ASSIGN_OR_RETURN(NestedField field, ParseStructField(f, where, depth));
    out.push_back(std::move(field));
  }
  return out;
}

Result<TypePtr> ParseType(const Json& value, std::string_view where, int depth) {
  if (depth > kMaxDepth) return InvalidArgument("{}: types nested deeper than {}", where, kMaxDepth);
  if (value.is_string()) {
    auto t = ParsePrimitiveType(value.get<std::string>());
    if (!t) return std::unexpected(std::move(t).error().WithContext(where));
    return t;
  }
  if (!value.is_object()) return InvalidArgument("{}: a type must be a string or an object", where);
  FLOE_ASSIGN_OR_RETURN(std::string kind, json::RequiredString(value, "type", where));
  if (kind == "struct") {
    FLOE_ASSIGN_OR_RETURN(auto fields, ParseFields(value, where, depth));
    return Type::Struct(std::move(fields));
  }
  if (kind == "list") {
    NestedField element;
    element.name = "element";
    FLOE_ASSIGN_OR_RETURN(element.id, json::RequiredInt(value, "element-id", where));
    FLOE_ASSIGN_OR_RETURN(element.required, json::RequiredBool(value, "element-required", where));
    FLOE_ASSIGN_OR_RETURN(const Json* e, json::Member(value, "element", where));
    FLOE_ASSIGN_OR_RETURN(element.type, ParseType(*e, fmt::format("{} list element", where), depth + 1));
    return Type::List(std::move(element));
  }
  if (kind == "map") {
    NestedField key, val;
    key.name = "key";
    val.name = "value";
    key.required = true;
    FLOE_ASSIGN_OR_RETURN(key.id, json::RequiredInt(value, "key-id", where));
    FLOE_ASSIGN_OR_RETURN(val.id, json::RequiredInt(value, "value-id", where));
    FLOE_ASSIGN_OR_RETURN(val.required, json::RequiredBool(value, "value-required", where));
    FLOE_ASSIGN_OR_RETURN(const Json* k, json::Member(value, "key", where));
    FLOE_ASSIGN_OR_RETURN(const Json* v, json::Member(value, "value", where));
    FLOE_ASSIGN_OR_RETURN(key.type, ParseType(*k, fmt::format("{} map key", where), depth + 1));
    FLOE_ASSIGN_OR_RETURN(val.type, ParseType(*v, fmt::format("{} map value", where), depth + 1));
    return Type::Map(std::move(key), std::move(val));
  }
  return InvalidArgument("{}: unknown nested type '{}'", where, kind);
}

Json FieldToJson(const NestedField& f) {
  Json out = Json::object();
  out["id"] = f.id;
  out["name"] = f.name;
  out["required"] = f.required;
  out["type"] = TypeToJsonValue(*f.type);
  if (!f.doc.empty()) out["doc"] = f.doc;
  if (f.initial_default) out["initial-default"] = Json::parse(*f.initial_default, nullptr, false);
  if (f.write_default) out["write-default"] = Json::parse(*f.write_default, nullptr, false);
  return out;
}

}  // namespace

Result<TypePtr> TypeFromJsonValue(const nlohmann::json& value) { return ParseType(value, "type", 0); }

nlohmann::json TypeToJsonValue(const Type& type) {
  switch (type.id()) {
    case TypeId::kStruct: {
      Json out = Json::object();
      out["type"] = "struct";
      Json fields = Json::array();
      for (const NestedField& f : type.fields()) fields.push_back(FieldToJson(f));
      out["fields"] = std::move(fields);
      return out;
    }
    case TypeId::kList: {
      Json out = Json::object();
      out["type"] = "list";
      out["element-id"] = type.element().id;
      out["element"] = TypeToJsonValue(*type.element().type);
      out["element-required"] = type.element().required;
      return out;
    }
    case TypeId::kMap: {
      Json out = Json::object();
      out["type"] = "map";
      out["key-id"] = type.key().id;
      out["key"] = TypeToJsonValue(*type.key().type);
      out["value-id"] = type.value().id;
      out["value"] = TypeToJsonValue(*type.value().type);
      out["value-required"] = type.value().required;
      return out;
    }
    default:
      return type.ToString();
  }
}

Result<Schema> SchemaFromJsonValue(const nlohmann::json& value) {
  constexpr std::string_view kWhere = "schema";
  FLOE_RETURN_IF_ERROR(json::ExpectObject(value, kWhere));
  FLOE_ASSIGN_OR_RETURN(auto kind, json::OptionalString(value, "type", kWhere));
  if (kind && *kind != "struct") return InvalidArgument("schema: 'type' must be \"struct\", not \"{}\"", *kind);
  FLOE_ASSIGN_OR_RETURN(auto schema_id, json::OptionalInt(value, "schema-id", kWhere));
  std::string where = fmt::format("schema {}", schema_id.value_or(0));
  FLOE_ASSIGN_OR_RETURN(auto fields, ParseFields(value, where, 0));
  FLOE_ASSIGN_OR_RETURN(auto identifiers, json::OptionalIntList(value, "identifier-field-ids", where));
  Schema schema(schema_id.value_or(0), std::move(fields), std::move(identifiers));
  FLOE_RETURN_IF_ERROR(schema.Validate());
  return schema;
}

Result<Schema> SchemaFromJson(std::string_view text) {
  FLOE_ASSIGN_OR_RETURN(Json value, json::Parse(text, "schema"));
  return SchemaFromJsonValue(value);
}

nlohmann::json SchemaToJsonValue(const Schema& schema) {
  Json out = TypeToJsonValue(*schema.as_struct());
  out["schema-id"] = schema.schema_id();
  if (!schema.identifier_field_ids().empty()) out["identifier-field-ids"] = schema.identifier_field_ids();
  return out;
}

std::string SchemaToJson(const Schema& schema) { return SchemaToJsonValue(schema).dump(); }

}  // namespace floe::iceberg
