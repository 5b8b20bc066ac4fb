#include "iceberg/table_update.h"

#include <set>

#include "iceberg/table_metadata.h"

namespace floe::iceberg {
namespace {

using Json = nlohmann::json;

// Field readers for FromJson: each names the update and the field in its error.
class Fields {
 public:
  Fields(const Json& json, std::string_view action) : json_(json), action_(action) {}

  Result<std::string> String(std::string_view name) const {
    const Json* value = Find(name);
    if (value == nullptr || !value->is_string()) return Mistyped(name, "a string");
    return value->get<std::string>();
  }
  Result<int64_t> Integer(std::string_view name) const {
    const Json* value = Find(name);
    if (value == nullptr || !value->is_number_integer()) return Mistyped(name, "an integer");
    return value->get<int64_t>();
  }
  // An optional integer: absent or null is nullopt.
  Result<std::optional<int64_t>> OptionalInteger(std::string_view name) const {
    const Json* value = Find(name);
    if (value == nullptr || value->is_null()) return std::optional<int64_t>();
    if (!value->is_number_integer()) return Mistyped(name, "an integer");
    return std::optional<int64_t>(value->get<int64_t>());
  }
  Result<Json> Object(std::string_view name) const {
    const Json* value = Find(name);
    if (value == nullptr || !value->is_object()) return Mistyped(name, "an object");
    return *value;
  }
  Result<std::vector<int64_t>> IntegerArray(std::string_view name) const {
    const Json* value = Find(name);
    if (value == nullptr || !value->is_array()) return Mistyped(name, "an array of integers");
    std::vector<int64_t> out;
    for (const Json& element : *value) {
      if (!element.is_number_integer()) return Mistyped(name, "an array of integers");
      out.push_back(element.get<int64_t>());
    }
    return out;
  }
  Result<std::vector<std::string>> StringArray(std::string_view name) const {
    const Json* value = Find(name);
    if (value == nullptr || !value->is_array()) return Mistyped(name, "an array of strings");
    std::vector<std::string> out;
    for (const Json& element : *value) {
      if (!element.is_string()) return Mistyped(name, "an array of strings");
      out.push_back(element.get<std::string>());
    }
    return out;
  }
  Result<std::map<std::string, std::string>> StringMap(std::string_view name) const {
    const Json* value = Find(name);
    if (value == nullptr || !value->is_object()) return Mistyped(name, "an object of strings");
    std::map<std::string, std::string> out;
    for (const auto& [key, element] : value->items()) {
      if (!element.is_string()) return Mistyped(name, "an object of strings");
      out[key] = element.get<std::string>();
    }
    return out;
  }

 private:
  const Json* Find(std::string_view name) const {
    auto it = json_.find(std::string(name));
    return it == json_.end() ? nullptr : &*it;
  }
  std::unexpected<Error> Mistyped(std::string_view name, std::string_view type) const {
    return InvalidArgument("update '{}' needs '{}' as {}", action_, name, type);
  }

  const Json& json_;
  std::string_view action_;
};

template <typename Update, typename... Args>
Result<TableUpdatePtr> Make(Args&&... args) {
  return std::make_shared<const Update>(std::forward<Args>(args)...);
}

Json Body(std::string_view action) { return Json{{"action", action}}; }

}  // namespace

Result<TableUpdatePtr> TableUpdate::FromJson(const Json& json) {
  if (!json.is_object()) return InvalidArgument("an update must be an object, got {}", json.type_name());
  auto action_field = json.find("action");
  if (action_field == json.end() || !action_field->is_string()) {
    return InvalidArgument("an update needs a string 'action'");
  }
  const std::string& action = action_field->get_ref<const std::string&>();
  Fields f(json, action);
  if (action == "assign-uuid") {
    FLOE_ASSIGN_OR_RETURN(std::string uuid, f.String("uuid"));
    return Make<AssignUuid>(std::move(uuid));
  }
  if (action == "upgrade-format-version") {
    FLOE_ASSIGN_OR_RETURN(int64_t version, f.Integer("format-version"));
    return Make<UpgradeFormatVersion>(version);
  }
  if (action == "add-schema") {
    FLOE_ASSIGN_OR_RETURN(Json schema, f.Object("schema"));
    FLOE_ASSIGN_OR_RETURN(std::optional<int64_t> last_column_id, f.OptionalInteger("last-column-id"));
    return Make<AddSchema>(std::move(schema), last_column_id);
  }
  if (action == "set-current-schema") {
    FLOE_ASSIGN_OR_RETURN(int64_t id, f.Integer("schema-id"));
    return Make<SetCurrentSchema>(id);
  }
  if (action == "add-spec") {
    FLOE_ASSIGN_OR_RETURN(Json spec, f.Object("spec"));
    return Make<AddPartitionSpec>(std::move(spec));
  }
  if (action == "set-default-spec") {
    FLOE_ASSIGN_OR_RETURN(int64_t id, f.Integer("spec-id"));
    return Make<SetDefaultPartitionSpec>(id);
  }
  if (action == "add-sort-order") {
    FLOE_ASSIGN_OR_RETURN(Json order, f.Object("sort-order"));
    return Make<AddSortOrder>(std::move(order));
  }
  if (action == "set-default-sort-order") {
    FLOE_ASSIGN_OR_RETURN(int64_t id, f.Integer("sort-order-id"));
    return Make<SetDefaultSortOrder>(id);
  }
  if (action == "add-snapshot") {
    FLOE_ASSIGN_OR_RETURN(Json snapshot, f.Object("snapshot"));
    return Make<AddSnapshot>(std::move(snapshot));
  }
  if (action == "set-snapshot-ref") {
    FLOE_ASSIGN_OR_RETURN(std::string name, f.String("ref-name"));
    FLOE_ASSIGN_OR_RETURN(int64_t snapshot_id, f.Integer("snapshot-id"));
    std::string type = "branch";
    if (json.contains("type")) {
      FLOE_ASSIGN_OR_RETURN(type, f.String("type"));
    }
    RefRetention retention;
    FLOE_ASSIGN_OR_RETURN(retention.max_ref_age_ms, f.OptionalInteger("max-ref-age-ms"));
    FLOE_ASSIGN_OR_RETURN(retention.max_snapshot_age_ms, f.OptionalInteger("max-snapshot-age-ms"));
    FLOE_ASSIGN_OR_RETURN(retention.min_snapshots_to_keep, f.OptionalInteger("min-snapshots-to-keep"));
    return Make<SetSnapshotRef>(std::move(name), snapshot_id, std::move(type), retention);
  }
  if (action == "remove-snapshots") {
    FLOE_ASSIGN_OR_RETURN(std::vector<int64_t> ids, f.IntegerArray("snapshot-ids"));
    return Make<RemoveSnapshots>(std::move(ids));
  }
  if (action == "remove-snapshot-ref") {
    FLOE_ASSIGN_OR_RETURN(std::string name, f.String("ref-name"));
    return Make<RemoveSnapshotRef>(std::move(name));
  }
  if (action == "set-location") {
    FLOE_ASSIGN_OR_RETURN(std::string location, f.String("location"));
    return Make<SetLocation>(std::move(location));
  }
  if (action == "set-properties") {
    FLOE_ASSIGN_OR_RETURN(auto updates, f.StringMap("updates"));
    return Make<SetProperties>(std::move(updates));
  }
  if (action == "remove-properties") {
    FLOE_ASSIGN_OR_RETURN(auto removals, f.StringArray("removals"));
    return Make<RemoveProperties>(std::move(removals));
  }
  if (action == "set-statistics") {
    FLOE_ASSIGN_OR_RETURN(Json statistics, f.Object("statistics"));
    return Make<SetStatistics>(std::move(statistics));
  }
  if (action == "remove-statistics") {
    FLOE_ASSIGN_OR_RETURN(int64_t id, f.Integer("snapshot-id"));
    return Make<RemoveStatistics>(id);
  }
  if (action == "set-partition-statistics") {
    FLOE_ASSIGN_OR_RETURN(Json statistics, f.Object("partition-statistics"));
    return Make<SetPartitionStatistics>(std::move(statistics));
  }
  if (action == "remove-partition-statistics") {
    FLOE_ASSIGN_OR_RETURN(int64_t id, f.Integer("snapshot-id"));
    return Make<RemovePartitionStatistics>(id);
  }
  if (action == "remove-partition-specs") {
    FLOE_ASSIGN_OR_RETURN(std::vector<int64_t> ids, f.IntegerArray("spec-ids"));
    return Make<RemovePartitionSpecs>(std::move(ids));
  }
  if (action == "remove-schemas") {
    FLOE_ASSIGN_OR_RETURN(std::vector<int64_t> ids, f.IntegerArray("schema-ids"));
    return Make<RemoveSchemas>(std::move(ids));
  }
  if (action == "add-encryption-key") {
    FLOE_ASSIGN_OR_RETURN(Json key, f.Object("encryption-key"));
    return Make<AddEncryptionKey>(std::move(key));
  }
  if (action == "remove-encryption-key") {
    FLOE_ASSIGN_OR_RETURN(std::string key_id, f.String("key-id"));
    return Make<RemoveEncryptionKey>(std::move(key_id));
  }
  return InvalidArgument("unknown update action '{}'", action);
}

Json AssignUuid::ToJson() const {
  Json body = Body(action());
  body["uuid"] = uuid_;
  return body;
}

Json UpgradeFormatVersion::ToJson() const {
  Json body = Body(action());
  body["format-version"] = format_version_;
  return body;
}

Json AddSchema::ToJson() const {
  Json body = Body(action());
  body["schema"] = schema_;
  if (last_column_id_) body["last-column-id"] = *last_column_id_;
  return body;
}

std::vector<TableRequirementPtr> AddSchema::Requirements(const TableMetadata& base) const {
  return {std::make_shared<const AssertLastAssignedFieldId>(base.last_column_id)};
}

Json SetCurrentSchema::ToJson() const {
  Json body = Body(action());
  body["schema-id"] = schema_id_;
  return body;
}

std::vector<TableRequirementPtr> SetCurrentSchema::Requirements(const TableMetadata& base) const {
  return {std::make_shared<const AssertCurrentSchemaId>(base.current_schema_id)};
}

Json AddPartitionSpec::ToJson() const {
  Json body = Body(action());
  body["spec"] = spec_;
  return body;
}

std::vector<TableRequirementPtr> AddPartitionSpec::Requirements(const TableMetadata& base) const {
  return {std::make_shared<const AssertLastAssignedPartitionId>(base.last_partition_id)};
}

Json SetDefaultPartitionSpec::ToJson() const {
  Json body = Body(action());
  body["spec-id"] = spec_id_;
  return body;
}

std::vector<TableRequirementPtr> SetDefaultPartitionSpec::Requirements(const TableMetadata& base) const {
  return {std::make_shared<const AssertDefaultSpecId>(base.default_spec_id)};
}

Json AddSortOrder::ToJson() const {
  Json body = Body(action());
  body["sort-order"] = order_;
  return body;
}

Json SetDefaultSortOrder::ToJson() const {
  Json body = Body(action());
  body["sort-order-id"] = order_id_;
  return body;
}

std::vector<TableRequirementPtr> SetDefaultSortOrder::Requirements(const TableMetadata& base) const {
  return {std::make_shared<const AssertDefaultSortOrderId>(base.default_sort_order_id)};
}

Json AddSnapshot::ToJson() const {
  Json body = Body(action());
  body["snapshot"] = snapshot_;
  return body;
}

Json SetSnapshotRef::ToJson() const {
  Json body = Body(action());
  body["ref-name"] = name_;
  body["snapshot-id"] = snapshot_id_;
  body["type"] = type_;
  if (retention_.max_ref_age_ms) body["max-ref-age-ms"] = *retention_.max_ref_age_ms;
  if (retention_.max_snapshot_age_ms) body["max-snapshot-age-ms"] = *retention_.max_snapshot_age_ms;
  if (retention_.min_snapshots_to_keep) body["min-snapshots-to-keep"] = *retention_.min_snapshots_to_keep;
  return body;
}

std::vector<TableRequirementPtr> SetSnapshotRef::Requirements(const TableMetadata& base) const {
  std::optional<int64_t> seen;
  if (auto it = base.refs.find(name_); it != base.refs.end()) seen = it->second.snapshot_id;
  return {std::make_shared<const AssertRefSnapshotId>(name_, seen)};
}

Json RemoveSnapshots::ToJson() const {
  Json body = Body(action());
  body["snapshot-ids"] = snapshot_ids_;
  return body;
}

Json RemoveSnapshotRef::ToJson() const {
  Json body = Body(action());
  body["ref-name"] = name_;
  return body;
}

Json SetLocation::ToJson() const {
  Json body = Body(action());
  body["location"] = location_;
  return body;
}

Json SetProperties::ToJson() const {
  Json body = Body(action());
  body["updates"] = updates_;
  return body;
}

Json RemoveProperties::ToJson() const {
  Json body = Body(action());
  body["removals"] = removals_;
  return body;
}

Json SetStatistics::ToJson() const {
  Json body = Body(action());
  // Servers before Iceberg 1.5 read the deprecated top-level snapshot-id.
  if (statistics_file_.is_object() && statistics_file_.contains("snapshot-id")) {
    body["snapshot-id"] = statistics_file_["snapshot-id"];
  }
  body["statistics"] = statistics_file_;
  return body;
}

Json RemoveStatistics::ToJson() const {
  Json body = Body(action());
  body["snapshot-id"] = snapshot_id_;
  return body;
}

Json SetPartitionStatistics::ToJson() const {
  Json body = Body(action());
  body["partition-statistics"] = file_;
  return body;
}

Json RemovePartitionStatistics::ToJson() const {
  Json body = Body(action());
  body["snapshot-id"] = snapshot_id_;
  return body;
}

Json RemovePartitionSpecs::ToJson() const {
  Json body = Body(action());
  body["spec-ids"] = spec_ids_;
  return body;
}

std::vector<TableRequirementPtr> RemovePartitionSpecs::Requirements(const TableMetadata& base) const {
  return {std::make_shared<const AssertDefaultSpecId>(base.default_spec_id)};
}

Json RemoveSchemas::ToJson() const {
  Json body = Body(action());
  body["schema-ids"] = schema_ids_;
  return body;
}

std::vector<TableRequirementPtr> RemoveSchemas::Requirements(const TableMetadata& base) const {
  return {std::make_shared<const AssertCurrentSchemaId>(base.current_schema_id)};
}

Json AddEncryptionKey::ToJson() const {
  Json body = Body(action());
  body["encryption-key"] = key_;
  return body;
}

Json RemoveEncryptionKey::ToJson() const {
  Json body = Body(action());
  body["key-id"] = key_id_;
  return body;
}

Status ApplyUpdates(const std::vector<TableUpdatePtr>& updates, TableMetadataBuilder& builder) {
  for (const TableUpdatePtr& update : updates) {
    FLOE_RETURN_IF_ERROR(update->Apply(builder));
  }
  return OkStatus();
}

std::vector<TableRequirementPtr> RequirementsFor(const TableMetadata& base,
                                                 const std::vector<TableUpdatePtr>& updates) {
  std::vector<TableRequirementPtr> out;
  std::set<std::string> seen;
  auto add = [&](TableRequirementPtr requirement) {
    if (seen.insert(requirement->ToJson().dump()).second) out.push_back(std::move(requirement));
  };
  if (!base.table_uuid.empty()) add(std::make_shared<const AssertTableUuid>(base.table_uuid));
  for (const TableUpdatePtr& update : updates) {
    for (TableRequirementPtr& requirement : update->Requirements(base)) add(std::move(requirement));
  }
  return out;
}

}  // namespace floe::iceberg
