// An in-memory SqlCatalog for tests, `floe sql` without a catalog, and planning without
// storage: schemas and tables with their rows held as ColumnBatches (in storage form, as a
// real table's files decode). Scans split each table's rows into splits of at most
// split_rows() rows, so parallel paths are exercised; writes (CREATE, DROP, ALTER, INSERT)
// change the catalog. Thread-safe: readers and writers may call from any thread.
#pragma once

#include <map>
#include <memory>
#include <shared_mutex>

#include "sql/catalog/catalog.h"

namespace floe::sql {

class MemoryCatalog final : public SqlCatalog {
 public:
  explicit MemoryCatalog(std::string catalog_name = "floe") : catalog_name_(std::move(catalog_name)) {}

  void AddSchema(const std::string& schema);
  // Adds (or replaces) a table; its schema is added too. `location` registers it for
  // iceberg_scan() as well.
  void AddTable(CatalogTable table);
  // Rows per split when scanning (default 4096).
  void set_split_rows(int64_t rows) { split_rows_ = rows > 0 ? rows : 1; }
  int64_t split_rows() const { return split_rows_; }

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

 private:
  struct StoredTable {
    std::shared_ptr<const CatalogTable> table;
    std::vector<std::shared_ptr<const formats::ColumnBatch>> batches;
  };

  Result<StoredTable*> Find(const QualifiedTableName& name);
  Result<const StoredTable*> Find(const QualifiedTableName& name) const;

  // DELETE, UPDATE and MERGE read a snapshot of the table without holding the lock (their
  // subqueries may read the same table), then swap their result in under it if nothing
  // changed meanwhile (Unchanged: Conflict otherwise), as an Iceberg commit does.
  struct Snapshot {
    std::shared_ptr<const CatalogTable> table;
    std::vector<std::shared_ptr<const formats::ColumnBatch>> batches;
  };
  Result<Snapshot> Read(const QualifiedTableName& name) const;
  Result<StoredTable*> Unchanged(const QualifiedTableName& name, const Snapshot& read);  // Under the lock.

  std::string catalog_name_;
  int64_t split_rows_ = 4096;
  // Behind a pointer so the catalog stays movable.
  std::unique_ptr<std::shared_mutex> mutex_ = std::make_unique<std::shared_mutex>();
  std::map<std::string, std::map<std::string, StoredTable>> schemas_;
  // Views by schema, then name; a schema with views is in schemas_ too.
  std::map<std::string, std::map<std::string, std::shared_ptr<const CatalogView>>> views_;
};

}  // namespace floe::sql
