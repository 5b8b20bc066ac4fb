// TableCreation: what a create-table request fixes about a new table (the REST
// CreateTableRequest), and the first metadata of that table, built by applying the updates a
// create means (iceberg::TableMetadataBuilder) so a create follows the same rules as any
// commit. Plain values; any thread.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/result.h"
#include "iceberg/table_update.h"

namespace floe::catalog {

struct TableCreation {
  std::string location;           // Resolved by the catalog (given, or under the warehouse).
  nlohmann::json schema;          // Required: {"type":"struct","fields":[...]}.
  nlohmann::json partition_spec;  // null: unpartitioned.
  nlohmann::json write_order;     // null: unsorted.
  nlohmann::json properties = nlohmann::json::object();

  // Reads name-independent fields of a CreateTableRequest body; InvalidArgument when malformed.
  static Result<TableCreation> FromRequest(const nlohmann::json& request);

  // The updates that create this table (format version, schema, spec, order, location,
  // properties), as a client would send them after a staged create.
  Result<std::vector<iceberg::TableUpdatePtr>> Updates() const;
};

// Metadata version 1 of a new table (format version 2 unless properties ask for
// "format-version"). Field ids in the schema are kept as the client assigned them.
Result<nlohmann::json> NewTableMetadata(const TableCreation& creation, int64_t now_millis);

}  // namespace floe::catalog
