// TableUpdate: one change of a table commit, one class per update of the Iceberg REST spec
// (open-api/rest-catalog-open-api.yaml, TableUpdate, discriminated by "action"). Each applies
// itself to a TableMetadataBuilder (where every rule lives), converts to and from the REST wire
// form, and names the requirements a writer must send with it (the state it was computed from).
//
// floe's table operations emit these, local catalogs apply them with the builder, the REST
// client sends them as they are and the REST server parses requests into them: one way to
// change a table. Objects the spec defines elsewhere (a schema, a snapshot, a statistics file)
// are kept as the JSON that came, so nothing a newer writer adds is lost on the way.
// Immutable values, shared by pointer; any thread.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/result.h"
#include "iceberg/table_metadata_builder.h"
#include "iceberg/table_requirement.h"

namespace floe::iceberg {

struct TableMetadata;

class TableUpdate {
 public:
  virtual ~TableUpdate() = default;

  virtual std::string_view action() const = 0;
  virtual Status Apply(TableMetadataBuilder& builder) const = 0;
  // The REST wire form, "action" included.
  virtual nlohmann::json ToJson() const = 0;
  // What must still hold of `base` for this update to mean what its writer meant.
  virtual std::vector<TableRequirementPtr> Requirements(const TableMetadata& base) const { return {}; }

  // Parses one element of a commit's "updates": unknown actions and missing or mistyped fields
  // are InvalidArgument (HTTP 400). Semantic errors show when the update is applied.
  static Result<std::shared_ptr<const TableUpdate>> FromJson(const nlohmann::json& json);
};

using TableUpdatePtr = std::shared_ptr<const TableUpdate>;

class AssignUuid final : public TableUpdate {
 public:
  explicit AssignUuid(std::string uuid) : uuid_(std::move(uuid)) {}
  std::string_view action() const override { return "assign-uuid"; }
  Status Apply(TableMetadataBuilder& builder) const override { return builder.AssignUuid(uuid_); }
  nlohmann::json ToJson() const override;

 private:
  std::string uuid_;
};

class UpgradeFormatVersion final : public TableUpdate {
 public:
  explicit UpgradeFormatVersion(int64_t format_version) : format_version_(format_version) {}
  std::string_view action() const override { return "upgrade-format-version"; }
  Status Apply(TableMetadataBuilder& builder) const override { return builder.UpgradeFormatVersion(format_version_); }
  nlohmann::json ToJson() const override;

 private:
  int64_t format_version_;
};

class AddSchema final : public TableUpdate {
 public:
  AddSchema(nlohmann::json schema, std::optional<int64_t> last_column_id)
      : schema_(std::move(schema)), last_column_id_(last_column_id) {}
  std::string_view action() const override { return "add-schema"; }
  Status Apply(TableMetadataBuilder& builder) const override { return builder.AddSchema(schema_, last_column_id_); }
  nlohmann::json ToJson() const override;
  std::vector<TableRequirementPtr> Requirements(const TableMetadata& base) const override;

 private:
  nlohmann::json schema_;
  std::optional<int64_t> last_column_id_;
};

class SetCurrentSchema final : public TableUpdate {
 public:
  explicit SetCurrentSchema(int64_t schema_id) : schema_id_(schema_id) {}  // -1: the one added last.
  std::string_view action() const override { return "set-current-schema"; }
  Status Apply(TableMetadataBuilder& builder) const override { return builder.SetCurrentSchema(schema_id_); }
  nlohmann::json ToJson() const override;
  std::vector<TableRequirementPtr> Requirements(const TableMetadata& base) const override;

 private:
  int64_t schema_id_;
};

class AddPartitionSpec final : public TableUpdate {
 public:
  explicit AddPartitionSpec(nlohmann::json spec) : spec_(std::move(spec)) {}
  std::string_view action() const override { return "add-spec"; }
  Status Apply(TableMetadataBuilder& builder) const override { return builder.AddPartitionSpec(spec_); }
  nlohmann::json ToJson() const override;
  std::vector<TableRequirementPtr> Requirements(const TableMetadata& base) const override;

 private:
  nlohmann::json spec_;
};

class SetDefaultPartitionSpec final : public TableUpdate {
 public:
  explicit SetDefaultPartitionSpec(int64_t spec_id) : spec_id_(spec_id) {}  // -1: the one added last.
  std::string_view action() const override { return "set-default-spec"; }
  Status Apply(TableMetadataBuilder& builder) const override { return builder.SetDefaultPartitionSpec(spec_id_); }
  nlohmann::json ToJson() const override;
  std::vector<TableRequirementPtr> Requirements(const TableMetadata& base) const override;

 private:
  int64_t spec_id_;
};

class AddSortOrder final : public TableUpdate {
 public:
  explicit AddSortOrder(nlohmann::json order) : order_(std::move(order)) {}
  std::string_view action() const override { return "add-sort-order"; }
  Status Apply(TableMetadataBuilder& builder) const override { return builder.AddSortOrder(order_); }
  nlohmann::json ToJson() const override;

 private:
  nlohmann::json order_;
};

class SetDefaultSortOrder final : public TableUpdate {
 public:
  explicit SetDefaultSortOrder(int64_t order_id) : order_id_(order_id) {}  // -1: the one added last.
  std::string_view action() const override { return "set-default-sort-order"; }
  Status Apply(TableMetadataBuilder& builder) const override { return builder.SetDefaultSortOrder(order_id_); }
  nlohmann::json ToJson() const override;
  std::vector<TableRequirementPtr> Requirements(const TableMetadata& base) const override;

 private:
  int64_t order_id_;
};

class AddSnapshot final : public TableUpdate {
 public:
  explicit AddSnapshot(nlohmann::json snapshot) : snapshot_(std::move(snapshot)) {}
  std::string_view action() const override { return "add-snapshot"; }
  Status Apply(TableMetadataBuilder& builder) const override { return builder.AddSnapshot(snapshot_); }
  nlohmann::json ToJson() const override;
  const nlohmann::json& snapshot() const { return snapshot_; }

 private:
  nlohmann::json snapshot_;
};

class SetSnapshotRef final : public TableUpdate {
 public:
  SetSnapshotRef(std::string name, int64_t snapshot_id, std::string type = "branch", RefRetention retention = {})
      : name_(std::move(name)), snapshot_id_(snapshot_id), type_(std::move(type)), retention_(retention) {}
  std::string_view action() const override { return "set-snapshot-ref"; }
  Status Apply(TableMetadataBuilder& builder) const override {
    return builder.SetSnapshotRef(name_, snapshot_id_, type_, retention_);
  }
  nlohmann::json ToJson() const override;
  // The ref must still be where the writer saw it (absent, if it was).
  std::vector<TableRequirementPtr> Requirements(const TableMetadata& base) const override;

 private:
  std::string name_;
  int64_t snapshot_id_;
  std::string type_;
  RefRetention retention_;
};

class RemoveSnapshots final : public TableUpdate {
 public:
  explicit RemoveSnapshots(std::vector<int64_t> snapshot_ids) : snapshot_ids_(std::move(snapshot_ids)) {}
  std::string_view action() const override { return "remove-snapshots"; }
  Status Apply(TableMetadataBuilder& builder) const override { return builder.RemoveSnapshots(snapshot_ids_); }
  nlohmann::json ToJson() const override;

 private:
  std::vector<int64_t> snapshot_ids_;
};

class RemoveSnapshotRef final : public TableUpdate {
 public:
  explicit RemoveSnapshotRef(std::string name) : name_(std::move(name)) {}
  std::string_view action() const override { return "remove-snapshot-ref"; }
  Status Apply(TableMetadataBuilder& builder) const override { return builder.RemoveSnapshotRef(name_); }
  nlohmann::json ToJson() const override;

 private:
  std::string name_;
};

class SetLocation final : public TableUpdate {
 public:
  explicit SetLocation(std::string location) : location_(std::move(location)) {}
  std::string_view action() const override { return "set-location"; }
  Status Apply(TableMetadataBuilder& builder) const override { return builder.SetLocation(location_); }
  nlohmann::json ToJson() const override;

 private:
  std::string location_;
};

class SetProperties final : public TableUpdate {
 public:
  explicit SetProperties(std::map<std::string, std::string> updates) : updates_(std::move(updates)) {}
  std::string_view action() const override { return "set-properties"; }
  Status Apply(TableMetadataBuilder& builder) const override { return builder.SetProperties(updates_); }
  nlohmann::json ToJson() const override;

 private:
  std::map<std::string, std::string> updates_;
};

class RemoveProperties final : public TableUpdate {
 public:
  explicit RemoveProperties(std::vector<std::string> removals) : removals_(std::move(removals)) {}
  std::string_view action() const override { return "remove-properties"; }
  Status Apply(TableMetadataBuilder& builder) const override { return builder.RemoveProperties(removals_); }
  nlohmann::json ToJson() const override;

 private:
  std::vector<std::string> removals_;
};

class SetStatistics final : public TableUpdate {
 public:
  explicit SetStatistics(nlohmann::json statistics_file) : statistics_file_(std::move(statistics_file)) {}
  std::string_view action() const override { return "set-statistics"; }
  Status Apply(TableMetadataBuilder& builder) const override { return builder.SetStatistics(statistics_file_); }
  nlohmann::json ToJson() const override;

 private:
  nlohmann::json statistics_file_;
};

class RemoveStatistics final : public TableUpdate {
 public:
  explicit RemoveStatistics(int64_t snapshot_id) : snapshot_id_(snapshot_id) {}
  std::string_view action() const override { return "remove-statistics"; }
  Status Apply(TableMetadataBuilder& builder) const override { return builder.RemoveStatistics(snapshot_id_); }
  nlohmann::json ToJson() const override;

 private:
  int64_t snapshot_id_;
};

class SetPartitionStatistics final : public TableUpdate {
 public:
  explicit SetPartitionStatistics(nlohmann::json file) : file_(std::move(file)) {}
  std::string_view action() const override { return "set-partition-statistics"; }
  Status Apply(TableMetadataBuilder& builder) const override { return builder.SetPartitionStatistics(file_); }
  nlohmann::json ToJson() const override;

 private:
  nlohmann::json file_;
};

class RemovePartitionStatistics final : public TableUpdate {
 public:
  explicit RemovePartitionStatistics(int64_t snapshot_id) : snapshot_id_(snapshot_id) {}
  std::string_view action() const override { return "remove-partition-statistics"; }
  Status Apply(TableMetadataBuilder& builder) const override {
    return builder.RemovePartitionStatistics(snapshot_id_);
  }
  nlohmann::json ToJson() const override;

 private:
  int64_t snapshot_id_;
};

class RemovePartitionSpecs final : public TableUpdate {
 public:
  explicit RemovePartitionSpecs(std::vector<int64_t> spec_ids) : spec_ids_(std::move(spec_ids)) {}
  std::string_view action() const override { return "remove-partition-specs"; }
  Status Apply(TableMetadataBuilder& builder) const override { return builder.RemovePartitionSpecs(spec_ids_); }
  nlohmann::json ToJson() const override;
  std::vector<TableRequirementPtr> Requirements(const TableMetadata& base) const override;

 private:
  std::vector<int64_t> spec_ids_;
};

class RemoveSchemas final : public TableUpdate {
 public:
  explicit RemoveSchemas(std::vector<int64_t> schema_ids) : schema_ids_(std::move(schema_ids)) {}
  std::string_view action() const override { return "remove-schemas"; }
  Status Apply(TableMetadataBuilder& builder) const override { return builder.RemoveSchemas(schema_ids_); }
  nlohmann::json ToJson() const override;
  std::vector<TableRequirementPtr> Requirements(const TableMetadata& base) const override;

 private:
  std::vector<int64_t> schema_ids_;
};

class AddEncryptionKey final : public TableUpdate {
 public:
  explicit AddEncryptionKey(nlohmann::json key) : key_(std::move(key)) {}
  std::string_view action() const override { return "add-encryption-key"; }
  Status Apply(TableMetadataBuilder& builder) const override { return builder.AddEncryptionKey(key_); }
  nlohmann::json ToJson() const override;

 private:
  nlohmann::json key_;
};

class RemoveEncryptionKey final : public TableUpdate {
 public:
  explicit RemoveEncryptionKey(std::string key_id) : key_id_(std::move(key_id)) {}
  std::string_view action() const override { return "remove-encryption-key"; }
  Status Apply(TableMetadataBuilder& builder) const override { return builder.RemoveEncryptionKey(key_id_); }
  nlohmann::json ToJson() const override;

 private:
  std::string key_id_;
};

// Applies `updates` in order.
Status ApplyUpdates(const std::vector<TableUpdatePtr>& updates, TableMetadataBuilder& builder);

// The requirements a writer sends with `updates` computed from `base`: the table's uuid, then
// each update's own, without repeats.
std::vector<TableRequirementPtr> RequirementsFor(const TableMetadata& base, const std::vector<TableUpdatePtr>& updates);

}  // namespace floe::iceberg
