#include "sql/catalog/catalog.h"

#include "sql/catalog/table_scan.h"

namespace floe::sql {

std::string TableVersion::ToString() const {
  switch (kind) {
    case Kind::kCurrent: return "current";
    case Kind::kSnapshotId: return fmt::format("snapshot {}", snapshot_id);
    case Kind::kRef: return fmt::format("ref '{}'", ref);
    case Kind::kTimestamp: return fmt::format("as of {} us", timestamp_micros);
  }
  return "?";
}

Result<std::unique_ptr<TableScan>> SqlCatalog::OpenScan(const ScanRequest& request) const {
  return NotImplemented("catalog has no storage: cannot read {}", request.table ? request.table->name.ToString() : "?");
}

Result<std::vector<std::string>> SqlCatalog::ViewNames(std::string_view, std::string_view) const {
  return std::vector<std::string>{};
}

Result<std::shared_ptr<const CatalogView>> SqlCatalog::GetView(const QualifiedTableName& name) const {
  return CodedError(ErrorCode::kNoSuchView, "no such view: {}", name.ToString());
}

Status SqlCatalog::CreateView(const ViewDefinition& definition) {
  return NotImplemented("catalog has no views: cannot create view {}", definition.view.name.ToString());
}

Status SqlCatalog::DropView(const QualifiedTableName& name) {
  return NotImplemented("catalog has no views: cannot drop view {}", name.ToString());
}

Status SqlCatalog::CreateSchema(std::string_view catalog, std::string_view schema) {
  return NotImplemented("catalog is read-only: cannot create schema {}.{}", catalog, schema);
}

Status SqlCatalog::DropSchema(std::string_view catalog, std::string_view schema) {
  return NotImplemented("catalog is read-only: cannot drop schema {}.{}", catalog, schema);
}

Status SqlCatalog::CreateTable(const TableDefinition& definition) {
  return NotImplemented("catalog is read-only: cannot create table {}", definition.name.ToString());
}

Status SqlCatalog::DropTable(const QualifiedTableName& name) {
  return NotImplemented("catalog is read-only: cannot drop table {}", name.ToString());
}

Status SqlCatalog::AlterTable(const QualifiedTableName& name, const TableChange&) {
  return NotImplemented("catalog is read-only: cannot alter table {}", name.ToString());
}

Result<int64_t> SqlCatalog::AppendRows(const QualifiedTableName& name, std::vector<formats::ColumnBatch>) {
  return NotImplemented("catalog is read-only: cannot insert into {}", name.ToString());
}

Result<int64_t> SqlCatalog::DeleteRows(const QualifiedTableName& name, const ScanPredicate&, bool, const RowSelector&) {
  return NotImplemented("catalog is read-only: cannot delete from {}", name.ToString());
}

Status SqlCatalog::RewriteRows(const QualifiedTableName& name, const ScanPredicate&, std::string_view operation,
                               const RowRewriter&, const RowAppender&) {
  return NotImplemented("catalog is read-only: cannot {} {}", operation, name.ToString());
}

Result<std::string> SqlCatalog::ExecuteProcedure(const QualifiedTableName& name, std::string_view procedure,
                                                 const std::map<std::string, Value>&) {
  return NotImplemented("catalog is read-only: cannot execute {} on {}", procedure, name.ToString());
}

Result<Freshness> ParseFreshness(std::string_view text) {
  std::string lower;
  for (char c : text) lower.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  if (lower == "live") return Freshness::kLive;
  if (lower == "snapshot") return Freshness::kSnapshot;
  return InvalidArgument("freshness '{}' is not 'live' or 'snapshot'", text);
}

std::string_view FreshnessName(Freshness freshness) { return freshness == Freshness::kLive ? "live" : "snapshot"; }

void ScanStats::Add(const ScanStats& o) {
  files_total += o.files_total;
  files_read += o.files_read;
  row_groups_total += o.row_groups_total;
  row_groups_read += o.row_groups_read;
  pages_total += o.pages_total;
  pages_read += o.pages_read;
  bytes_read += o.bytes_read;
  rows_read += o.rows_read;
  delete_files += o.delete_files;
  rows_deleted += o.rows_deleted;
}

std::string ScanStats::ToString() const {
  std::string text = fmt::format("files {}/{}, row groups {}/{}, pages {}/{}, {:.1f} MiB, {} rows", files_read,
                                 files_total, row_groups_read, row_groups_total, pages_read, pages_total,
                                 static_cast<double>(bytes_read) / (1024.0 * 1024.0), rows_read);
  if (delete_files > 0) text += fmt::format(", delete files {}, {} rows deleted", delete_files, rows_deleted);
  return text;
}

}  // namespace floe::sql
