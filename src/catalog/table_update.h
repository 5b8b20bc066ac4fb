// TableUpdate: one change of a table commit, as the Iceberg REST spec defines them
// (open-api/rest-catalog-open-api.yaml, TableUpdate, discriminated by "action"). FromJson
// checks the action is known and its fields have the spec's types; TableMetadataEditor applies
// it to metadata. The body is kept as sent so nothing a newer client adds is lost on the way.
// Plain values; any thread.
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "base/result.h"

namespace floe::catalog {

struct TableUpdate {
  std::string action;    // "add-snapshot", "set-properties", ...
  nlohmann::json body;   // The whole object, action included.

  // Unknown actions and missing or mistyped fields are InvalidArgument (HTTP 400).
  static Result<TableUpdate> FromJson(const nlohmann::json& json);
  const nlohmann::json& ToJson() const { return body; }

  // Builders for the updates floe's own writers send.
  static TableUpdate AddSnapshot(nlohmann::json snapshot);
  static TableUpdate SetSnapshotRef(std::string_view ref, int64_t snapshot_id, std::string_view type = "branch");
  static TableUpdate SetProperties(const nlohmann::json& updates);
  static TableUpdate RemoveProperties(const nlohmann::json& removals);
};

}  // namespace floe::catalog
