// View commits (the REST spec's ViewRequirement and ViewUpdate, format/view-spec.md's rules):
// the one place a view's metadata changes, used by every catalog that stores views and by
// floe's own CREATE/REPLACE VIEW.
//
// An update is kept as its JSON object (the spec's form, which a REST client sends and a
// server receives), checked when parsed, and applied to a ViewMetadata:
//   assign-uuid, upgrade-format-version, add-schema (an identical schema is reused; -1 in a
//   later version's schema-id means "the schema added in this commit"), set-location,
//   set-properties, remove-properties, add-view-version (an identical version is reused),
//   set-current-view-version (-1: the version added in this commit; logged in version-log).
// Versions beyond the `version.history.num-entries` property (default 10) are dropped, oldest
// first, never the current one. Stateless functions; any thread.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "base/result.h"
#include "iceberg/view_metadata.h"

namespace floe::iceberg {

struct ViewUpdate {
  std::string action;
  nlohmann::json body;  // The whole update object, "action" included.
};

// The only view requirement the spec defines: the view still has this uuid.
struct AssertViewUuid {
  std::string uuid;
};

// InvalidArgument for an unknown action or a missing or mistyped member.
Result<ViewUpdate> ViewUpdateFromJson(const nlohmann::json& value);
Result<std::vector<ViewUpdate>> ViewUpdatesFromJson(const nlohmann::json& array);
Result<AssertViewUuid> ViewRequirementFromJson(const nlohmann::json& value);
nlohmann::json ViewRequirementToJson(const AssertViewUuid& requirement);

// Conflict (CommitFailed) when `metadata`'s uuid differs.
Status CheckViewRequirement(const ViewMetadata& metadata, const AssertViewUuid& requirement);

// Applies `updates` in order to `base` (nullopt for a view being created) and validates the
// result. Semantic errors (unknown schema or version id, a downgrade) are InvalidArgument.
Result<ViewMetadata> ApplyViewUpdates(const std::optional<ViewMetadata>& base, const std::vector<ViewUpdate>& updates,
                                      int64_t now_ms);

// The updates that create a view (or replace its current version): assign-uuid (creation only),
// set-location, add-schema, add-view-version, set-current-view-version -1, set-properties.
std::vector<ViewUpdate> ViewCreationUpdates(const std::string& uuid, const std::string& location, const Schema& schema,
                                            const ViewVersion& version,
                                            const std::map<std::string, std::string>& properties);
std::vector<ViewUpdate> ViewReplaceUpdates(const Schema& schema, const ViewVersion& version);

}  // namespace floe::iceberg
