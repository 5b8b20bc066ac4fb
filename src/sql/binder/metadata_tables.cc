#include "sql/binder/metadata_tables.h"

namespace floe::sql {

std::optional<std::vector<TableColumn>> MetadataTableColumns(std::string_view kind, const CatalogTable& base) {
  SqlType varchar = SqlType::Varchar(), bigint = SqlType::Bigint(), integer = SqlType::Integer();
  SqlType tstz = SqlType::TimestampTz(), boolean = SqlType::Boolean();
  SqlType counts = SqlType::Map(integer, bigint), bounds = SqlType::Map(integer, varchar);
  if (kind == "snapshots") {
    return std::vector<TableColumn>{{"committed_at", tstz}, {"snapshot_id", bigint}, {"parent_id", bigint},
                                    {"operation", varchar}, {"manifest_list", varchar}, {"summary", SqlType::Map(varchar, varchar)}};
  }
  if (kind == "history") {
    return std::vector<TableColumn>{{"made_current_at", tstz}, {"snapshot_id", bigint}, {"parent_id", bigint},
                                    {"is_current_ancestor", boolean}};
  }
  if (kind == "files") {
    return std::vector<TableColumn>{{"content", integer},          {"file_path", varchar},
                                    {"file_format", varchar},      {"spec_id", integer},
                                    {"record_count", bigint},      {"file_size_in_bytes", bigint},
                                    {"column_sizes", counts},      {"value_counts", counts},
                                    {"null_value_counts", counts}, {"nan_value_counts", counts},
                                    {"lower_bounds", bounds},      {"upper_bounds", bounds},
                                    {"key_metadata", SqlType(TypeKind::kVarbinary)},
                                    {"split_offsets", SqlType::Array(bigint)},
                                    {"equality_ids", SqlType::Array(integer)}};
  }
  if (kind == "manifests") {
    SqlType summary = SqlType::Row({{"contains_null", boolean}, {"contains_nan", boolean},
                                    {"lower_bound", varchar}, {"upper_bound", varchar}});
    return std::vector<TableColumn>{{"path", varchar},
                                    {"length", bigint},
                                    {"partition_spec_id", integer},
                                    {"added_snapshot_id", bigint},
                                    {"added_data_files_count", integer},
                                    {"added_rows_count", bigint},
                                    {"existing_data_files_count", integer},
                                    {"existing_rows_count", bigint},
                                    {"deleted_data_files_count", integer},
                                    {"deleted_rows_count", bigint},
                                    {"partition_summaries", SqlType::Array(summary)}};
  }
  if (kind == "partitions") {
    std::vector<RowField> partition;
    std::vector<RowField> data;
    for (const TableColumn& column : base.columns) {
      for (const std::string& name : base.partition_columns) {
        if (name == column.name) partition.push_back({column.name, column.type});
      }
      if (!column.type.IsNested()) {
        data.push_back({column.name, SqlType::Row({{"min", column.type}, {"max", column.type}, {"null_count", bigint}})});
      }
    }
    std::vector<TableColumn> out;
    if (!partition.empty()) out.push_back({"partition", SqlType::Row(std::move(partition))});
    out.push_back({"record_count", bigint});
    out.push_back({"file_count", bigint});
    out.push_back({"total_size", bigint});
    out.push_back({"data", SqlType::Row(std::move(data))});
    return out;
  }
  if (kind == "refs") {
    return std::vector<TableColumn>{{"name", varchar},
                                    {"type", varchar},
                                    {"snapshot_id", bigint},
                                    {"max_reference_age_in_ms", bigint},
                                    {"min_snapshots_to_keep", integer},
                                    {"max_snapshot_age_in_ms", bigint}};
  }
  if (kind == "properties") return std::vector<TableColumn>{{"key", varchar}, {"value", varchar}};
  return std::nullopt;
}

}  // namespace floe::sql
