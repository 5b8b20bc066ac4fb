#include "iceberg/view_update.h"

#include <algorithm>
#include <set>

#include "iceberg/json_fields.h"
#include "iceberg/schema_json.h"

namespace floe::iceberg {
namespace {

using Json = nlohmann::json;

constexpr int64_t kDefaultVersionHistory = 10;

// What one commit has added so far: the targets of -1.
struct Added {
  std::optional<int32_t> schema_id;
  std::optional<int32_t> version_id;
  bool version_is_new = false;  // version_id was added, not an identical existing one reused.
};

bool SameSchema(const Schema& a, const Schema& b) {
  Json ja = SchemaToJsonValue(a);
  Json jb = SchemaToJsonValue(b);
  ja.erase("schema-id");
  jb.erase("schema-id");
  return ja == jb;
}

Status AddViewSchema(ViewMetadata& metadata, const Json& body, Added& added) {
  FLOE_ASSIGN_OR_RETURN(const Json* schema_json, json::Member(body, "schema", "add-schema"));
  FLOE_ASSIGN_OR_RETURN_CTX(Schema schema, SchemaFromJsonValue(*schema_json), "add-schema");
  for (const Schema& existing : metadata.schemas) {
    if (SameSchema(existing, schema)) {
      added.schema_id = existing.schema_id();
      return OkStatus();
    }
  }
  // The schema keeps its id unless that is taken: then it gets the next above every existing one.
  int32_t id = schema.schema_id();
  for (const Schema& existing : metadata.schemas) {
    if (existing.schema_id() >= id) id = existing.schema_id() + 1;
  }
  metadata.schemas.push_back(schema.WithId(id));
  added.schema_id = id;
  return OkStatus();
}

Status AddViewVersion(ViewMetadata& metadata, const Json& body, Added& added) {
  FLOE_ASSIGN_OR_RETURN(const Json* version_json, json::Member(body, "view-version", "add-view-version"));
  FLOE_ASSIGN_OR_RETURN_CTX(ViewVersion version, ViewVersionFromJsonValue(*version_json), "add-view-version");
  if (version.schema_id == -1) {
    if (!added.schema_id) {
      return InvalidArgument("add-view-version: schema-id -1 but no schema was added in this commit");
    }
    version.schema_id = *added.schema_id;
  }
  if (metadata.SchemaById(version.schema_id) == nullptr) {
    return InvalidArgument("add-view-version: schema {} does not exist", version.schema_id);
  }
  if (version.representations.empty()) {
    return InvalidArgument("add-view-version: a version needs at least one representation");
  }
  for (const ViewVersion& existing : metadata.versions) {
    if (existing.SameAs(version)) {
      added.version_id = existing.version_id;
      added.version_is_new = false;
      return OkStatus();
    }
  }
  int32_t id = std::max(version.version_id, 1);
  for (const ViewVersion& existing : metadata.versions) {
    if (existing.version_id >= id) id = existing.version_id + 1;
  }
  version.version_id = id;
  metadata.versions.push_back(std::move(version));
  added.version_id = id;
  added.version_is_new = true;
  return OkStatus();
}

Status SetCurrentViewVersion(ViewMetadata& metadata, const Json& body, const Added& added, int64_t now_ms) {
  FLOE_ASSIGN_OR_RETURN(int32_t id, json::RequiredInt(body, "view-version-id", "set-current-view-version"));
  if (id == -1) {
    if (!added.version_id) {
      return InvalidArgument("set-current-view-version: -1 but no version was added in this commit");
    }
    id = *added.version_id;
  }
  const ViewVersion* version = metadata.VersionById(id);
  if (version == nullptr) {
    return InvalidArgument("set-current-view-version: version {} does not exist", id);
  }
  if (metadata.current_version_id == id && !metadata.version_log.empty()) {
    return OkStatus();
  }
  metadata.current_version_id = id;
  // A version added in this commit is logged at its own timestamp; an older one, now.
  int64_t when = added.version_is_new && added.version_id == id ? version->timestamp_ms : now_ms;
  metadata.version_log.push_back({when, id});
  return OkStatus();
}

// Drops the oldest versions past `version.history.num-entries`, never the current one, and the
// log entries of dropped versions.
void ExpireVersions(ViewMetadata& metadata) {
  int64_t keep = kDefaultVersionHistory;
  if (auto it = metadata.properties.find("version.history.num-entries"); it != metadata.properties.end()) {
    try {
      keep = std::max<int64_t>(1, std::stoll(it->second));
    } catch (const std::exception&) {
      keep = kDefaultVersionHistory;
    }
  }
  if (static_cast<int64_t>(metadata.versions.size()) <= keep) return;
  std::vector<ViewVersion> sorted = metadata.versions;
  std::sort(sorted.begin(), sorted.end(),
            [](const ViewVersion& a, const ViewVersion& b) { return a.version_id > b.version_id; });
  std::set<int32_t> kept = {metadata.current_version_id};
  for (const ViewVersion& version : sorted) {
    if (static_cast<int64_t>(kept.size()) >= keep) break;
    kept.insert(version.version_id);
  }
  std::erase_if(metadata.versions, [&](const ViewVersion& v) { return !kept.contains(v.version_id); });
  std::erase_if(metadata.version_log, [&](const ViewVersionLogEntry& e) { return !kept.contains(e.version_id); });
}

Json SchemaUpdate(const Schema& schema) {
  return {{"action", "add-schema"}, {"schema", SchemaToJsonValue(schema)}, {"last-column-id", schema.HighestFieldId()}};
}

}  // namespace

Result<ViewUpdate> ViewUpdateFromJson(const Json& value) {
  FLOE_RETURN_IF_ERROR(json::ExpectObject(value, "view update"));
  FLOE_ASSIGN_OR_RETURN(std::string action, json::RequiredString(value, "action", "view update"));
  // Members each action needs, checked here so a malformed update is refused before anything is
  // applied.
  if (action == "assign-uuid") {
    FLOE_RETURN_IF_ERROR(json::RequiredString(value, "uuid", action));
  } else if (action == "upgrade-format-version") {
    FLOE_RETURN_IF_ERROR(json::RequiredInt(value, "format-version", action));
  } else if (action == "add-schema") {
    FLOE_RETURN_IF_ERROR(json::Member(value, "schema", action));
  } else if (action == "set-location") {
    FLOE_RETURN_IF_ERROR(json::RequiredString(value, "location", action));
  } else if (action == "set-properties") {
    FLOE_ASSIGN_OR_RETURN(const Json* updates, json::Member(value, "updates", action));
    if (!updates->is_object() ||
        !std::all_of(updates->begin(), updates->end(), [](const Json& v) { return v.is_string(); })) {
      return InvalidArgument("set-properties: 'updates' must be an object of strings");
    }
  } else if (action == "remove-properties") {
    FLOE_ASSIGN_OR_RETURN(const Json* removals, json::Member(value, "removals", action));
    if (!removals->is_array() ||
        !std::all_of(removals->begin(), removals->end(), [](const Json& r) { return r.is_string(); })) {
      return InvalidArgument("remove-properties: 'removals' must be an array of strings");
    }
  } else if (action == "add-view-version") {
    FLOE_RETURN_IF_ERROR(json::Member(value, "view-version", action));
  } else if (action == "set-current-view-version") {
    FLOE_RETURN_IF_ERROR(json::RequiredInt(value, "view-version-id", action));
  } else {
    return InvalidArgument("unknown view update action '{}'", action);
  }
  return ViewUpdate{std::move(action), value};
}

Result<std::vector<ViewUpdate>> ViewUpdatesFromJson(const Json& array) {
  if (!array.is_array()) return InvalidArgument("view 'updates' must be an array");
  std::vector<ViewUpdate> updates;
  for (const Json& item : array) {
    FLOE_ASSIGN_OR_RETURN(ViewUpdate update, ViewUpdateFromJson(item));
    updates.push_back(std::move(update));
  }
  return updates;
}

Result<AssertViewUuid> ViewRequirementFromJson(const Json& value) {
  FLOE_RETURN_IF_ERROR(json::ExpectObject(value, "view requirement"));
  FLOE_ASSIGN_OR_RETURN(std::string type, json::RequiredString(value, "type", "view requirement"));
  if (type != "assert-view-uuid") return InvalidArgument("unknown view requirement '{}'", type);
  FLOE_ASSIGN_OR_RETURN(std::string uuid, json::RequiredString(value, "uuid", type));
  return AssertViewUuid{std::move(uuid)};
}

Json ViewRequirementToJson(const AssertViewUuid& requirement) {
  return {{"type", "assert-view-uuid"}, {"uuid", requirement.uuid}};
}

Status CheckViewRequirement(const ViewMetadata& metadata, const AssertViewUuid& requirement) {
  if (metadata.view_uuid != requirement.uuid) {
    return Conflict("requirement failed: view uuid is {}, not {}", metadata.view_uuid, requirement.uuid);
  }
  return OkStatus();
}

Result<ViewMetadata> ApplyViewUpdates(const std::optional<ViewMetadata>& base, const std::vector<ViewUpdate>& updates,
                                      int64_t now_ms) {
  ViewMetadata metadata = base.value_or(ViewMetadata{});
  Added added;
  for (const ViewUpdate& update : updates) {
    const Json& body = update.body;
    const std::string& action = update.action;
    if (action == "assign-uuid") {
      FLOE_ASSIGN_OR_RETURN(std::string uuid, json::RequiredString(body, "uuid", action));
      if (base && uuid != metadata.view_uuid) {
        return InvalidArgument("assign-uuid: a view's uuid cannot change ({} to {})", metadata.view_uuid, uuid);
      }
      metadata.view_uuid = std::move(uuid);
    } else if (action == "upgrade-format-version") {
      FLOE_ASSIGN_OR_RETURN(int32_t version, json::RequiredInt(body, "format-version", action));
      if (version < metadata.format_version) {
        return InvalidArgument("upgrade-format-version: cannot downgrade from {} to {}", metadata.format_version,
                               version);
      }
      if (version > kViewFormatVersion) {
        return InvalidArgument("upgrade-format-version: view format version {} is not supported", version);
      }
      metadata.format_version = version;
    } else if (action == "add-schema") {
      FLOE_RETURN_IF_ERROR(AddViewSchema(metadata, body, added));
    } else if (action == "set-location") {
      FLOE_ASSIGN_OR_RETURN(metadata.location, json::RequiredString(body, "location", action));
    } else if (action == "set-properties") {
      FLOE_ASSIGN_OR_RETURN(auto properties, json::OptionalStringMap(body, "updates", action));
      for (auto& [key, value] : properties) metadata.properties[key] = value;
    } else if (action == "remove-properties") {
      for (const Json& key : body.at("removals")) metadata.properties.erase(key.get<std::string>());
    } else if (action == "add-view-version") {
      FLOE_RETURN_IF_ERROR(AddViewVersion(metadata, body, added));
    } else if (action == "set-current-view-version") {
      FLOE_RETURN_IF_ERROR(SetCurrentViewVersion(metadata, body, added, now_ms));
    } else {
      return InvalidArgument("unknown view update action '{}'", action);
    }
  }
  ExpireVersions(metadata);
  FLOE_RETURN_IF_ERROR(metadata.Validate());
  return metadata;
}

std::vector<ViewUpdate> ViewCreationUpdates(const std::string& uuid, const std::string& location, const Schema& schema,
                                            const ViewVersion& version,
                                            const std::map<std::string, std::string>& properties) {
  std::vector<ViewUpdate> updates = {
      {"assign-uuid", {{"action", "assign-uuid"}, {"uuid", uuid}}},
      {"upgrade-format-version", {{"action", "upgrade-format-version"}, {"format-version", kViewFormatVersion}}},
      {"set-location", {{"action", "set-location"}, {"location", location}}},
  };
  if (!properties.empty()) {
    updates.push_back({"set-properties", {{"action", "set-properties"}, {"updates", properties}}});
  }
  for (ViewUpdate& update : ViewReplaceUpdates(schema, version)) updates.push_back(std::move(update));
  return updates;
}

std::vector<ViewUpdate> ViewReplaceUpdates(const Schema& schema, const ViewVersion& version) {
  ViewVersion pending = version;
  pending.schema_id = -1;
  return {
      {"add-schema", SchemaUpdate(schema)},
      {"add-view-version", {{"action", "add-view-version"}, {"view-version", ViewVersionToJsonValue(pending)}}},
      {"set-current-view-version", {{"action", "set-current-view-version"}, {"view-version-id", -1}}},
  };
}

}  // namespace floe::iceberg
