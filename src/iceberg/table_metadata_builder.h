// TableMetadataBuilder: the one place that knows how a table's metadata may change
// (format/spec.md, "Table Metadata"; the REST spec's table updates). Every change of every
// writer goes through it: the REST catalog server applying a client's updates, the pointer
// catalog, and floe's own table operations (as TableUpdate values, table_update.h).
//
// The rules it keeps: schemas, partition specs and sort orders equal to an existing one reuse
// its id, otherwise take the next; `-1` in set-current-schema / set-default-spec /
// set-default-sort-order means "the one added last by this builder"; last-column-id and
// last-partition-id only grow; partition fields without ids get the next partition field ids;
// an added snapshot must have a sequence number above the table's (else Conflict: the writer
// rebases) and, on v3, a first-row-id not below next-row-id; moving `main` moves the current
// snapshot and appends to the snapshot log; removing snapshots removes refs and statistics of
// them; the current schema and default spec cannot be removed; format versions only go up;
// Build() stamps last-updated-ms and appends the base file to the metadata log, trimmed to
// write.metadata.previous-versions-max.
//
// It edits the metadata as JSON, so fields it does not interpret (a newer writer's additions,
// fields inside snapshots or statistics) survive every change untouched. Semantic errors are
// InvalidArgument (HTTP 400); staleness against the base is Conflict (409). One builder per
// commit attempt, on one thread.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/result.h"

namespace floe::iceberg {

// The retention settings of a branch or tag (format/spec.md, "Snapshot References").
struct RefRetention {
  std::optional<int64_t> min_snapshots_to_keep;
  std::optional<int64_t> max_snapshot_age_ms;
  std::optional<int64_t> max_ref_age_ms;
  bool operator==(const RefRetention&) const = default;
};

class TableMetadataBuilder {
 public:
  // Changes the metadata of an existing table; `base_location` is its file, which Build()
  // records in the metadata log ("" records nothing).
  TableMetadataBuilder(nlohmann::json base, std::string base_location, int64_t now_millis);
  // Builds a new table from nothing: its updates must add a schema, spec, order and location.
  explicit TableMetadataBuilder(int64_t now_millis);

  bool creating() const { return creating_; }

  Status AssignUuid(const std::string& uuid);
  Status UpgradeFormatVersion(int64_t format_version);
  // `last_column_id`: the deprecated field of add-schema; the schema's own highest id counts too.
  Status AddSchema(nlohmann::json schema, std::optional<int64_t> last_column_id);
  Status SetCurrentSchema(int64_t schema_id);  // -1: the schema added last.
  Status AddPartitionSpec(nlohmann::json spec);
  Status SetDefaultPartitionSpec(int64_t spec_id);  // -1: the spec added last.
  Status AddSortOrder(nlohmann::json order);
  Status SetDefaultSortOrder(int64_t order_id);  // -1: the order added last.
  Status AddSnapshot(nlohmann::json snapshot);
  Status SetSnapshotRef(const std::string& name, int64_t snapshot_id, std::string_view type,
                        const RefRetention& retention);
  Status RemoveSnapshots(const std::vector<int64_t>& snapshot_ids);
  Status RemoveSnapshotRef(const std::string& name);
  Status SetLocation(const std::string& location);
  Status SetProperties(const std::map<std::string, std::string>& updates);
  Status RemoveProperties(const std::vector<std::string>& removals);
  // "statistics" or "partition-statistics" entries, one per snapshot.
  Status SetStatistics(nlohmann::json statistics_file);
  Status RemoveStatistics(int64_t snapshot_id);
  Status SetPartitionStatistics(nlohmann::json partition_statistics_file);
  Status RemovePartitionStatistics(int64_t snapshot_id);
  Status RemovePartitionSpecs(const std::vector<int64_t>& spec_ids);
  Status RemoveSchemas(const std::vector<int64_t>& schema_ids);
  Status AddEncryptionKey(nlohmann::json key);
  Status RemoveEncryptionKey(const std::string& key_id);

  // The new metadata: checks it has a location, current schema, default spec and sort order,
  // stamps last-updated-ms and extends the metadata log. The builder is spent afterwards.
  Result<nlohmann::json> Build();

 private:
  Status SetStatisticsIn(const char* field, nlohmann::json statistics_file);
  void RemoveById(const char* array_field, const char* id_field, int64_t id);

  nlohmann::json metadata_;
  bool creating_;
  std::string base_location_;
  int64_t base_last_updated_millis_ = 0;
  int64_t now_millis_;
  std::optional<int64_t> added_snapshot_millis_;
  std::optional<int64_t> last_added_schema_id_;
  std::optional<int64_t> last_added_spec_id_;
  std::optional<int64_t> last_added_order_id_;
};

}  // namespace floe::iceberg
