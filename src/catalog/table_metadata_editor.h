// TableMetadataEditor: applies REST table updates to a table's metadata JSON, the way the
// spec's server must ("the server applies updates to the current metadata"), and builds the
// first metadata of a new table from a create request.
//
// It edits the metadata as JSON rather than through a typed model so that fields it does not
// interpret (a newer writer's additions, v3 encryption keys, statistics blobs) survive a commit
// untouched. Semantic errors in an update (an unknown schema id, removing the current schema)
// are InvalidArgument (HTTP 400); a snapshot that is stale against the current metadata (its
// sequence number or first row id is already taken) is Conflict (409, the client rebases).
// One editor per commit attempt, on one thread.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "base/result.h"
#include "catalog/table_update.h"

namespace floe::catalog {

// What a create-table request fixes about a new table (the REST CreateTableRequest).
struct TableCreation {
  std::string location;             // Resolved by the catalog (given, or under the warehouse).
  nlohmann::json schema;            // Required: {"type":"struct","fields":[...]}.
  nlohmann::json partition_spec;    // null: unpartitioned.
  nlohmann::json write_order;       // null: unsorted.
  nlohmann::json properties = nlohmann::json::object();

  // Reads name-independent fields of a CreateTableRequest body; InvalidArgument when malformed.
  static Result<TableCreation> FromRequest(const nlohmann::json& request);
};

// Metadata version 1 of a new table (format version 2 unless properties ask for
// "format-version"). Field ids in the schema are kept as the client assigned them.
Result<nlohmann::json> NewTableMetadata(const TableCreation& creation, int64_t now_millis);

class TableMetadataEditor {
 public:
  // `base` is the current metadata and `base_location` its file; a null base starts from an
  // empty table (a commit with assert-create, as after a staged create).
  TableMetadataEditor(const nlohmann::json* base, std::string base_location, int64_t now_millis);

  Status Apply(const TableUpdate& update);

  // The new metadata: checks its invariants, stamps last-updated-ms and appends the base file to
  // the metadata log (trimmed to write.metadata.previous-versions-max).
  Result<nlohmann::json> Finish();

 private:
  Status AddSchema(const nlohmann::json& update);
  Status AddSpec(const nlohmann::json& update);
  Status AddSortOrder(const nlohmann::json& update);
  Status AddSnapshot(const nlohmann::json& update);
  Status SetSnapshotRef(const nlohmann::json& update);
  Status RemoveSnapshots(const nlohmann::json& update);
  Status SetStatistics(const char* field, const nlohmann::json& statistics);
  Status RemoveById(const char* array_field, const char* id_field, int64_t id);

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

// A fresh random (version 4) UUID in its canonical 36-character form.
std::string RandomUuid();

}  // namespace floe::catalog
