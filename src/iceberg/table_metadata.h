// TableMetadata: the content of one metadata.json (format/spec.md, "Table Metadata"): schemas,
// partition specs, sort orders, properties, snapshots, refs and the two logs. Reading accepts
// format v1, v2 and the v3 fields floe understands; writing produces v2 unless the table is
// v1 or v3.
//
// A plain value: a commit copies the base metadata, changes the copy and writes it as the next
// version, so no reader ever sees metadata change underneath it. Any thread may read one.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "iceberg/partition_spec.h"
#include "iceberg/schema.h"
#include "iceberg/snapshot.h"
#include "iceberg/sort_order.h"

namespace floe::iceberg {

inline constexpr int kMaxSupportedFormatVersion = 3;
inline constexpr int kDefaultFormatVersion = 2;

struct TableMetadata {
  int format_version = kDefaultFormatVersion;
  std::string table_uuid;
  std::string location;
  int64_t last_sequence_number = 0;
  int64_t last_updated_ms = 0;
  int32_t last_column_id = 0;
  std::vector<Schema> schemas;
  int32_t current_schema_id = 0;
  std::vector<PartitionSpec> specs;
  int32_t default_spec_id = 0;
  int32_t last_partition_id = kFirstPartitionFieldId - 1;
  std::map<std::string, std::string> properties;
  std::optional<int64_t> current_snapshot_id;
  std::vector<Snapshot> snapshots;
  std::vector<SnapshotLogEntry> snapshot_log;
  std::vector<MetadataLogEntry> metadata_log;
  std::vector<SortOrder> sort_orders;
  int32_t default_sort_order_id = 0;
  std::map<std::string, SnapshotRef> refs;
  std::optional<int64_t> next_row_id;  // v3
  // Statistics files (Puffin) by snapshot: written by table_statistics.h, kept as JSON.
  nlohmann::json statistics = nlohmann::json::array();
  nlohmann::json partition_statistics = nlohmann::json::array();

  const Schema* SchemaById(int32_t id) const;
  const Schema& CurrentSchema() const;  // Requires a valid metadata (Validate()).
  const PartitionSpec* SpecById(int32_t id) const;
  const PartitionSpec& DefaultSpec() const;
  const SortOrder* SortOrderById(int32_t id) const;
  const Snapshot* SnapshotById(int64_t id) const;
  const Snapshot* CurrentSnapshot() const;
  // The snapshot a branch or tag points at ("main" is the current snapshot), or null.
  const Snapshot* SnapshotForRef(std::string_view ref) const;
  // The snapshot that was current at `timestamp_ms` per the snapshot log, or null.
  const Snapshot* SnapshotAsOf(int64_t timestamp_ms) const;
  // A property, or `fallback`.
  std::string Property(std::string_view key, std::string_view fallback) const;
  int64_t PropertyAsLong(std::string_view key, int64_t fallback) const;

  // Checks the cross-references the spec requires (current schema/spec/order exist, refs
  // point at snapshots, snapshot schema ids exist, sequence numbers don't exceed the last).
  Status Validate() const;
};

// Parses metadata.json text; gzip-compressed bytes (as in `*.gz.metadata.json`) are inflated
// first. `where` names the file for messages.
Result<TableMetadata> TableMetadataFromJson(std::string_view bytes, std::string_view where = "metadata.json");
Result<TableMetadata> TableMetadataFromJsonValue(const nlohmann::json& value);
nlohmann::json TableMetadataToJsonValue(const TableMetadata& metadata);
std::string TableMetadataToJson(const TableMetadata& metadata);

// gzip helpers for metadata files ("write.metadata.compression-codec" = gzip).
Result<std::string> GzipCompress(std::string_view data);
Result<std::string> GzipDecompress(std::string_view data, size_t max_output);

}  // namespace floe::iceberg
