#include "sql/iceberg/iceberg_sql_catalog.h"

#include <chrono>
#include <map>

#include "base/units.h"
#include "iceberg/batch_conversion.h"
#include "iceberg/data_files.h"
#include "iceberg/delete_rows.h"
#include "iceberg/filesystem_catalog.h"
#include "iceberg/maintenance.h"
#include "iceberg/scan.h"
#include "iceberg/table.h"
#include "iceberg/table_statistics.h"
#include "sql/iceberg/compaction.h"
#include "sql/iceberg/column_statistics.h"
#include "sql/iceberg/file_caches.h"
#include "sql/iceberg/live_table_scan.h"
#include "sql/iceberg/log_tail.h"
#include "sql/iceberg/iceberg_table_scan.h"
#include "sql/iceberg/iceberg_types.h"
#include "sql/iceberg/metadata_table_scan.h"
#include "sql/iceberg/resolved_table.h"
#include "sql/iceberg/scan_columns.h"
#include "sql/iceberg/scan_filter.h"
#include "sql/catalog/table_scan.h"

namespace floe::sql::iceberg_sql {

// What the catalog shares between queries. The registry maps each CatalogTable handed to the
// binder to the resolved table it describes, so a scan reads exactly the metadata the query was
// bound against (entries die with their CatalogTable).
struct CatalogState {
  std::unique_ptr<TableDirectory> directory;
  std::shared_ptr<FileCaches> caches = std::make_shared<FileCaches>();
  LogTailCache tails;  // Fresh reads: the log tails of stream-fed tables.

  std::mutex mutex;
  struct Registered {
    std::weak_ptr<const CatalogTable> table;
    std::shared_ptr<const ResolvedTable> resolved;
  };
  std::map<const CatalogTable*, Registered> registry;                        // Guarded by mutex.
  std::map<std::string, std::shared_ptr<iceberg::TableOperations>> by_location;  // Guarded by mutex.

  std::shared_ptr<const CatalogTable> Register(CatalogTable table, std::shared_ptr<const ResolvedTable> resolved) {
    auto shared = std::make_shared<const CatalogTable>(std::move(table));
    std::lock_guard lock(mutex);
    for (auto it = registry.begin(); it != registry.end();) {
      it = it->second.table.expired() ? registry.erase(it) : std::next(it);
    }
    registry[shared.get()] = {shared, std::move(resolved)};
    return shared;
  }

  std::shared_ptr<const ResolvedTable> Lookup(const std::shared_ptr<const CatalogTable>& table) {
    std::lock_guard lock(mutex);
    auto it = registry.find(table.get());
    if (it == registry.end() || it->second.table.lock() != table) return nullptr;
    return it->second.resolved;
  }
};

namespace {

bool SameName(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
  }
  return true;
}

// '7d', '12h', '30m', '45s', '1500ms', a number of milliseconds, or an interval value.
Result<int64_t> DurationMs(const Value& v, std::string_view what) {
  if (v.is_null()) return InvalidArgument("{} must not be null", what);
  if (v.type().kind() == TypeKind::kIntervalDayTime) return v.as_int() / 1000;
  if (v.type().IsInteger()) return v.as_int();
  if (v.type().kind() != TypeKind::kVarchar) return InvalidArgument("{}: expected a duration such as '7d'", what);
  auto millis = ParseDurationMillis(v.as_string(), 1);
  if (!millis) return InvalidArgument("{}: {}", what, millis.error().message());
  return millis;
}

// '128MB', '1GB', '512kB', or a number of bytes.
Result<int64_t> SizeBytes(const Value& v, std::string_view what) {
  if (v.type().IsInteger()) return v.as_int();
  if (v.type().kind() != TypeKind::kVarchar) return InvalidArgument("{}: expected a size such as '128MB'", what);
  auto bytes = ParseDataSize(v.as_string());
  if (!bytes) return InvalidArgument("{}: {}", what, bytes.error().message());
  return bytes;
}

int64_t NowMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

}  // namespace

IcebergSqlCatalog::IcebergSqlCatalog(std::unique_ptr<TableDirectory> directory, std::string catalog_name)
    : catalog_name_(std::move(catalog_name)), state_(std::make_unique<CatalogState>()) {
  state_->directory = std::move(directory);
}

IcebergSqlCatalog::~IcebergSqlCatalog() = default;

Result<std::unique_ptr<IcebergSqlCatalog>> IcebergSqlCatalog::OpenService(const std::string& uri, const std::string& warehouse) {
  FLOE_ASSIGN_OR_RETURN(auto directory, OpenCatalogDirectory(uri, warehouse));
  return std::make_unique<IcebergSqlCatalog>(std::move(directory));
}

Result<std::unique_ptr<IcebergSqlCatalog>> IcebergSqlCatalog::OpenWarehouse(const std::string& uri) {
  FLOE_ASSIGN_OR_RETURN(auto directory, OpenWarehouseDirectory(uri));
  return std::make_unique<IcebergSqlCatalog>(std::move(directory));
}

Status IcebergSqlCatalog::CheckCatalog(std::string_view catalog) const {
  if (!SameName(catalog, catalog_name_)) return CodedError(ErrorCode::kNoSuchCatalog, "catalog '{}' does not exist", catalog);
  if (!state_->directory) return NotFound("no catalog or warehouse is configured (use iceberg_scan('location'))");
  return OkStatus();
}

std::vector<std::string> IcebergSqlCatalog::CatalogNames() const { return {catalog_name_}; }

Result<std::vector<std::string>> IcebergSqlCatalog::SchemaNames(std::string_view catalog) const {
  if (!SameName(catalog, catalog_name_)) return CodedError(ErrorCode::kNoSuchCatalog, "catalog '{}' does not exist", catalog);
  if (!state_->directory) return std::vector<std::string>{};
  return state_->directory->SchemaNames();
}

Result<std::vector<std::string>> IcebergSqlCatalog::TableNames(std::string_view catalog, std::string_view schema) const {
  FLOE_RETURN_IF_ERROR(CheckCatalog(catalog));
  return state_->directory->TableNames(std::string(schema));
}

Result<std::shared_ptr<const CatalogTable>> IcebergSqlCatalog::GetTable(const QualifiedTableName& name,
                                                                       const TableVersion& version) const {
  FLOE_RETURN_IF_ERROR(CheckCatalog(name.catalog));
  auto ops = state_->directory->Open(name.schema, name.table);
  if (!ops) {
    if (ops.error().kind() == ErrorKind::kNotFound) return CodedError(ErrorCode::kNoSuchTable, "table {} does not exist", name.ToString());
    return std::unexpected(ops.error());
  }
  FLOE_ASSIGN_OR_RETURN(auto resolved, ResolveTable(*ops, version));
  FLOE_ASSIGN_OR_RETURN(CatalogTable table, DescribeTable(*resolved, name));
  FLOE_RETURN_IF_ERROR(AddColumnStatistics(*resolved, *state_->caches, table));
  return state_->Register(std::move(table), std::move(resolved));
}

Result<std::shared_ptr<const CatalogTable>> IcebergSqlCatalog::GetTableAt(std::string_view location,
                                                                         const TableVersion& version) const {
  std::shared_ptr<iceberg::TableOperations> ops;
  {
    std::lock_guard lock(state_->mutex);
    auto it = state_->by_location.find(std::string(location));
    if (it != state_->by_location.end()) ops = it->second;
  }
  if (!ops) {
    FLOE_ASSIGN_OR_RETURN(ops, iceberg::OpenTableOperationsAt(location));
    std::lock_guard lock(state_->mutex);
    state_->by_location[std::string(location)] = ops;
  }
  FLOE_ASSIGN_OR_RETURN(auto resolved, ResolveTable(ops, version));
  std::string tail(location);
  while (!tail.empty() && tail.back() == '/') tail.pop_back();
  QualifiedTableName name{catalog_name_, "iceberg_scan", tail.substr(tail.rfind('/') == std::string::npos ? 0 : tail.rfind('/') + 1)};
  FLOE_ASSIGN_OR_RETURN(CatalogTable table, DescribeTable(*resolved, name));
  return state_->Register(std::move(table), std::move(resolved));
}

Result<std::unique_ptr<TableScan>> IcebergSqlCatalog::OpenScan(const ScanRequest& request) const {
  if (!request.table) return InvalidArgument("scan without a table");
  std::shared_ptr<const ResolvedTable> resolved = state_->Lookup(request.table);
  if (!resolved) {
    // A table description made elsewhere: resolve it again by name (or location).
    std::shared_ptr<const CatalogTable> again;
    if (request.table->name.schema == "iceberg_scan") {
      FLOE_ASSIGN_OR_RETURN(again, GetTableAt(request.table->location, request.version));
    } else {
      FLOE_ASSIGN_OR_RETURN(again, GetTable(request.table->name, request.version));
    }
    resolved = state_->Lookup(again);
    if (!resolved) return Internal("table {} did not resolve", request.table->name.ToString());
  }
  if (!request.metadata_table.empty()) return PlanMetadataScan(std::move(resolved), request, state_->caches);
  auto plan_snapshot = [&](const ScanRequest& r) { return PlanDataScan(resolved, r, state_->caches); };
  if (!WantsLiveScan(*resolved, request)) return plan_snapshot(request);
  return PlanLiveScan(plan_snapshot, *resolved, request, state_->tails);
}

Status IcebergSqlCatalog::CreateSchema(std::string_view catalog, std::string_view schema) {
  FLOE_RETURN_IF_ERROR(CheckCatalog(catalog));
  return state_->directory->CreateSchema(std::string(schema));
}

Status IcebergSqlCatalog::DropSchema(std::string_view catalog, std::string_view schema) {
  FLOE_RETURN_IF_ERROR(CheckCatalog(catalog));
  return state_->directory->DropSchema(std::string(schema));
}

namespace {

// The Iceberg fields of a new table's or view's columns: ids 1..n at the top, nested fields'
// ids after them.
Result<std::vector<iceberg::NestedField>> FieldsFor(const std::vector<TableColumn>& columns) {
  int32_t next_id = static_cast<int32_t>(columns.size()) + 1;
  std::vector<iceberg::NestedField> fields;
  for (size_t i = 0; i < columns.size(); ++i) {
    const TableColumn& c = columns[i];
    iceberg::NestedField f;
    f.id = static_cast<int32_t>(i) + 1;
    f.name = c.name;
    f.required = !c.nullable;
    FLOE_ASSIGN_OR_RETURN_CTX(f.type, IcebergTypeFor(c.type, &next_id), fmt::format("column {}", c.name));
    fields.push_back(std::move(f));
  }
  return fields;
}

}  // namespace

Status IcebergSqlCatalog::CreateTable(const TableDefinition& definition) {
  FLOE_RETURN_IF_ERROR(CheckCatalog(definition.name.catalog));
  FLOE_ASSIGN_OR_RETURN(std::vector<iceberg::NestedField> fields, FieldsFor(definition.columns));
  std::vector<int32_t> identifier_field_ids;
  for (const std::string& key : definition.identifier_columns) {
    auto column = std::find_if(fields.begin(), fields.end(), [&](const iceberg::NestedField& f) { return f.name == key; });
    if (column == fields.end()) return InvalidArgument("PRIMARY KEY column {} is not a column of the table", key);
    identifier_field_ids.push_back(column->id);
  }
  iceberg::Schema schema(0, std::move(fields), std::move(identifier_field_ids));
  FLOE_RETURN_IF_ERROR(schema.Validate());
  std::vector<iceberg::PartitionField> partition;
  int32_t field_id = iceberg::kFirstPartitionFieldId;
  for (const std::string& term : definition.partition_by) {
    FLOE_ASSIGN_OR_RETURN_CTX(iceberg::PartitionField pf, iceberg::ParsePartitionField(term, schema, field_id++),
                              fmt::format("PARTITIONED BY {}", term));
    partition.push_back(std::move(pf));
  }
  return state_->directory->CreateTable(definition.name.schema, definition.name.table, schema, partition,
                                        definition.properties);
}

Result<std::vector<std::string>> IcebergSqlCatalog::ViewNames(std::string_view catalog, std::string_view schema) const {
  FLOE_RETURN_IF_ERROR(CheckCatalog(catalog));
  return state_->directory->ViewNames(std::string(schema));
}

Result<std::shared_ptr<const CatalogView>> IcebergSqlCatalog::GetView(const QualifiedTableName& name) const {
  FLOE_RETURN_IF_ERROR(CheckCatalog(name.catalog));
  FLOE_ASSIGN_OR_RETURN(iceberg::ViewMetadata metadata, state_->directory->LoadView(name.schema, name.table));
  const iceberg::ViewVersion& version = metadata.CurrentVersion();
  auto view = std::make_shared<CatalogView>();
  view->name = name;
  if (const iceberg::ViewRepresentation* sql = version.SqlFor(kViewDialect)) view->sql = sql->sql;
  for (const iceberg::ViewRepresentation& r : version.representations) {
    if (r.type == "sql") view->dialects.push_back(r.dialect);
  }
  // floe serves one catalog: a default-catalog another engine wrote (its own name for this
  // catalog) is read as this one, and names qualified with it fail rather than resolve elsewhere.
  view->default_catalog = catalog_name_;
  if (version.default_namespace.size() > 1) {
    return NotImplemented("view {}: its default namespace has {} levels; floe's schemas have one", name.ToString(),
                          version.default_namespace.size());
  }
  view->default_schema = version.default_namespace.empty() ? name.schema : version.default_namespace[0];
  for (const iceberg::NestedField& f : metadata.CurrentSchema().fields()) {
    FLOE_ASSIGN_OR_RETURN_CTX(SqlType type, SqlTypeFor(*f.type),
                              fmt::format("view {} column {}", name.ToString(), f.name));
    view->columns.push_back(TableColumn{f.name, type, !f.required, f.id});
  }
  if (auto comment = metadata.properties.find("comment"); comment != metadata.properties.end())
    view->comment = comment->second;
  return std::shared_ptr<const CatalogView>(std::move(view));
}

Status IcebergSqlCatalog::CreateView(const ViewDefinition& definition) {
  const CatalogView& view = definition.view;
  FLOE_RETURN_IF_ERROR(CheckCatalog(view.name.catalog));
  if (state_->directory->Open(view.name.schema, view.name.table).has_value()) {
    return AlreadyExists("Table '{}' already exists", view.name.ToString());
  }
  FLOE_ASSIGN_OR_RETURN(std::vector<iceberg::NestedField> fields, FieldsFor(view.columns));
  iceberg::Schema schema(0, std::move(fields), {});
  FLOE_RETURN_IF_ERROR(schema.Validate());
  iceberg::ViewVersion version;
  version.version_id = 1;
  version.timestamp_ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
          .count();
  version.schema_id = -1;  // The schema this commit adds.
  version.summary["engine-name"] = "floe";
  version.representations.push_back(iceberg::ViewRepresentation{"sql", view.sql, std::string(kViewDialect)});
  version.default_namespace = {view.default_schema};
  std::map<std::string, std::string> properties;
  if (view.comment) properties["comment"] = *view.comment;
  return state_->directory->CreateView(view.name.schema, view.name.table, schema, version, properties,
                                       definition.replace);
}

Status IcebergSqlCatalog::DropView(const QualifiedTableName& name) {
  FLOE_RETURN_IF_ERROR(CheckCatalog(name.catalog));
  return state_->directory->DropView(name.schema, name.table);
}

Status IcebergSqlCatalog::DropTable(const QualifiedTableName& name) {
  FLOE_RETURN_IF_ERROR(CheckCatalog(name.catalog));
  return state_->directory->DropTable(name.schema, name.table);
}

Status IcebergSqlCatalog::AlterTable(const QualifiedTableName& name, const TableChange& change) {
  FLOE_RETURN_IF_ERROR(CheckCatalog(name.catalog));
  FLOE_ASSIGN_OR_RETURN(auto ops, state_->directory->Open(name.schema, name.table));
  FLOE_ASSIGN_OR_RETURN(auto table, iceberg::Table::Load(ops));
  iceberg::SchemaChange sc;
  switch (change.kind) {
    case TableChange::Kind::kAddColumn: {
      sc.kind = iceberg::SchemaChange::Kind::kAddColumn;
      sc.column = change.column.name;
      int32_t next_id = table->metadata().last_column_id + 1;
      FLOE_ASSIGN_OR_RETURN(sc.type, IcebergTypeFor(change.column.type, &next_id));
      break;
    }
    case TableChange::Kind::kDropColumn:
      sc.kind = iceberg::SchemaChange::Kind::kDropColumn;
      sc.column = change.name;
      break;
    case TableChange::Kind::kRenameColumn:
      sc.kind = iceberg::SchemaChange::Kind::kRenameColumn;
      sc.column = change.name;
      sc.new_name = change.new_name;
      break;
  }
  return table->UpdateSchema({sc});
}

namespace {

// A batch of the columns the SQL table shows (in order, typed by the SQL types' batch types)
// retyped as the schema's fields, for writing.
Result<formats::ColumnBatch> TypedForSchema(formats::ColumnBatch&& b,
                                            const std::vector<const iceberg::NestedField*>& visible,
                                            const QualifiedTableName& name) {
  if (b.columns.size() != visible.size()) {
    return InvalidArgument("write to {}: {} columns given, the table has {}", name.ToString(), b.columns.size(),
                           visible.size());
  }
  formats::ColumnBatch out;
  out.num_rows = b.num_rows;
  for (size_t i = 0; i < visible.size(); ++i) {
    FLOE_ASSIGN_OR_RETURN(formats::Field field, iceberg::ToBatchField(*visible[i]));
    if (visible[i]->required && b.columns[i].NullCount() != 0) {
      return InvalidArgument("write to {}: NULL value for required column {}", name.ToString(), visible[i]->name);
    }
    FLOE_ASSIGN_OR_RETURN_CTX(formats::ColumnVector v, ConvertVector(std::move(b.columns[i]), field.type),
                              fmt::format("column {}", visible[i]->name));
    out.columns.push_back(std::move(v));
    out.fields.push_back(std::move(field));
  }
  return out;
}

// Whether the table's write.<operation>.mode (Iceberg's property; copy-on-write by default)
// asks for merge-on-read.
Result<bool> MergeOnRead(const iceberg::Table& table, std::string_view operation) {
  std::string property = fmt::format("write.{}.mode", operation);
  std::string mode = table.metadata().Property(property, "copy-on-write");
  if (mode == "copy-on-write") return false;
  if (mode == "merge-on-read") return true;
  return InvalidArgument("{} is '{}'; use copy-on-write or merge-on-read", property, mode);
}

}  // namespace

Result<int64_t> IcebergSqlCatalog::AppendRows(const QualifiedTableName& name, std::vector<formats::ColumnBatch> batches) {
  FLOE_RETURN_IF_ERROR(CheckCatalog(name.catalog));
  FLOE_ASSIGN_OR_RETURN(auto ops, state_->directory->Open(name.schema, name.table));
  FLOE_ASSIGN_OR_RETURN(auto table, iceberg::Table::Load(ops));
  const iceberg::Schema& schema = table->metadata().CurrentSchema();
  // The batches hold the columns the SQL table shows, in order; retype them as the schema's.
  std::vector<const iceberg::NestedField*> visible;
  for (const iceberg::NestedField& f : schema.fields()) {
    if (SqlTypeFor(*f.type)) visible.push_back(&f);
  }
  std::vector<formats::ColumnBatch> typed;
  int64_t rows = 0;
  for (formats::ColumnBatch& b : batches) {
    FLOE_ASSIGN_OR_RETURN(formats::ColumnBatch out, TypedForSchema(std::move(b), visible, name));
    rows += out.num_rows;
    if (out.num_rows > 0) typed.push_back(std::move(out));
  }
  if (typed.empty()) return int64_t{0};
  FLOE_ASSIGN_OR_RETURN(auto files, iceberg::WriteDataFiles(*table, typed));
  FLOE_RETURN_IF_ERROR(table->FastAppend(files));
  return rows;
}

Result<int64_t> IcebergSqlCatalog::DeleteRows(const QualifiedTableName& name, const ScanPredicate& pushed,
                                              bool pushed_is_exact, const RowSelector& select) {
  FLOE_RETURN_IF_ERROR(CheckCatalog(name.catalog));
  FLOE_ASSIGN_OR_RETURN(auto ops, state_->directory->Open(name.schema, name.table));
  FLOE_ASSIGN_OR_RETURN(auto table, iceberg::Table::Load(ops));
  const iceberg::Schema& schema = table->metadata().CurrentSchema();
  // The columns the SQL table shows (as GetTable describes them), by schema position.
  struct Visible {
    size_t schema_index;
    formats::DataType batch_type;
  };
  std::vector<Visible> visible;
  for (size_t i = 0; i < schema.fields().size(); ++i) {
    if (auto type = SqlTypeFor(*schema.fields()[i].type)) visible.push_back({i, BatchTypeFor(*type)});
  }
  // Files are dropped unread only when the WHERE is exactly the pushed terms (the caller's
  // word: nothing stayed above the scan) and every one of them translates.
  bool translated = false;
  iceberg::DeleteRowsOptions options;
  iceberg::ExprPtr filter = ToIcebergFilter(&pushed, schema, &translated);
  options.filter_is_exact = pushed_is_exact && translated;
  FLOE_ASSIGN_OR_RETURN(options.merge_on_read, MergeOnRead(*table, "delete"));
  // Storage reads each candidate file; the statement's own WHERE decides each row.
  options.matcher = [&](const formats::ColumnBatch& b, const std::vector<int>& columns) -> Result<std::vector<uint8_t>> {
    formats::ColumnBatch view;
    view.num_rows = b.num_rows;
    for (const Visible& v : visible) {
      int c = columns[v.schema_index];
      if (c < 0) {
        view.columns.push_back(ConstantVector(v.batch_type, iceberg::Literal(), b.num_rows));
        continue;
      }
      FLOE_ASSIGN_OR_RETURN(formats::ColumnVector converted,
                            ConvertVector(formats::ColumnVector(b.columns[static_cast<size_t>(c)]), v.batch_type));
      view.columns.push_back(std::move(converted));
    }
    return select(view);
  };
  FLOE_ASSIGN_OR_RETURN(iceberg::DeleteRowsResult done, iceberg::DeleteRows(*table, filter, options));
  return done.deleted_rows;
}

Status IcebergSqlCatalog::RewriteRows(const QualifiedTableName& name, const ScanPredicate& pushed,
                                      std::string_view operation, const RowRewriter& rewrite,
                                      const RowAppender& append) {
  FLOE_RETURN_IF_ERROR(CheckCatalog(name.catalog));
  FLOE_ASSIGN_OR_RETURN(auto ops, state_->directory->Open(name.schema, name.table));
  FLOE_ASSIGN_OR_RETURN(auto table, iceberg::Table::Load(ops));
  const iceberg::Schema& schema = table->metadata().CurrentSchema();
  // Rewritten rows are written whole: a column SQL cannot read could not be carried over.
  std::vector<const iceberg::NestedField*> visible;
  std::vector<formats::DataType> batch_types;
  for (const iceberg::NestedField& f : schema.fields()) {
    auto type = SqlTypeFor(*f.type);
    if (!type) {
      return NotImplemented("{} of {}: column '{}' has a type SQL cannot read yet ({})", operation, name.ToString(),
                            f.name, f.type->ToString());
    }
    visible.push_back(&f);
    batch_types.push_back(BatchTypeFor(*type));
  }
  bool exact = false;
  iceberg::DeleteRowsOptions options;
  iceberg::ExprPtr filter = ToIcebergFilter(&pushed, schema, &exact);
  options.isolation_property = fmt::format("write.{}.isolation-level", operation);
  FLOE_ASSIGN_OR_RETURN(options.merge_on_read, MergeOnRead(*table, operation));
  auto typed = [&](std::vector<formats::ColumnBatch>&& batches) -> Result<std::vector<formats::ColumnBatch>> {
    std::vector<formats::ColumnBatch> out;
    for (formats::ColumnBatch& b : batches) {
      FLOE_ASSIGN_OR_RETURN(formats::ColumnBatch t, TypedForSchema(std::move(b), visible, name));
      out.push_back(std::move(t));
    }
    return out;
  };
  options.rewriter = [&](const formats::ColumnBatch& b, const std::vector<int>& columns,
                         const std::vector<uint8_t>& deleted) -> Result<iceberg::DeleteRowsOptions::RowChanges> {
    // The statement sees the live rows only, with every column in the SQL form.
    std::vector<uint32_t> live;
    for (int64_t r = 0; r < b.num_rows; ++r) {
      if (deleted.empty() || !deleted[static_cast<size_t>(r)]) live.push_back(static_cast<uint32_t>(r));
    }
    formats::ColumnBatch view;
    view.num_rows = static_cast<int64_t>(live.size());
    for (size_t i = 0; i < visible.size(); ++i) {
      int c = columns[i];
      if (c < 0) {
        view.columns.push_back(ConstantVector(batch_types[i], iceberg::Literal(), view.num_rows));
        continue;
      }
      formats::ColumnVector rows =
          live.size() == static_cast<size_t>(b.num_rows)
              ? formats::ColumnVector(b.columns[static_cast<size_t>(c)])
              : formats::GatherRows(b.columns[static_cast<size_t>(c)], live.data(), view.num_rows);
      FLOE_ASSIGN_OR_RETURN(formats::ColumnVector converted, ConvertVector(std::move(rows), batch_types[i]));
      view.columns.push_back(std::move(converted));
    }
    FLOE_ASSIGN_OR_RETURN(RowChanges changes, rewrite(view));
    if (changes.remove.size() != live.size()) {
      return Internal("{}: {} flags for {} rows", name.ToString(), changes.remove.size(), live.size());
    }
    iceberg::DeleteRowsOptions::RowChanges out;
    out.remove.assign(static_cast<size_t>(b.num_rows), 0);
    for (size_t i = 0; i < live.size(); ++i) out.remove[live[i]] = changes.remove[i];
    FLOE_ASSIGN_OR_RETURN(out.added, typed(std::move(changes.added)));
    return out;
  };
  if (append) {
    options.append_rows = [&]() -> Result<std::vector<formats::ColumnBatch>> {
      FLOE_ASSIGN_OR_RETURN(std::vector<formats::ColumnBatch> rows, append());
      return typed(std::move(rows));
    };
  }
  FLOE_ASSIGN_OR_RETURN(iceberg::DeleteRowsResult done, iceberg::DeleteRows(*table, filter, options));
  (void)done;
  return OkStatus();
}

Result<std::string> IcebergSqlCatalog::ExecuteProcedure(const QualifiedTableName& name, std::string_view procedure,
                                                        const std::map<std::string, Value>& arguments) {
  FLOE_RETURN_IF_ERROR(CheckCatalog(name.catalog));
  FLOE_ASSIGN_OR_RETURN(auto ops, state_->directory->Open(name.schema, name.table));
  FLOE_ASSIGN_OR_RETURN(auto table, iceberg::Table::Load(ops));
  auto arg = [&](std::string_view key) -> const Value* {
    for (const auto& [k, v] : arguments) {
      if (SameName(k, key)) return &v;
    }
    return nullptr;
  };
  for (const auto& [k, v] : arguments) {
    bool known = SameName(k, "file_size_threshold") || SameName(k, "retention_threshold") || SameName(k, "older_than") ||
                 SameName(k, "retain_last");
    if (!known) return InvalidArgument("procedure {} has no argument '{}'", procedure, k);
  }
  if (SameName(procedure, "optimize")) {
    int64_t threshold = int64_t{100} << 20;  // Trino's default
    if (const Value* v = arg("file_size_threshold")) {
      FLOE_ASSIGN_OR_RETURN(threshold, SizeBytes(*v, "file_size_threshold"));
    }
    FLOE_ASSIGN_OR_RETURN(CompactionResult done, CompactDataFiles(*table, {.file_size_threshold = threshold}));
    if (done.files_rewritten == 0) return std::string("optimize: nothing to rewrite");
    return fmt::format("optimize: rewrote {} files into {}", done.files_rewritten, done.files_added);
  }
  if (SameName(procedure, "analyze")) {
    FLOE_ASSIGN_OR_RETURN(iceberg::TableStatisticsResult done, iceberg::UpdateTableStatistics(*table, /*full=*/true));
    if (done.snapshot_id < 0) return std::string("ANALYZE: the table has no data");
    return fmt::format("ANALYZE: {} rows, {} columns", done.rows_read, done.ndv.size());
  }
  if (SameName(procedure, "expire_snapshots")) {
    int64_t retention = int64_t{7} * 86'400'000;  // Trino's default
    if (const Value* v = arg("retention_threshold")) {
      FLOE_ASSIGN_OR_RETURN(retention, DurationMs(*v, "retention_threshold"));
    }
    iceberg::ExpireOptions options;
    options.older_than_ms = NowMs() - retention;
    options.min_retention_ms = min_retention_ms_;
    if (const Value* v = arg("retain_last"); v && v->type().IsInteger()) options.retain_last = static_cast<int>(v->as_int());
    FLOE_ASSIGN_OR_RETURN(iceberg::ExpireResult r, iceberg::ExpireSnapshots(*table, options));
    return fmt::format("expire_snapshots: expired {} snapshots, deleted {} files", r.expired_snapshot_ids.size(),
                       r.deleted_files.size());
  }
  if (SameName(procedure, "remove_orphan_files")) {
    int64_t retention = int64_t{7} * 86'400'000;
    if (const Value* v = arg("retention_threshold")) {
      FLOE_ASSIGN_OR_RETURN(retention, DurationMs(*v, "retention_threshold"));
    }
    if (const Value* v = arg("older_than")) {
      FLOE_ASSIGN_OR_RETURN(retention, DurationMs(*v, "older_than"));
    }
    iceberg::OrphanOptions options;
    options.older_than_ms = NowMs() - retention;
    options.min_retention_ms = min_retention_ms_;
    FLOE_ASSIGN_OR_RETURN(auto removed, iceberg::RemoveOrphanFiles(*table, options));
    return fmt::format("remove_orphan_files: removed {} files", removed.size());
  }
  return NotImplemented("procedure {} is not supported (optimize, expire_snapshots, remove_orphan_files)", procedure);
}

}  // namespace floe::sql::iceberg_sql
