// An Avro schema (Avro specification 1.11, "Schema Declaration"), parsed from its JSON form and
// written back, keeping the properties Iceberg adds: `field-id` on record fields, `element-id`
// on arrays, `key-id`/`value-id` on maps, and logical types with their attributes.
//
// AvroSchema owns every node of the tree; nodes point at each other with plain pointers so that
// named types may be referenced again (even recursively) without ownership cycles. Immutable
// after parsing, move-only; any thread may read it.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/result.h"

namespace floe::avro {

enum class AvroType {
  kNull,
  kBoolean,
  kInt,
  kLong,
  kFloat,
  kDouble,
  kBytes,
  kString,
  kRecord,
  kEnum,
  kArray,
  kMap,
  kUnion,
  kFixed,
};

std::string_view AvroTypeName(AvroType type);

struct AvroNode;

struct AvroField {
  std::string name;
  const AvroNode* type = nullptr;
  std::optional<nlohmann::json> default_value;
  std::optional<int32_t> field_id;  // Iceberg's "field-id" property.
  std::string doc;
  nlohmann::json extra = nlohmann::json::object();  // Other properties, written back unchanged.
};

struct AvroNode {
  AvroType type = AvroType::kNull;
  std::string name;       // Full name of a record, enum or fixed ("ns.name").
  std::string doc;
  std::vector<AvroField> fields;          // record
  std::vector<std::string> symbols;       // enum
  int32_t size = 0;                       // fixed
  const AvroNode* items = nullptr;        // array items, map values
  std::vector<const AvroNode*> branches;  // union
  std::string logical_type;               // "decimal", "date", "timestamp-micros", "map", ...
  std::optional<int32_t> element_id;      // array: Iceberg "element-id"
  std::optional<int32_t> key_id;          // map: Iceberg "key-id"
  std::optional<int32_t> value_id;        // map: Iceberg "value-id"
  nlohmann::json extra = nlohmann::json::object();  // precision, scale, adjust-to-utc, ...

  // The index of the union's null branch, or -1.
  int NullBranch() const;
  // For ["null", T] (either order): T; otherwise null.
  const AvroNode* NonNullBranch() const;
  // A record field by name, or -1.
  int FieldIndex(std::string_view field_name) const;
  // A record field by Iceberg field id, or -1.
  int FieldIndexById(int32_t id) const;
};

class AvroSchema {
 public:
  static Result<AvroSchema> Parse(std::string_view json_text);
  static Result<AvroSchema> FromJson(const nlohmann::json& value);
  // A schema that names types other schemas define (a Schema Registry's schema references):
  // `references` are parsed first, in order (each may name the types of those before it), then
  // `json_text`, which may name any of their types. A type defined twice is refused. The root is
  // `json_text`'s schema; the references' nodes are kept with it.
  static Result<AvroSchema> ParseWithReferences(std::string_view json_text, const std::vector<std::string>& references);

  AvroSchema(AvroSchema&&) noexcept = default;
  AvroSchema& operator=(AvroSchema&&) noexcept = default;

  const AvroNode& root() const { return *root_; }

  // The schema as JSON (named types are written in full once, then referenced by name).
  nlohmann::json ToJsonValue() const;
  std::string ToJson() const { return ToJsonValue().dump(); }

 private:
  AvroSchema() = default;
  friend class SchemaParser;

  std::vector<std::unique_ptr<AvroNode>> nodes_;
  const AvroNode* root_ = nullptr;
};

}  // namespace floe::avro
