// A SqlCatalog that lets one user's statements touch only the namespaces (SQL schemas) its role
// and grants allow (issue #27; auth/authorize.h): it wraps the query server's catalog for the
// length of one RunStatements call and checks every call the engine makes before passing it on.
//
//   data scans (SELECT, and the rows an UPDATE/DELETE/INSERT ... SELECT reads)   read
//   AppendRows, DeleteRows, RewriteRows (INSERT, DELETE, UPDATE, MERGE)         write
//   CreateSchema, CreateTable (CREATE SCHEMA/TABLE, CREATE TABLE AS)              create
//   DropSchema, DropTable (DROP SCHEMA/TABLE)                                     delete
//   AlterTable, ExecuteProcedure (ALTER TABLE, ALTER TABLE ... EXECUTE)           alter
//   CreateView (CREATE VIEW; OR REPLACE of an existing view also alter)           create
//   DropView (DROP VIEW)                                                          delete
//
// A view runs with its reader's rights: reading one scans its tables, each checked as above.
// A namespace is visible (listed by SchemaNames, its tables by TableNames, their columns by
// GetTable) to a user that may do any operation in it. Reading a table by location
// (iceberg_scan) names no namespace, so it needs read on every namespace. A refusal is
// kPermissionDenied: PostgreSQL SQLSTATE 42501, Trino PERMISSION_DENIED. The PostgreSQL
// catalog emulation (psql's \dt and friends) lists names through a read-only one. Borrows the
// catalog and the principal; the thread that runs the statements uses it, as it does the catalog.
#pragma once

#include "auth/authorize.h"
#include "sql/catalog/catalog.h"

namespace floe::serve {

class AuthorizingCatalog final : public sql::SqlCatalog {
 public:
  AuthorizingCatalog(sql::SqlCatalog& inner, const auth::Principal& principal)
      : inner_(inner), writable_(&inner), principal_(principal) {}
  // Read-only: every write is kNotImplemented, as the base catalog's.
  AuthorizingCatalog(const sql::SqlCatalog& inner, const auth::Principal& principal)
      : inner_(inner), principal_(principal) {}

  std::vector<std::string> CatalogNames() const override;
  Result<std::vector<std::string>> SchemaNames(std::string_view catalog) const override;
  Result<std::vector<std::string>> TableNames(std::string_view catalog, std::string_view schema) const override;
  Result<std::shared_ptr<const sql::CatalogTable>> GetTable(const sql::QualifiedTableName& name,
                                                            const sql::TableVersion& version) const override;
  Result<std::shared_ptr<const sql::CatalogTable>> GetTableAt(std::string_view location,
                                                              const sql::TableVersion& version) const override;
  Result<std::vector<std::string>> ViewNames(std::string_view catalog, std::string_view schema) const override;
  Result<std::shared_ptr<const sql::CatalogView>> GetView(const sql::QualifiedTableName& name) const override;
  Result<std::unique_ptr<sql::TableScan>> OpenScan(const sql::ScanRequest& request) const override;

  Status CreateSchema(std::string_view catalog, std::string_view schema) override;
  Status DropSchema(std::string_view catalog, std::string_view schema) override;
  Status CreateTable(const sql::TableDefinition& definition) override;
  Status DropTable(const sql::QualifiedTableName& name) override;
  Status AlterTable(const sql::QualifiedTableName& name, const sql::TableChange& change) override;
  Status CreateView(const sql::ViewDefinition& definition) override;
  Status DropView(const sql::QualifiedTableName& name) override;
  Result<int64_t> AppendRows(const sql::QualifiedTableName& name, std::vector<formats::ColumnBatch> batches) override;
  Result<int64_t> DeleteRows(const sql::QualifiedTableName& name, const sql::ScanPredicate& pushed, bool pushed_is_exact,
                             const RowSelector& select) override;
  Status RewriteRows(const sql::QualifiedTableName& name, const sql::ScanPredicate& pushed, std::string_view operation,
                     const RowRewriter& rewrite, const RowAppender& append) override;
  Result<std::string> ExecuteProcedure(const sql::QualifiedTableName& name, std::string_view procedure,
                                       const std::map<std::string, sql::Value>& arguments) override;

 private:
  // OK, or kPermissionDenied naming the user, the operation and the namespace.
  Status Check(auth::Operation operation, std::string_view schema) const;
  bool Visible(std::string_view schema) const;

  const sql::SqlCatalog& inner_;
  sql::SqlCatalog* writable_ = nullptr;  // Null: read-only.
  const auth::Principal& principal_;
};

}  // namespace floe::serve
