// IcebergSqlCatalog: the SQL engine's catalog over Iceberg tables (Trino's catalog `floe`;
// schemas are namespaces). Tables come from a catalog service or a warehouse folder
// (TableDirectory), or by location through iceberg_scan(). Every GetTable re-reads the
// table's catalog pointer (so a query sees the latest commit); manifest lists, manifests and
// Parquet footers are cached by their immutable locations across queries. Scans plan files
// with partition and column-bound pruning, then read splits (files, or row groups of big files)
// with row-group pruning, deletes applied and only the requested columns decoded. Writes are
// Iceberg commits with compare-and-swap retries.
//
// Thread-safe: any thread may call any method; scans it returns may be read by many threads.
#pragma once

#include <memory>
#include <mutex>
#include <string>

#include "iceberg/maintenance.h"
#include "sql/catalog/catalog.h"
#include "sql/iceberg/table_directory.h"

namespace floe::sql::iceberg_sql {

struct CatalogState;

class IcebergSqlCatalog final : public SqlCatalog {
 public:
  // `directory` may be null: then only iceberg_scan('location') finds tables.
  explicit IcebergSqlCatalog(std::unique_ptr<TableDirectory> directory, std::string catalog_name = "floe");
  ~IcebergSqlCatalog() override;

  // --catalog URI (warehouse: where a service puts new tables) or --warehouse URI.
  static Result<std::unique_ptr<IcebergSqlCatalog>> OpenService(const std::string& uri, const std::string& warehouse = "");
  static Result<std::unique_ptr<IcebergSqlCatalog>> OpenWarehouse(const std::string& uri);

  std::vector<std::string> CatalogNames() const override;
  Result<std::vector<std::string>> SchemaNames(std::string_view catalog) const override;
  Result<std::vector<std::string>> TableNames(std::string_view catalog, std::string_view schema) const override;
  Result<std::shared_ptr<const CatalogTable>> GetTable(const QualifiedTableName& name,
                                                       const TableVersion& version) const override;
  Result<std::shared_ptr<const CatalogTable>> GetTableAt(std::string_view location,
                                                         const TableVersion& version) const override;

  Result<std::vector<std::string>> ViewNames(std::string_view catalog, std::string_view schema) const override;
  Result<std::shared_ptr<const CatalogView>> GetView(const QualifiedTableName& name) const override;

  Result<std::unique_ptr<TableScan>> OpenScan(const ScanRequest& request) const override;

  Status CreateSchema(std::string_view catalog, std::string_view schema) override;
  Status DropSchema(std::string_view catalog, std::string_view schema) override;
  Status CreateTable(const TableDefinition& definition) override;
  Status DropTable(const QualifiedTableName& name) override;
  Status AlterTable(const QualifiedTableName& name, const TableChange& change) override;
  Status CreateView(const ViewDefinition& definition) override;
  Status DropView(const QualifiedTableName& name) override;
  Result<int64_t> AppendRows(const QualifiedTableName& name, std::vector<formats::ColumnBatch> batches) override;
  Result<int64_t> DeleteRows(const QualifiedTableName& name, const ScanPredicate& pushed, bool pushed_is_exact,
                             const RowSelector& select) override;
  Status RewriteRows(const QualifiedTableName& name, const ScanPredicate& pushed, std::string_view operation,
                     const RowRewriter& rewrite, const RowAppender& append) override;
  Result<std::string> ExecuteProcedure(const QualifiedTableName& name, std::string_view procedure,
                                       const std::map<std::string, Value>& arguments) override;

  // The shortest retention expire_snapshots and remove_orphan_files accept (Trino's catalog
  // properties iceberg.expire-snapshots.min-retention and iceberg.remove-orphan-files.min-retention,
  // 7 days by default): a shorter one could delete files a running query or writer still needs.
  void set_min_retention_ms(int64_t ms) { min_retention_ms_ = ms; }

 private:
  Status CheckCatalog(std::string_view catalog) const;

  std::string catalog_name_;
  std::unique_ptr<CatalogState> state_;
  int64_t min_retention_ms_ = iceberg::kDefaultMinRetentionMs;
};

}  // namespace floe::sql::iceberg_sql
