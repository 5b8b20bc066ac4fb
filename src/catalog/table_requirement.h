// TableRequirement: a precondition of a table commit, as the Iceberg REST spec defines them
// (open-api/rest-catalog-open-api.yaml, TableRequirement). A commit names the state it was
// computed from; the catalog checks these against the table's current metadata under the
// pointer swap, so a writer that raced another sees a Conflict (HTTP 409) and rebases.
// Plain values; any thread.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "base/result.h"

namespace floe::catalog {

struct TableRequirement {
  enum class Kind {
    kAssertCreate,                   // The table must not exist.
    kAssertTableUuid,                // uuid
    kAssertRefSnapshotId,            // ref, snapshot_id (nullopt: the ref must not exist)
    kAssertLastAssignedFieldId,      // value
    kAssertCurrentSchemaId,          // value
    kAssertLastAssignedPartitionId,  // value
    kAssertDefaultSpecId,            // value
    kAssertDefaultSortOrderId,       // value
  };

  Kind kind = Kind::kAssertCreate;
  std::string uuid;
  std::string ref;
  std::optional<int64_t> snapshot_id;
  int64_t value = 0;

  // Parses one element of a commit's "requirements"; unknown types and missing or mistyped
  // fields are InvalidArgument (HTTP 400).
  static Result<TableRequirement> FromJson(const nlohmann::json& json);
  nlohmann::json ToJson() const;

  // Checks the requirement against the current metadata (null when the table does not exist):
  // Conflict when it does not hold.
  Status Check(const nlohmann::json* metadata) const;
};

}  // namespace floe::catalog
