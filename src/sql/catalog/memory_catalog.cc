#include "sql/catalog/memory_catalog.h"

#include <mutex>

#include "sql/catalog/table_scan.h"
#include "sql/execution/vector.h"

namespace floe::sql {
namespace {

// Rows [offset, offset + count) of a storage column.
formats::ColumnVector NullColumn(const formats::DataType& type, int64_t rows) {
  formats::ColumnVector out(type);
  for (int64_t i = 0; i < rows; ++i) out.AppendNull();
  return out;
}

class MemoryTableScan final : public TableScan {
 public:
  struct Split {
    size_t batch;
    int64_t offset;
    int64_t rows;
  };

  MemoryTableScan(std::vector<std::shared_ptr<const formats::ColumnBatch>> batches, std::vector<int> columns, int64_t split_rows)
      : batches_(std::move(batches)), columns_(std::move(columns)) {
    for (size_t b = 0; b < batches_.size(); ++b) {
      for (int64_t at = 0; at < batches_[b]->num_rows; at += split_rows) {
        splits_.push_back(Split{b, at, std::min(split_rows, batches_[b]->num_rows - at)});
      }
    }
    planned_.files_total = static_cast<int64_t>(batches_.size());
    planned_.row_groups_total = static_cast<int64_t>(splits_.size());
  }

  size_t split_count() const override { return splits_.size(); }

  Status ReadSplit(size_t index, const std::function<Status(formats::ColumnBatch&)>& sink) override {
    const Split& split = splits_.at(index);
    const formats::ColumnBatch& source = *batches_[split.batch];
    formats::ColumnBatch batch;
    batch.num_rows = split.rows;
    int64_t bytes = 0;
    for (int c : columns_) {
      batch.fields.push_back(source.fields[static_cast<size_t>(c)]);
      batch.columns.push_back(formats::SliceVector(source.columns[static_cast<size_t>(c)], split.offset, split.rows));
      bytes += static_cast<int64_t>(batch.columns.back().values.size());
    }
    {
      std::lock_guard lock(mutex_);
      read_.row_groups_read += 1;
      read_.rows_read += split.rows;
      read_.bytes_read += bytes;
      if (split.offset == 0) read_.files_read += 1;
    }
    return sink(batch);
  }

  ScanStats stats() const override {
    std::lock_guard lock(mutex_);
    ScanStats out = planned_;
    out.Add(read_);
    return out;
  }

  std::string Describe() const override { return fmt::format("memory table: {} splits", splits_.size()); }

 private:
  std::vector<std::shared_ptr<const formats::ColumnBatch>> batches_;
  std::vector<int> columns_;
  std::vector<Split> splits_;
  mutable std::mutex mutex_;
  ScanStats planned_;
  ScanStats read_;
};

}  // namespace

void MemoryCatalog::AddSchema(const std::string& schema) {
  std::unique_lock lock(*mutex_);
  schemas_[schema];
}

void MemoryCatalog::AddTable(CatalogTable table) {
  std::unique_lock lock(*mutex_);
  table.name.catalog = catalog_name_;
  std::string schema = table.name.schema, name = table.name.table;
  schemas_[schema][name] = StoredTable{std::make_shared<const CatalogTable>(std::move(table)), {}};
}

std::vector<std::string> MemoryCatalog::CatalogNames() const { return {catalog_name_}; }

Result<std::vector<std::string>> MemoryCatalog::SchemaNames(std::string_view catalog) const {
  if (catalog != catalog_name_) return CodedError(ErrorCode::kNoSuchCatalog, "Catalog '{}' does not exist", catalog);
  std::shared_lock lock(*mutex_);
  std::vector<std::string> out;
  for (const auto& [name, tables] : schemas_) out.push_back(name);
  return out;
}

Result<std::vector<std::string>> MemoryCatalog::TableNames(std::string_view catalog, std::string_view schema) const {
  if (catalog != catalog_name_) return CodedError(ErrorCode::kNoSuchCatalog, "Catalog '{}' does not exist", catalog);
  std::shared_lock lock(*mutex_);
  auto it = schemas_.find(std::string(schema));
  if (it == schemas_.end()) return CodedError(ErrorCode::kNoSuchNamespace, "Schema '{}' does not exist", schema);
  std::vector<std::string> out;
  for (const auto& [name, table] : it->second) out.push_back(name);
  return out;
}

Result<const MemoryCatalog::StoredTable*> MemoryCatalog::Find(const QualifiedTableName& name) const {
  if (name.catalog != catalog_name_) return CodedError(ErrorCode::kNoSuchCatalog, "Catalog '{}' does not exist", name.catalog);
  auto schema = schemas_.find(name.schema);
  if (schema == schemas_.end()) return CodedError(ErrorCode::kNoSuchNamespace, "Schema '{}' does not exist", name.schema);
  auto table = schema->second.find(name.table);
  if (table == schema->second.end()) return CodedError(ErrorCode::kNoSuchTable, "Table '{}' does not exist", name.ToString());
  return &table->second;
}

Result<MemoryCatalog::StoredTable*> MemoryCatalog::Find(const QualifiedTableName& name) {
  FLOE_ASSIGN_OR_RETURN(const StoredTable* found, static_cast<const MemoryCatalog*>(this)->Find(name));
  return const_cast<StoredTable*>(found);
}

Result<std::shared_ptr<const CatalogTable>> MemoryCatalog::GetTable(const QualifiedTableName& name, const TableVersion& version) const {
  std::shared_lock lock(*mutex_);
  FLOE_ASSIGN_OR_RETURN(const StoredTable* stored, Find(name));
  (void)version;  // Every version of an in-memory table has its one schema.
  return stored->table;
}

Result<std::shared_ptr<const CatalogTable>> MemoryCatalog::GetTableAt(std::string_view location, const TableVersion& version) const {
  std::shared_lock lock(*mutex_);
  for (const auto& [schema_name, tables] : schemas_) {
    for (const auto& [table_name, stored] : tables) {
      if (!stored.table->location.empty() && stored.table->location == location) return stored.table;
    }
  }
  (void)version;
  return NotFound("No table at '{}'", location);
}

Result<std::unique_ptr<TableScan>> MemoryCatalog::OpenScan(const ScanRequest& request) const {
  if (!request.metadata_table.empty()) {
    return NotImplemented("metadata table ${} needs an Iceberg catalog (floe sql --catalog)", request.metadata_table);
  }
  if (request.version.kind != TableVersion::Kind::kCurrent) return NotImplemented("time travel needs an Iceberg catalog");
  std::shared_lock lock(*mutex_);
  FLOE_ASSIGN_OR_RETURN(const StoredTable* stored, Find(request.table->name));
  for (int c : request.columns) {
    if (c < 0 || static_cast<size_t>(c) >= stored->table->columns.size()) return InvalidArgument("scan of column {} out of range", c);
  }
  return std::unique_ptr<TableScan>(std::make_unique<MemoryTableScan>(stored->batches, request.columns, split_rows_));
}

Status MemoryCatalog::CreateSchema(std::string_view catalog, std::string_view schema) {
  if (catalog != catalog_name_) return CodedError(ErrorCode::kNoSuchCatalog, "Catalog '{}' does not exist", catalog);
  std::unique_lock lock(*mutex_);
  if (schemas_.contains(std::string(schema))) return AlreadyExists("Schema '{}.{}' already exists", catalog, schema);
  schemas_[std::string(schema)];
  return OkStatus();
}

Status MemoryCatalog::DropSchema(std::string_view catalog, std::string_view schema) {
  if (catalog != catalog_name_) return CodedError(ErrorCode::kNoSuchCatalog, "Catalog '{}' does not exist", catalog);
  std::unique_lock lock(*mutex_);
  auto it = schemas_.find(std::string(schema));
  if (it == schemas_.end()) return CodedError(ErrorCode::kNoSuchNamespace, "Schema '{}.{}' does not exist", catalog, schema);
  auto views = views_.find(std::string(schema));
  if (!it->second.empty() || (views != views_.end() && !views->second.empty())) {
    return InvalidArgument("Cannot drop non-empty schema '{}'", schema);
  }
  schemas_.erase(it);
  return OkStatus();
}

Status MemoryCatalog::CreateTable(const TableDefinition& definition) {
  const QualifiedTableName& name = definition.name;
  if (name.catalog != catalog_name_) return CodedError(ErrorCode::kNoSuchCatalog, "Catalog '{}' does not exist", name.catalog);
  std::unique_lock lock(*mutex_);
  auto schema = schemas_.find(name.schema);
  if (schema == schemas_.end()) return CodedError(ErrorCode::kNoSuchNamespace, "Schema '{}' does not exist", name.schema);
  if (schema->second.contains(name.table)) return AlreadyExists("Table '{}' already exists", name.ToString());
  if (views_[name.schema].contains(name.table)) return AlreadyExists("View '{}' already exists", name.ToString());
  for (const auto& c : definition.columns) FLOE_RETURN_IF_ERROR(StorageDataType(c.type));
  CatalogTable table;
  table.name = name;
  table.columns = definition.columns;
  int32_t field_id = 1;
  for (auto& c : table.columns) c.field_id = field_id++;
  for (const auto& p : definition.partition_by) table.partition_columns.push_back(p);
  table.properties = definition.properties;
  table.estimated_rows = 0;
  schema->second[name.table] = StoredTable{std::make_shared<const CatalogTable>(std::move(table)), {}};
  return OkStatus();
}

Result<std::vector<std::string>> MemoryCatalog::ViewNames(std::string_view catalog, std::string_view schema) const {
  FLOE_RETURN_IF_ERROR(TableNames(catalog, schema));  // The schema's errors.
  std::shared_lock lock(*mutex_);
  std::vector<std::string> out;
  auto it = views_.find(std::string(schema));
  if (it != views_.end()) {
    for (const auto& [name, view] : it->second) out.push_back(name);
  }
  return out;
}

Result<std::shared_ptr<const CatalogView>> MemoryCatalog::GetView(const QualifiedTableName& name) const {
  std::shared_lock lock(*mutex_);
  auto schema = views_.find(name.schema);
  if (name.catalog != catalog_name_ || schema == views_.end() || !schema->second.contains(name.table)) {
    return CodedError(ErrorCode::kNoSuchView, "View '{}' does not exist", name.ToString());
  }
  return schema->second.at(name.table);
}

Status MemoryCatalog::CreateView(const ViewDefinition& definition) {
  const QualifiedTableName& name = definition.view.name;
  if (name.catalog != catalog_name_)
    return CodedError(ErrorCode::kNoSuchCatalog, "Catalog '{}' does not exist", name.catalog);
  std::unique_lock lock(*mutex_);
  auto schema = schemas_.find(name.schema);
  if (schema == schemas_.end())
    return CodedError(ErrorCode::kNoSuchNamespace, "Schema '{}' does not exist", name.schema);
  if (schema->second.contains(name.table)) return AlreadyExists("Table '{}' already exists", name.ToString());
  auto& views = views_[name.schema];
  if (views.contains(name.table) && !definition.replace)
    return AlreadyExists("View '{}' already exists", name.ToString());
  views[name.table] = std::make_shared<const CatalogView>(definition.view);
  return OkStatus();
}

Status MemoryCatalog::DropView(const QualifiedTableName& name) {
  std::unique_lock lock(*mutex_);
  auto schema = views_.find(name.schema);
  if (name.catalog != catalog_name_ || schema == views_.end() || schema->second.erase(name.table) == 0) {
    return CodedError(ErrorCode::kNoSuchView, "View '{}' does not exist", name.ToString());
  }
  return OkStatus();
}

Status MemoryCatalog::DropTable(const QualifiedTableName& name) {
  std::unique_lock lock(*mutex_);
  FLOE_RETURN_IF_ERROR(Find(name));
  schemas_[name.schema].erase(name.table);
  return OkStatus();
}

Status MemoryCatalog::AlterTable(const QualifiedTableName& name, const TableChange& change) {
  std::unique_lock lock(*mutex_);
  FLOE_ASSIGN_OR_RETURN(StoredTable* stored, Find(name));
  CatalogTable table = *stored->table;
  std::vector<std::shared_ptr<const formats::ColumnBatch>> batches;
  auto index_of = [&](const std::string& column) -> int {
    for (size_t i = 0; i < table.columns.size(); ++i) {
      if (table.columns[i].name == column) return static_cast<int>(i);
    }
    return -1;
  };
  switch (change.kind) {
    case TableChange::Kind::kAddColumn: {
      if (index_of(change.column.name) >= 0) return AlreadyExists("Column '{}' already exists", change.column.name);
      FLOE_ASSIGN_OR_RETURN(auto type, StorageDataType(change.column.type));
      int32_t field_id = 1;
      for (const auto& c : table.columns) field_id = std::max(field_id, c.field_id + 1);
      TableColumn column = change.column;
      column.nullable = true;
      column.field_id = field_id;
      table.columns.push_back(column);
      for (const auto& b : stored->batches) {
        auto copy = std::make_shared<formats::ColumnBatch>(*b);
        copy->fields.push_back(formats::Field{column.name, field_id, true, type});
        copy->columns.push_back(NullColumn(type, b->num_rows));
        batches.push_back(std::move(copy));
      }
      break;
    }
    case TableChange::Kind::kDropColumn: {
      int index = index_of(change.name);
      if (index < 0) return CodedError(ErrorCode::kNoSuchColumn, "Column '{}' does not exist", change.name);
      if (table.columns.size() == 1) return InvalidArgument("Cannot drop the only column in a table");
      table.columns.erase(table.columns.begin() + index);
      for (const auto& b : stored->batches) {
        auto copy = std::make_shared<formats::ColumnBatch>(*b);
        copy->fields.erase(copy->fields.begin() + index);
        copy->columns.erase(copy->columns.begin() + index);
        batches.push_back(std::move(copy));
      }
      break;
    }
    case TableChange::Kind::kRenameColumn: {
      int index = index_of(change.name);
      if (index < 0) return CodedError(ErrorCode::kNoSuchColumn, "Column '{}' does not exist", change.name);
      if (index_of(change.new_name) >= 0) return AlreadyExists("Column '{}' already exists", change.new_name);
      table.columns[static_cast<size_t>(index)].name = change.new_name;
      for (const auto& b : stored->batches) {
        auto copy = std::make_shared<formats::ColumnBatch>(*b);
        copy->fields[static_cast<size_t>(index)].name = change.new_name;
        batches.push_back(std::move(copy));
      }
      break;
    }
  }
  stored->table = std::make_shared<const CatalogTable>(std::move(table));
  stored->batches = std::move(batches);
  return OkStatus();
}

Result<int64_t> MemoryCatalog::AppendRows(const QualifiedTableName& name, std::vector<formats::ColumnBatch> batches) {
  std::unique_lock lock(*mutex_);
  FLOE_ASSIGN_OR_RETURN(StoredTable* stored, Find(name));
  const auto& columns = stored->table->columns;
  int64_t rows = 0;
  for (const auto& b : batches) {
    if (b.columns.size() != columns.size()) {
      return InvalidArgument("append to {}: batch has {} columns, the table {}", name.ToString(), b.columns.size(), columns.size());
    }
    for (size_t i = 0; i < columns.size(); ++i) {
      FLOE_ASSIGN_OR_RETURN(auto type, StorageDataType(columns[i].type));
      if (b.columns[i].type().id != type.id || b.columns[i].length != b.num_rows) {
        return InvalidArgument("append to {}: column {} has the wrong type or length", name.ToString(), columns[i].name);
      }
    }
    rows += b.num_rows;
  }
  for (auto& b : batches) {
    if (b.num_rows > 0) stored->batches.push_back(std::make_shared<const formats::ColumnBatch>(std::move(b)));
  }
  CatalogTable table = *stored->table;
  table.estimated_rows = table.estimated_rows.value_or(0) + rows;
  stored->table = std::make_shared<const CatalogTable>(std::move(table));
  return rows;
}

namespace {

// The rows of `batch` at `keep`, as a new batch of the same columns.
Result<std::shared_ptr<const formats::ColumnBatch>> KeepRows(const formats::ColumnBatch& batch,
                                                             const std::vector<TableColumn>& columns,
                                                             const std::vector<uint32_t>& keep) {
  auto kept = std::make_shared<formats::ColumnBatch>();
  kept->fields = batch.fields;
  kept->num_rows = static_cast<int64_t>(keep.size());
  for (size_t c = 0; c < columns.size(); ++c) {
    FLOE_ASSIGN_OR_RETURN(VectorPtr exec, FromStorage(formats::ColumnVector(batch.columns[c]), columns[c].type));
    VectorPtr rows = Gather(*exec, keep.data(), static_cast<int64_t>(keep.size()));
    FLOE_ASSIGN_OR_RETURN(formats::ColumnVector stored_form, ToStorage(*rows, columns[c].type));
    kept->columns.push_back(std::move(stored_form));
  }
  return kept;
}

// Rows a statement adds must be typed as the table stores its columns.
Status CheckStoredForm(const QualifiedTableName& name, const std::vector<TableColumn>& columns,
                       const formats::ColumnBatch& b) {
  if (b.columns.size() != columns.size()) {
    return InvalidArgument("write to {}: {} columns given, the table has {}", name.ToString(), b.columns.size(),
                           columns.size());
  }
  for (size_t i = 0; i < columns.size(); ++i) {
    FLOE_ASSIGN_OR_RETURN(auto type, StorageDataType(columns[i].type));
    if (b.columns[i].type().id != type.id || b.columns[i].length != b.num_rows) {
      return InvalidArgument("write to {}: column {} has the wrong type or length", name.ToString(), columns[i].name);
    }
  }
  return OkStatus();
}

}  // namespace

Result<MemoryCatalog::Snapshot> MemoryCatalog::Read(const QualifiedTableName& name) const {
  std::shared_lock lock(*mutex_);
  FLOE_ASSIGN_OR_RETURN(const StoredTable* stored, Find(name));
  return Snapshot{stored->table, stored->batches};
}

Result<MemoryCatalog::StoredTable*> MemoryCatalog::Unchanged(const QualifiedTableName& name, const Snapshot& read) {
  FLOE_ASSIGN_OR_RETURN(StoredTable * stored, Find(name));
  if (stored->table != read.table || stored->batches != read.batches) {
    return Conflict("{} changed while the statement ran; run it again", name.ToString());
  }
  return stored;
}

Result<int64_t> MemoryCatalog::DeleteRows(const QualifiedTableName& name, const ScanPredicate&, bool,
                                          const RowSelector& select) {
  FLOE_ASSIGN_OR_RETURN(Snapshot read, Read(name));
  const auto& columns = read.table->columns;
  // Built aside and swapped in at the end, so a failing selector leaves the table as it was.
  std::vector<std::shared_ptr<const formats::ColumnBatch>> kept_batches;
  int64_t deleted = 0;
  for (const auto& batch : read.batches) {
    FLOE_ASSIGN_OR_RETURN(std::vector<uint8_t> flags, select(*batch));
    if (flags.size() != static_cast<size_t>(batch->num_rows)) {
      return Internal("delete from {}: {} flags for {} rows", name.ToString(), flags.size(), batch->num_rows);
    }
    std::vector<uint32_t> keep;
    for (size_t r = 0; r < flags.size(); ++r) {
      if (!flags[r]) keep.push_back(static_cast<uint32_t>(r));
    }
    deleted += batch->num_rows - static_cast<int64_t>(keep.size());
    if (keep.size() == flags.size()) {
      kept_batches.push_back(batch);
      continue;
    }
    if (keep.empty()) continue;
    FLOE_ASSIGN_OR_RETURN(auto kept, KeepRows(*batch, columns, keep));
    kept_batches.push_back(std::move(kept));
  }
  std::unique_lock lock(*mutex_);
  FLOE_ASSIGN_OR_RETURN(StoredTable * stored, Unchanged(name, read));
  stored->batches = std::move(kept_batches);
  CatalogTable table = *stored->table;
  table.estimated_rows = std::max<int64_t>(0, table.estimated_rows.value_or(0) - deleted);
  stored->table = std::make_shared<const CatalogTable>(std::move(table));
  return deleted;
}

Status MemoryCatalog::RewriteRows(const QualifiedTableName& name, const ScanPredicate&, std::string_view,
                                  const RowRewriter& rewrite, const RowAppender& append) {
  FLOE_ASSIGN_OR_RETURN(Snapshot read, Read(name));
  const auto& columns = read.table->columns;
  // Built aside and swapped in at the end, so a failing statement leaves the table as it was.
  std::vector<std::shared_ptr<const formats::ColumnBatch>> batches;
  int64_t rows = 0;
  auto add = [&](formats::ColumnBatch&& b) -> Status {
    FLOE_RETURN_IF_ERROR(CheckStoredForm(name, columns, b));
    if (b.num_rows == 0) return OkStatus();
    if (b.fields.empty()) {
      for (size_t i = 0; i < columns.size(); ++i) {
        b.fields.push_back(
            formats::Field{columns[i].name, columns[i].field_id, columns[i].nullable, b.columns[i].type()});
      }
    }
    rows += b.num_rows;
    batches.push_back(std::make_shared<const formats::ColumnBatch>(std::move(b)));
    return OkStatus();
  };
  for (const auto& batch : read.batches) {
    FLOE_ASSIGN_OR_RETURN(RowChanges changes, rewrite(*batch));
    if (changes.remove.size() != static_cast<size_t>(batch->num_rows)) {
      return Internal("{}: {} flags for {} rows", name.ToString(), changes.remove.size(), batch->num_rows);
    }
    std::vector<uint32_t> keep;
    for (size_t r = 0; r < changes.remove.size(); ++r) {
      if (!changes.remove[r]) keep.push_back(static_cast<uint32_t>(r));
    }
    if (keep.size() == changes.remove.size()) {
      batches.push_back(batch);
      rows += batch->num_rows;
    } else if (!keep.empty()) {
      FLOE_ASSIGN_OR_RETURN(auto kept, KeepRows(*batch, columns, keep));
      rows += kept->num_rows;
      batches.push_back(std::move(kept));
    }
    for (formats::ColumnBatch& b : changes.added) FLOE_RETURN_IF_ERROR(add(std::move(b)));
  }
  if (append) {
    FLOE_ASSIGN_OR_RETURN(std::vector<formats::ColumnBatch> appended, append());
    for (formats::ColumnBatch& b : appended) FLOE_RETURN_IF_ERROR(add(std::move(b)));
  }
  std::unique_lock lock(*mutex_);
  FLOE_ASSIGN_OR_RETURN(StoredTable * stored, Unchanged(name, read));
  stored->batches = std::move(batches);
  CatalogTable table = *stored->table;
  table.estimated_rows = rows;
  stored->table = std::make_shared<const CatalogTable>(std::move(table));
  return OkStatus();
}

Result<std::string> MemoryCatalog::ExecuteProcedure(const QualifiedTableName& name, std::string_view procedure,
                                                     const std::map<std::string, Value>& arguments) {
  std::unique_lock lock(*mutex_);
  FLOE_ASSIGN_OR_RETURN(StoredTable* stored, Find(name));
  if (procedure == "optimize") {
    // Compacts the table's batches into one.
    size_t before = stored->batches.size();
    if (before > 1) {
      formats::ColumnBatch merged;
      merged.fields = stored->batches[0]->fields;
      for (size_t c = 0; c < merged.fields.size(); ++c) {
        formats::ColumnVector column(merged.fields[c].type);
        if (column.offsets.empty() && column.type().HasOffsets()) column.offsets.push_back(0);
        for (const auto& b : stored->batches) {
          const auto& v = b->columns[c];
          if (!v.validity.empty() || !column.validity.empty()) {
            if (column.validity.empty()) column.validity.assign(static_cast<size_t>(column.length), 1);
            if (v.validity.empty()) {
              column.validity.insert(column.validity.end(), static_cast<size_t>(v.length), 1);
            } else {
              column.validity.insert(column.validity.end(), v.validity.begin(), v.validity.end());
            }
          }
          if (v.type().HasOffsets()) {
            int32_t base = static_cast<int32_t>(column.values.size());
            for (int64_t i = 1; i <= v.length; ++i) column.offsets.push_back(base + v.offsets[static_cast<size_t>(i)]);
          }
          column.values.Append(v.values.data(), v.values.size());
          column.length += v.length;
        }
        merged.columns.push_back(std::move(column));
      }
      for (const auto& b : stored->batches) merged.num_rows += b->num_rows;
      stored->batches = {std::make_shared<const formats::ColumnBatch>(std::move(merged))};
    }
    return fmt::format("optimize: {} batches rewritten into {}", before, stored->batches.size());
  }
  if (procedure == "expire_snapshots" || procedure == "remove_orphan_files" || procedure == "optimize_manifests") {
    return fmt::format("{}: nothing to do for an in-memory table", procedure);
  }
  return NotImplemented("procedure {} is not supported", procedure);
}

}  // namespace floe::sql
