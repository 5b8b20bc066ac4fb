// ViewMetadata: the content of one view metadata file (format/view-spec.md): the view's uuid and
// location, its versions (each an SQL text per dialect, the schema of its result and the
// namespace its unqualified names resolve in), the version log, schemas and properties.
//
// Format version 1 is the only one the spec defines. Fields floe does not interpret, at the top
// level and in versions and representations, are kept and written back, so a view written by
// another engine keeps what that engine put there. A plain value; any thread may read one.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "iceberg/schema.h"

namespace floe::iceberg {

inline constexpr int kViewFormatVersion = 1;
// Larger view metadata is refused before parsing: a view is a query text and a few versions.
inline constexpr size_t kMaxViewMetadataBytes = size_t{64} << 20;

// One way of writing the view's query. Only "sql" representations have fields floe reads; others
// are kept as they came.
struct ViewRepresentation {
  std::string type = "sql";
  std::string sql;
  std::string dialect;
  nlohmann::json unknown = nlohmann::json::object();  // Members not named above.
};

struct ViewVersion {
  int32_t version_id = 0;
  int64_t timestamp_ms = 0;
  int32_t schema_id = 0;
  std::map<std::string, std::string> summary;
  std::vector<ViewRepresentation> representations;
  std::optional<std::string> default_catalog;
  std::vector<std::string> default_namespace;
  nlohmann::json unknown = nlohmann::json::object();

  // The SQL representation of `dialect` (compared case-insensitively), or null.
  const ViewRepresentation* SqlFor(std::string_view dialect) const;
  // Same query, schema, namespaces and summary: such a version is reused rather than added.
  bool SameAs(const ViewVersion& other) const;
};

struct ViewVersionLogEntry {
  int64_t timestamp_ms = 0;
  int32_t version_id = 0;
};

struct ViewMetadata {
  int format_version = kViewFormatVersion;
  std::string view_uuid;
  std::string location;
  int32_t current_version_id = 0;
  std::vector<ViewVersion> versions;
  std::vector<ViewVersionLogEntry> version_log;
  std::vector<Schema> schemas;
  std::map<std::string, std::string> properties;
  nlohmann::json unknown = nlohmann::json::object();

  const ViewVersion* VersionById(int32_t id) const;
  const ViewVersion& CurrentVersion() const;  // Requires Validate().
  const Schema* SchemaById(int32_t id) const;
  const Schema& CurrentSchema() const;  // Requires Validate().

  // What the spec requires across fields: a supported format version, a uuid and location,
  // unique version and schema ids, the current version and every version's schema present,
  // at most one SQL representation per dialect.
  Status Validate() const;
};

// Parses view metadata text (gzip-compressed bytes are inflated first); `where` names the file
// for messages. Refuses text over kMaxViewMetadataBytes or nested deeper than kMaxJsonDepth.
Result<ViewMetadata> ViewMetadataFromJson(std::string_view bytes, std::string_view where = "view metadata");
Result<ViewMetadata> ViewMetadataFromJsonValue(const nlohmann::json& value);
nlohmann::json ViewMetadataToJsonValue(const ViewMetadata& metadata);
std::string ViewMetadataToJson(const ViewMetadata& metadata);

// A view version's JSON form (the REST `view-version` member and the metadata's `versions`).
Result<ViewVersion> ViewVersionFromJsonValue(const nlohmann::json& value);
nlohmann::json ViewVersionToJsonValue(const ViewVersion& version);

}  // namespace floe::iceberg
