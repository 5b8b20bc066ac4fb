#include "iceberg/data_file_writer.h"

#include <algorithm>
#include <optional>

#include "iceberg/batch_conversion.h"
#include "iceberg/partition_split.h"
#include "iceberg/row_lineage.h"
#include "iceberg/schema_json.h"

namespace floe::iceberg {
namespace {

using formats::ColumnBatch;
using formats::ColumnVector;

std::string PartitionPath(const PartitionSpec& spec, const Type& partition_type, const std::vector<Literal>& values) {
  std::string out;
  for (size_t i = 0; i < spec.fields().size(); ++i) {
    nlohmann::json j = ToJsonValue(*partition_type.fields()[i].type, values[i]);
    std::string text = j.is_null() ? "null" : j.is_string() ? j.get<std::string>() : j.dump();
    std::string escaped;
    for (char c : text) {
      if (std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.') {
        escaped.push_back(c);
      } else {
        escaped += fmt::format("%{:02X}", static_cast<unsigned char>(c));
      }
    }
    out += spec.fields()[i].name + "=" + escaped + "/";
  }
  return out;
}

}  // namespace

Result<std::unique_ptr<DataFileWriter>> DataFileWriter::Open(Table& table, const DataWriteOptions& options) {
  const TableMetadata& m = table.metadata();
  const Schema& schema = m.CurrentSchema();
  FLOE_ASSIGN_OR_RETURN(std::vector<formats::Field> fields, ToBatchFields(schema));
  if (options.row_lineage) {
    fields.push_back(RowIdBatchField());
    fields.push_back(LastUpdatedSequenceNumberBatchField());
  }
  FLOE_ASSIGN_OR_RETURN(TypePtr partition_type, m.DefaultSpec().PartitionType(schema));
  const int64_t target = std::max<int64_t>(1, m.PropertyAsLong("write.target-file-size-bytes", options.target_file_size_bytes));
  return std::unique_ptr<DataFileWriter>(
      new DataFileWriter(table, std::move(fields), std::move(partition_type), target, options.row_lineage));
}

Result<DataFileWriter::OpenFile*> DataFileWriter::OpenFor(const std::vector<Literal>& partition) {
  auto it = open_.find(partition);
  if (it != open_.end()) return &it->second;
  const Schema& schema = table_.metadata().CurrentSchema();
  OpenFile f;
  std::string path = PartitionPath(table_.metadata().DefaultSpec(), *partition_type_, partition);
  f.location = table_.ops().NewLocation(fmt::format("data/{}{}.parquet", path, NewUuid()));
  FLOE_ASSIGN_OR_RETURN(std::string key, table_.ops().KeyForLocation(f.location));
  FLOE_ASSIGN_OR_RETURN(auto stream, table_.ops().store().OpenOutput(key));
  parquet::WriterOptions writer_options;
  // Readers (Java, icebird) take column ids and names from this key when present.
  writer_options.key_value_metadata.push_back(parquet::KeyValue{"iceberg.schema", SchemaToJson(schema)});
  FLOE_ASSIGN_OR_RETURN(f.writer, parquet::FileWriter::Open(std::move(stream), fields_, writer_options));
  return &open_.emplace(partition, std::move(f)).first->second;
}

Status DataFileWriter::Close(const std::vector<Literal>& partition, OpenFile& f) {
  FLOE_ASSIGN_OR_RETURN(parquet::FileMetrics metrics, f.writer->Close());
  DataFile d;
  d.file_path = f.location;
  d.file_format = "PARQUET";
  d.spec_id = table_.metadata().DefaultSpec().spec_id();
  d.partition = partition;
  d.record_count = metrics.record_count;
  d.file_size_in_bytes = metrics.file_size;
  for (const auto& [id, c] : metrics.columns) {
    d.column_sizes[id] = c.column_size;
    d.value_counts[id] = c.value_count;
    d.null_value_counts[id] = c.null_value_count;
    if (c.nan_value_count) d.nan_value_counts[id] = *c.nan_value_count;
    if (c.lower_bound) d.lower_bounds[id] = *c.lower_bound;
    if (c.upper_bound) d.upper_bounds[id] = *c.upper_bound;
  }
  d.split_offsets = metrics.split_offsets;
  d.sort_order_id = 0;
  done_.push_back(std::move(d));
  return OkStatus();
}

Status DataFileWriter::WriteRows(const std::vector<Literal>& partition, const ColumnBatch& rows, int64_t bytes_per_row) {
  int64_t first = 0;
  while (first < rows.num_rows) {
    FLOE_ASSIGN_OR_RETURN(OpenFile * f, OpenFor(partition));
    const int64_t room = std::max<int64_t>(1, (target_ - f->written_bytes + bytes_per_row - 1) / bytes_per_row);
    const int64_t count = std::min(rows.num_rows - first, room);
    FLOE_RETURN_IF_ERROR_CTX(f->writer->WriteRows(rows, first, count), f->location);
    f->written_bytes += count * bytes_per_row;
    first += count;
    if (f->written_bytes >= target_) {
      FLOE_RETURN_IF_ERROR(Close(partition, *f));
      open_.erase(partition);
    }
  }
  return OkStatus();
}

Status DataFileWriter::Write(const ColumnBatch& input) {
  if (input.num_rows == 0) return OkStatus();
  const Schema& schema = table_.metadata().CurrentSchema();
  std::vector<int> columns = MatchColumns(input.fields, schema);
  // Nanosecond timestamps (pandas and pyarrow write them) go into microsecond columns rounded
  // down, as they always were read; the copy is made only when a column needs it.
  std::optional<ColumnBatch> downcast;
  for (size_t i = 0; i < columns.size(); ++i) {
    if (columns[i] < 0) continue;
    formats::TypeId have = input.fields[columns[i]].type.id, want = fields_[i].type.id;
    if ((have == formats::TypeId::kTimestampNs && want == formats::TypeId::kTimestamp) ||
        (have == formats::TypeId::kTimestampTzNs && want == formats::TypeId::kTimestampTz)) {
      if (!downcast) downcast = input;
      downcast->fields[columns[i]].type = fields_[i].type;
      downcast->columns[columns[i]] = NanosToMicros(input.columns[columns[i]]);
    }
  }
  const ColumnBatch& batch = downcast ? *downcast : input;
  // The lineage columns, found by field id, follow the schema's.
  std::vector<int> lineage;
  if (row_lineage_) {
    for (int32_t id : {kRowIdFieldId, kLastUpdatedSequenceNumberFieldId}) {
      int found = -1;
      for (size_t c = 0; c < batch.fields.size(); ++c) {
        if (batch.fields[c].id == id && batch.fields[c].type.id == formats::TypeId::kInt64) found = static_cast<int>(c);
      }
      if (found < 0) return InvalidArgument("the data has no row lineage column (field id {})", id);
      lineage.push_back(found);
    }
  }
  bool in_table_order = batch.columns.size() == columns.size() + lineage.size();
  for (size_t l = 0; l < lineage.size(); ++l) {
    in_table_order = in_table_order && lineage[l] == static_cast<int>(columns.size() + l);
  }
  for (size_t i = 0; i < columns.size(); ++i) {
    const NestedField& f = schema.fields()[i];
    in_table_order = in_table_order && columns[i] == static_cast<int>(i);
    if (columns[i] < 0) {
      if (f.required) return InvalidArgument("the data has no column '{}' (id {}), which is required", f.name, f.id);
      continue;
    }
    const formats::DataType& have = batch.fields[columns[i]].type;
    if (have.id != fields_[i].type.id) {
      return InvalidArgument("column '{}' is {} in the data but {} in the table", f.name, formats::TypeIdName(have.id),
                             formats::TypeIdName(fields_[i].type.id));
    }
  }
  // Files are cut by the rows' in-memory size (the compressed file comes out smaller).
  const int64_t bytes_per_row = std::max<int64_t>(1, formats::BatchBytes(batch) / batch.num_rows);
  for (const PartitionRows& part : SplitByPartition(schema, table_.metadata().DefaultSpec(), batch, columns)) {
    const auto count = static_cast<int64_t>(part.rows.size());
    if (count == batch.num_rows && in_table_order) {
      // The whole batch, already laid out as the table: written as it is, no copy.
      FLOE_RETURN_IF_ERROR(WriteRows(part.partition, batch, bytes_per_row));
      continue;
    }
    ColumnBatch rows;
    rows.fields = fields_;
    rows.num_rows = count;
    for (size_t i = 0; i < columns.size(); ++i) {
      rows.columns.push_back(columns[i] < 0 ? NullColumn(fields_[i].type, count)
                                            : formats::GatherRows(batch.columns[static_cast<size_t>(columns[i])],
                                                                  part.rows.data(), count));
    }
    for (int c : lineage) {
      rows.columns.push_back(formats::GatherRows(batch.columns[static_cast<size_t>(c)], part.rows.data(), count));
    }
    FLOE_RETURN_IF_ERROR(WriteRows(part.partition, rows, bytes_per_row));
  }
  return OkStatus();
}

Result<std::vector<DataFile>> DataFileWriter::Finish() {
  for (auto& [partition, f] : open_) FLOE_RETURN_IF_ERROR(Close(partition, f));
  open_.clear();
  return std::move(done_);
}

Result<std::vector<DataFile>> WriteDataFiles(Table& table, const std::vector<ColumnBatch>& batches,
                                             const DataWriteOptions& options) {
  FLOE_ASSIGN_OR_RETURN(auto writer, DataFileWriter::Open(table, options));
  for (const ColumnBatch& batch : batches) FLOE_RETURN_IF_ERROR(writer->Write(batch));
  return writer->Finish();
}

}  // namespace floe::iceberg
