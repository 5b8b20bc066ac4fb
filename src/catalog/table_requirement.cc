#include "catalog/table_requirement.h"

#include <array>
#include <string_view>
#include <utility>

namespace floe::catalog {
namespace {

using Kind = TableRequirement::Kind;

// The spec's type name and, for the integer-valued assertions, the field holding the value and
// the metadata field it is compared with.
struct KindInfo {
  Kind kind;
  std::string_view type;
  std::string_view value_field;
  std::string_view metadata_field;
};

constexpr std::array<KindInfo, 8> kKinds = {{
    {Kind::kAssertCreate, "assert-create", "", ""},
    {Kind::kAssertTableUuid, "assert-table-uuid", "", ""},
    {Kind::kAssertRefSnapshotId, "assert-ref-snapshot-id", "", ""},
    {Kind::kAssertLastAssignedFieldId, "assert-last-assigned-field-id", "last-assigned-field-id", "last-column-id"},
    {Kind::kAssertCurrentSchemaId, "assert-current-schema-id", "current-schema-id", "current-schema-id"},
    {Kind::kAssertLastAssignedPartitionId, "assert-last-assigned-partition-id", "last-assigned-partition-id",
     "last-partition-id"},
    {Kind::kAssertDefaultSpecId, "assert-default-spec-id", "default-spec-id", "default-spec-id"},
    {Kind::kAssertDefaultSortOrderId, "assert-default-sort-order-id", "default-sort-order-id",
     "default-sort-order-id"},
}};

const KindInfo& InfoOf(Kind kind) {
  for (const KindInfo& info : kKinds) {
    if (info.kind == kind) {
      return info;
    }
  }
  return kKinds[0];
}

// The snapshot id a ref points at, or nullopt when the ref does not exist. "main" falls back to
// current-snapshot-id for metadata written without refs (-1 there means none).
std::optional<int64_t> RefSnapshot(const nlohmann::json& metadata, const std::string& ref) {
  auto refs = metadata.find("refs");
  if (refs != metadata.end() && refs->is_object()) {
    auto it = refs->find(ref);
    if (it != refs->end() && it->is_object()) {
      auto id = it->find("snapshot-id");
      if (id != it->end() && id->is_number_integer()) {
        return id->get<int64_t>();
      }
    }
  }
  if (ref == "main") {
    auto current = metadata.find("current-snapshot-id");
    if (current != metadata.end() && current->is_number_integer() && current->get<int64_t>() != -1) {
      return current->get<int64_t>();
    }
  }
  return std::nullopt;
}

}  // namespace

Result<TableRequirement> TableRequirement::FromJson(const nlohmann::json& json) {
  if (!json.is_object()) {
    return InvalidArgument("a requirement must be an object, got {}", json.type_name());
  }
  auto type = json.find("type");
  if (type == json.end() || !type->is_string()) {
    return InvalidArgument("a requirement needs a string 'type'");
  }
  const std::string& name = type->get_ref<const std::string&>();
  const KindInfo* info = nullptr;
  for (const KindInfo& candidate : kKinds) {
    if (candidate.type == name) {
      info = &candidate;
    }
  }
  if (info == nullptr) {
    return InvalidArgument("unknown requirement type '{}'", name);
  }
  TableRequirement requirement;
  requirement.kind = info->kind;
  switch (info->kind) {
    case Kind::kAssertCreate:
      break;
    case Kind::kAssertTableUuid: {
      auto uuid = json.find("uuid");
      if (uuid == json.end() || !uuid->is_string()) {
        return InvalidArgument("assert-table-uuid needs a string 'uuid'");
      }
      requirement.uuid = uuid->get<std::string>();
      break;
    }
    case Kind::kAssertRefSnapshotId: {
      auto ref = json.find("ref");
      if (ref == json.end() || !ref->is_string()) {
        return InvalidArgument("assert-ref-snapshot-id needs a string 'ref'");
      }
      requirement.ref = ref->get<std::string>();
      auto id = json.find("snapshot-id");
      if (id == json.end()) {
        return InvalidArgument("assert-ref-snapshot-id needs 'snapshot-id' (null: the ref must not exist)");
      }
      if (id->is_number_integer()) {
        requirement.snapshot_id = id->get<int64_t>();
      } else if (!id->is_null()) {
        return InvalidArgument("assert-ref-snapshot-id: 'snapshot-id' must be an integer or null");
      }
      break;
    }
    default: {
      auto value = json.find(std::string(info->value_field));
      if (value == json.end() || !value->is_number_integer()) {
        return InvalidArgument("{} needs an integer '{}'", info->type, info->value_field);
      }
      requirement.value = value->get<int64_t>();
      break;
    }
  }
  return requirement;
}

nlohmann::json TableRequirement::ToJson() const {
  const KindInfo& info = InfoOf(kind);
  nlohmann::json json = {{"type", info.type}};
  switch (kind) {
    case Kind::kAssertCreate:
      break;
    case Kind::kAssertTableUuid:
      json["uuid"] = uuid;
      break;
    case Kind::kAssertRefSnapshotId:
      json["ref"] = ref;
      json["snapshot-id"] = snapshot_id ? nlohmann::json(*snapshot_id) : nlohmann::json(nullptr);
      break;
    default:
      json[std::string(info.value_field)] = value;
      break;
  }
  return json;
}

Status TableRequirement::Check(const nlohmann::json* metadata) const {
  const KindInfo& info = InfoOf(kind);
  if (kind == Kind::kAssertCreate) {
    if (metadata != nullptr) {
      return Conflict("requirement failed: assert-create: the table already exists");
    }
    return OkStatus();
  }
  if (metadata == nullptr) {
    return Conflict("requirement failed: {}: the table does not exist", info.type);
  }
  switch (kind) {
    case Kind::kAssertTableUuid: {
      std::string current = metadata->value("table-uuid", "");
      // UUIDs compare case-insensitively; writers differ in the case they print.
      auto lower = [](std::string s) {
        for (char& c : s) {
          c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        }
        return s;
      };
      if (lower(current) != lower(uuid)) {
        return Conflict("requirement failed: table uuid is {}, expected {}", current, uuid);
      }
      return OkStatus();
    }
    case Kind::kAssertRefSnapshotId: {
      std::optional<int64_t> current = RefSnapshot(*metadata, ref);
      if (!snapshot_id && current) {
        return Conflict("requirement failed: ref '{}' was created concurrently (snapshot {})", ref, *current);
      }
      if (snapshot_id && !current) {
        return Conflict("requirement failed: ref '{}' is missing, expected snapshot {}", ref, *snapshot_id);
      }
      if (snapshot_id && *current != *snapshot_id) {
        return Conflict("requirement failed: ref '{}' is at snapshot {}, expected {}", ref, *current, *snapshot_id);
      }
      return OkStatus();
    }
    default: {
      auto it = metadata->find(std::string(info.metadata_field));
      int64_t current = (it != metadata->end() && it->is_number_integer()) ? it->get<int64_t>() : -1;
      if (current != value) {
        return Conflict("requirement failed: {} is {}, expected {}", info.metadata_field, current, value);
      }
      return OkStatus();
    }
  }
}

}  // namespace floe::catalog
