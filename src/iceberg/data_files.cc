#include "iceberg/data_files.h"

#include <algorithm>
#include <map>
#include <set>

#include "formats/parquet/file_reader.h"
#include "formats/parquet/file_writer.h"
#include "iceberg/batch_conversion.h"
#include "iceberg/deletion_vector.h"
#include "iceberg/partition_split.h"
#include "iceberg/schema_json.h"

namespace floe::iceberg {
namespace {

using formats::ColumnBatch;
using formats::ColumnVector;

// For each schema column, the batch column with the same field id (or name when the batch has
// no ids), or -1.
std::vector<int> MatchColumns(const std::vector<formats::Field>& batch_fields, const Schema& schema) {
  std::vector<int> out;
  for (const NestedField& f : schema.fields()) {
    int found = -1;
    for (size_t i = 0; i < batch_fields.size(); ++i) {
      if (batch_fields[i].id == f.id) found = static_cast<int>(i);
    }
    if (found < 0) {
      for (size_t i = 0; i < batch_fields.size(); ++i) {
        if (batch_fields[i].id < 0 && batch_fields[i].name == f.name) found = static_cast<int>(i);
      }
    }
    out.push_back(found);
  }
  return out;
}

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

// One open output file of one partition.
struct OpenFile {
  std::string location;
  std::unique_ptr<parquet::FileWriter> writer;
  int64_t written_bytes = 0;  // Estimated from the batches' in-memory sizes.
};

// Bytes a vector holds in memory, nested children included: the writer's input size, by which
// files are cut (the compressed file is smaller).
int64_t VectorBytes(const ColumnVector& v) {
  int64_t n = static_cast<int64_t>(v.values.size() + v.validity.size() + v.offsets.size() * sizeof(int32_t));
  for (const ColumnVector& c : v.children) n += VectorBytes(c);
  return n;
}

}  // namespace

Result<std::vector<formats::ColumnBatch>> ReadParquetFile(std::unique_ptr<io::InputFile> file) {
  FLOE_ASSIGN_OR_RETURN(auto reader, parquet::FileReader::Open(std::move(file)));
  std::vector<ColumnBatch> out;
  for (int rg = 0; rg < reader->num_row_groups(); ++rg) {
    FLOE_ASSIGN_OR_RETURN(ColumnBatch b, reader->ReadRowGroup(rg));
    out.push_back(std::move(b));
  }
  return out;
}

Result<std::vector<DataFile>> WriteDataFiles(Table& table, const std::vector<ColumnBatch>& batches,
                                             const DataWriteOptions& options) {
  const TableMetadata& m = table.metadata();
  const Schema& schema = m.CurrentSchema();
  const PartitionSpec& spec = m.DefaultSpec();
  FLOE_ASSIGN_OR_RETURN(std::vector<formats::Field> fields, ToBatchFields(schema));
  FLOE_ASSIGN_OR_RETURN(TypePtr partition_type, spec.PartitionType(schema));
  const int64_t target = std::max<int64_t>(1, m.PropertyAsLong("write.target-file-size-bytes", options.target_file_size_bytes));

  std::map<std::vector<Literal>, OpenFile> open;  // by partition
  std::vector<DataFile> out;
  auto finish = [&](const std::vector<Literal>& partition, OpenFile& f) -> Status {
    FLOE_ASSIGN_OR_RETURN(parquet::FileMetrics metrics, f.writer->Close());
    DataFile d;
    d.file_path = f.location;
    d.file_format = "PARQUET";
    d.spec_id = spec.spec_id();
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
    out.push_back(std::move(d));
    return OkStatus();
  };
  auto open_file = [&](const std::vector<Literal>& partition) -> Result<OpenFile*> {
    auto it = open.find(partition);
    if (it != open.end()) return &it->second;
    OpenFile f;
    std::string path = PartitionPath(spec, *partition_type, partition);
    f.location = table.ops().NewLocation(fmt::format("data/{}{}.parquet", path, NewUuid()));
    FLOE_ASSIGN_OR_RETURN(std::string key, table.ops().KeyForLocation(f.location));
    FLOE_ASSIGN_OR_RETURN(auto stream, table.ops().store().OpenOutput(key));
    parquet::WriterOptions writer_options;
    // Readers (Java, icebird) take column ids and names from this key when present.
    writer_options.key_value_metadata.push_back(parquet::KeyValue{"iceberg.schema", SchemaToJson(schema)});
    FLOE_ASSIGN_OR_RETURN(f.writer, parquet::FileWriter::Open(std::move(stream), fields, writer_options));
    return &open.emplace(partition, std::move(f)).first->second;
  };
  // Writes rows [first, first + count) of `rows` (in the table's column order) to the
  // partition's open file, cutting a new file whenever one reaches the target size.
  auto write = [&](const std::vector<Literal>& partition, const ColumnBatch& rows, int64_t bytes_per_row) -> Status {
    int64_t first = 0;
    while (first < rows.num_rows) {
      FLOE_ASSIGN_OR_RETURN(OpenFile * f, open_file(partition));
      const int64_t room = std::max<int64_t>(1, (target - f->written_bytes + bytes_per_row - 1) / bytes_per_row);
      const int64_t count = std::min(rows.num_rows - first, room);
      FLOE_RETURN_IF_ERROR_CTX(f->writer->WriteRows(rows, first, count), f->location);
      f->written_bytes += count * bytes_per_row;
      first += count;
      if (f->written_bytes >= target) {
        FLOE_RETURN_IF_ERROR(finish(partition, *f));
        open.erase(partition);
      }
    }
    return OkStatus();
  };

  for (const ColumnBatch& input : batches) {
    if (input.num_rows == 0) continue;
    std::vector<int> columns = MatchColumns(input.fields, schema);
    // Nanosecond timestamps (pandas and pyarrow write them) go into microsecond columns rounded
    // down, as they always were read; the copy is made only when a column needs it.
    std::optional<ColumnBatch> downcast;
    for (size_t i = 0; i < columns.size(); ++i) {
      if (columns[i] < 0) continue;
      formats::TypeId have = input.fields[columns[i]].type.id, want = fields[i].type.id;
      if ((have == formats::TypeId::kTimestampNs && want == formats::TypeId::kTimestamp) ||
          (have == formats::TypeId::kTimestampTzNs && want == formats::TypeId::kTimestampTz)) {
        if (!downcast) downcast = input;
        downcast->fields[columns[i]].type = fields[i].type;
        downcast->columns[columns[i]] = NanosToMicros(input.columns[columns[i]]);
      }
    }
    const ColumnBatch& batch = downcast ? *downcast : input;
    bool in_table_order = batch.columns.size() == columns.size();
    for (size_t i = 0; i < columns.size(); ++i) {
      const NestedField& f = schema.fields()[i];
      in_table_order = in_table_order && columns[i] == static_cast<int>(i);
      if (columns[i] < 0) {
        if (f.required) return InvalidArgument("the data has no column '{}' (id {}), which is required", f.name, f.id);
        continue;
      }
      const formats::DataType& have = batch.fields[columns[i]].type;
      if (have.id != fields[i].type.id) {
        return InvalidArgument("column '{}' is {} in the data but {} in the table", f.name,
                               formats::TypeIdName(have.id), formats::TypeIdName(fields[i].type.id));
      }
    }
    int64_t batch_bytes = 0;
    for (const ColumnVector& c : batch.columns) batch_bytes += VectorBytes(c);
    const int64_t bytes_per_row = std::max<int64_t>(1, batch_bytes / batch.num_rows);
    std::vector<PartitionRows> parts = SplitByPartition(schema, spec, batch, columns);
    for (const PartitionRows& part : parts) {
      const auto count = static_cast<int64_t>(part.rows.size());
      if (count == batch.num_rows && in_table_order) {
        // The whole batch, already laid out as the table: written as it is, no copy.
        FLOE_RETURN_IF_ERROR(write(part.partition, batch, bytes_per_row));
        continue;
      }
      ColumnBatch rows;
      rows.fields = fields;
      rows.num_rows = count;
      for (size_t i = 0; i < columns.size(); ++i) {
        rows.columns.push_back(columns[i] < 0 ? NullColumn(fields[i].type, count)
                                              : formats::GatherRows(batch.columns[static_cast<size_t>(columns[i])],
                                                                    part.rows.data(), count));
      }
      FLOE_RETURN_IF_ERROR(write(part.partition, rows, bytes_per_row));
    }
  }
  for (auto& [partition, f] : open) FLOE_RETURN_IF_ERROR(finish(partition, f));
  return out;
}

namespace {

// Deleted positions of `path` and equality-delete keys that apply to a task.
struct TaskDeletes {
  std::set<int64_t> positions;
  struct Equality {
    std::vector<int32_t> ids;
    std::set<std::vector<Literal>> keys;
  };
  std::vector<Equality> equalities;
};

// The positions of a deletion vector: its blob is read by the byte range the manifest gives,
// never by parsing the whole Puffin file.
Result<std::vector<int64_t>> ReadDeletionVector(const io::InputFile& input, const DataFile& dv, const DataFile& data) {
  std::string where = fmt::format("{} blob at {}+{}", dv.file_path, dv.content_offset.value_or(-1),
                                  dv.content_size_in_bytes.value_or(-1));
  if (!dv.content_offset || !dv.content_size_in_bytes || *dv.content_offset < 0 || *dv.content_size_in_bytes < 12) {
    return Corruption("deletion vector {}: the manifest entry needs content_offset and content_size_in_bytes", where);
  }
  uint64_t end = static_cast<uint64_t>(*dv.content_offset) + static_cast<uint64_t>(*dv.content_size_in_bytes);
  if (end > input.Size()) {
    return Corruption("deletion vector {}: the blob ends at byte {} but the Puffin file has {}", where, end, input.Size());
  }
  FLOE_ASSIGN_OR_RETURN(std::string blob, input.ReadAt(static_cast<uint64_t>(*dv.content_offset),
                                                       static_cast<uint64_t>(*dv.content_size_in_bytes)));
  FLOE_ASSIGN_OR_RETURN(std::vector<int64_t> positions, DecodeDeletionVector(blob, data.record_count, where));
  // The spec makes a DV's record_count its cardinality; a mismatch means the wrong blob.
  if (dv.record_count > 0 && static_cast<int64_t>(positions.size()) != dv.record_count) {
    return Corruption("deletion vector {}: holds {} positions, its manifest entry says {}", where, positions.size(),
                      dv.record_count);
  }
  return positions;
}

Result<TaskDeletes> LoadDeletes(Table& table, const FileScanTask& task, const Schema& schema) {
  TaskDeletes out;
  for (const DataFile& del : task.deletes) {
    FLOE_ASSIGN_OR_RETURN(std::string key, table.ops().KeyForLocation(del.file_path));
    FLOE_ASSIGN_OR_RETURN(auto input, table.ops().store().OpenInput(key));
    if (del.is_deletion_vector()) {
      FLOE_ASSIGN_OR_RETURN(std::vector<int64_t> positions, ReadDeletionVector(*input, del, task.file));
      out.positions.insert(positions.begin(), positions.end());
      continue;
    }
    FLOE_ASSIGN_OR_RETURN(auto batches, ReadParquetFile(std::move(input)));
    if (del.content == FileContent::kPositionDeletes) {
      for (const ColumnBatch& b : batches) {
        int path_col = -1, pos_col = -1;
        for (size_t i = 0; i < b.fields.size(); ++i) {
          if (b.fields[i].id == kDeleteFilePathId || (b.fields[i].id < 0 && b.fields[i].name == "file_path")) path_col = static_cast<int>(i);
          if (b.fields[i].id == kDeletePosId || (b.fields[i].id < 0 && b.fields[i].name == "pos")) pos_col = static_cast<int>(i);
        }
        if (path_col < 0 || pos_col < 0) return Corruption("{}: position delete file without file_path/pos", del.file_path);
        for (int64_t r = 0; r < b.num_rows; ++r) {
          if (b.columns[path_col].StringAt(r) == task.file.file_path) {
            out.positions.insert(LiteralAt(b.columns[pos_col], r, *Type::Primitive(TypeId::kLong)).as_long());
          }
        }
      }
    } else {
      TaskDeletes::Equality eq;
      eq.ids = del.equality_ids;
      if (eq.ids.empty()) return Corruption("{}: equality delete file without equality_ids", del.file_path);
      for (const ColumnBatch& b : batches) {
        std::vector<int> cols;
        std::vector<const NestedField*> types;
        for (int32_t id : eq.ids) {
          int c = -1;
          for (size_t i = 0; i < b.fields.size(); ++i) {
            if (b.fields[i].id == id) c = static_cast<int>(i);
          }
          const NestedField* f = schema.FindField(id);
          if (c < 0 || !f) return Corruption("{}: equality column {} is missing", del.file_path, id);
          cols.push_back(c);
          types.push_back(f);
        }
        for (int64_t r = 0; r < b.num_rows; ++r) {
          std::vector<Literal> k;
          for (size_t j = 0; j < cols.size(); ++j) k.push_back(LiteralAt(b.columns[cols[j]], r, *types[j]->type));
          eq.keys.insert(std::move(k));
        }
      }
      out.equalities.push_back(std::move(eq));
    }
  }
  return out;
}

}  // namespace

Status ReadTask(Table& table, const FileScanTask& task, const Schema& schema, const TaskBatchFn& fn) {
  return ReadTaskRows(table, task, schema, [&](const ColumnBatch& b, const std::vector<int>& columns,
                                               const std::vector<uint8_t>& deleted) -> Status {
    if (deleted.empty() || std::find(deleted.begin(), deleted.end(), 1) == deleted.end()) return fn(b, columns);
    std::vector<uint32_t> rows;
    for (int64_t row = 0; row < b.num_rows; ++row) {
      if (!deleted[static_cast<size_t>(row)]) rows.push_back(static_cast<uint32_t>(row));
    }
    ColumnBatch kept;
    kept.fields = b.fields;
    kept.num_rows = static_cast<int64_t>(rows.size());
    for (const ColumnVector& c : b.columns) kept.columns.push_back(formats::GatherRows(c, rows.data(), kept.num_rows));
    return fn(kept, columns);
  });
}

Status ReadTaskRows(Table& table, const FileScanTask& task, const Schema& schema, const TaskRowsFn& fn) {
  if (task.file.file_format != "PARQUET" && task.file.file_format != "parquet") {
    return NotImplemented("{}: {} data files are not supported", task.file.file_path, task.file.file_format);
  }
  FLOE_ASSIGN_OR_RETURN(TaskDeletes deletes, LoadDeletes(table, task, schema));
  FLOE_ASSIGN_OR_RETURN(std::string key, table.ops().KeyForLocation(task.file.file_path));
  FLOE_ASSIGN_OR_RETURN(auto input, table.ops().store().OpenInput(key));
  FLOE_ASSIGN_OR_RETURN(auto reader, parquet::FileReader::Open(std::move(input)));
  // Project to the columns the schema has (by id), plus equality-delete columns.
  std::vector<formats::Field> file_fields = reader->schema().BatchFields();
  std::vector<int> file_columns = MatchColumns(file_fields, schema);
  std::vector<int> projection;
  std::vector<int> columns;
  for (int c : file_columns) {
    if (c < 0) {
      columns.push_back(-1);
      continue;
    }
    columns.push_back(static_cast<int>(projection.size()));
    projection.push_back(c);
  }
  // A column the file does not store is null, unless it is the source of an identity partition
  // field: then every row has the file's partition value (PyIceberg leaves such columns out).
  std::vector<std::pair<size_t, Literal>> constants;  // Schema column -> value.
  if (const PartitionSpec* spec = table.metadata().SpecById(task.file.spec_id)) {
    for (size_t i = 0; i < columns.size(); ++i) {
      if (columns[i] >= 0) continue;
      for (size_t p = 0; p < spec->fields().size() && p < task.file.partition.size(); ++p) {
        const PartitionField& pf = spec->fields()[p];
        if (pf.source_id == schema.fields()[i].id && pf.transform.kind() == Transform::Kind::kIdentity &&
            !task.file.partition[p].is_null()) {
          constants.emplace_back(i, task.file.partition[p]);
        }
      }
    }
  }
  int64_t row_base = 0;
  for (int rg = 0; rg < reader->num_row_groups(); ++rg) {
    ColumnBatch b;
    if (projection.empty()) {
      b.num_rows = reader->metadata().row_groups[rg].num_rows;  // No known columns: rows of nulls.
    } else {
      FLOE_ASSIGN_OR_RETURN(b, reader->ReadRowGroup(rg, projection));
    }
    for (const auto& [i, value] : constants) {
      const NestedField& f = schema.fields()[i];
      FLOE_ASSIGN_OR_RETURN(formats::Field field, ToBatchField(f));
      FLOE_ASSIGN_OR_RETURN(formats::ColumnVector v, ConstantColumn(*f.type, value, b.num_rows));
      columns[i] = static_cast<int>(b.columns.size());
      b.fields.push_back(std::move(field));
      b.columns.push_back(std::move(v));
    }
    std::vector<uint8_t> deleted;
    if (!deletes.positions.empty() || !deletes.equalities.empty()) {
      deleted.assign(static_cast<size_t>(b.num_rows), 0);
      for (auto it = deletes.positions.lower_bound(row_base); it != deletes.positions.end() && *it < row_base + b.num_rows; ++it) {
        deleted[static_cast<size_t>(*it - row_base)] = 1;
      }
      for (const auto& eq : deletes.equalities) {
        std::vector<int> cols;
        std::vector<const Type*> types;
        for (int32_t id : eq.ids) {
          int c = -1;
          for (size_t i = 0; i < schema.fields().size(); ++i) {
            if (schema.fields()[i].id == id) c = columns[i];
          }
          cols.push_back(c);
          const NestedField* f = schema.FindField(id);
          types.push_back(f ? f->type.get() : nullptr);
        }
        for (int64_t r = 0; r < b.num_rows; ++r) {
          std::vector<Literal> k;
          for (size_t j = 0; j < cols.size(); ++j) {
            k.push_back(cols[j] < 0 || !types[j] ? Literal() : LiteralAt(b.columns[cols[j]], r, *types[j]));
          }
          if (eq.keys.contains(k)) deleted[static_cast<size_t>(r)] = 1;
        }
      }
    }
    FLOE_RETURN_IF_ERROR(fn(b, columns, deleted));
    row_base += b.num_rows;
  }
  return OkStatus();
}

Result<DataFile> WritePositionDeletes(Table& table, const std::map<std::string, std::vector<int64_t>>& positions,
                                      const std::vector<Literal>& partition) {
  std::vector<formats::Field> fields = {
      {"file_path", kDeleteFilePathId, false, formats::Primitive(formats::TypeId::kString)},
      {"pos", kDeletePosId, false, formats::Primitive(formats::TypeId::kInt64)},
  };
  ColumnBatch b = formats::MakeEmptyBatch(fields);
  int64_t count = 0;
  for (const auto& [path, list] : positions) {  // Sorted by path, then position.
    std::vector<int64_t> sorted = list;
    std::sort(sorted.begin(), sorted.end());
    for (int64_t pos : sorted) {
      b.columns[0].AppendString(path);
      b.columns[1].Append<int64_t>(pos);
      ++count;
    }
  }
  b.num_rows = count;
  std::string location = table.ops().NewLocation(fmt::format("data/{}-deletes.parquet", NewUuid()));
  FLOE_ASSIGN_OR_RETURN(std::string key, table.ops().KeyForLocation(location));
  FLOE_ASSIGN_OR_RETURN(auto stream, table.ops().store().OpenOutput(key));
  FLOE_ASSIGN_OR_RETURN(auto writer, parquet::FileWriter::Open(std::move(stream), fields));
  FLOE_RETURN_IF_ERROR(writer->Write(b));
  FLOE_ASSIGN_OR_RETURN(parquet::FileMetrics metrics, writer->Close());
  DataFile d;
  d.content = FileContent::kPositionDeletes;
  d.file_path = location;
  d.spec_id = table.metadata().default_spec_id;
  d.partition = partition;
  d.record_count = metrics.record_count;
  d.file_size_in_bytes = metrics.file_size;
  for (const auto& [id, c] : metrics.columns) {
    d.value_counts[id] = c.value_count;
    d.null_value_counts[id] = c.null_value_count;
    if (c.lower_bound) d.lower_bounds[id] = *c.lower_bound;
    if (c.upper_bound) d.upper_bounds[id] = *c.upper_bound;
  }
  if (positions.size() == 1) d.referenced_data_file = positions.begin()->first;
  return d;
}

}  // namespace floe::iceberg
