#include "stream/source/upsert_batch.h"

#include <algorithm>
#include <cstring>

#include "iceberg/batch_conversion.h"
#include "iceberg/literal.h"

namespace floe::stream {

Result<UpsertBatch> UpsertBatch::Make(const iceberg::Schema& schema, std::vector<int32_t> key_ids) {
  if (key_ids.empty()) return InvalidArgument("an upsert needs at least one key column");
  for (int32_t id : key_ids) {
    bool top_level = std::any_of(schema.fields().begin(), schema.fields().end(),
                                 [id](const iceberg::NestedField& f) { return f.id == id; });
    if (!top_level) return InvalidArgument("key column id {} is not a top-level column of the table", id);
  }
  return UpsertBatch(schema, std::move(key_ids));
}

Result<std::vector<int>> UpsertBatch::KeyColumns(const formats::ColumnBatch& batch) const {
  std::vector<int> out;
  for (int32_t id : key_ids_) {
    int column = -1;
    for (size_t i = 0; i < batch.fields.size(); ++i) {
      if (batch.fields[i].id == id) column = static_cast<int>(i);
    }
    if (column < 0) return Internal("decoded rows lack key column {}", schema_.FindColumnName(id));
    out.push_back(column);
  }
  return out;
}

Status UpsertBatch::AddChanges(const formats::ColumnBatch& batch, const std::vector<int>& key_columns,
                               const std::vector<size_t>& records, bool is_delete, uint32_t batch_index,
                               std::vector<RecordError>* bad) {
  if (records.size() != static_cast<size_t>(batch.num_rows)) {
    return Internal("{} rows but {} record indexes", batch.num_rows, records.size());
  }
  std::vector<const iceberg::Type*> types;
  for (int32_t id : key_ids_) types.push_back(schema_.FindField(id)->type.get());
  std::string key;
  for (int64_t row = 0; row < batch.num_rows; ++row) {
    key.clear();
    const iceberg::NestedField* null_column = nullptr;
    for (size_t k = 0; k < key_columns.size(); ++k) {
      iceberg::Literal value = iceberg::LiteralAt(batch.columns[static_cast<size_t>(key_columns[k])], row, *types[k]);
      if (value.is_null()) {
        null_column = schema_.FindField(key_ids_[k]);
        break;
      }
      std::string bytes = iceberg::ToBinary(*types[k], value);
      uint32_t size = static_cast<uint32_t>(bytes.size());
      key.append(reinterpret_cast<const char*>(&size), sizeof size);
      key += bytes;
    }
    const size_t record = records[static_cast<size_t>(row)];
    if (null_column) {
      bad->emplace_back(record, fmt::format("key column '{}' is missing or null", null_column->name));
      continue;
    }
    Change change{record, batch_index, static_cast<uint32_t>(row), is_delete};
    auto [it, inserted] = latest_.try_emplace(key, change);
    if (!inserted && it->second.record <= record) it->second = change;
  }
  return OkStatus();
}

Status UpsertBatch::AddRows(formats::ColumnBatch rows, const std::vector<size_t>& record_of_row,
                            std::vector<RecordError>* bad) {
  if (rows.num_rows == 0) return OkStatus();
  FLOE_ASSIGN_OR_RETURN(std::vector<int> key_columns, KeyColumns(rows));
  FLOE_RETURN_IF_ERROR(AddChanges(rows, key_columns, record_of_row, false, static_cast<uint32_t>(rows_.size()), bad));
  rows_.push_back(std::move(rows));
  row_key_columns_.push_back(std::move(key_columns));
  return OkStatus();
}

Status UpsertBatch::AddDeletes(formats::ColumnBatch keys, const std::vector<size_t>& record_of_key,
                               std::vector<RecordError>* bad) {
  if (keys.num_rows == 0) return OkStatus();
  FLOE_ASSIGN_OR_RETURN(std::vector<int> key_columns, KeyColumns(keys));
  FLOE_RETURN_IF_ERROR(AddChanges(keys, key_columns, record_of_key, true, static_cast<uint32_t>(deletes_.size()), bad));
  deletes_.push_back(std::move(keys));
  delete_key_columns_.push_back(std::move(key_columns));
  return OkStatus();
}

namespace {

// The rows `rows` of `batch` (or of its columns `columns` only, when given).
formats::ColumnBatch Gather(const formats::ColumnBatch& batch, std::vector<uint32_t>& rows,
                            const std::vector<int>* columns) {
  std::sort(rows.begin(), rows.end());
  formats::ColumnBatch out;
  out.num_rows = static_cast<int64_t>(rows.size());
  if (columns == nullptr) {
    out.fields = batch.fields;
    for (const formats::ColumnVector& c : batch.columns)
      out.columns.push_back(formats::GatherRows(c, rows.data(), out.num_rows));
    return out;
  }
  for (int c : *columns) {
    out.fields.push_back(batch.fields[static_cast<size_t>(c)]);
    out.columns.push_back(formats::GatherRows(batch.columns[static_cast<size_t>(c)], rows.data(), out.num_rows));
  }
  return out;
}

}  // namespace

std::vector<formats::ColumnBatch> UpsertBatch::WinningRows() const {
  std::vector<std::vector<uint32_t>> winners(rows_.size());
  for (const auto& [key, change] : latest_) {
    if (!change.is_delete) winners[change.batch].push_back(change.row);
  }
  std::vector<formats::ColumnBatch> out;
  for (size_t b = 0; b < rows_.size(); ++b) {
    if (!winners[b].empty()) out.push_back(Gather(rows_[b], winners[b], nullptr));
  }
  return out;
}

std::vector<formats::ColumnBatch> UpsertBatch::TouchedKeys() const {
  std::vector<std::vector<uint32_t>> from_rows(rows_.size()), from_deletes(deletes_.size());
  for (const auto& [key, change] : latest_) {
    (change.is_delete ? from_deletes : from_rows)[change.batch].push_back(change.row);
  }
  std::vector<formats::ColumnBatch> out;
  for (size_t b = 0; b < rows_.size(); ++b) {
    if (!from_rows[b].empty()) out.push_back(Gather(rows_[b], from_rows[b], &row_key_columns_[b]));
  }
  for (size_t b = 0; b < deletes_.size(); ++b) {
    if (!from_deletes[b].empty()) out.push_back(Gather(deletes_[b], from_deletes[b], &delete_key_columns_[b]));
  }
  return out;
}

}  // namespace floe::stream
