#include "catalog/table_update.h"

#include <array>
#include <utility>

namespace floe::catalog {
namespace {

enum class FieldType { kString, kInteger, kObject, kStringArray, kIntegerArray, kStringMap };

struct FieldRule {
  std::string_view name;
  FieldType type;
};

struct ActionRule {
  std::string_view action;
  std::array<FieldRule, 2> required;  // Unused slots have an empty name.
};

// The spec's actions and the fields each one cannot do without. Optional fields (a ref's
// retention, add-schema's deprecated last-column-id) are checked where they are applied.
constexpr std::array<ActionRule, 23> kActions = {{
    {"assign-uuid", {{{"uuid", FieldType::kString}, {}}}},
    {"upgrade-format-version", {{{"format-version", FieldType::kInteger}, {}}}},
    {"add-schema", {{{"schema", FieldType::kObject}, {}}}},
    {"set-current-schema", {{{"schema-id", FieldType::kInteger}, {}}}},
    {"add-spec", {{{"spec", FieldType::kObject}, {}}}},
    {"set-default-spec", {{{"spec-id", FieldType::kInteger}, {}}}},
    {"add-sort-order", {{{"sort-order", FieldType::kObject}, {}}}},
    {"set-default-sort-order", {{{"sort-order-id", FieldType::kInteger}, {}}}},
    {"add-snapshot", {{{"snapshot", FieldType::kObject}, {}}}},
    {"set-snapshot-ref", {{{"ref-name", FieldType::kString}, {"snapshot-id", FieldType::kInteger}}}},
    {"remove-snapshots", {{{"snapshot-ids", FieldType::kIntegerArray}, {}}}},
    {"remove-snapshot-ref", {{{"ref-name", FieldType::kString}, {}}}},
    {"set-location", {{{"location", FieldType::kString}, {}}}},
    {"set-properties", {{{"updates", FieldType::kStringMap}, {}}}},
    {"remove-properties", {{{"removals", FieldType::kStringArray}, {}}}},
    {"set-statistics", {{{"statistics", FieldType::kObject}, {}}}},
    {"remove-statistics", {{{"snapshot-id", FieldType::kInteger}, {}}}},
    {"set-partition-statistics", {{{"partition-statistics", FieldType::kObject}, {}}}},
    {"remove-partition-statistics", {{{"snapshot-id", FieldType::kInteger}, {}}}},
    {"remove-partition-specs", {{{"spec-ids", FieldType::kIntegerArray}, {}}}},
    {"remove-schemas", {{{"schema-ids", FieldType::kIntegerArray}, {}}}},
    {"add-encryption-key", {{{"encryption-key", FieldType::kObject}, {}}}},
    {"remove-encryption-key", {{{"key-id", FieldType::kString}, {}}}},
}};

bool HasType(const nlohmann::json& value, FieldType type) {
  switch (type) {
    case FieldType::kString:
      return value.is_string();
    case FieldType::kInteger:
      return value.is_number_integer();
    case FieldType::kObject:
      return value.is_object();
    case FieldType::kStringArray:
    case FieldType::kIntegerArray:
      if (!value.is_array()) {
        return false;
      }
      for (const auto& element : value) {
        if (type == FieldType::kStringArray ? !element.is_string() : !element.is_number_integer()) {
          return false;
        }
      }
      return true;
    case FieldType::kStringMap:
      if (!value.is_object()) {
        return false;
      }
      for (const auto& [key, element] : value.items()) {
        if (!element.is_string()) {
          return false;
        }
      }
      return true;
  }
  return false;
}

std::string_view TypeName(FieldType type) {
  switch (type) {
    case FieldType::kString:
      return "a string";
    case FieldType::kInteger:
      return "an integer";
    case FieldType::kObject:
      return "an object";
    case FieldType::kStringArray:
      return "an array of strings";
    case FieldType::kIntegerArray:
      return "an array of integers";
    case FieldType::kStringMap:
      return "an object of strings";
  }
  return "?";
}

}  // namespace

Result<TableUpdate> TableUpdate::FromJson(const nlohmann::json& json) {
  if (!json.is_object()) {
    return InvalidArgument("an update must be an object, got {}", json.type_name());
  }
  auto action = json.find("action");
  if (action == json.end() || !action->is_string()) {
    return InvalidArgument("an update needs a string 'action'");
  }
  const std::string& name = action->get_ref<const std::string&>();
  for (const ActionRule& rule : kActions) {
    if (rule.action != name) {
      continue;
    }
    for (const FieldRule& field : rule.required) {
      if (field.name.empty()) {
        continue;
      }
      auto it = json.find(std::string(field.name));
      if (it == json.end() || !HasType(*it, field.type)) {
        return InvalidArgument("update '{}' needs '{}' as {}", name, field.name, TypeName(field.type));
      }
    }
    return TableUpdate{name, json};
  }
  return InvalidArgument("unknown update action '{}'", name);
}

TableUpdate TableUpdate::AddSnapshot(nlohmann::json snapshot) {
  return TableUpdate{"add-snapshot", {{"action", "add-snapshot"}, {"snapshot", std::move(snapshot)}}};
}

TableUpdate TableUpdate::SetSnapshotRef(std::string_view ref, int64_t snapshot_id, std::string_view type) {
  return TableUpdate{"set-snapshot-ref",
                     {{"action", "set-snapshot-ref"}, {"ref-name", ref}, {"snapshot-id", snapshot_id}, {"type", type}}};
}

TableUpdate TableUpdate::SetProperties(const nlohmann::json& updates) {
  return TableUpdate{"set-properties", {{"action", "set-properties"}, {"updates", updates}}};
}

TableUpdate TableUpdate::RemoveProperties(const nlohmann::json& removals) {
  return TableUpdate{"remove-properties", {{"action", "remove-properties"}, {"removals", removals}}};
}

}  // namespace floe::catalog
