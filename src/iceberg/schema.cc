#include "iceberg/schema.h"

#include <algorithm>
#include <set>
#include <utility>

namespace floe::iceberg {

Schema::Schema(int32_t schema_id, std::vector<NestedField> fields, std::vector<int32_t> identifier_field_ids)
    : schema_id_(schema_id),
      struct_type_(Type::Struct(std::move(fields))),
      identifier_field_ids_(std::move(identifier_field_ids)) {
  for (const NestedField& f : struct_type_->fields()) Index(f, "", false);
}

void Schema::Index(const NestedField& field, const std::string& prefix, bool inside_collection) {
  std::string name = prefix.empty() ? field.name : prefix + "." + field.name;
  if (!by_id_.emplace(field.id, &field).second) duplicate_ids_.push_back(field.id);
  by_name_.emplace(name, &field);
  names_.emplace(field.id, name);
  if (inside_collection) ids_in_collections_.push_back(field.id);
  highest_field_id_ = std::max(highest_field_id_, field.id);
  if (!field.type) return;
  bool collection = field.type->id() == TypeId::kList || field.type->id() == TypeId::kMap;
  for (const NestedField& child : field.type->fields()) Index(child, name, inside_collection || collection);
}

const NestedField* Schema::FindField(int32_t field_id) const {
  auto it = by_id_.find(field_id);
  return it == by_id_.end() ? nullptr : it->second;
}

const NestedField* Schema::FindFieldByName(std::string_view name) const {
  auto it = by_name_.find(std::string(name));
  return it == by_name_.end() ? nullptr : it->second;
}

std::string Schema::FindColumnName(int32_t field_id) const {
  auto it = names_.find(field_id);
  return it == names_.end() ? std::string() : it->second;
}

Status Schema::Validate() const {
  if (!duplicate_ids_.empty()) {
    return InvalidArgument("schema {}: field id {} is used more than once", schema_id_, duplicate_ids_.front());
  }
  // Names must be unique within each struct.
  std::vector<const Type*> pending = {struct_type_.get()};
  while (!pending.empty()) {
    const Type* t = pending.back();
    pending.pop_back();
    std::set<std::string_view> seen;
    for (const NestedField& f : t->fields()) {
      if (!f.type) return InvalidArgument("schema {}: field {} has no type", schema_id_, f.id);
      if (t->id() == TypeId::kStruct && !seen.insert(f.name).second) {
        return InvalidArgument("schema {}: duplicate field name '{}'", schema_id_, f.name);
      }
      if (f.type->is_nested()) pending.push_back(f.type.get());
    }
  }
  for (int32_t id : identifier_field_ids_) {
    const NestedField* f = FindField(id);
    if (!f) return InvalidArgument("schema {}: identifier field id {} does not exist", schema_id_, id);
    if (!f->required) return InvalidArgument("schema {}: identifier field '{}' must be required", schema_id_, f->name);
    if (!f->type->is_primitive() || f->type->id() == TypeId::kFloat || f->type->id() == TypeId::kDouble) {
      return InvalidArgument("schema {}: identifier field '{}' must be a non-floating primitive", schema_id_, f->name);
    }
    if (std::find(ids_in_collections_.begin(), ids_in_collections_.end(), id) != ids_in_collections_.end()) {
      return InvalidArgument("schema {}: identifier field '{}' is inside a list or map", schema_id_, f->name);
    }
  }
  return OkStatus();
}

bool Schema::SameColumns(const Schema& other) const {
  return struct_type_->Equals(*other.struct_type_) && identifier_field_ids_ == other.identifier_field_ids_;
}

Schema Schema::WithId(int32_t schema_id) const {
  return Schema(schema_id, struct_type_->fields(), identifier_field_ids_);
}

}  // namespace floe::iceberg
