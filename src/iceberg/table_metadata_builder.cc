#include "iceberg/table_metadata_builder.h"

#include <algorithm>
#include <utility>

#include "iceberg/schema.h"
#include "iceberg/schema_json.h"
#include "iceberg/table_metadata.h"
#include "iceberg/table_operations.h"

namespace floe::iceberg {
namespace {

using Json = nlohmann::json;

constexpr int64_t kDefaultPreviousVersionsMax = 100;

int64_t IntField(const Json& object, const char* name, int64_t fallback) {
  if (!object.is_object()) return fallback;
  auto it = object.find(name);
  return (it != object.end() && it->is_number_integer()) ? it->get<int64_t>() : fallback;
}

Json& ArrayField(Json& object, const char* name) {
  Json& field = object[name];
  if (!field.is_array()) field = Json::array();
  return field;
}

Json& ObjectField(Json& object, const char* name) {
  Json& field = object[name];
  if (!field.is_object()) field = Json::object();
  return field;
}

const Json* FindById(const Json& array, const char* id_field, int64_t id) {
  if (!array.is_array()) return nullptr;
  for (const auto& element : array) {
    if (IntField(element, id_field, INT64_MIN) == id) return &element;
  }
  return nullptr;
}

int64_t MaxId(const Json& array, const char* id_field, int64_t floor) {
  int64_t max = floor;
  if (array.is_array()) {
    for (const auto& element : array) max = std::max(max, IntField(element, id_field, floor));
  }
  return max;
}

// Removes the elements of a JSON array for which `drop` holds.
template <typename Predicate>
void EraseIf(Json& array, Predicate drop) {
  array.erase(std::remove_if(array.begin(), array.end(), drop), array.end());
}

Json FieldsOf(const Json& object) { return object.is_object() ? object.value("fields", Json::array()) : Json::array(); }

// Highest field id of a schema, validating it through the Iceberg schema model.
Result<int64_t> HighestFieldId(const Json& schema) {
  FLOE_ASSIGN_OR_RETURN_CTX(Schema parsed, SchemaFromJsonValue(schema), "schema");
  FLOE_RETURN_IF_ERROR_CTX(parsed.Validate(), "schema");
  return parsed.HighestFieldId();
}

// Partition fields without ids get the next ids after `last_partition_id`; returns the new last.
Result<int64_t> AssignPartitionFieldIds(Json& spec, int64_t last_partition_id) {
  for (auto& field : ArrayField(spec, "fields")) {
    if (!field.is_object() || !field.contains("source-id") || !field["source-id"].is_number_integer() ||
        !field.contains("transform") || !field["transform"].is_string() || !field.contains("name") ||
        !field["name"].is_string()) {
      return InvalidArgument("a partition field needs integer 'source-id', string 'transform' and 'name'");
    }
    if (!field.contains("field-id") || !field["field-id"].is_number_integer()) {
      field["field-id"] = ++last_partition_id;
    } else {
      last_partition_id = std::max(last_partition_id, field["field-id"].get<int64_t>());
    }
  }
  return last_partition_id;
}

Status CheckSortOrder(const Json& order) {
  auto fields = order.find("fields");
  if (fields == order.end() || !fields->is_array()) return InvalidArgument("a sort order needs a 'fields' array");
  for (const auto& field : *fields) {
    if (!field.is_object() || !field.contains("source-id") || !field.contains("transform") ||
        !field.contains("direction") || !field.contains("null-order")) {
      return InvalidArgument("a sort field needs source-id, transform, direction and null-order");
    }
  }
  return OkStatus();
}

Json EmptyMetadata(int64_t now_millis) {
  return {
      {"format-version", kDefaultFormatVersion},
      {"table-uuid", NewUuid()},
      {"location", ""},
      {"last-sequence-number", 0},
      {"last-updated-ms", now_millis},
      {"last-column-id", 0},
      {"current-schema-id", -1},
      {"schemas", Json::array()},
      {"default-spec-id", -1},
      {"partition-specs", Json::array()},
      {"last-partition-id", kFirstPartitionFieldId - 1},
      {"default-sort-order-id", -1},
      {"sort-orders", Json::array()},
      {"properties", Json::object()},
      {"current-snapshot-id", -1},
      {"refs", Json::object()},
      {"snapshots", Json::array()},
      {"snapshot-log", Json::array()},
      {"metadata-log", Json::array()},
  };
}

// Resolves -1 ("the one added by this commit") for the set-current/default updates.
Result<int64_t> ResolveLastAdded(int64_t id, const std::optional<int64_t>& last_added, std::string_view action,
                                 std::string_view what) {
  if (id != -1) return id;
  if (!last_added) return InvalidArgument("{} -1 needs a {} added in the same commit", action, what);
  return *last_added;
}

}  // namespace

TableMetadataBuilder::TableMetadataBuilder(Json base, std::string base_location, int64_t now_millis)
    : metadata_(std::move(base)), creating_(false), base_location_(std::move(base_location)), now_millis_(now_millis) {
  if (!metadata_.is_object()) metadata_ = EmptyMetadata(now_millis);
  base_last_updated_millis_ = IntField(metadata_, "last-updated-ms", now_millis);
}

TableMetadataBuilder::TableMetadataBuilder(int64_t now_millis)
    : metadata_(EmptyMetadata(now_millis)), creating_(true), now_millis_(now_millis) {
  base_last_updated_millis_ = now_millis;
}

Status TableMetadataBuilder::AssignUuid(const std::string& uuid) {
  if (uuid.empty()) return InvalidArgument("assign-uuid needs a non-empty uuid");
  if (!creating_ && metadata_.value("table-uuid", "") != uuid) {
    return InvalidArgument("assign-uuid cannot change the uuid of an existing table");
  }
  metadata_["table-uuid"] = uuid;
  return OkStatus();
}

Status TableMetadataBuilder::UpgradeFormatVersion(int64_t version) {
  int64_t current = IntField(metadata_, "format-version", 1);
  if (version > kMaxSupportedFormatVersion || version < 1) {
    return InvalidArgument("format version {} is not supported (1 to {})", version, kMaxSupportedFormatVersion);
  }
  if (version < current && !creating_) {
    return InvalidArgument("cannot downgrade format version {} to {}", current, version);
  }
  metadata_["format-version"] = version;
  if (version >= 3 && !metadata_.contains("next-row-id")) metadata_["next-row-id"] = 0;
  return OkStatus();
}

Status TableMetadataBuilder::AddSchema(Json schema, std::optional<int64_t> last_column_id) {
  FLOE_ASSIGN_OR_RETURN(int64_t highest, HighestFieldId(schema));
  Json& schemas = ArrayField(metadata_, "schemas");
  // An identical schema already present is reused rather than added again.
  for (const auto& existing : schemas) {
    if (FieldsOf(existing) == FieldsOf(schema) &&
        existing.value("identifier-field-ids", Json::array()) == schema.value("identifier-field-ids", Json::array())) {
      last_added_schema_id_ = IntField(existing, "schema-id", 0);
      return OkStatus();
    }
  }
  int64_t id = MaxId(schemas, "schema-id", -1) + 1;
  schema["schema-id"] = id;
  schemas.push_back(std::move(schema));
  int64_t last = std::max({IntField(metadata_, "last-column-id", 0), highest, last_column_id.value_or(0)});
  metadata_["last-column-id"] = last;
  last_added_schema_id_ = id;
  return OkStatus();
}

Status TableMetadataBuilder::SetCurrentSchema(int64_t schema_id) {
  FLOE_ASSIGN_OR_RETURN(int64_t id, ResolveLastAdded(schema_id, last_added_schema_id_, "set-current-schema", "schema"));
  if (FindById(metadata_["schemas"], "schema-id", id) == nullptr) {
    return InvalidArgument("set-current-schema: no schema with id {}", id);
  }
  metadata_["current-schema-id"] = id;
  return OkStatus();
}

Status TableMetadataBuilder::AddPartitionSpec(Json spec) {
  if (!spec.is_object()) return InvalidArgument("a partition spec must be an object");
  FLOE_ASSIGN_OR_RETURN(
      int64_t last_partition_id,
      AssignPartitionFieldIds(spec, IntField(metadata_, "last-partition-id", kFirstPartitionFieldId - 1)));
  Json& specs = ArrayField(metadata_, "partition-specs");
  for (const auto& existing : specs) {
    if (FieldsOf(existing) == spec["fields"]) {
      last_added_spec_id_ = IntField(existing, "spec-id", 0);
      return OkStatus();
    }
  }
  int64_t id = MaxId(specs, "spec-id", -1) + 1;
  spec["spec-id"] = id;
  specs.push_back(std::move(spec));
  metadata_["last-partition-id"] = last_partition_id;
  last_added_spec_id_ = id;
  return OkStatus();
}

Status TableMetadataBuilder::SetDefaultPartitionSpec(int64_t spec_id) {
  FLOE_ASSIGN_OR_RETURN(int64_t id, ResolveLastAdded(spec_id, last_added_spec_id_, "set-default-spec", "spec"));
  if (FindById(metadata_["partition-specs"], "spec-id", id) == nullptr) {
    return InvalidArgument("set-default-spec: no partition spec with id {}", id);
  }
  metadata_["default-spec-id"] = id;
  return OkStatus();
}

Status TableMetadataBuilder::AddSortOrder(Json order) {
  if (!order.is_object()) return InvalidArgument("a sort order must be an object");
  FLOE_RETURN_IF_ERROR(CheckSortOrder(order));
  Json& orders = ArrayField(metadata_, "sort-orders");
  for (const auto& existing : orders) {
    if (FieldsOf(existing) == order["fields"]) {
      last_added_order_id_ = IntField(existing, "order-id", 0);
      return OkStatus();
    }
  }
  // Order id 0 is reserved for the unsorted order.
  int64_t id = order["fields"].empty() ? 0 : std::max<int64_t>(MaxId(orders, "order-id", 0) + 1, 1);
  order["order-id"] = id;
  orders.push_back(std::move(order));
  last_added_order_id_ = id;
  return OkStatus();
}

Status TableMetadataBuilder::SetDefaultSortOrder(int64_t order_id) {
  FLOE_ASSIGN_OR_RETURN(int64_t id,
                        ResolveLastAdded(order_id, last_added_order_id_, "set-default-sort-order", "sort order"));
  if (FindById(metadata_["sort-orders"], "order-id", id) == nullptr) {
    return InvalidArgument("set-default-sort-order: no sort order with id {}", id);
  }
  metadata_["default-sort-order-id"] = id;
  return OkStatus();
}

Status TableMetadataBuilder::AddSnapshot(Json snapshot) {
  if (!snapshot.is_object()) return InvalidArgument("add-snapshot: the snapshot must be an object");
  auto id = snapshot.find("snapshot-id");
  if (id == snapshot.end() || !id->is_number_integer()) {
    return InvalidArgument("add-snapshot: the snapshot needs an integer 'snapshot-id'");
  }
  if (!snapshot.contains("timestamp-ms") || !snapshot["timestamp-ms"].is_number_integer()) {
    return InvalidArgument("add-snapshot: the snapshot needs an integer 'timestamp-ms'");
  }
  if (!snapshot.contains("manifest-list") && !snapshot.contains("manifests")) {
    return InvalidArgument("add-snapshot: the snapshot needs a 'manifest-list'");
  }
  int64_t snapshot_id = id->get<int64_t>();
  Json& snapshots = ArrayField(metadata_, "snapshots");
  if (FindById(snapshots, "snapshot-id", snapshot_id) != nullptr) {
    return Conflict("add-snapshot: snapshot {} already exists", snapshot_id);
  }
  int64_t format_version = IntField(metadata_, "format-version", 1);
  int64_t last_sequence = IntField(metadata_, "last-sequence-number", 0);
  if (format_version >= 2) {
    if (!snapshot.contains("sequence-number") || !snapshot["sequence-number"].is_number_integer()) {
      return InvalidArgument("add-snapshot: a v{} snapshot needs an integer 'sequence-number'", format_version);
    }
    int64_t sequence = snapshot["sequence-number"].get<int64_t>();
    // A first snapshot may reuse a sequence number (a table re-created by its updates); any
    // other must be above the table's: a writer that computed it from an older base rebases.
    if (sequence <= last_sequence && snapshot.contains("parent-snapshot-id") &&
        !snapshot["parent-snapshot-id"].is_null()) {
      return Conflict("add-snapshot: sequence number {} is not above the table's last sequence number {}", sequence,
                      last_sequence);
    }
    metadata_["last-sequence-number"] = std::max(sequence, last_sequence);
  }
  if (format_version >= 3) {
    int64_t next_row_id = IntField(metadata_, "next-row-id", 0);
    auto first_row_id = snapshot.find("first-row-id");
    if (first_row_id == snapshot.end() || first_row_id->is_null()) {
      snapshot["first-row-id"] = next_row_id;
    } else if (!first_row_id->is_number_integer() || first_row_id->get<int64_t>() < next_row_id) {
      return Conflict("add-snapshot: first-row-id is below the table's next-row-id {}", next_row_id);
    }
    metadata_["next-row-id"] = snapshot["first-row-id"].get<int64_t>() + IntField(snapshot, "added-rows", 0);
  }
  added_snapshot_millis_ = snapshot["timestamp-ms"].get<int64_t>();
  snapshots.push_back(std::move(snapshot));
  return OkStatus();
}

Status TableMetadataBuilder::SetSnapshotRef(const std::string& name, int64_t snapshot_id, std::string_view type,
                                            const RefRetention& retention) {
  if (name.empty()) return InvalidArgument("set-snapshot-ref needs a ref name");
  if (type != "branch" && type != "tag") {
    return InvalidArgument("set-snapshot-ref: type must be 'branch' or 'tag', got '{}'", type);
  }
  if (name == kMainBranch && type != "branch") return InvalidArgument("set-snapshot-ref: main must be a branch");
  if (FindById(metadata_["snapshots"], "snapshot-id", snapshot_id) == nullptr) {
    return InvalidArgument("set-snapshot-ref: no snapshot with id {}", snapshot_id);
  }
  Json ref = {{"snapshot-id", snapshot_id}, {"type", type}};
  if (retention.max_ref_age_ms) ref["max-ref-age-ms"] = *retention.max_ref_age_ms;
  if (retention.max_snapshot_age_ms) ref["max-snapshot-age-ms"] = *retention.max_snapshot_age_ms;
  if (retention.min_snapshots_to_keep) ref["min-snapshots-to-keep"] = *retention.min_snapshots_to_keep;
  Json& refs = ObjectField(metadata_, "refs");
  bool moved = !refs.contains(name) || IntField(refs[name], "snapshot-id", -1) != snapshot_id;
  refs[name] = std::move(ref);
  if (name == kMainBranch && (moved || IntField(metadata_, "current-snapshot-id", -1) != snapshot_id)) {
    metadata_["current-snapshot-id"] = snapshot_id;
    // The log records when the snapshot became current: at its commit when added now.
    int64_t millis = added_snapshot_millis_.value_or(std::max(now_millis_, base_last_updated_millis_));
    ArrayField(metadata_, "snapshot-log").push_back({{"timestamp-ms", millis}, {"snapshot-id", snapshot_id}});
  }
  return OkStatus();
}

Status TableMetadataBuilder::RemoveSnapshots(const std::vector<int64_t>& ids) {
  auto removed = [&](int64_t id) { return std::find(ids.begin(), ids.end(), id) != ids.end(); };
  Json& snapshots = ArrayField(metadata_, "snapshots");
  EraseIf(snapshots, [&](const Json& s) { return removed(IntField(s, "snapshot-id", -1)); });
  Json& refs = ObjectField(metadata_, "refs");
  for (auto it = refs.begin(); it != refs.end();) {
    it = removed(IntField(*it, "snapshot-id", -1)) ? refs.erase(it) : std::next(it);
  }
  if (removed(IntField(metadata_, "current-snapshot-id", -1))) metadata_["current-snapshot-id"] = -1;
  // The spec's expiry: drop snapshot log entries up to the last one naming a removed snapshot.
  Json& log = ArrayField(metadata_, "snapshot-log");
  size_t cut = 0;
  for (size_t i = 0; i < log.size(); ++i) {
    if (removed(IntField(log[i], "snapshot-id", -1))) cut = i + 1;
  }
  log.erase(log.begin(), log.begin() + static_cast<std::ptrdiff_t>(cut));
  for (const char* field : {"statistics", "partition-statistics"}) {
    if (metadata_.contains(field) && metadata_[field].is_array()) {
      EraseIf(metadata_[field], [&](const Json& s) { return removed(IntField(s, "snapshot-id", -1)); });
    }
  }
  return OkStatus();
}

Status TableMetadataBuilder::RemoveSnapshotRef(const std::string& name) {
  ObjectField(metadata_, "refs").erase(name);
  if (name == kMainBranch) metadata_["current-snapshot-id"] = -1;
  return OkStatus();
}

Status TableMetadataBuilder::SetLocation(const std::string& location) {
  if (location.empty()) return InvalidArgument("set-location needs a non-empty location");
  metadata_["location"] = location;
  return OkStatus();
}

Status TableMetadataBuilder::SetProperties(const std::map<std::string, std::string>& updates) {
  Json& properties = ObjectField(metadata_, "properties");
  for (const auto& [key, value] : updates) properties[key] = value;
  return OkStatus();
}

Status TableMetadataBuilder::RemoveProperties(const std::vector<std::string>& removals) {
  Json& properties = ObjectField(metadata_, "properties");
  for (const std::string& key : removals) properties.erase(key);
  return OkStatus();
}

Status TableMetadataBuilder::SetStatisticsIn(const char* field, Json statistics_file) {
  auto id = statistics_file.is_object() ? statistics_file.find("snapshot-id") : statistics_file.end();
  if (!statistics_file.is_object() || id == statistics_file.end() || !id->is_number_integer()) {
    return InvalidArgument("{} needs an integer 'snapshot-id'", field);
  }
  RemoveById(field, "snapshot-id", id->get<int64_t>());
  ArrayField(metadata_, field).push_back(std::move(statistics_file));
  return OkStatus();
}

Status TableMetadataBuilder::SetStatistics(Json statistics_file) {
  return SetStatisticsIn("statistics", std::move(statistics_file));
}

Status TableMetadataBuilder::RemoveStatistics(int64_t snapshot_id) {
  RemoveById("statistics", "snapshot-id", snapshot_id);
  return OkStatus();
}

Status TableMetadataBuilder::SetPartitionStatistics(Json partition_statistics_file) {
  return SetStatisticsIn("partition-statistics", std::move(partition_statistics_file));
}

Status TableMetadataBuilder::RemovePartitionStatistics(int64_t snapshot_id) {
  RemoveById("partition-statistics", "snapshot-id", snapshot_id);
  return OkStatus();
}

Status TableMetadataBuilder::RemovePartitionSpecs(const std::vector<int64_t>& spec_ids) {
  int64_t default_id = IntField(metadata_, "default-spec-id", 0);
  for (int64_t id : spec_ids) {
    if (id == default_id) return InvalidArgument("cannot remove the default partition spec {}", default_id);
  }
  for (int64_t id : spec_ids) RemoveById("partition-specs", "spec-id", id);
  return OkStatus();
}

Status TableMetadataBuilder::RemoveSchemas(const std::vector<int64_t>& schema_ids) {
  int64_t current_id = IntField(metadata_, "current-schema-id", 0);
  for (int64_t id : schema_ids) {
    if (id == current_id) return InvalidArgument("cannot remove the current schema {}", current_id);
  }
  for (int64_t id : schema_ids) RemoveById("schemas", "schema-id", id);
  return OkStatus();
}

Status TableMetadataBuilder::AddEncryptionKey(Json key) {
  if (!key.is_object() || !key.contains("key-id") || !key["key-id"].is_string()) {
    return InvalidArgument("add-encryption-key: the key needs a string 'key-id'");
  }
  ArrayField(metadata_, "encryption-keys").push_back(std::move(key));
  return OkStatus();
}

Status TableMetadataBuilder::RemoveEncryptionKey(const std::string& key_id) {
  EraseIf(ArrayField(metadata_, "encryption-keys"),
          [&](const Json& key) { return key.is_object() && key.value("key-id", "") == key_id; });
  return OkStatus();
}

void TableMetadataBuilder::RemoveById(const char* array_field, const char* id_field, int64_t id) {
  EraseIf(ArrayField(metadata_, array_field),
          [&](const Json& element) { return IntField(element, id_field, INT64_MIN) == id; });
}

Result<Json> TableMetadataBuilder::Build() {
  if (metadata_.value("location", "").empty()) return InvalidArgument("the table has no location (set-location)");
  if (FindById(metadata_["schemas"], "schema-id", IntField(metadata_, "current-schema-id", -1)) == nullptr) {
    return InvalidArgument("the table has no current schema (add-schema, set-current-schema)");
  }
  if (FindById(metadata_["partition-specs"], "spec-id", IntField(metadata_, "default-spec-id", -1)) == nullptr) {
    return InvalidArgument("the table has no default partition spec (add-spec, set-default-spec)");
  }
  if (FindById(metadata_["sort-orders"], "order-id", IntField(metadata_, "default-sort-order-id", -1)) == nullptr) {
    return InvalidArgument("the table has no default sort order (add-sort-order, set-default-sort-order)");
  }
  int64_t updated = added_snapshot_millis_ ? std::max(*added_snapshot_millis_, now_millis_) : now_millis_;
  metadata_["last-updated-ms"] = std::max(updated, base_last_updated_millis_);
  if (!base_location_.empty()) {
    Json& log = ArrayField(metadata_, "metadata-log");
    log.push_back({{"timestamp-ms", base_last_updated_millis_}, {"metadata-file", base_location_}});
    int64_t keep = kDefaultPreviousVersionsMax;
    const Json& properties = ObjectField(metadata_, "properties");
    if (auto it = properties.find("write.metadata.previous-versions-max"); it != properties.end() && it->is_string()) {
      try {
        keep = std::max<int64_t>(1, std::stoll(it->get<std::string>()));
      } catch (const std::exception&) {
      }
    }
    if (static_cast<int64_t>(log.size()) > keep) {
      log.erase(log.begin(), log.begin() + (static_cast<int64_t>(log.size()) - keep));
    }
  }
  return std::move(metadata_);
}

}  // namespace floe::iceberg
