#include "catalog/table_metadata_editor.h"

#include <algorithm>
#include <random>
#include <utility>

#include <fmt/format.h>

#include "iceberg/schema.h"
#include "iceberg/schema_json.h"

namespace floe::catalog {
namespace {

constexpr int kMaxFormatVersion = 3;
constexpr int64_t kDefaultPreviousVersionsMax = 100;
constexpr int64_t kFirstPartitionFieldId = 1000;

int64_t IntField(const nlohmann::json& object, const char* name, int64_t fallback) {
  auto it = object.find(name);
  return (it != object.end() && it->is_number_integer()) ? it->get<int64_t>() : fallback;
}

nlohmann::json& ArrayField(nlohmann::json& object, const char* name) {
  nlohmann::json& field = object[name];
  if (!field.is_array()) {
    field = nlohmann::json::array();
  }
  return field;
}

const nlohmann::json* FindById(const nlohmann::json& array, const char* id_field, int64_t id) {
  if (!array.is_array()) {
    return nullptr;
  }
  for (const auto& element : array) {
    if (IntField(element, id_field, INT64_MIN) == id) {
      return &element;
    }
  }
  return nullptr;
}

int64_t MaxId(const nlohmann::json& array, const char* id_field, int64_t floor) {
  int64_t max = floor;
  if (array.is_array()) {
    for (const auto& element : array) {
      max = std::max(max, IntField(element, id_field, floor));
    }
  }
  return max;
}

// Highest field id of a schema, validating it through the Iceberg schema model.
Result<int64_t> HighestFieldId(const nlohmann::json& schema) {
  FLOE_ASSIGN_OR_RETURN_CTX(iceberg::Schema parsed, iceberg::SchemaFromJsonValue(schema), "schema");
  FLOE_RETURN_IF_ERROR_CTX(parsed.Validate(), "schema");
  return parsed.HighestFieldId();
}

// Partition fields without ids get the next ids after `last_partition_id`; returns the new last.
Result<int64_t> AssignPartitionFieldIds(nlohmann::json& spec, int64_t last_partition_id) {
  nlohmann::json& fields = ArrayField(spec, "fields");
  for (auto& field : fields) {
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

Status CheckSortOrder(const nlohmann::json& order) {
  auto fields = order.find("fields");
  if (fields == order.end() || !fields->is_array()) {
    return InvalidArgument("a sort order needs a 'fields' array");
  }
  for (const auto& field : *fields) {
    if (!field.is_object() || !field.contains("source-id") || !field.contains("transform") ||
        !field.contains("direction") || !field.contains("null-order")) {
      return InvalidArgument("a sort field needs source-id, transform, direction and null-order");
    }
  }
  return OkStatus();
}

nlohmann::json EmptyMetadata(int64_t now_millis) {
  return {
      {"format-version", 2},
      {"table-uuid", RandomUuid()},
      {"location", ""},
      {"last-sequence-number", 0},
      {"last-updated-ms", now_millis},
      {"last-column-id", 0},
      {"current-schema-id", -1},
      {"schemas", nlohmann::json::array()},
      {"default-spec-id", -1},
      {"partition-specs", nlohmann::json::array()},
      {"last-partition-id", kFirstPartitionFieldId - 1},
      {"default-sort-order-id", -1},
      {"sort-orders", nlohmann::json::array()},
      {"properties", nlohmann::json::object()},
      {"current-snapshot-id", -1},
      {"refs", nlohmann::json::object()},
      {"snapshots", nlohmann::json::array()},
      {"snapshot-log", nlohmann::json::array()},
      {"metadata-log", nlohmann::json::array()},
  };
}

}  // namespace

std::string RandomUuid() {
  thread_local std::mt19937_64 generator{std::random_device{}() ^
                                         (static_cast<uint64_t>(std::random_device{}()) << 32)};
  uint64_t high = generator();
  uint64_t low = generator();
  high = (high & ~uint64_t{0xF000}) | 0x4000;                      // version 4
  low = (low & ~(uint64_t{0xC} << 60)) | (uint64_t{0x8} << 60);    // variant 10
  return fmt::format("{:08x}-{:04x}-{:04x}-{:04x}-{:012x}", high >> 32, (high >> 16) & 0xFFFF, high & 0xFFFF,
                     low >> 48, low & 0xFFFFFFFFFFFFULL);
}

Result<TableCreation> TableCreation::FromRequest(const nlohmann::json& request) {
  if (!request.is_object()) {
    return InvalidArgument("a create-table request must be an object");
  }
  TableCreation creation;
  auto schema = request.find("schema");
  if (schema == request.end() || !schema->is_object()) {
    return InvalidArgument("a create-table request needs a 'schema' object");
  }
  creation.schema = *schema;
  if (auto it = request.find("location"); it != request.end() && !it->is_null()) {
    if (!it->is_string()) {
      return InvalidArgument("'location' must be a string");
    }
    creation.location = it->get<std::string>();
  }
  if (auto it = request.find("partition-spec"); it != request.end() && !it->is_null()) {
    if (!it->is_object()) {
      return InvalidArgument("'partition-spec' must be an object");
    }
    creation.partition_spec = *it;
  }
  if (auto it = request.find("write-order"); it != request.end() && !it->is_null()) {
    if (!it->is_object()) {
      return InvalidArgument("'write-order' must be an object");
    }
    creation.write_order = *it;
  }
  if (auto it = request.find("properties"); it != request.end() && !it->is_null()) {
    if (!it->is_object()) {
      return InvalidArgument("'properties' must be an object of strings");
    }
    for (const auto& [key, value] : it->items()) {
      if (!value.is_string()) {
        return InvalidArgument("property '{}' must be a string", key);
      }
    }
    creation.properties = *it;
  }
  return creation;
}

Result<nlohmann::json> NewTableMetadata(const TableCreation& creation, int64_t now_millis) {
  if (creation.location.empty()) {
    return InvalidArgument("a new table needs a location");
  }
  nlohmann::json properties = creation.properties;
  int64_t format_version = 2;
  if (auto it = properties.find("format-version"); it != properties.end()) {
    // A table property only at creation; Iceberg does not keep it in the table's properties.
    try {
      format_version = std::stoll(it->get<std::string>());
    } catch (const std::exception&) {
      return InvalidArgument("property format-version '{}' is not a number", it->get<std::string>());
    }
    properties.erase(it);
  }
  TableMetadataEditor editor(nullptr, "", now_millis);
  nlohmann::json schema = creation.schema;
  schema["schema-id"] = 0;
  FLOE_RETURN_IF_ERROR(editor.Apply(
      {"upgrade-format-version", {{"action", "upgrade-format-version"}, {"format-version", format_version}}}));
  FLOE_RETURN_IF_ERROR(editor.Apply({"add-schema", {{"action", "add-schema"}, {"schema", schema}}}));
  FLOE_RETURN_IF_ERROR(editor.Apply({"set-current-schema", {{"action", "set-current-schema"}, {"schema-id", -1}}}));
  nlohmann::json spec = creation.partition_spec.is_null()
                            ? nlohmann::json{{"spec-id", 0}, {"fields", nlohmann::json::array()}}
                            : creation.partition_spec;
  FLOE_RETURN_IF_ERROR(editor.Apply({"add-spec", {{"action", "add-spec"}, {"spec", spec}}}));
  FLOE_RETURN_IF_ERROR(editor.Apply({"set-default-spec", {{"action", "set-default-spec"}, {"spec-id", -1}}}));
  nlohmann::json order = creation.write_order.is_null()
                             ? nlohmann::json{{"order-id", 0}, {"fields", nlohmann::json::array()}}
                             : creation.write_order;
  FLOE_RETURN_IF_ERROR(editor.Apply({"add-sort-order", {{"action", "add-sort-order"}, {"sort-order", order}}}));
  FLOE_RETURN_IF_ERROR(
      editor.Apply({"set-default-sort-order", {{"action", "set-default-sort-order"}, {"sort-order-id", -1}}}));
  FLOE_RETURN_IF_ERROR(editor.Apply({"set-location", {{"action", "set-location"}, {"location", creation.location}}}));
  if (!properties.empty()) {
    FLOE_RETURN_IF_ERROR(editor.Apply(TableUpdate::SetProperties(properties)));
  }
  return editor.Finish();
}

TableMetadataEditor::TableMetadataEditor(const nlohmann::json* base, std::string base_location, int64_t now_millis)
    : metadata_(base != nullptr ? *base : EmptyMetadata(now_millis)),
      creating_(base == nullptr),
      base_location_(std::move(base_location)),
      now_millis_(now_millis) {
  base_last_updated_millis_ = IntField(metadata_, "last-updated-ms", now_millis);
}

Status TableMetadataEditor::Apply(const TableUpdate& update) {
  const nlohmann::json& body = update.body;
  const std::string& action = update.action;
  if (action == "assign-uuid") {
    std::string uuid = body["uuid"].get<std::string>();
    if (!creating_ && metadata_.value("table-uuid", "") != uuid) {
      return InvalidArgument("assign-uuid cannot change the uuid of an existing table");
    }
    metadata_["table-uuid"] = uuid;
  } else if (action == "upgrade-format-version") {
    int64_t version = body["format-version"].get<int64_t>();
    int64_t current = IntField(metadata_, "format-version", 1);
    if (version > kMaxFormatVersion || version < 1) {
      return InvalidArgument("format version {} is not supported (1 to {})", version, kMaxFormatVersion);
    }
    if (version < current && !creating_) {
      return InvalidArgument("cannot downgrade format version {} to {}", current, version);
    }
    metadata_["format-version"] = version;
    if (version >= 3 && !metadata_.contains("next-row-id")) {
      metadata_["next-row-id"] = 0;
    }
  } else if (action == "add-schema") {
    return AddSchema(body);
  } else if (action == "set-current-schema") {
    int64_t id = body["schema-id"].get<int64_t>();
    if (id == -1) {
      if (!last_added_schema_id_) {
        return InvalidArgument("set-current-schema -1 needs a schema added in the same commit");
      }
      id = *last_added_schema_id_;
    }
    if (FindById(metadata_["schemas"], "schema-id", id) == nullptr) {
      return InvalidArgument("set-current-schema: no schema with id {}", id);
    }
    metadata_["current-schema-id"] = id;
  } else if (action == "add-spec") {
    return AddSpec(body);
  } else if (action == "set-default-spec") {
    int64_t id = body["spec-id"].get<int64_t>();
    if (id == -1) {
      if (!last_added_spec_id_) {
        return InvalidArgument("set-default-spec -1 needs a spec added in the same commit");
      }
      id = *last_added_spec_id_;
    }
    if (FindById(metadata_["partition-specs"], "spec-id", id) == nullptr) {
      return InvalidArgument("set-default-spec: no partition spec with id {}", id);
    }
    metadata_["default-spec-id"] = id;
  } else if (action == "add-sort-order") {
    return AddSortOrder(body);
  } else if (action == "set-default-sort-order") {
    int64_t id = body["sort-order-id"].get<int64_t>();
    if (id == -1) {
      if (!last_added_order_id_) {
        return InvalidArgument("set-default-sort-order -1 needs a sort order added in the same commit");
      }
      id = *last_added_order_id_;
    }
    if (FindById(metadata_["sort-orders"], "order-id", id) == nullptr) {
      return InvalidArgument("set-default-sort-order: no sort order with id {}", id);
    }
    metadata_["default-sort-order-id"] = id;
  } else if (action == "add-snapshot") {
    return AddSnapshot(body);
  } else if (action == "set-snapshot-ref") {
    return SetSnapshotRef(body);
  } else if (action == "remove-snapshots") {
    return RemoveSnapshots(body);
  } else if (action == "remove-snapshot-ref") {
    std::string ref = body["ref-name"].get<std::string>();
    if (metadata_.contains("refs") && metadata_["refs"].is_object()) {
      metadata_["refs"].erase(ref);
    }
    if (ref == "main") {
      metadata_["current-snapshot-id"] = -1;
    }
  } else if (action == "set-location") {
    std::string location = body["location"].get<std::string>();
    if (location.empty()) {
      return InvalidArgument("set-location needs a non-empty location");
    }
    metadata_["location"] = location;
  } else if (action == "set-properties") {
    nlohmann::json& properties = metadata_["properties"];
    if (!properties.is_object()) {
      properties = nlohmann::json::object();
    }
    for (const auto& [key, value] : body["updates"].items()) {
      properties[key] = value;
    }
  } else if (action == "remove-properties") {
    nlohmann::json& properties = metadata_["properties"];
    if (properties.is_object()) {
      for (const auto& key : body["removals"]) {
        properties.erase(key.get<std::string>());
      }
    }
  } else if (action == "set-statistics") {
    return SetStatistics("statistics", body["statistics"]);
  } else if (action == "remove-statistics") {
    return RemoveById("statistics", "snapshot-id", body["snapshot-id"].get<int64_t>());
  } else if (action == "set-partition-statistics") {
    return SetStatistics("partition-statistics", body["partition-statistics"]);
  } else if (action == "remove-partition-statistics") {
    return RemoveById("partition-statistics", "snapshot-id", body["snapshot-id"].get<int64_t>());
  } else if (action == "remove-partition-specs") {
    int64_t default_id = IntField(metadata_, "default-spec-id", 0);
    for (const auto& id : body["spec-ids"]) {
      if (id.get<int64_t>() == default_id) {
        return InvalidArgument("cannot remove the default partition spec {}", default_id);
      }
      FLOE_RETURN_IF_ERROR(RemoveById("partition-specs", "spec-id", id.get<int64_t>()));
    }
  } else if (action == "remove-schemas") {
    int64_t current_id = IntField(metadata_, "current-schema-id", 0);
    for (const auto& id : body["schema-ids"]) {
      if (id.get<int64_t>() == current_id) {
        return InvalidArgument("cannot remove the current schema {}", current_id);
      }
      FLOE_RETURN_IF_ERROR(RemoveById("schemas", "schema-id", id.get<int64_t>()));
    }
  } else if (action == "add-encryption-key") {
    ArrayField(metadata_, "encryption-keys").push_back(body["encryption-key"]);
  } else if (action == "remove-encryption-key") {
    std::string key_id = body["key-id"].get<std::string>();
    nlohmann::json& keys = ArrayField(metadata_, "encryption-keys");
    keys.erase(std::remove_if(keys.begin(), keys.end(),
                              [&](const nlohmann::json& key) { return key.value("key-id", "") == key_id; }),
               keys.end());
  } else {
    return InvalidArgument("unknown update action '{}'", action);
  }
  return OkStatus();
}

Status TableMetadataEditor::AddSchema(const nlohmann::json& update) {
  nlohmann::json schema = update["schema"];
  FLOE_ASSIGN_OR_RETURN(int64_t highest, HighestFieldId(schema));
  nlohmann::json& schemas = ArrayField(metadata_, "schemas");
  // An identical schema already present is reused rather than added again.
  auto same = [&](const nlohmann::json& existing) {
    return existing.value("fields", nlohmann::json::array()) == schema.value("fields", nlohmann::json::array()) &&
           existing.value("identifier-field-ids", nlohmann::json::array()) ==
               schema.value("identifier-field-ids", nlohmann::json::array());
  };
  for (const auto& existing : schemas) {
    if (same(existing)) {
      last_added_schema_id_ = IntField(existing, "schema-id", 0);
      return OkStatus();
    }
  }
  int64_t id = MaxId(schemas, "schema-id", -1) + 1;
  schema["schema-id"] = id;
  schemas.push_back(std::move(schema));
  int64_t last_column_id = std::max(IntField(metadata_, "last-column-id", 0), highest);
  last_column_id = std::max(last_column_id, IntField(update, "last-column-id", 0));
  metadata_["last-column-id"] = last_column_id;
  last_added_schema_id_ = id;
  return OkStatus();
}

Status TableMetadataEditor::AddSpec(const nlohmann::json& update) {
  nlohmann::json spec = update["spec"];
  FLOE_ASSIGN_OR_RETURN(int64_t last_partition_id,
                        AssignPartitionFieldIds(spec, IntField(metadata_, "last-partition-id", kFirstPartitionFieldId - 1)));
  nlohmann::json& specs = ArrayField(metadata_, "partition-specs");
  for (const auto& existing : specs) {
    if (existing.value("fields", nlohmann::json::array()) == spec["fields"]) {
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

Status TableMetadataEditor::AddSortOrder(const nlohmann::json& update) {
  nlohmann::json order = update["sort-order"];
  FLOE_RETURN_IF_ERROR(CheckSortOrder(order));
  nlohmann::json& orders = ArrayField(metadata_, "sort-orders");
  for (const auto& existing : orders) {
    if (existing.value("fields", nlohmann::json::array()) == order["fields"]) {
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

Status TableMetadataEditor::AddSnapshot(const nlohmann::json& update) {
  nlohmann::json snapshot = update["snapshot"];
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
  nlohmann::json& snapshots = ArrayField(metadata_, "snapshots");
  if (FindById(snapshots, "snapshot-id", snapshot_id) != nullptr) {
    return Conflict("add-snapshot: snapshot {} already exists", snapshot_id);
  }
  int64_t format_version = IntField(metadata_, "format-version", 1);
  int64_t last_sequence = IntField(metadata_, "last-sequence-number", 0);
  int64_t sequence = IntField(snapshot, "sequence-number", 0);
  if (format_version >= 2) {
    if (!snapshot.contains("sequence-number")) {
      return InvalidArgument("add-snapshot: a v{} snapshot needs a 'sequence-number'", format_version);
    }
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

Status TableMetadataEditor::SetSnapshotRef(const nlohmann::json& update) {
  std::string name = update["ref-name"].get<std::string>();
  int64_t snapshot_id = update["snapshot-id"].get<int64_t>();
  std::string type = update.value("type", "branch");
  if (type != "branch" && type != "tag") {
    return InvalidArgument("set-snapshot-ref: type must be 'branch' or 'tag', got '{}'", type);
  }
  if (name == "main" && type != "branch") {
    return InvalidArgument("set-snapshot-ref: main must be a branch");
  }
  const nlohmann::json* snapshot = FindById(metadata_["snapshots"], "snapshot-id", snapshot_id);
  if (snapshot == nullptr) {
    return InvalidArgument("set-snapshot-ref: no snapshot with id {}", snapshot_id);
  }
  nlohmann::json ref = {{"snapshot-id", snapshot_id}, {"type", type}};
  for (const char* field : {"max-ref-age-ms", "max-snapshot-age-ms", "min-snapshots-to-keep"}) {
    if (auto it = update.find(field); it != update.end() && it->is_number_integer()) {
      ref[field] = *it;
    }
  }
  if (!metadata_["refs"].is_object()) {
    metadata_["refs"] = nlohmann::json::object();
  }
  metadata_["refs"][name] = ref;
  if (name == "main") {
    metadata_["current-snapshot-id"] = snapshot_id;
    int64_t millis = added_snapshot_millis_.value_or(now_millis_);
    ArrayField(metadata_, "snapshot-log").push_back({{"timestamp-ms", millis}, {"snapshot-id", snapshot_id}});
  }
  return OkStatus();
}

Status TableMetadataEditor::RemoveSnapshots(const nlohmann::json& update) {
  std::vector<int64_t> ids = update["snapshot-ids"].get<std::vector<int64_t>>();
  auto removed = [&](int64_t id) { return std::find(ids.begin(), ids.end(), id) != ids.end(); };
  nlohmann::json& snapshots = ArrayField(metadata_, "snapshots");
  snapshots.erase(std::remove_if(snapshots.begin(), snapshots.end(),
                                 [&](const nlohmann::json& s) { return removed(IntField(s, "snapshot-id", -1)); }),
                  snapshots.end());
  if (metadata_["refs"].is_object()) {
    for (auto it = metadata_["refs"].begin(); it != metadata_["refs"].end();) {
      it = removed(IntField(*it, "snapshot-id", -1)) ? metadata_["refs"].erase(it) : std::next(it);
    }
  }
  if (removed(IntField(metadata_, "current-snapshot-id", -1))) {
    metadata_["current-snapshot-id"] = -1;
  }
  for (const char* field : {"statistics", "partition-statistics"}) {
    if (metadata_.contains(field)) {
      nlohmann::json& stats = metadata_[field];
      stats.erase(std::remove_if(stats.begin(), stats.end(),
                                 [&](const nlohmann::json& s) { return removed(IntField(s, "snapshot-id", -1)); }),
                  stats.end());
    }
  }
  return OkStatus();
}

Status TableMetadataEditor::SetStatistics(const char* field, const nlohmann::json& statistics) {
  auto id = statistics.find("snapshot-id");
  if (id == statistics.end() || !id->is_number_integer()) {
    return InvalidArgument("{} needs an integer 'snapshot-id'", field);
  }
  FLOE_RETURN_IF_ERROR(RemoveById(field, "snapshot-id", id->get<int64_t>()));
  ArrayField(metadata_, field).push_back(statistics);
  return OkStatus();
}

Status TableMetadataEditor::RemoveById(const char* array_field, const char* id_field, int64_t id) {
  nlohmann::json& array = ArrayField(metadata_, array_field);
  array.erase(std::remove_if(array.begin(), array.end(),
                             [&](const nlohmann::json& element) { return IntField(element, id_field, INT64_MIN) == id; }),
              array.end());
  return OkStatus();
}

Result<nlohmann::json> TableMetadataEditor::Finish() {
  if (metadata_.value("location", "").empty()) {
    return InvalidArgument("the table has no location (set-location)");
  }
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
    nlohmann::json& log = ArrayField(metadata_, "metadata-log");
    log.push_back({{"timestamp-ms", base_last_updated_millis_}, {"metadata-file", base_location_}});
    int64_t keep = kDefaultPreviousVersionsMax;
    if (auto it = metadata_["properties"].find("write.metadata.previous-versions-max");
        it != metadata_["properties"].end() && it->is_string()) {
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

}  // namespace floe::catalog
