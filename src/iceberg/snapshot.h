// Snapshots and snapshot references (format/spec.md, "Snapshots", "Snapshot References"), with
// their JSON forms. A snapshot is the table's state at one commit: its manifest list, parent,
// sequence number and summary. Immutable values; any thread.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "base/result.h"

namespace floe::iceberg {

// The summary's "operation" values.
inline constexpr std::string_view kOperationAppend = "append";
inline constexpr std::string_view kOperationReplace = "replace";
// Summary properties a `replace` snapshot copies from its nearest ancestor that has each (writers' checkpoints such as
// the stream job's `floe.offsets.<topic>`): a compaction must not make a writer lose its place.
inline constexpr std::string_view kCarriedSummaryPrefix = "floe.offsets.";
inline constexpr std::string_view kOperationOverwrite = "overwrite";
inline constexpr std::string_view kOperationDelete = "delete";

inline constexpr std::string_view kMainBranch = "main";

struct Snapshot {
  int64_t snapshot_id = 0;
  std::optional<int64_t> parent_snapshot_id;
  int64_t sequence_number = 0;  // 0 for v1 snapshots
  int64_t timestamp_ms = 0;
  std::string manifest_list;
  std::vector<std::string> v1_manifests;  // v1 snapshots without a manifest list
  std::map<std::string, std::string> summary;  // includes "operation"
  std::optional<int32_t> schema_id;
  std::optional<int64_t> first_row_id;  // v3
  std::optional<int64_t> added_rows;    // v3

  std::string operation() const {
    auto it = summary.find("operation");
    return it == summary.end() ? std::string() : it->second;
  }
  bool operator==(const Snapshot&) const = default;
};

struct SnapshotRef {
  int64_t snapshot_id = 0;
  bool is_branch = true;  // false: a tag
  std::optional<int32_t> min_snapshots_to_keep;
  std::optional<int64_t> max_snapshot_age_ms;
  std::optional<int64_t> max_ref_age_ms;

  bool operator==(const SnapshotRef&) const = default;
};

struct SnapshotLogEntry {
  int64_t timestamp_ms = 0;
  int64_t snapshot_id = 0;
  bool operator==(const SnapshotLogEntry&) const = default;
};

struct MetadataLogEntry {
  int64_t timestamp_ms = 0;
  std::string metadata_file;
  bool operator==(const MetadataLogEntry&) const = default;
};

Result<Snapshot> SnapshotFromJsonValue(const nlohmann::json& value);
nlohmann::json SnapshotToJsonValue(const Snapshot& snapshot);
Result<SnapshotRef> SnapshotRefFromJsonValue(const nlohmann::json& value, std::string_view name);
nlohmann::json SnapshotRefToJsonValue(const SnapshotRef& ref);

}  // namespace floe::iceberg
