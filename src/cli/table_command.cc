// `floe table`: Iceberg table operations from the command line (src/iceberg).
//
// TABLE is NS.NAME with --warehouse (the filesystem catalog: <warehouse>/NS/NAME), or a path or
// URI of a table folder or of one metadata.json file.
#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "base/units.h"
#include "catalog/catalog_table_operations.h"
#include "catalog/open_catalog.h"
#include "cli/command.h"
#include "sql/iceberg/compaction.h"
#include "formats/json/event_decoder.h"
#include "formats/parquet/local_file.h"
#include "iceberg/batch_conversion.h"
#include "iceberg/data_files.h"
#include "iceberg/deletion_vector_file.h"
#include "iceberg/filesystem_catalog.h"
#include "iceberg/maintenance.h"
#include "iceberg/delete_rows.h"
#include "iceberg/scan.h"
#include "iceberg/schema_json.h"

namespace floe::cli {
namespace {

using namespace floe::iceberg;

struct Flags {
  std::string table, catalog, warehouse, schema, file, filter, format, older_than, ref, mode, min_retention;
  std::vector<std::string> partition, properties;
  std::vector<std::string> add_columns, drop_columns, rename_columns, promote_columns, unset_properties;
  int64_t snapshot = 0;
  int64_t limit = -1;
  int retain_last = 1;
  int64_t target_size = 0;
  bool dry_run = false;
  bool unsafe_retention = false;
};

// The minimum retention expiry and orphan removal accept: 7 days, --min-retention D, or none
// with --unsafe-retention (only that flag may go below a millisecond: a typo must not do it).
Result<int64_t> MinRetention(const Flags& f) {
  if (f.unsafe_retention) return int64_t{0};
  if (f.min_retention.empty()) return kDefaultMinRetentionMs;
  FLOE_ASSIGN_OR_RETURN(int64_t min, ParseDurationMillis(f.min_retention, 1));
  if (min <= 0) return InvalidArgument("--min-retention must be positive; --unsafe-retention allows any");
  return min;
}

int FailTable(std::string_view verb, const Error& e) {
  fmt::print(stderr, "floe table {}: {}\n", verb, e.ToString());
  return ExitCodeFor(e);
}

Result<std::string> ReadLocalFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return NotFound("cannot open {}", path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

Result<std::unique_ptr<FileSystemCatalog>> OpenCatalog(const Flags& f) {
  if (f.warehouse.empty()) return InvalidArgument("NS.NAME needs --warehouse URI (or give a table path)");
  return FileSystemCatalog::Open(f.warehouse);
}

// A table whose pointer a catalog service holds (sqlite:, postgresql:, http(s)://).
Result<std::shared_ptr<catalog::CatalogTableOperations>> OpenCatalogTable(const Flags& f) {
  FLOE_ASSIGN_OR_RETURN_CTX(std::unique_ptr<catalog::Catalog> opened,
                            catalog::OpenCatalog({.uri = f.catalog, .warehouse = f.warehouse}),
                            fmt::format("--catalog {}", f.catalog));
  FLOE_ASSIGN_OR_RETURN(catalog::TableIdentifier id, catalog::IdentifierFromString(f.table));
  // A SQLite catalog's relative table locations are looked up beside its file.
  std::string relative_root;
  if (f.catalog.starts_with("sqlite:")) {
    std::error_code ignored;
    relative_root = std::filesystem::absolute(f.catalog.substr(7), ignored).parent_path().string();
  }
  return catalog::CatalogTableOperations::Open(std::move(opened), id, relative_root);
}

Result<std::unique_ptr<Table>> LoadTable(const Flags& f) {
  if (!f.catalog.empty()) {
    FLOE_ASSIGN_OR_RETURN(auto ops, OpenCatalogTable(f));
    return Table::Load(std::move(ops));
  }
  if (LooksLikePath(f.table) || f.warehouse.empty()) return OpenTableAt(f.table);
  FLOE_ASSIGN_OR_RETURN(auto catalog, OpenCatalog(f));
  FLOE_ASSIGN_OR_RETURN(TableIdentifier id, TableIdentifier::Parse(f.table));
  return catalog->LoadTable(id);
}


int RunCreate(const Flags& f) {
  auto run = [&]() -> Status {
    FLOE_ASSIGN_OR_RETURN(std::string text, ReadLocalFile(f.schema));
    FLOE_ASSIGN_OR_RETURN(Schema schema, SchemaFromJson(text));
    std::vector<PartitionField> fields;
    int32_t next_id = kFirstPartitionFieldId;
    for (const std::string& p : f.partition) {
      FLOE_ASSIGN_OR_RETURN(PartitionField pf, ParsePartitionField(p, schema, next_id++));
      fields.push_back(std::move(pf));
    }
    std::map<std::string, std::string> props;
    for (const std::string& kv : f.properties) {
      size_t eq = kv.find('=');
      if (eq == std::string::npos) return InvalidArgument("--property '{}': expected KEY=VALUE", kv);
      props[kv.substr(0, eq)] = kv.substr(eq + 1);
    }
    if (!f.catalog.empty()) {
      FLOE_ASSIGN_OR_RETURN(std::unique_ptr<catalog::Catalog> service,
                            catalog::OpenCatalog({.uri = f.catalog, .warehouse = f.warehouse}));
      FLOE_ASSIGN_OR_RETURN(catalog::TableIdentifier id, catalog::IdentifierFromString(f.table));
      FLOE_ASSIGN_OR_RETURN(bool ns_exists, service->NamespaceExists(id.ns));
      if (!ns_exists) FLOE_RETURN_IF_ERROR(service->CreateNamespace(id.ns, {}));
      catalog::TableCreation creation;
      creation.schema = SchemaToJsonValue(schema);
      creation.partition_spec = PartitionSpecToJsonValue(PartitionSpec(0, fields));
      creation.properties = nlohmann::json(props);
      FLOE_ASSIGN_OR_RETURN(catalog::LoadedTable created, service->CreateTable(id, creation, /*stage=*/false));
      fmt::print("created {} at {}\n", f.table, created.metadata.value("location", ""));
      return OkStatus();
    }
    FLOE_ASSIGN_OR_RETURN(auto catalog, OpenCatalog(f));
    FLOE_ASSIGN_OR_RETURN(TableIdentifier id, TableIdentifier::Parse(f.table));
    FLOE_ASSIGN_OR_RETURN(auto table, catalog->CreateTable(id, schema, fields, std::move(props)));
    fmt::print("created {} at {}\n", id.ToString(), table->metadata().location);
    return OkStatus();
  };
  Status st = run();
  return st ? kExitOk : FailTable("create", st.error());
}

// The rows of FILE (.parquet, or .jsonl decoded with the table's schema), for append and overwrite.
Result<std::vector<formats::ColumnBatch>> ReadInputRows(const Flags& f, const Table& table) {
  if (f.file.ends_with(".parquet")) {
    FLOE_ASSIGN_OR_RETURN(auto input, parquet::LocalInputFile::Open(f.file));
    return ReadParquetFile(std::move(input));
  }
  if (!f.file.ends_with(".jsonl") && !f.file.ends_with(".json")) {
    return InvalidArgument("{}: expected a .parquet or .jsonl file", f.file);
  }
  FLOE_ASSIGN_OR_RETURN(std::string text, ReadLocalFile(f.file));
  FLOE_ASSIGN_OR_RETURN(auto fields, ToBatchFields(table.metadata().CurrentSchema()));
  FLOE_ASSIGN_OR_RETURN(auto decoder, formats::JsonEventDecoder::Make(fields));
  size_t length = text.size();
  text.append(formats::JsonEventDecoder::kPadding, '\0');
  decoder->DecodeLines(std::string_view(text.data(), length), 1);
  if (!decoder->errors().empty()) {
    const formats::LineError& e = decoder->errors().front();
    return InvalidArgument("{} line {}: {} ({} bad lines; nothing written)", f.file, e.line, e.message, decoder->errors().size());
  }
  std::vector<formats::ColumnBatch> batches;
  batches.push_back(decoder->TakeBatch());
  return batches;
}

int RunAppend(const Flags& f) {
  auto run = [&]() -> Status {
    FLOE_ASSIGN_OR_RETURN(auto table, LoadTable(f));
    FLOE_ASSIGN_OR_RETURN(std::vector<formats::ColumnBatch> batches, ReadInputRows(f, *table));
    FLOE_ASSIGN_OR_RETURN(auto files, WriteDataFiles(*table, batches));
    int64_t rows = 0;
    for (const DataFile& d : files) rows += d.record_count;
    FLOE_RETURN_IF_ERROR(table->FastAppend(files));
    fmt::print("appended {} rows in {} files; snapshot {}\n", rows, files.size(),
               table->metadata().current_snapshot_id.value_or(0));
    return OkStatus();
  };
  Status st = run();
  return st ? kExitOk : FailTable("append", st.error());
}

int RunScan(const Flags& f) {
  auto run = [&]() -> Status {
    FLOE_ASSIGN_OR_RETURN(auto table, LoadTable(f));
    ScanOptions options;
    if (f.snapshot != 0) options.snapshot_id = f.snapshot;
    if (!f.ref.empty()) options.ref = f.ref;
    if (!f.filter.empty()) {
      FLOE_ASSIGN_OR_RETURN(options.filter, ParseFilter(f.filter));
    }
    FLOE_ASSIGN_OR_RETURN(ScanPlan plan, PlanScan(*table, options));
    bool as_table = f.format == "table";
    if (!f.format.empty() && f.format != "jsonl" && !as_table) {
      return InvalidArgument("--format must be jsonl or table, not '{}'", f.format);
    }
    const Schema& schema = plan.schema;
    std::vector<std::vector<std::string>> cells;  // --format table
    int64_t printed = 0;
    std::string out;
    for (const FileScanTask& task : plan.tasks) {
      if (f.limit >= 0 && printed >= f.limit) break;
      Status st = ReadTask(*table, task, schema, [&](const formats::ColumnBatch& b, const std::vector<int>& cols) -> Status {
        for (int64_t row = 0; row < b.num_rows; ++row) {
          if (f.limit >= 0 && printed >= f.limit) return OkStatus();
          if (task.residual->op != ExprOp::kTrue) {
            bool keep = EvaluateRow(task.residual, [&](int32_t id) -> Literal {
              for (size_t i = 0; i < schema.fields().size(); ++i) {
                if (schema.fields()[i].id == id) {
                  return cols[i] < 0 ? Literal() : LiteralAt(b.columns[cols[i]], row, *schema.fields()[i].type);
                }
              }
              return Literal();
            });
            if (!keep) continue;
          }
          nlohmann::ordered_json obj = nlohmann::ordered_json::object();
          std::vector<std::string> line;
          for (size_t i = 0; i < schema.fields().size(); ++i) {
            const NestedField& field = schema.fields()[i];
            nlohmann::ordered_json v = cols[i] < 0 ? nlohmann::ordered_json(nullptr) : JsonAt(b.columns[cols[i]], row, *field.type);
            if (as_table) line.push_back(v.is_string() ? v.get<std::string>() : v.dump());
            obj[field.name] = std::move(v);
          }
          ++printed;
          if (as_table) {
            cells.push_back(std::move(line));
          } else {
            out += obj.dump();
            out += '\n';
            if (out.size() > (1 << 16)) {
              fwrite(out.data(), 1, out.size(), stdout);
              out.clear();
            }
          }
        }
        return OkStatus();
      });
      if (!st) return st;
    }
    if (as_table) {
      std::vector<size_t> width;
      for (const NestedField& field : schema.fields()) width.push_back(field.name.size());
      for (const auto& line : cells) {
        for (size_t i = 0; i < line.size(); ++i) width[i] = std::max(width[i], line[i].size());
      }
      std::string header, rule;
      for (size_t i = 0; i < width.size(); ++i) {
        header += fmt::format("{}{:<{}}", i ? " | " : "", schema.fields()[i].name, width[i]);
        rule += (i ? "-+-" : "") + std::string(width[i], '-');
      }
      out += header + "\n" + rule + "\n";
      for (const auto& line : cells) {
        for (size_t i = 0; i < line.size(); ++i) out += fmt::format("{}{:<{}}", i ? " | " : "", line[i], width[i]);
        out += "\n";
      }
      out += fmt::format("({} rows)\n", printed);
    }
    fwrite(out.data(), 1, out.size(), stdout);
    return OkStatus();
  };
  Status st = run();
  return st ? kExitOk : FailTable("scan", st.error());
}

nlohmann::ordered_json SnapshotJson(const Snapshot& s) {
  nlohmann::ordered_json j;
  j["snapshot-id"] = s.snapshot_id;
  j["parent-snapshot-id"] = s.parent_snapshot_id ? nlohmann::ordered_json(*s.parent_snapshot_id) : nullptr;
  j["sequence-number"] = s.sequence_number;
  j["timestamp-ms"] = s.timestamp_ms;
  j["operation"] = s.operation();
  j["manifest-list"] = s.manifest_list;
  j["summary"] = s.summary;
  return j;
}

int RunDescribe(const Flags& f) {
  auto run = [&]() -> Status {
    FLOE_ASSIGN_OR_RETURN(auto table, LoadTable(f));
    const TableMetadata& m = table->metadata();
    if (f.format == "json") {
      fmt::print("{}\n", TableMetadataToJsonValue(m).dump(2));
      return OkStatus();
    }
    fmt::print("table      {}\n", f.table);
    fmt::print("location   {}\n", m.location);
    fmt::print("uuid       {}\n", m.table_uuid);
    fmt::print("format     v{}\n", m.format_version);
    fmt::print("metadata   {}\n", table->current().location);
    fmt::print("schema     {} (id {})\n", m.CurrentSchema().fields().size(), m.current_schema_id);
    for (const NestedField& c : m.CurrentSchema().fields()) {
      fmt::print("  {:>4}  {:<24} {}{}{}\n", c.id, c.name, c.type->ToString(), c.required ? " not null" : "",
                 c.doc.empty() ? "" : "  -- " + c.doc);
    }
    const PartitionSpec& spec = m.DefaultSpec();
    fmt::print("partition  spec {}{}\n", spec.spec_id(), spec.fields().empty() ? " (unpartitioned)" : "");
    for (const PartitionField& p : spec.fields()) {
      fmt::print("  {:>4}  {:<24} {}({})\n", p.field_id, p.name, p.transform.ToString(),
                 m.CurrentSchema().FindColumnName(p.source_id));
    }
    const SortOrder* order = m.SortOrderById(m.default_sort_order_id);
    fmt::print("sort order {}{}\n", m.default_sort_order_id, order && order->is_unsorted() ? " (unsorted)" : "");
    if (const Snapshot* s = m.CurrentSnapshot()) {
      fmt::print("snapshot   {} ({}, {} records, {} data files)\n", s->snapshot_id, s->operation(),
                 s->summary.contains("total-records") ? s->summary.at("total-records") : "?",
                 s->summary.contains("total-data-files") ? s->summary.at("total-data-files") : "?");
    } else {
      fmt::print("snapshot   none\n");
    }
    for (const auto& [name, ref] : m.refs) {
      fmt::print("ref        {} -> {} ({})\n", name, ref.snapshot_id, ref.is_branch ? "branch" : "tag");
    }
    for (const auto& [k, v] : m.properties) fmt::print("property   {} = {}\n", k, v);
    return OkStatus();
  };
  Status st = run();
  return st ? kExitOk : FailTable("describe", st.error());
}

int RunSnapshots(const Flags& f) {
  auto run = [&]() -> Status {
    FLOE_ASSIGN_OR_RETURN(auto table, LoadTable(f));
    const TableMetadata& m = table->metadata();
    if (f.format == "json") {
      nlohmann::ordered_json all = nlohmann::ordered_json::array();
      for (const Snapshot& s : m.snapshots) all.push_back(SnapshotJson(s));
      fmt::print("{}\n", all.dump(2));
      return OkStatus();
    }
    fmt::print("{:<20} {:<20} {:>4} {:<24} {:<10} {}\n", "snapshot", "parent", "seq", "committed (UTC ms)", "operation",
               "summary");
    for (const Snapshot& s : m.snapshots) {
      std::string summary;
      for (const auto& [k, v] : s.summary) {
        if (k != "operation") summary += fmt::format("{}={} ", k, v);
      }
      fmt::print("{:<20} {:<20} {:>4} {:<24} {:<10} {}{}\n", s.snapshot_id,
                 s.parent_snapshot_id ? std::to_string(*s.parent_snapshot_id) : "-", s.sequence_number, s.timestamp_ms,
                 s.operation(), summary, m.current_snapshot_id == s.snapshot_id ? " (current)" : "");
    }
    return OkStatus();
  };
  Status st = run();
  return st ? kExitOk : FailTable("snapshots", st.error());
}

int RunRollback(const Flags& f) {
  auto run = [&]() -> Status {
    if (f.snapshot == 0) return InvalidArgument("rollback needs --snapshot ID");
    FLOE_ASSIGN_OR_RETURN(auto table, LoadTable(f));
    FLOE_RETURN_IF_ERROR(table->Rollback(f.snapshot));
    fmt::print("current snapshot is now {}\n", f.snapshot);
    return OkStatus();
  };
  Status st = run();
  return st ? kExitOk : FailTable("rollback", st.error());
}

int RunExpire(const Flags& f) {
  auto run = [&]() -> Status {
    FLOE_ASSIGN_OR_RETURN(auto table, LoadTable(f));
    ExpireOptions options;
    int64_t age = kDefaultMinRetentionMs;  // Trino's expire_snapshots default
    if (!f.older_than.empty()) {
      FLOE_ASSIGN_OR_RETURN(age, ParseDurationMillis(f.older_than, 1));
    }
    options.older_than_ms = NowMillis() - age;
    FLOE_ASSIGN_OR_RETURN(options.min_retention_ms, MinRetention(f));
    options.retain_last = std::max(1, f.retain_last);
    FLOE_ASSIGN_OR_RETURN(ExpireResult r, ExpireSnapshots(*table, options));
    fmt::print("expired {} snapshots, deleted {} files\n", r.expired_snapshot_ids.size(), r.deleted_files.size());
    return OkStatus();
  };
  Status st = run();
  return st ? kExitOk : FailTable("expire", st.error());
}

int RunRemoveOrphans(const Flags& f) {
  auto run = [&]() -> Status {
    FLOE_ASSIGN_OR_RETURN(auto table, LoadTable(f));
    OrphanOptions options;
    int64_t age = kDefaultMinRetentionMs;  // In-flight writes are younger than this.
    if (!f.older_than.empty()) {
      FLOE_ASSIGN_OR_RETURN(age, ParseDurationMillis(f.older_than, 1));
    }
    options.older_than_ms = NowMillis() - age;
    FLOE_ASSIGN_OR_RETURN(options.min_retention_ms, MinRetention(f));
    options.dry_run = f.dry_run;
    FLOE_ASSIGN_OR_RETURN(auto orphans, RemoveOrphanFiles(*table, options));
    for (const std::string& key : orphans) fmt::print("{}{}\n", f.dry_run ? "would delete " : "deleted ", key);
    fmt::print("{} orphan files\n", orphans.size());
    return OkStatus();
  };
  Status st = run();
  return st ? kExitOk : FailTable("remove-orphans", st.error());
}

int RunCompact(const Flags& f) {
  auto run = [&]() -> Status {
    FLOE_ASSIGN_OR_RETURN(auto table, LoadTable(f));
    int64_t target = f.target_size > 0 ? f.target_size
                                       : table->metadata().PropertyAsLong("write.target-file-size-bytes", int64_t{512} << 20);
    // Files under the target are candidates, as Spark's rewrite_data_files counts them.
    FLOE_ASSIGN_OR_RETURN(sql::iceberg_sql::CompactionResult done,
                          sql::iceberg_sql::CompactDataFiles(*table, {.file_size_threshold = target,
                                                                      .target_file_size_bytes = target}));
    if (done.files_rewritten == 0 && done.delete_files_removed == 0) {
      fmt::print("nothing to compact\n");
      return OkStatus();
    }
    fmt::print("rewrote {} files into {}", done.files_rewritten, done.files_added);
    if (done.delete_files_removed > 0) fmt::print(", folded and removed {} delete files", done.delete_files_removed);
    fmt::print("\n");
    return OkStatus();
  };
  Status st = run();
  return st ? kExitOk : FailTable("compact", st.error());
}

// Schema evolution and properties: --add-column 'NAME TYPE', --drop-column NAME,
// --rename-column OLD=NEW, --promote-column 'NAME TYPE', --property K=V, --unset-property K.
int RunAlter(const Flags& f) {
  auto run = [&]() -> Status {
    FLOE_ASSIGN_OR_RETURN(auto table, LoadTable(f));
    auto name_and_type = [](const std::string& text) -> Result<std::pair<std::string, TypePtr>> {
      size_t space = text.find(' ');
      if (space == std::string::npos) return InvalidArgument("'{}': expected 'NAME TYPE'", text);
      FLOE_ASSIGN_OR_RETURN(TypePtr type, ParsePrimitiveType(text.substr(space + 1)));
      return std::make_pair(text.substr(0, space), type);
    };
    std::vector<SchemaChange> changes;
    for (const std::string& c : f.add_columns) {
      FLOE_ASSIGN_OR_RETURN(auto nt, name_and_type(c));
      changes.push_back(SchemaChange{SchemaChange::Kind::kAddColumn, nt.first, nt.second});
    }
    for (const std::string& c : f.rename_columns) {
      size_t eq = c.find('=');
      if (eq == std::string::npos) return InvalidArgument("--rename-column '{}': expected OLD=NEW", c);
      changes.push_back(SchemaChange{SchemaChange::Kind::kRenameColumn, c.substr(0, eq), nullptr, c.substr(eq + 1)});
    }
    for (const std::string& c : f.promote_columns) {
      FLOE_ASSIGN_OR_RETURN(auto nt, name_and_type(c));
      changes.push_back(SchemaChange{SchemaChange::Kind::kPromoteType, nt.first, nt.second});
    }
    for (const std::string& c : f.drop_columns) changes.push_back(SchemaChange{SchemaChange::Kind::kDropColumn, c});
    if (!changes.empty()) FLOE_RETURN_IF_ERROR(table->UpdateSchema(changes));
    std::map<std::string, std::string> set;
    for (const std::string& kv : f.properties) {
      size_t eq = kv.find('=');
      if (eq == std::string::npos) return InvalidArgument("--property '{}': expected KEY=VALUE", kv);
      set[kv.substr(0, eq)] = kv.substr(eq + 1);
    }
    if (!set.empty() || !f.unset_properties.empty()) FLOE_RETURN_IF_ERROR(table->SetProperties(set, f.unset_properties));
    if (changes.empty() && set.empty() && f.unset_properties.empty()) return InvalidArgument("alter: nothing to change");
    fmt::print("schema {} ({} columns)\n", table->metadata().current_schema_id,
               table->metadata().CurrentSchema().fields().size());
    return OkStatus();
  };
  Status st = run();
  return st ? kExitOk : FailTable("alter", st.error());
}

// Row-level delete, merge-on-read (iceberg/delete_rows.h): position delete files for the rows
// matching the filter; on a v3 table (where a writer may not add position delete files)
// deletion vectors, each merged with its data file's current vector, which the commit replaces.
Status DeleteMergeOnRead(const Flags& f, std::unique_ptr<Table> table) {
  FLOE_ASSIGN_OR_RETURN(ExprPtr filter, ParseFilter(f.filter));
  DeleteRowsOptions options;
  options.merge_on_read = true;
  FLOE_ASSIGN_OR_RETURN(DeleteRowsResult done, DeleteRows(*table, filter, options));
  if (!done.snapshot_id) {
    fmt::print("no rows match\n");
    return OkStatus();
  }
  fmt::print("deleted {} rows with {} {}; snapshot {}\n", done.deleted_rows, done.delete_files_added,
             table->metadata().format_version >= 3 ? "deletion vectors" : "position delete files", *done.snapshot_id);
  return OkStatus();
}

// Row-level delete, copy-on-write (iceberg/delete_rows.h): files are dropped or rewritten.
Status DeleteCopyOnWrite(const Flags& f, std::unique_ptr<Table> table) {
  FLOE_ASSIGN_OR_RETURN(ExprPtr filter, ParseFilter(f.filter));
  FLOE_ASSIGN_OR_RETURN(DeleteRowsResult done, DeleteRows(*table, filter));
  if (!done.snapshot_id) {
    fmt::print("no rows match\n");
    return OkStatus();
  }
  fmt::print("deleted {} rows: {} files dropped, {} rewritten into {}; snapshot {}\n", done.deleted_rows,
             done.files_dropped, done.files_rewritten, done.files_added, *done.snapshot_id);
  return OkStatus();
}

// Replaces the rows matching --filter (every row without one) by FILE's rows in one commit.
int RunOverwrite(const Flags& f) {
  auto run = [&]() -> Status {
    FLOE_ASSIGN_OR_RETURN(auto table, LoadTable(f));
    FLOE_ASSIGN_OR_RETURN(ExprPtr filter, ParseFilter(f.filter.empty() ? "true" : f.filter));
    FLOE_ASSIGN_OR_RETURN(std::vector<formats::ColumnBatch> batches, ReadInputRows(f, *table));
    DeleteRowsOptions options;
    FLOE_ASSIGN_OR_RETURN(options.add_files, WriteDataFiles(*table, batches));
    int64_t added_rows = 0;
    for (const DataFile& d : options.add_files) added_rows += d.record_count;
    FLOE_ASSIGN_OR_RETURN(DeleteRowsResult done, DeleteRows(*table, filter, options));
    if (!done.snapshot_id) {
      fmt::print("nothing to overwrite: no rows match and the file is empty\n");
      return OkStatus();
    }
    fmt::print("overwrote {} rows with {} rows ({} files dropped, {} rewritten, {} added); snapshot {}\n", done.deleted_rows,
               added_rows, done.files_dropped, done.files_rewritten, done.files_added, *done.snapshot_id);
    return OkStatus();
  };
  Status st = run();
  return st ? kExitOk : FailTable("overwrite", st.error());
}

// --mode, else the table's write.delete.mode (Iceberg's property; copy-on-write by default).
int RunDelete(const Flags& f) {
  auto run = [&]() -> Status {
    if (f.filter.empty()) return InvalidArgument("delete needs --filter EXPR (use a filter of true to delete every row)");
    FLOE_ASSIGN_OR_RETURN(auto table, LoadTable(f));
    std::string mode = f.mode.empty() ? table->metadata().Property("write.delete.mode", "copy-on-write") : f.mode;
    if (mode == "copy-on-write") return DeleteCopyOnWrite(f, std::move(table));
    if (mode == "merge-on-read") return DeleteMergeOnRead(f, std::move(table));
    return InvalidArgument("delete mode '{}': use copy-on-write or merge-on-read", mode);
  };
  Status st = run();
  return st ? kExitOk : FailTable("delete", st.error());
}

}  // namespace

void RegisterTableCommand(CLI::App& root, CommandRegistry& registry) {
  auto flags = std::make_shared<Flags>();
  CLI::App* table = root.add_subcommand("table", "Create, inspect and maintain Iceberg tables");
  table->require_subcommand(1);
  struct Verb {
    const char* name;
    const char* description;
    int (*run)(const Flags&);
  };
  const Verb verbs[] = {
      {"create", "Create a table from an Iceberg schema JSON", RunCreate},
      {"append", "Append a JSON-lines or Parquet file", RunAppend},
      {"overwrite", "Replace the rows matching --filter (default: all) by a file's rows, in one commit", RunOverwrite},
      {"scan", "Print a table's rows", RunScan},
      {"describe", "Print a table's schema, partition spec and properties", RunDescribe},
      {"snapshots", "List snapshots with their summaries", RunSnapshots},
      {"rollback", "Make an earlier snapshot current", RunRollback},
      {"expire", "Expire old snapshots and delete unreachable files", RunExpire},
      {"compact", "Rewrite small data files into larger ones, and files with deletes without the deleted rows",
       RunCompact},
      {"remove-orphans", "Delete files no snapshot references", RunRemoveOrphans},
      {"delete", "Delete the rows matching --filter (copy-on-write or merge-on-read)", RunDelete},
      {"alter", "Evolve the schema (add, drop, rename, promote columns) and set properties", RunAlter},
  };
  for (const Verb& verb : verbs) {
    auto fn = verb.run;
    CLI::App* app = registry.Add(*table, verb.name, verb.description, "table", [flags, fn] { return fn(*flags); });
    app->add_option("table", flags->table, "NS.NAME, or a table folder or metadata.json path/URI")->required();
    app->add_option("--catalog", flags->catalog, "sqlite:PATH, postgresql://... or http(s)://host:port");
    app->add_option("--warehouse", flags->warehouse, "file:///abs/path or s3://bucket/prefix");
    std::string_view v = verb.name;
    if (v == "create") {
      app->add_option("--schema", flags->schema, "Iceberg schema JSON file")->required();
      app->add_option("--partition", flags->partition, "Partition field, e.g. 'day(ts)' (repeatable)");
      app->add_option("--property", flags->properties, "Table property KEY=VALUE (repeatable)");
    }
    if (v == "append" || v == "overwrite") app->add_option("file", flags->file, "FILE.jsonl or FILE.parquet")->required();
    if (v == "overwrite") app->add_option("--filter", flags->filter, "Rows to replace, e.g. \"day = '2024-01-01'\" (default: every row)");
    if (v == "scan") {
      app->add_option("--snapshot", flags->snapshot, "Snapshot id to read");
      app->add_option("--ref", flags->ref, "Branch or tag to read");
      app->add_option("--filter", flags->filter, "Row filter expression, e.g. \"ts >= '2024-01-01' and id < 10\"");
      app->add_option("--format", flags->format, "jsonl or table");
      app->add_option("--limit", flags->limit, "Print at most N rows");
    }
    if (v == "describe" || v == "snapshots") app->add_option("--format", flags->format, "text or json");
    if (v == "rollback") app->add_option("--snapshot", flags->snapshot, "Snapshot id to make current")->required();
    if (v == "expire") {
      app->add_option("--older-than", flags->older_than, "Expire snapshots older than this (7d, 12h, 30m; default 7d)");
      app->add_option("--retain-last", flags->retain_last, "Always keep this many recent snapshots");
    }
    if (v == "remove-orphans") {
      app->add_option("--older-than", flags->older_than, "Only files older than this (default 7d)");
      app->add_flag("--dry-run", flags->dry_run, "List orphans without deleting them");
    }
    if (v == "expire" || v == "remove-orphans") {
      app->add_option("--min-retention", flags->min_retention, "Refuse an --older-than below this (default 7d)");
      app->add_flag("--unsafe-retention", flags->unsafe_retention,
                    "Allow any --older-than, even 0: deletes files running readers and writers may still need");
    }
    if (v == "compact") app->add_option("--target-size", flags->target_size, "Target data file size in bytes");
    if (v == "alter") {
      app->add_option("--add-column", flags->add_columns, "Add an optional column: 'NAME TYPE' (repeatable)");
      app->add_option("--drop-column", flags->drop_columns, "Drop a column (repeatable)");
      app->add_option("--rename-column", flags->rename_columns, "Rename a column: OLD=NEW (repeatable)");
      app->add_option("--promote-column", flags->promote_columns, "Widen a column's type: 'NAME TYPE' (repeatable)");
      app->add_option("--property", flags->properties, "Set a table property KEY=VALUE (repeatable)");
      app->add_option("--unset-property", flags->unset_properties, "Remove a table property (repeatable)");
    }
    if (v == "delete") {
      app->add_option("--filter", flags->filter, "Rows to delete, e.g. \"id < 10\" (true: every row)")->required();
      app->add_option("--mode", flags->mode,
                      "copy-on-write (rewrite files) or merge-on-read (position delete files; on v3 tables "
                      "deletion vectors); default: the table's write.delete.mode, else copy-on-write");
    }
  }
}

}  // namespace floe::cli
