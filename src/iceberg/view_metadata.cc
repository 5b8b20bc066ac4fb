#include "iceberg/view_metadata.h"

#include <algorithm>
#include <set>

#include "base/json_depth.h"
#include "iceberg/json_fields.h"
#include "iceberg/schema_json.h"
#include "iceberg/table_metadata.h"

namespace floe::iceberg {
namespace {

using Json = nlohmann::json;

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](char x, char y) {
    return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
  });
}

// The members of `object` other than `known`, kept to be written back.
Json UnknownMembers(const Json& object, std::initializer_list<std::string_view> known) {
  Json unknown = Json::object();
  for (const auto& [key, value] : object.items()) {
    if (std::find(known.begin(), known.end(), key) == known.end()) {
      unknown[key] = value;
    }
  }
  return unknown;
}

void MergeUnknown(Json& out, const Json& unknown) {
  if (!unknown.is_object()) return;
  for (const auto& [key, value] : unknown.items()) {
    if (!out.contains(key)) out[key] = value;
  }
}

Result<ViewRepresentation> RepresentationFromJson(const Json& value) {
  constexpr std::string_view kWhere = "view representation";
  FLOE_RETURN_IF_ERROR(json::ExpectObject(value, kWhere));
  ViewRepresentation representation;
  FLOE_ASSIGN_OR_RETURN(representation.type, json::RequiredString(value, "type", kWhere));
  if (representation.type != "sql") {
    // Another kind of representation: nothing of it is read, all of it is kept.
    representation.unknown = UnknownMembers(value, {"type"});
    return representation;
  }
  FLOE_ASSIGN_OR_RETURN(representation.sql, json::RequiredString(value, "sql", kWhere));
  FLOE_ASSIGN_OR_RETURN(representation.dialect, json::RequiredString(value, "dialect", kWhere));
  representation.unknown = UnknownMembers(value, {"type", "sql", "dialect"});
  return representation;
}

Json RepresentationToJson(const ViewRepresentation& representation) {
  Json out = {{"type", representation.type}};
  if (representation.type == "sql") {
    out["sql"] = representation.sql;
    out["dialect"] = representation.dialect;
  }
  MergeUnknown(out, representation.unknown);
  return out;
}

}  // namespace

const ViewRepresentation* ViewVersion::SqlFor(std::string_view dialect) const {
  for (const ViewRepresentation& representation : representations) {
    if (representation.type == "sql" && EqualsIgnoreCase(representation.dialect, dialect)) {
      return &representation;
    }
  }
  return nullptr;
}

bool ViewVersion::SameAs(const ViewVersion& other) const {
  if (schema_id != other.schema_id || summary != other.summary || default_catalog != other.default_catalog ||
      default_namespace != other.default_namespace || representations.size() != other.representations.size()) {
    return false;
  }
  for (size_t i = 0; i < representations.size(); ++i) {
    if (RepresentationToJson(representations[i]) != RepresentationToJson(other.representations[i])) {
      return false;
    }
  }
  return true;
}

const ViewVersion* ViewMetadata::VersionById(int32_t id) const {
  for (const ViewVersion& version : versions) {
    if (version.version_id == id) return &version;
  }
  return nullptr;
}

const ViewVersion& ViewMetadata::CurrentVersion() const { return *VersionById(current_version_id); }

const Schema* ViewMetadata::SchemaById(int32_t id) const {
  for (const Schema& schema : schemas) {
    if (schema.schema_id() == id) return &schema;
  }
  return nullptr;
}

const Schema& ViewMetadata::CurrentSchema() const { return *SchemaById(CurrentVersion().schema_id); }

Status ViewMetadata::Validate() const {
  if (format_version != kViewFormatVersion) {
    return InvalidArgument("view metadata: unsupported format-version {} (only {} is defined)", format_version,
                           kViewFormatVersion);
  }
  if (view_uuid.empty()) return InvalidArgument("view metadata: 'view-uuid' is empty");
  if (location.empty()) return InvalidArgument("view metadata: 'location' is empty");
  std::set<int32_t> schema_ids;
  for (const Schema& schema : schemas) {
    if (!schema_ids.insert(schema.schema_id()).second) {
      return InvalidArgument("view metadata: schema id {} appears twice", schema.schema_id());
    }
  }
  std::set<int32_t> version_ids;
  for (const ViewVersion& version : versions) {
    if (!version_ids.insert(version.version_id).second) {
      return InvalidArgument("view metadata: version id {} appears twice", version.version_id);
    }
    if (!schema_ids.contains(version.schema_id)) {
      return InvalidArgument("view metadata: version {} names schema {}, which does not exist", version.version_id,
                             version.schema_id);
    }
    std::set<std::string> dialects;
    for (const ViewRepresentation& representation : version.representations) {
      if (representation.type != "sql") continue;
      std::string dialect = representation.dialect;
      std::transform(dialect.begin(), dialect.end(), dialect.begin(),
                     [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
      if (!dialects.insert(dialect).second) {
        return InvalidArgument("view metadata: version {} has two SQL representations for dialect '{}'",
                               version.version_id, representation.dialect);
      }
    }
  }
  if (!version_ids.contains(current_version_id)) {
    return InvalidArgument("view metadata: current-version-id {} names no version", current_version_id);
  }
  return OkStatus();
}

Result<ViewVersion> ViewVersionFromJsonValue(const Json& value) {
  constexpr std::string_view kWhere = "view version";
  FLOE_RETURN_IF_ERROR(json::ExpectObject(value, kWhere));
  ViewVersion version;
  FLOE_ASSIGN_OR_RETURN(version.version_id, json::RequiredInt(value, "version-id", kWhere));
  FLOE_ASSIGN_OR_RETURN(version.timestamp_ms, json::RequiredLong(value, "timestamp-ms", kWhere));
  FLOE_ASSIGN_OR_RETURN(version.schema_id, json::RequiredInt(value, "schema-id", kWhere));
  FLOE_ASSIGN_OR_RETURN(const Json* summary, json::Member(value, "summary", kWhere));
  if (!summary->is_object()) return InvalidArgument("{}: 'summary' must be an object", kWhere);
  FLOE_ASSIGN_OR_RETURN(version.summary, json::OptionalStringMap(value, "summary", kWhere));
  FLOE_ASSIGN_OR_RETURN(const Json* representations, json::Member(value, "representations", kWhere));
  if (!representations->is_array()) return InvalidArgument("{}: 'representations' must be an array", kWhere);
  for (const Json& item : *representations) {
    FLOE_ASSIGN_OR_RETURN(ViewRepresentation representation, RepresentationFromJson(item));
    version.representations.push_back(std::move(representation));
  }
  FLOE_ASSIGN_OR_RETURN(version.default_catalog, json::OptionalString(value, "default-catalog", kWhere));
  FLOE_ASSIGN_OR_RETURN(const Json* ns, json::Member(value, "default-namespace", kWhere));
  if (!ns->is_array()) return InvalidArgument("{}: 'default-namespace' must be an array of strings", kWhere);
  for (const Json& level : *ns) {
    if (!level.is_string()) return InvalidArgument("{}: 'default-namespace' must be an array of strings", kWhere);
    version.default_namespace.push_back(level.get<std::string>());
  }
  version.unknown = UnknownMembers(value, {"version-id", "timestamp-ms", "schema-id", "summary", "representations",
                                           "default-catalog", "default-namespace"});
  return version;
}

Json ViewVersionToJsonValue(const ViewVersion& version) {
  Json representations = Json::array();
  for (const ViewRepresentation& representation : version.representations) {
    representations.push_back(RepresentationToJson(representation));
  }
  Json out = {{"version-id", version.version_id},
              {"timestamp-ms", version.timestamp_ms},
              {"schema-id", version.schema_id},
              {"summary", version.summary},
              {"representations", std::move(representations)},
              {"default-namespace", version.default_namespace}};
  if (version.default_catalog) out["default-catalog"] = *version.default_catalog;
  MergeUnknown(out, version.unknown);
  return out;
}

Result<ViewMetadata> ViewMetadataFromJsonValue(const Json& value) {
  constexpr std::string_view kWhere = "view metadata";
  FLOE_RETURN_IF_ERROR(json::ExpectObject(value, kWhere));
  ViewMetadata metadata;
  FLOE_ASSIGN_OR_RETURN(metadata.format_version, json::RequiredInt(value, "format-version", kWhere));
  FLOE_ASSIGN_OR_RETURN(metadata.view_uuid, json::RequiredString(value, "view-uuid", kWhere));
  FLOE_ASSIGN_OR_RETURN(metadata.location, json::RequiredString(value, "location", kWhere));
  FLOE_ASSIGN_OR_RETURN(metadata.current_version_id, json::RequiredInt(value, "current-version-id", kWhere));
  FLOE_ASSIGN_OR_RETURN(const Json* versions, json::Member(value, "versions", kWhere));
  if (!versions->is_array()) return InvalidArgument("{}: 'versions' must be an array", kWhere);
  for (const Json& item : *versions) {
    FLOE_ASSIGN_OR_RETURN(ViewVersion version, ViewVersionFromJsonValue(item));
    metadata.versions.push_back(std::move(version));
  }
  FLOE_ASSIGN_OR_RETURN(const Json* log, json::Member(value, "version-log", kWhere));
  if (!log->is_array()) return InvalidArgument("{}: 'version-log' must be an array", kWhere);
  for (const Json& item : *log) {
    FLOE_RETURN_IF_ERROR(json::ExpectObject(item, "view version-log entry"));
    ViewVersionLogEntry entry;
    FLOE_ASSIGN_OR_RETURN(entry.timestamp_ms, json::RequiredLong(item, "timestamp-ms", "view version-log entry"));
    FLOE_ASSIGN_OR_RETURN(entry.version_id, json::RequiredInt(item, "version-id", "view version-log entry"));
    metadata.version_log.push_back(entry);
  }
  FLOE_ASSIGN_OR_RETURN(const Json* schemas, json::Member(value, "schemas", kWhere));
  if (!schemas->is_array()) return InvalidArgument("{}: 'schemas' must be an array", kWhere);
  for (const Json& item : *schemas) {
    FLOE_ASSIGN_OR_RETURN_CTX(Schema schema, SchemaFromJsonValue(item), "view metadata schema");
    metadata.schemas.push_back(std::move(schema));
  }
  FLOE_ASSIGN_OR_RETURN(metadata.properties, json::OptionalStringMap(value, "properties", kWhere));
  metadata.unknown = UnknownMembers(value, {"format-version", "view-uuid", "location", "current-version-id", "versions",
                                            "version-log", "schemas", "properties"});
  FLOE_RETURN_IF_ERROR(metadata.Validate());
  return metadata;
}

Result<ViewMetadata> ViewMetadataFromJson(std::string_view bytes, std::string_view where) {
  std::string inflated;
  if (bytes.size() >= 2 && static_cast<unsigned char>(bytes[0]) == 0x1f &&
      static_cast<unsigned char>(bytes[1]) == 0x8b) {
    FLOE_ASSIGN_OR_RETURN_CTX(inflated, GzipDecompress(bytes, kMaxViewMetadataBytes), where);
    bytes = inflated;
  }
  if (bytes.size() > kMaxViewMetadataBytes) {
    return InvalidArgument("{}: {} bytes is more than the {} a view's metadata may have", where, bytes.size(),
                           kMaxViewMetadataBytes);
  }
  FLOE_RETURN_IF_ERROR_CTX(CheckJsonDepth(bytes), where);
  FLOE_ASSIGN_OR_RETURN(Json value, json::Parse(bytes, where));
  FLOE_ASSIGN_OR_RETURN_CTX(ViewMetadata metadata, ViewMetadataFromJsonValue(value), where);
  return metadata;
}

Json ViewMetadataToJsonValue(const ViewMetadata& metadata) {
  Json versions = Json::array();
  for (const ViewVersion& version : metadata.versions) versions.push_back(ViewVersionToJsonValue(version));
  Json log = Json::array();
  for (const ViewVersionLogEntry& entry : metadata.version_log) {
    log.push_back({{"timestamp-ms", entry.timestamp_ms}, {"version-id", entry.version_id}});
  }
  Json schemas = Json::array();
  for (const Schema& schema : metadata.schemas) schemas.push_back(SchemaToJsonValue(schema));
  Json out = {{"view-uuid", metadata.view_uuid}, {"format-version", metadata.format_version},
              {"location", metadata.location},   {"current-version-id", metadata.current_version_id},
              {"versions", std::move(versions)}, {"version-log", std::move(log)},
              {"schemas", std::move(schemas)},   {"properties", metadata.properties}};
  MergeUnknown(out, metadata.unknown);
  return out;
}

std::string ViewMetadataToJson(const ViewMetadata& metadata) { return ViewMetadataToJsonValue(metadata).dump(); }

}  // namespace floe::iceberg
