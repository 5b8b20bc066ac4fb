#include "iceberg/equality_deletes.h"

#include <algorithm>
#include <map>

#include "formats/parquet/file_writer.h"
#include "iceberg/batch_conversion.h"
#include "iceberg/partition_split.h"
#include "iceberg/schema_json.h"

namespace floe::iceberg {

Status CheckPartitionedByKeys(const TableMetadata& metadata, const std::vector<int32_t>& equality_ids) {
  const Schema& schema = metadata.CurrentSchema();
  for (const PartitionField& field : metadata.DefaultSpec().fields()) {
    if (std::find(equality_ids.begin(), equality_ids.end(), field.source_id) == equality_ids.end()) {
      return InvalidArgument(
          "the table is partitioned by '{}' (column {}), which is not a key column: a key's previous row could be in "
          "any partition; partition by key columns only",
          field.name, schema.FindColumnName(field.source_id));
    }
  }
  return OkStatus();
}

Result<std::vector<DataFile>> WriteEqualityDeletes(Table& table, const std::vector<int32_t>& equality_ids,
                                                   const std::vector<formats::ColumnBatch>& keys) {
  const TableMetadata& m = table.metadata();
  const Schema& schema = m.CurrentSchema();
  FLOE_RETURN_IF_ERROR(CheckPartitionedByKeys(m, equality_ids));
  std::vector<formats::Field> fields;
  for (int32_t id : equality_ids) {
    const NestedField* field = schema.FindField(id);
    if (!field) return InvalidArgument("equality column id {} is not in the table's schema", id);
    FLOE_ASSIGN_OR_RETURN(formats::Field f, ToBatchField(*field));
    fields.push_back(std::move(f));
  }
  // The rows of every batch, grouped by partition; each partition becomes one file.
  struct Partition {
    std::vector<formats::ColumnBatch> rows;
  };
  std::map<std::vector<Literal>, Partition> partitions;
  for (const formats::ColumnBatch& batch : keys) {
    if (batch.num_rows == 0) continue;
    if (batch.fields.size() != fields.size()) {
      return InvalidArgument("equality delete rows have {} columns, the equality columns are {}", batch.fields.size(),
                             fields.size());
    }
    for (size_t i = 0; i < fields.size(); ++i) {
      if (batch.fields[i].id != fields[i].id || batch.fields[i].type.id != fields[i].type.id) {
        return InvalidArgument("equality delete column {} is '{}' ({}), expected '{}' ({})", i, batch.fields[i].name,
                               formats::TypeIdName(batch.fields[i].type.id), fields[i].name,
                               formats::TypeIdName(fields[i].type.id));
      }
    }
    std::vector<int> columns = MatchColumns(batch.fields, schema);
    for (PartitionRows& part : SplitByPartition(schema, m.DefaultSpec(), batch, columns)) {
      formats::ColumnBatch rows;
      rows.fields = fields;
      rows.num_rows = static_cast<int64_t>(part.rows.size());
      for (const formats::ColumnVector& c : batch.columns) {
        rows.columns.push_back(formats::GatherRows(c, part.rows.data(), rows.num_rows));
      }
      partitions[part.partition].rows.push_back(std::move(rows));
    }
  }
  std::vector<DataFile> out;
  for (auto& [partition, part] : partitions) {
    std::string location = table.ops().NewLocation(fmt::format("data/{}-eq-deletes.parquet", NewUuid()));
    FLOE_ASSIGN_OR_RETURN(std::string key, table.ops().KeyForLocation(location));
    FLOE_ASSIGN_OR_RETURN(auto stream, table.ops().store().OpenOutput(key));
    parquet::WriterOptions options;
    options.key_value_metadata.push_back(parquet::KeyValue{"iceberg.schema", SchemaToJson(schema)});
    FLOE_ASSIGN_OR_RETURN(auto writer, parquet::FileWriter::Open(std::move(stream), fields, options));
    for (const formats::ColumnBatch& rows : part.rows) FLOE_RETURN_IF_ERROR_CTX(writer->Write(rows), location);
    FLOE_ASSIGN_OR_RETURN(parquet::FileMetrics metrics, writer->Close());
    DataFile d;
    d.content = FileContent::kEqualityDeletes;
    d.file_path = location;
    d.spec_id = m.default_spec_id;
    d.partition = partition;
    d.record_count = metrics.record_count;
    d.file_size_in_bytes = metrics.file_size;
    for (const auto& [id, c] : metrics.columns) {
      d.column_sizes[id] = c.column_size;
      d.value_counts[id] = c.value_count;
      d.null_value_counts[id] = c.null_value_count;
      if (c.lower_bound) d.lower_bounds[id] = *c.lower_bound;
      if (c.upper_bound) d.upper_bounds[id] = *c.upper_bound;
    }
    d.equality_ids = equality_ids;
    d.split_offsets = metrics.split_offsets;
    out.push_back(std::move(d));
  }
  return out;
}

}  // namespace floe::iceberg
