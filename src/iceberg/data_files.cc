#include "iceberg/data_files.h"

#include <algorithm>
#include <map>
#include <set>
#include <unordered_set>

#include "formats/parquet/file_reader.h"
#include "formats/parquet/file_writer.h"
#include "iceberg/batch_conversion.h"
#include "iceberg/deletion_vector_file.h"
#include "iceberg/integer_key_set.h"
#include "iceberg/partition_split.h"
#include "iceberg/schema_json.h"

namespace floe::iceberg {
namespace {

using formats::ColumnBatch;
using formats::ColumnVector;

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

// The keys of one equality delete file: one integer column (the common upsert key) as numbers,
// any other key as the concatenated AppendEqualityKeyPart of its columns.
struct EqualityDeleteKeys {
  std::vector<int32_t> ids;
  bool integer = false;
  IntegerKeySet integers;
  std::unordered_set<std::string> keys;
};

EqualityDeleteCache::EqualityDeleteCache() = default;
EqualityDeleteCache::~EqualityDeleteCache() = default;

Result<std::shared_ptr<const EqualityDeleteKeys>> EqualityDeleteCache::FindOrLoad(const std::string& path,
                                                                                   const Loader& load, bool wait) {
  std::shared_ptr<Entry> entry;
  {
    std::lock_guard lock(mutex_);
    auto& slot = entries_[path];
    if (!slot) slot = std::make_shared<Entry>();
    entry = slot;
  }
  std::unique_lock lock(entry->mutex, std::defer_lock);
  if (wait) {
    lock.lock();
  } else if (!lock.try_lock()) {
    return nullptr;
  }
  if (!entry->keys) {
    FLOE_ASSIGN_OR_RETURN(entry->keys, load());
  }
  return entry->keys;
}

namespace {

// Appends one column's value of an equality key: a null flag, then the Appendix D binary form
// after its length, so that concatenated parts never run into each other.
void AppendEqualityKeyPart(std::string* key, const Literal& value, const Type& type) {
  if (value.is_null()) {
    key->push_back('\0');
    return;
  }
  key->push_back('\1');
  std::string bytes = ToBinary(type, value);
  uint32_t size = static_cast<uint32_t>(bytes.size());
  key->append(reinterpret_cast<const char*>(&size), sizeof size);
  key->append(bytes);
}

bool IsIntegerType(const Type* type) { return type && (type->id() == TypeId::kInt || type->id() == TypeId::kLong); }

// Row `row` of an int32 or int64 vector as a 64-bit integer; false when null or not an integer vector.
bool IntegerAt(const formats::ColumnVector& v, int64_t row, int64_t* out) {
  if (!v.IsValid(row)) return false;
  switch (v.type().id) {
    case formats::TypeId::kInt64:
      *out = v.Data<int64_t>()[row];
      return true;
    case formats::TypeId::kInt32:
      *out = v.Data<int32_t>()[row];
      return true;
    default:
      return false;
  }
}

// Deleted positions of `path` and equality-delete keys that apply to a task.
struct TaskDeletes {
  std::set<int64_t> positions;
  using Equality = EqualityDeleteKeys;
  std::vector<std::shared_ptr<const Equality>> equalities;
};

// Marks the rows of `keys` (one integer key column without nulls) that `eq` deletes, in one
// loop over the column's values; false, marking nothing, when the column is of another form.
bool MarkIntegerKeys(const formats::ColumnVector& keys, const EqualityDeleteKeys& eq, std::vector<uint8_t>* deleted) {
  const size_t rows = deleted->size();
  if (!keys.validity.empty() || static_cast<size_t>(keys.length) != rows) return false;
  switch (keys.type().id) {
    case formats::TypeId::kInt64:
      eq.integers.MarkContained(keys.Data<int64_t>(), rows, deleted->data());
      return true;
    case formats::TypeId::kInt32:
      eq.integers.MarkContained(keys.Data<int32_t>(), rows, deleted->data());
      return true;
    default:
      return false;
  }
}

// The keys of one equality delete file.
Result<std::shared_ptr<const EqualityDeleteKeys>> LoadEqualityDeleteKeys(Table& table, const DataFile& del,
                                                                         const Schema& schema) {
  FLOE_ASSIGN_OR_RETURN(std::string location, table.ops().KeyForLocation(del.file_path));
  FLOE_ASSIGN_OR_RETURN(auto input, table.ops().store().OpenInput(location));
  FLOE_ASSIGN_OR_RETURN(auto batches, ReadParquetFile(std::move(input)));
  EqualityDeleteKeys eq;
  eq.ids = del.equality_ids;
  if (eq.ids.empty()) return Corruption("{}: equality delete file without equality_ids", del.file_path);
  const NestedField* only = eq.ids.size() == 1 ? schema.FindField(eq.ids[0]) : nullptr;
  eq.integer = only && IsIntegerType(only->type.get());
  std::vector<int64_t> integers;  // The set is built once it knows all of them (dense keys: a bitmap).
  if (eq.integer) integers.reserve(static_cast<size_t>(std::max<int64_t>(0, del.record_count)));
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
    std::string key;
    for (int64_t r = 0; r < b.num_rows; ++r) {
      if (eq.integer) {
        // A null key deletes nothing of an integer column's non-null values; nulls are kept apart.
        int64_t value = 0;
        if (IntegerAt(b.columns[cols[0]], r, &value)) {
          integers.push_back(value);
          continue;
        }
        Literal v = LiteralAt(b.columns[cols[0]], r, *types[0]->type);
        if (!v.is_null()) {
          integers.push_back(v.as_long());
          continue;
        }
        key.clear();
        AppendEqualityKeyPart(&key, v, *types[0]->type);
        eq.keys.insert(key);
        continue;
      }
      key.clear();
      for (size_t j = 0; j < cols.size(); ++j) {
        AppendEqualityKeyPart(&key, LiteralAt(b.columns[cols[j]], r, *types[j]->type), *types[j]->type);
      }
      eq.keys.insert(key);
    }
  }
  eq.integers = IntegerKeySet(std::move(integers));
  return std::make_shared<const EqualityDeleteKeys>(std::move(eq));
}

}  // namespace

namespace {

// Reads the position delete file `delete_file` and hands each batch to `visit` with the
// indexes of its file_path and pos columns.
Status ForEachPositionDeleteBatch(Table& table, const DataFile& delete_file,
                                  const std::function<void(const ColumnBatch&, size_t path, size_t pos)>& visit) {
  FLOE_ASSIGN_OR_RETURN(std::string key, table.ops().KeyForLocation(delete_file.file_path));
  FLOE_ASSIGN_OR_RETURN(auto input, table.ops().store().OpenInput(key));
  FLOE_ASSIGN_OR_RETURN(auto batches, ReadParquetFile(std::move(input)));
  for (const ColumnBatch& b : batches) {
    int path_col = -1, pos_col = -1;
    for (size_t i = 0; i < b.fields.size(); ++i) {
      if (b.fields[i].id == kDeleteFilePathId || (b.fields[i].id < 0 && b.fields[i].name == "file_path"))
        path_col = static_cast<int>(i);
      if (b.fields[i].id == kDeletePosId || (b.fields[i].id < 0 && b.fields[i].name == "pos"))
        pos_col = static_cast<int>(i);
    }
    if (path_col < 0 || pos_col < 0)
      return Corruption("{}: position delete file without file_path/pos", delete_file.file_path);
    visit(b, static_cast<size_t>(path_col), static_cast<size_t>(pos_col));
  }
  return OkStatus();
}

}  // namespace

Result<std::vector<int64_t>> ReadPositionDeletes(Table& table, const DataFile& delete_file,
                                                 std::string_view data_path) {
  std::vector<int64_t> positions;
  FLOE_RETURN_IF_ERROR(
      ForEachPositionDeleteBatch(table, delete_file, [&](const ColumnBatch& b, size_t path_col, size_t pos_col) {
        for (int64_t r = 0; r < b.num_rows; ++r) {
          if (b.columns[path_col].StringAt(r) == data_path) {
            positions.push_back(LiteralAt(b.columns[pos_col], r, *Type::Primitive(TypeId::kLong)).as_long());
          }
        }
      }));
  std::sort(positions.begin(), positions.end());
  return positions;
}

Result<std::set<std::string>> PositionDeletePaths(Table& table, const DataFile& delete_file) {
  std::set<std::string> paths;
  FLOE_RETURN_IF_ERROR(
      ForEachPositionDeleteBatch(table, delete_file, [&](const ColumnBatch& b, size_t path_col, size_t) {
        for (int64_t r = 0; r < b.num_rows; ++r) paths.emplace(b.columns[path_col].StringAt(r));
      }));
  return paths;
}

namespace {

Result<TaskDeletes> LoadDeletes(Table& table, const FileScanTask& task, const Schema& schema,
                                EqualityDeleteCache* cache) {
  TaskDeletes out;
  // Equality delete files another thread is loading are waited for last: the tasks of one scan
  // share most of their delete files, so the threads load different ones side by side.
  std::vector<const DataFile*> loading_elsewhere;
  for (const DataFile& del : task.deletes) {
    if (del.content == FileContent::kEqualityDeletes) {
      auto load = [&] { return LoadEqualityDeleteKeys(table, del, schema); };
      FLOE_ASSIGN_OR_RETURN(auto keys, cache ? cache->FindOrLoad(del.file_path, load, /*wait=*/false) : load());
      if (keys) {
        out.equalities.push_back(std::move(keys));
      } else {
        loading_elsewhere.push_back(&del);
      }
      continue;
    }
    if (del.is_deletion_vector()) {
      FLOE_ASSIGN_OR_RETURN(std::vector<int64_t> positions, ReadDeletionVector(table, del, task.file));
      out.positions.insert(positions.begin(), positions.end());
      continue;
    }
    FLOE_ASSIGN_OR_RETURN(std::vector<int64_t> positions, ReadPositionDeletes(table, del, task.file.file_path));
    out.positions.insert(positions.begin(), positions.end());
  }
  for (const DataFile* del : loading_elsewhere) {
    auto load = [&] { return LoadEqualityDeleteKeys(table, *del, schema); };
    FLOE_ASSIGN_OR_RETURN(auto keys, cache->FindOrLoad(del->file_path, load));
    out.equalities.push_back(std::move(keys));
  }
  return out;
}

}  // namespace

Status ReadTask(Table& table, const FileScanTask& task, const Schema& schema, const TaskBatchFn& fn,
                EqualityDeleteCache* cache) {
  return ReadTaskRows(table, task, schema, [&](ColumnBatch& b, const std::vector<int>& columns,
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
  }, cache);
}

Status ReadTaskRows(Table& table, const FileScanTask& task, const Schema& schema, const TaskRowsFn& fn,
                    EqualityDeleteCache* cache) {
  if (task.file.file_format != "PARQUET" && task.file.file_format != "parquet") {
    return NotImplemented("{}: {} data files are not supported", task.file.file_path, task.file.file_format);
  }
  FLOE_ASSIGN_OR_RETURN(TaskDeletes deletes, LoadDeletes(table, task, schema, cache));
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
      for (const auto& equality : deletes.equalities) {
        const TaskDeletes::Equality& eq = *equality;
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
        if (eq.integer && cols[0] >= 0 && MarkIntegerKeys(b.columns[cols[0]], eq, &deleted)) continue;
        std::string key;
        for (int64_t r = 0; r < b.num_rows; ++r) {
          if (deleted[static_cast<size_t>(r)]) continue;
          if (eq.integer && cols[0] >= 0) {
            int64_t value = 0;
            if (IntegerAt(b.columns[cols[0]], r, &value)) {
              if (eq.integers.Contains(value)) deleted[static_cast<size_t>(r)] = 1;
              continue;
            }
            Literal v = LiteralAt(b.columns[cols[0]], r, *types[0]);
            if (!v.is_null()) {
              if (eq.integers.Contains(v.as_long())) deleted[static_cast<size_t>(r)] = 1;
              continue;
            }
          }
          key.clear();
          for (size_t j = 0; j < cols.size(); ++j) {
            const Literal v = cols[j] < 0 || !types[j] ? Literal() : LiteralAt(b.columns[cols[j]], r, *types[j]);
            if (types[j]) {
              AppendEqualityKeyPart(&key, v, *types[j]);
            } else {
              key.push_back('\0');
            }
          }
          if (eq.keys.contains(key)) deleted[static_cast<size_t>(r)] = 1;
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
