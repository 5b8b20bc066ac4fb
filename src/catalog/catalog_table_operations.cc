#include "catalog/catalog_table_operations.h"

#include <filesystem>
#include <map>
#include <set>

#include <fmt/format.h>

#include "iceberg/table_metadata.h"
#include "io/object_store.h"

namespace floe::catalog {
namespace {

using nlohmann::json;

// The elements of metadata array `key` by their `id_key`, as JSON.
std::map<int64_t, json> ById(const json& metadata, const char* key, const char* id_key) {
  std::map<int64_t, json> out;
  if (metadata.contains(key)) {
    for (const auto& element : metadata[key]) out[element[id_key].get<int64_t>()] = element;
  }
  return out;
}

iceberg::TableUpdatePtr Update(const json& body) {
  auto update = iceberg::TableUpdate::FromJson(body);
  return update ? *update : nullptr;  // Bodies built here always parse.
}

}  // namespace

Result<TableCommit> DiffAsCommit(const TableIdentifier& id, const iceberg::TableMetadata& base,
                                 const iceberg::TableMetadata& updated) {
  json b = iceberg::TableMetadataToJsonValue(base);
  json u = iceberg::TableMetadataToJsonValue(updated);
  TableCommit commit;
  commit.id = id;

  // Requirements: the state this change was computed from.
  if (!base.table_uuid.empty()) commit.requirements.push_back(std::make_shared<const iceberg::AssertTableUuid>(base.table_uuid));
  std::optional<int64_t> main;
  if (auto it = base.refs.find("main"); it != base.refs.end()) main = it->second.snapshot_id;
  commit.requirements.push_back(std::make_shared<const iceberg::AssertRefSnapshotId>("main", main));
  commit.requirements.push_back(std::make_shared<const iceberg::AssertCurrentSchemaId>(base.current_schema_id));
  commit.requirements.push_back(std::make_shared<const iceberg::AssertLastAssignedFieldId>(base.last_column_id));
  commit.requirements.push_back(std::make_shared<const iceberg::AssertDefaultSpecId>(base.default_spec_id));
  commit.requirements.push_back(std::make_shared<const iceberg::AssertLastAssignedPartitionId>(base.last_partition_id));

  // Updates, in the order a catalog must apply them (a snapshot may use a new schema).
  if (u["format-version"] != b["format-version"]) {
    commit.updates.push_back(Update({{"action", "upgrade-format-version"}, {"format-version", u["format-version"]}}));
  }
  auto base_schemas = ById(b, "schemas", "schema-id");
  for (const auto& [schema_id, schema] : ById(u, "schemas", "schema-id")) {
    if (!base_schemas.contains(schema_id)) {
      commit.updates.push_back(Update({{"action", "add-schema"}, {"schema", schema}, {"last-column-id", u["last-column-id"]}}));
    }
  }
  if (u["current-schema-id"] != b["current-schema-id"]) {
    commit.updates.push_back(Update({{"action", "set-current-schema"}, {"schema-id", u["current-schema-id"]}}));
  }
  auto base_specs = ById(b, "partition-specs", "spec-id");
  for (const auto& [spec_id, spec] : ById(u, "partition-specs", "spec-id")) {
    if (!base_specs.contains(spec_id)) commit.updates.push_back(Update({{"action", "add-spec"}, {"spec", spec}}));
  }
  if (u["default-spec-id"] != b["default-spec-id"]) {
    commit.updates.push_back(Update({{"action", "set-default-spec"}, {"spec-id", u["default-spec-id"]}}));
  }
  auto base_orders = ById(b, "sort-orders", "order-id");
  for (const auto& [order_id, order] : ById(u, "sort-orders", "order-id")) {
    if (!base_orders.contains(order_id)) {
      commit.updates.push_back(Update({{"action", "add-sort-order"}, {"sort-order", order}}));
    }
  }
  if (u["default-sort-order-id"] != b["default-sort-order-id"]) {
    commit.updates.push_back(
        Update({{"action", "set-default-sort-order"}, {"sort-order-id", u["default-sort-order-id"]}}));
  }
  auto base_snapshots = ById(b, "snapshots", "snapshot-id");
  auto updated_snapshots = ById(u, "snapshots", "snapshot-id");
  for (const auto& [snapshot_id, snapshot] : updated_snapshots) {
    if (!base_snapshots.contains(snapshot_id)) {
      commit.updates.push_back(Update({{"action", "add-snapshot"}, {"snapshot", snapshot}}));
    }
  }
  json removed = json::array();
  for (const auto& [snapshot_id, snapshot] : base_snapshots) {
    if (!updated_snapshots.contains(snapshot_id)) removed.push_back(snapshot_id);
  }
  if (!removed.empty()) commit.updates.push_back(Update({{"action", "remove-snapshots"}, {"snapshot-ids", removed}}));
  json base_refs = b.value("refs", json::object());
  json updated_refs = u.value("refs", json::object());
  for (const auto& [name, ref] : updated_refs.items()) {
    if (base_refs.contains(name) && base_refs[name] == ref) continue;
    json body = ref;
    body["action"] = "set-snapshot-ref";
    body["ref-name"] = name;
    commit.updates.push_back(Update(std::move(body)));
  }
  for (const auto& [name, ref] : base_refs.items()) {
    if (!updated_refs.contains(name)) {
      commit.updates.push_back(Update({{"action", "remove-snapshot-ref"}, {"ref-name", name}}));
    }
  }
  json base_properties = b.value("properties", json::object());
  json updated_properties = u.value("properties", json::object());
  json set = json::object();
  json remove = json::array();
  for (const auto& [key, value] : updated_properties.items()) {
    if (!base_properties.contains(key) || base_properties[key] != value) set[key] = value;
  }
  for (const auto& [key, value] : base_properties.items()) {
    if (!updated_properties.contains(key)) remove.push_back(key);
  }
  if (!set.empty()) commit.updates.push_back(Update({{"action", "set-properties"}, {"updates", set}}));
  if (!remove.empty()) commit.updates.push_back(Update({{"action", "remove-properties"}, {"removals", remove}}));
  if (u["location"] != b["location"]) {
    commit.updates.push_back(Update({{"action", "set-location"}, {"location", u["location"]}}));
  }
  // Statistics files, by snapshot: a new or changed entry is set, a vanished one removed.
  for (const char* field : {"statistics", "partition-statistics"}) {
    std::string kind = field;
    auto by_snapshot = [&](const json& metadata) {
      std::map<int64_t, json> out;
      for (const auto& entry : metadata.value(kind, json::array())) {
        if (entry.is_object() && entry.contains("snapshot-id")) out[entry["snapshot-id"].get<int64_t>()] = entry;
      }
      return out;
    };
    auto before = by_snapshot(b), after = by_snapshot(u);
    for (const auto& [snapshot_id, entry] : after) {
      auto it = before.find(snapshot_id);
      if (it == before.end() || it->second != entry) {
        commit.updates.push_back(Update({{"action", "set-" + kind}, {"snapshot-id", snapshot_id}, {kind, entry}}));
      }
    }
    for (const auto& [snapshot_id, entry] : before) {
      if (!after.contains(snapshot_id)) commit.updates.push_back(Update({{"action", "remove-" + kind}, {"snapshot-id", snapshot_id}}));
    }
  }
  return commit;
}

Result<std::shared_ptr<CatalogTableOperations>> CatalogTableOperations::Open(std::shared_ptr<Catalog> catalog,
                                                                             TableIdentifier id,
                                                                             const std::string& relative_root) {
  std::shared_ptr<CatalogTableOperations> ops(new CatalogTableOperations(std::move(catalog), std::move(id)));
  FLOE_ASSIGN_OR_RETURN(LoadedTable loaded, ops->catalog_->LoadTable(ops->id_));
  if (!loaded.metadata.contains("location") || !loaded.metadata["location"].is_string()) {
    return Corruption("table {} has metadata without a location ({})", IdentifierToString(ops->id_), loaded.metadata_location);
  }
  ops->location_ = loaded.metadata["location"].get<std::string>();
  while (!ops->location_.empty() && ops->location_.back() == '/') ops->location_.pop_back();
  ops->recorded_location_ = ops->location_;
  if (ops->location_.find("://") == std::string::npos && !ops->location_.starts_with('/') && !relative_root.empty()) {
    std::string_view rest = ops->location_;
    while (!rest.empty()) {
      std::filesystem::path candidate = std::filesystem::path(relative_root) / rest;
      std::error_code ignored;
      if (std::filesystem::is_directory(candidate, ignored)) {
        ops->location_ = "file://" + candidate.lexically_normal().string();
        break;
      }
      size_t slash = rest.find('/');
      rest = slash == std::string_view::npos ? std::string_view() : rest.substr(slash + 1);
    }
  }
  FLOE_ASSIGN_OR_RETURN_CTX(std::unique_ptr<io::ObjectStore> store, io::OpenObjectStore(ops->location_),
                            fmt::format("opening the location of table {}", IdentifierToString(ops->id_)));
  ops->store_ = std::move(store);
  return ops;
}

Result<iceberg::VersionedMetadata> CatalogTableOperations::FromLoaded(const LoadedTable& loaded) {
  FLOE_ASSIGN_OR_RETURN_CTX(iceberg::TableMetadata metadata, iceberg::TableMetadataFromJsonValue(loaded.metadata),
                            loaded.metadata_location);
  iceberg::VersionedMetadata versioned;
  versioned.metadata = std::make_shared<const iceberg::TableMetadata>(std::move(metadata));
  versioned.location = loaded.metadata_location;
  versioned.version = ++version_;
  return versioned;
}

Result<iceberg::VersionedMetadata> CatalogTableOperations::Refresh() {
  FLOE_ASSIGN_OR_RETURN(LoadedTable loaded, catalog_->LoadTable(id_));
  return FromLoaded(loaded);
}

Result<iceberg::VersionedMetadata> CatalogTableOperations::Commit(const iceberg::VersionedMetadata& base,
                                                                  iceberg::TableMetadata updated) {
  if (base.version == 0 || !base.metadata) {
    return InvalidArgument("table {}: create catalog tables through the catalog, not by a commit", IdentifierToString(id_));
  }
  FLOE_ASSIGN_OR_RETURN(TableCommit commit, DiffAsCommit(id_, *base.metadata, updated));
  FLOE_ASSIGN_OR_RETURN(LoadedTable loaded, catalog_->CommitTable(commit));
  return FromLoaded(loaded);
}

Result<std::string> CatalogTableOperations::KeyForLocation(std::string_view location) const {
  // Files recorded under the recorded location live under the resolved one.
  if (recorded_location_ != location_ && location.size() > recorded_location_.size() &&
      location.starts_with(recorded_location_) && location[recorded_location_.size()] == '/') {
    return std::string(location.substr(recorded_location_.size() + 1));
  }
  std::string normalized = io::NormalizeObjectUri(location);
  std::string root = io::NormalizeObjectUri(location_);
  if (normalized.size() > root.size() && normalized.starts_with(root) && normalized[root.size()] == '/') {
    return normalized.substr(root.size() + 1);
  }
  return InvalidArgument("{} is outside the location {} of table {}", location, location_, IdentifierToString(id_));
}

std::string CatalogTableOperations::NewLocation(std::string_view relative) const {
  return fmt::format("{}/{}", location_, relative);
}

}  // namespace floe::catalog
