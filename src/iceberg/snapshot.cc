#include "iceberg/snapshot.h"

#include <nlohmann/json.hpp>

#include "iceberg/json_fields.h"

namespace floe::iceberg {

using json::Json;

Result<Snapshot> SnapshotFromJsonValue(const nlohmann::json& value) {
  FLOE_RETURN_IF_ERROR(json::ExpectObject(value, "snapshot"));
  Snapshot s;
  FLOE_ASSIGN_OR_RETURN(s.snapshot_id, json::RequiredLong(value, "snapshot-id", "snapshot"));
  std::string where = fmt::format("snapshot {}", s.snapshot_id);
  FLOE_ASSIGN_OR_RETURN(s.parent_snapshot_id, json::OptionalLong(value, "parent-snapshot-id", where));
  FLOE_ASSIGN_OR_RETURN(auto seq, json::OptionalLong(value, "sequence-number", where));
  s.sequence_number = seq.value_or(0);
  FLOE_ASSIGN_OR_RETURN(s.timestamp_ms, json::RequiredLong(value, "timestamp-ms", where));
  FLOE_ASSIGN_OR_RETURN(auto list, json::OptionalString(value, "manifest-list", where));
  if (list) {
    s.manifest_list = *list;
  } else if (const Json* manifests = json::OptionalMember(value, "manifests"); manifests && manifests->is_array()) {
    for (const Json& m : *manifests) {
      if (!m.is_string()) return InvalidArgument("{}: 'manifests' must list strings", where);
      s.v1_manifests.push_back(m.get<std::string>());
    }
  } else {
    return InvalidArgument("{}: missing required 'manifest-list'", where);
  }
  FLOE_ASSIGN_OR_RETURN(s.summary, json::OptionalStringMap(value, "summary", where));
  if (!s.summary.contains("operation")) s.summary["operation"] = std::string(kOperationOverwrite);
  FLOE_ASSIGN_OR_RETURN(s.schema_id, json::OptionalInt(value, "schema-id", where));
  FLOE_ASSIGN_OR_RETURN(s.first_row_id, json::OptionalLong(value, "first-row-id", where));
  FLOE_ASSIGN_OR_RETURN(s.added_rows, json::OptionalLong(value, "added-rows", where));
  return s;
}

nlohmann::json SnapshotToJsonValue(const Snapshot& s) {
  Json out = Json::object();
  out["snapshot-id"] = s.snapshot_id;
  if (s.parent_snapshot_id) out["parent-snapshot-id"] = *s.parent_snapshot_id;
  out["sequence-number"] = s.sequence_number;
  out["timestamp-ms"] = s.timestamp_ms;
  if (!s.manifest_list.empty()) {
    out["manifest-list"] = s.manifest_list;
  } else {
    out["manifests"] = s.v1_manifests;
  }
  out["summary"] = s.summary;
  if (s.schema_id) out["schema-id"] = *s.schema_id;
  if (s.first_row_id) out["first-row-id"] = *s.first_row_id;
  if (s.added_rows) out["added-rows"] = *s.added_rows;
  return out;
}

Result<SnapshotRef> SnapshotRefFromJsonValue(const nlohmann::json& value, std::string_view name) {
  std::string where = fmt::format("ref '{}'", name);
  FLOE_RETURN_IF_ERROR(json::ExpectObject(value, where));
  SnapshotRef r;
  FLOE_ASSIGN_OR_RETURN(r.snapshot_id, json::RequiredLong(value, "snapshot-id", where));
  FLOE_ASSIGN_OR_RETURN(std::string type, json::RequiredString(value, "type", where));
  if (type != "branch" && type != "tag") return InvalidArgument("{}: type must be branch or tag, not '{}'", where, type);
  r.is_branch = type == "branch";
  FLOE_ASSIGN_OR_RETURN(r.min_snapshots_to_keep, json::OptionalInt(value, "min-snapshots-to-keep", where));
  FLOE_ASSIGN_OR_RETURN(r.max_snapshot_age_ms, json::OptionalLong(value, "max-snapshot-age-ms", where));
  FLOE_ASSIGN_OR_RETURN(r.max_ref_age_ms, json::OptionalLong(value, "max-ref-age-ms", where));
  return r;
}

nlohmann::json SnapshotRefToJsonValue(const SnapshotRef& r) {
  Json out = {{"snapshot-id", r.snapshot_id}, {"type", r.is_branch ? "branch" : "tag"}};
  if (r.min_snapshots_to_keep) out["min-snapshots-to-keep"] = *r.min_snapshots_to_keep;
  if (r.max_snapshot_age_ms) out["max-snapshot-age-ms"] = *r.max_snapshot_age_ms;
  if (r.max_ref_age_ms) out["max-ref-age-ms"] = *r.max_ref_age_ms;
  return out;
}

}  // namespace floe::iceberg
