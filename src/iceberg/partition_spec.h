// PartitionSpec: how a table derives partition tuples from rows (format/spec.md,
// "Partitioning"), with its JSON form (Appendix C) and the `day(ts)` / `bucket(16, id)` text
// form the command line takes.
//
// Immutable value; any thread.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "iceberg/schema.h"
#include "iceberg/transform.h"

namespace floe::iceberg {

// Partition field ids start here (the reference implementation's convention, also for v1).
inline constexpr int32_t kFirstPartitionFieldId = 1000;

struct PartitionField {
  int32_t source_id = 0;
  int32_t field_id = 0;
  std::string name;
  Transform transform;

  bool operator==(const PartitionField&) const = default;
};

class PartitionSpec {
 public:
  PartitionSpec() = default;
  PartitionSpec(int32_t spec_id, std::vector<PartitionField> fields) : spec_id_(spec_id), fields_(std::move(fields)) {}

  int32_t spec_id() const { return spec_id_; }
  const std::vector<PartitionField>& fields() const { return fields_; }
  bool is_unpartitioned() const;
  int32_t LastFieldId() const;  // kFirstPartitionFieldId - 1 when there are no fields

  // The partition tuple's struct type against `schema`: one optional field per partition field,
  // with the partition field's id and name and the transform's result type.
  Result<TypePtr> PartitionType(const Schema& schema) const;
  // Checks sources exist, are primitive, not in lists/maps, and accept the transform.
  Status Validate(const Schema& schema) const;

  // Same fields (source, transform, name), ignoring spec ids: the spec's equivalence rule.
  bool CompatibleWith(const PartitionSpec& other) const;

  bool operator==(const PartitionSpec&) const = default;

 private:
  int32_t spec_id_ = 0;
  std::vector<PartitionField> fields_;
};

// JSON: {"spec-id": 0, "fields": [{"source-id":..,"field-id":..,"name":..,"transform":..}]}.
// `v1_next_field_id`, when given, assigns ids to fields without "field-id" (v1 specs).
Result<PartitionSpec> PartitionSpecFromJsonValue(const nlohmann::json& value, int32_t* v1_next_field_id = nullptr);
nlohmann::json PartitionSpecToJsonValue(const PartitionSpec& spec);
// The bare field list (the v1 "partition-spec" member and the manifest header's value).
nlohmann::json PartitionFieldsToJsonValue(const PartitionSpec& spec);

// Parses one command-line partition field: "ts", "identity(ts)", "day(ts)", "bucket(16, id)",
// "truncate(4, name)", "void(x)"; the field gets `field_id` and the conventional name
// ("ts_day", "id_bucket", "name_trunc", or the column name for identity).
Result<PartitionField> ParsePartitionField(std::string_view text, const Schema& schema, int32_t field_id);

}  // namespace floe::iceberg
