// TableRequirement: a precondition of a table commit, one class per requirement of the Iceberg
// REST spec (open-api/rest-catalog-open-api.yaml, TableRequirement). A commit names the state
// its updates were computed from; whoever applies the updates (the REST server, the pointer
// catalog, a local table's operations) validates these against the table's current metadata
// under the pointer swap, so a writer that raced another gets Conflict (HTTP 409) and rebases.
// Immutable values, shared by pointer; any thread.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/result.h"

namespace floe::iceberg {

struct TableMetadata;

class TableRequirement {
 public:
  virtual ~TableRequirement() = default;

  // The spec's "type" ("assert-create", "assert-table-uuid", ...).
  virtual std::string_view type() const = 0;
  // OkStatus when the requirement holds for `metadata` (null: the table does not exist), else
  // Conflict.
  virtual Status Validate(const TableMetadata* metadata) const = 0;
  // The REST wire form.
  virtual nlohmann::json ToJson() const = 0;

  // Parses one element of a commit's "requirements"; unknown types and missing or mistyped
  // fields are InvalidArgument (HTTP 400).
  static Result<std::shared_ptr<const TableRequirement>> FromJson(const nlohmann::json& json);
};

using TableRequirementPtr = std::shared_ptr<const TableRequirement>;

// The table must not exist yet.
class AssertCreate final : public TableRequirement {
 public:
  std::string_view type() const override { return "assert-create"; }
  Status Validate(const TableMetadata* metadata) const override;
  nlohmann::json ToJson() const override;
};

// The table's uuid is `uuid` (compared case-insensitively; writers differ in the case they print).
class AssertTableUuid final : public TableRequirement {
 public:
  explicit AssertTableUuid(std::string uuid) : uuid_(std::move(uuid)) {}
  std::string_view type() const override { return "assert-table-uuid"; }
  Status Validate(const TableMetadata* metadata) const override;
  nlohmann::json ToJson() const override;
  const std::string& uuid() const { return uuid_; }

 private:
  std::string uuid_;
};

// Branch or tag `ref` points at `snapshot_id`; nullopt: the ref must not exist.
class AssertRefSnapshotId final : public TableRequirement {
 public:
  AssertRefSnapshotId(std::string ref, std::optional<int64_t> snapshot_id)
      : ref_(std::move(ref)), snapshot_id_(snapshot_id) {}
  std::string_view type() const override { return "assert-ref-snapshot-id"; }
  Status Validate(const TableMetadata* metadata) const override;
  nlohmann::json ToJson() const override;
  const std::string& ref() const { return ref_; }
  const std::optional<int64_t>& snapshot_id() const { return snapshot_id_; }

 private:
  std::string ref_;
  std::optional<int64_t> snapshot_id_;
};

// The requirements that compare one integer of the metadata with the value the writer saw.
class AssertMetadataValue : public TableRequirement {
 public:
  int64_t value() const { return value_; }
  Status Validate(const TableMetadata* metadata) const override;
  nlohmann::json ToJson() const override;

 protected:
  explicit AssertMetadataValue(int64_t value) : value_(value) {}
  // The name of the value in the requirement's JSON, and in the metadata.
  virtual std::string_view value_field() const = 0;
  virtual std::string_view metadata_field() const = 0;
  virtual int64_t Current(const TableMetadata& metadata) const = 0;

 private:
  int64_t value_;
};

class AssertLastAssignedFieldId final : public AssertMetadataValue {
 public:
  explicit AssertLastAssignedFieldId(int64_t value) : AssertMetadataValue(value) {}
  std::string_view type() const override { return "assert-last-assigned-field-id"; }

 private:
  std::string_view value_field() const override { return "last-assigned-field-id"; }
  std::string_view metadata_field() const override { return "last-column-id"; }
  int64_t Current(const TableMetadata& metadata) const override;
};

class AssertCurrentSchemaId final : public AssertMetadataValue {
 public:
  explicit AssertCurrentSchemaId(int64_t value) : AssertMetadataValue(value) {}
  std::string_view type() const override { return "assert-current-schema-id"; }

 private:
  std::string_view value_field() const override { return "current-schema-id"; }
  std::string_view metadata_field() const override { return "current-schema-id"; }
  int64_t Current(const TableMetadata& metadata) const override;
};

class AssertLastAssignedPartitionId final : public AssertMetadataValue {
 public:
  explicit AssertLastAssignedPartitionId(int64_t value) : AssertMetadataValue(value) {}
  std::string_view type() const override { return "assert-last-assigned-partition-id"; }

 private:
  std::string_view value_field() const override { return "last-assigned-partition-id"; }
  std::string_view metadata_field() const override { return "last-partition-id"; }
  int64_t Current(const TableMetadata& metadata) const override;
};

class AssertDefaultSpecId final : public AssertMetadataValue {
 public:
  explicit AssertDefaultSpecId(int64_t value) : AssertMetadataValue(value) {}
  std::string_view type() const override { return "assert-default-spec-id"; }

 private:
  std::string_view value_field() const override { return "default-spec-id"; }
  std::string_view metadata_field() const override { return "default-spec-id"; }
  int64_t Current(const TableMetadata& metadata) const override;
};

class AssertDefaultSortOrderId final : public AssertMetadataValue {
 public:
  explicit AssertDefaultSortOrderId(int64_t value) : AssertMetadataValue(value) {}
  std::string_view type() const override { return "assert-default-sort-order-id"; }

 private:
  std::string_view value_field() const override { return "default-sort-order-id"; }
  std::string_view metadata_field() const override { return "default-sort-order-id"; }
  int64_t Current(const TableMetadata& metadata) const override;
};

// Validates every requirement in order; the first that fails decides.
Status ValidateRequirements(const std::vector<TableRequirementPtr>& requirements, const TableMetadata* metadata);
bool HasAssertCreate(const std::vector<TableRequirementPtr>& requirements);

}  // namespace floe::iceberg
