// Schema: one version of a table's columns, a struct type plus its schema-id and
// identifier-field-ids, with lookups by field id and by dotted name.
//
// Immutable after construction; cheap to copy (the struct type is shared). Any thread may read.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "iceberg/types.h"

namespace floe::iceberg {

class Schema {
 public:
  Schema() : Schema(0, {}) {}
  Schema(int32_t schema_id, std::vector<NestedField> fields, std::vector<int32_t> identifier_field_ids = {});

  int32_t schema_id() const { return schema_id_; }
  const std::vector<NestedField>& fields() const { return struct_type_->fields(); }
  const TypePtr& as_struct() const { return struct_type_; }
  const std::vector<int32_t>& identifier_field_ids() const { return identifier_field_ids_; }

  // Any field at any depth (struct members, list elements, map keys and values) by id, or null.
  const NestedField* FindField(int32_t field_id) const;
  // A field by its full dotted name ("location.lat"; list elements are "a.element", map parts
  // "m.key" / "m.value"), or null. Case-sensitive.
  const NestedField* FindFieldByName(std::string_view name) const;
  // The full dotted name of a field id, or empty.
  std::string FindColumnName(int32_t field_id) const;
  // The highest field id at any depth (0 for an empty schema): new columns get ids above it.
  int32_t HighestFieldId() const { return highest_field_id_; }

  // Checks what the spec requires of a schema: unique field ids, unique names within a struct,
  // identifier fields that exist, are required primitives and not inside lists or maps.
  Status Validate() const;

  // Same columns (ids, names, types, requiredness, docs) and identifier fields; ignores schema-id.
  bool SameColumns(const Schema& other) const;

  // The same columns under another schema-id.
  Schema WithId(int32_t schema_id) const;

 private:
  void Index(const NestedField& field, const std::string& prefix, bool inside_collection);

  int32_t schema_id_;
  TypePtr struct_type_;
  std::vector<int32_t> identifier_field_ids_;
  std::unordered_map<int32_t, const NestedField*> by_id_;
  std::unordered_map<std::string, const NestedField*> by_name_;
  std::unordered_map<int32_t, std::string> names_;
  std::vector<int32_t> duplicate_ids_;
  std::vector<int32_t> ids_in_collections_;
  int32_t highest_field_id_ = 0;
};

}  // namespace floe::iceberg
