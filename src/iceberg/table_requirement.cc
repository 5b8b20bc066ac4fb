#include "iceberg/table_requirement.h"

#include <cctype>

#include "iceberg/table_metadata.h"

namespace floe::iceberg {
namespace {

using Json = nlohmann::json;

std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

Result<int64_t> IntegerField(const Json& json, std::string_view type, std::string_view field) {
  auto it = json.find(std::string(field));
  if (it == json.end() || !it->is_number_integer()) {
    return InvalidArgument("{} needs an integer '{}'", type, field);
  }
  return it->get<int64_t>();
}

template <typename Requirement>
Result<TableRequirementPtr> ValueRequirement(const Json& json, std::string_view type, std::string_view field) {
  FLOE_ASSIGN_OR_RETURN(int64_t value, IntegerField(json, type, field));
  return std::make_shared<const Requirement>(value);
}

std::unexpected<Error> Missing(std::string_view type) {
  return Conflict("requirement failed: {}: the table does not exist", type);
}

}  // namespace

Result<TableRequirementPtr> TableRequirement::FromJson(const Json& json) {
  if (!json.is_object()) return InvalidArgument("a requirement must be an object, got {}", json.type_name());
  auto type_field = json.find("type");
  if (type_field == json.end() || !type_field->is_string()) {
    return InvalidArgument("a requirement needs a string 'type'");
  }
  const std::string& type = type_field->get_ref<const std::string&>();
  if (type == "assert-create") return std::make_shared<const AssertCreate>();
  if (type == "assert-table-uuid") {
    auto uuid = json.find("uuid");
    if (uuid == json.end() || !uuid->is_string()) return InvalidArgument("assert-table-uuid needs a string 'uuid'");
    return std::make_shared<const AssertTableUuid>(uuid->get<std::string>());
  }
  if (type == "assert-ref-snapshot-id") {
    auto ref = json.find("ref");
    if (ref == json.end() || !ref->is_string()) return InvalidArgument("assert-ref-snapshot-id needs a string 'ref'");
    auto id = json.find("snapshot-id");
    if (id == json.end()) {
      return InvalidArgument("assert-ref-snapshot-id needs 'snapshot-id' (null: the ref must not exist)");
    }
    if (!id->is_null() && !id->is_number_integer()) {
      return InvalidArgument("assert-ref-snapshot-id: 'snapshot-id' must be an integer or null");
    }
    return std::make_shared<const AssertRefSnapshotId>(
        ref->get<std::string>(), id->is_null() ? std::nullopt : std::optional<int64_t>(id->get<int64_t>()));
  }
  if (type == "assert-last-assigned-field-id") {
    return ValueRequirement<AssertLastAssignedFieldId>(json, type, "last-assigned-field-id");
  }
  if (type == "assert-current-schema-id") {
    return ValueRequirement<AssertCurrentSchemaId>(json, type, "current-schema-id");
  }
  if (type == "assert-last-assigned-partition-id") {
    return ValueRequirement<AssertLastAssignedPartitionId>(json, type, "last-assigned-partition-id");
  }
  if (type == "assert-default-spec-id") return ValueRequirement<AssertDefaultSpecId>(json, type, "default-spec-id");
  if (type == "assert-default-sort-order-id") {
    return ValueRequirement<AssertDefaultSortOrderId>(json, type, "default-sort-order-id");
  }
  return InvalidArgument("unknown requirement type '{}'", type);
}

Status AssertCreate::Validate(const TableMetadata* metadata) const {
  if (metadata != nullptr) return Conflict("requirement failed: assert-create: the table already exists");
  return OkStatus();
}

Json AssertCreate::ToJson() const { return {{"type", type()}}; }

Status AssertTableUuid::Validate(const TableMetadata* metadata) const {
  if (metadata == nullptr) return Missing(type());
  if (Lower(metadata->table_uuid) != Lower(uuid_)) {
    return Conflict("requirement failed: table uuid is {}, expected {}", metadata->table_uuid, uuid_);
  }
  return OkStatus();
}

Json AssertTableUuid::ToJson() const { return {{"type", type()}, {"uuid", uuid_}}; }

Status AssertRefSnapshotId::Validate(const TableMetadata* metadata) const {
  if (metadata == nullptr) return Missing(type());
  // The model gives metadata written without refs an implicit main at the current snapshot.
  std::optional<int64_t> current;
  if (auto it = metadata->refs.find(ref_); it != metadata->refs.end()) current = it->second.snapshot_id;
  if (!snapshot_id_ && current) {
    return Conflict("requirement failed: ref '{}' was created concurrently (snapshot {})", ref_, *current);
  }
  if (snapshot_id_ && !current) {
    return Conflict("requirement failed: ref '{}' is missing, expected snapshot {}", ref_, *snapshot_id_);
  }
  if (snapshot_id_ && *current != *snapshot_id_) {
    return Conflict("requirement failed: ref '{}' is at snapshot {}, expected {}", ref_, *current, *snapshot_id_);
  }
  return OkStatus();
}

Json AssertRefSnapshotId::ToJson() const {
  return {{"type", type()}, {"ref", ref_}, {"snapshot-id", snapshot_id_ ? Json(*snapshot_id_) : Json(nullptr)}};
}

Status AssertMetadataValue::Validate(const TableMetadata* metadata) const {
  if (metadata == nullptr) return Missing(type());
  int64_t current = Current(*metadata);
  if (current != value_) {
    return Conflict("requirement failed: {} is {}, expected {}", metadata_field(), current, value_);
  }
  return OkStatus();
}

Json AssertMetadataValue::ToJson() const { return {{"type", type()}, {std::string(value_field()), value_}}; }

int64_t AssertLastAssignedFieldId::Current(const TableMetadata& m) const { return m.last_column_id; }
int64_t AssertCurrentSchemaId::Current(const TableMetadata& m) const { return m.current_schema_id; }
int64_t AssertLastAssignedPartitionId::Current(const TableMetadata& m) const { return m.last_partition_id; }
int64_t AssertDefaultSpecId::Current(const TableMetadata& m) const { return m.default_spec_id; }
int64_t AssertDefaultSortOrderId::Current(const TableMetadata& m) const { return m.default_sort_order_id; }

Status ValidateRequirements(const std::vector<TableRequirementPtr>& requirements, const TableMetadata* metadata) {
  for (const TableRequirementPtr& requirement : requirements) {
    FLOE_RETURN_IF_ERROR(requirement->Validate(metadata));
  }
  return OkStatus();
}

bool HasAssertCreate(const std::vector<TableRequirementPtr>& requirements) {
  for (const TableRequirementPtr& requirement : requirements) {
    if (requirement->type() == "assert-create") return true;
  }
  return false;
}

}  // namespace floe::iceberg
