// SqlCatalog: the catalog's pointers and namespaces in a SQL database, in exactly the tables of
// Iceberg's JDBC catalog and PyIceberg's SqlCatalog, so a database written by either opens here
// and one written here opens there:
//   iceberg_tables (catalog_name, table_namespace, table_name, metadata_location,
//                   previous_metadata_location)
//   iceberg_namespace_properties (catalog_name, namespace, property_key, property_value)
// plus the JDBC catalog's later `iceberg_type` column of iceberg_tables ('TABLE', 'VIEW', or
// NULL for a table written before the column existed), added to a database that lacks it. Views
// are its 'VIEW' rows, as the JDBC catalog keeps them; the primary key keeps a name one kind.
// Namespaces are stored dotted ("a.b"); a namespace created without properties gets the
// ("exists", "true") row both of those catalogs write. A commit is one conditional UPDATE on
// the previous metadata location, so concurrent committers (threads, processes, hosts sharing
// PostgreSQL) never lose an update: exactly one wins each swap and the others see Conflict.
// Thread-safe: each call borrows a connection from the pool.
#pragma once

#include <memory>
#include <mutex>
#include <string>

#include "catalog/metadata_pointer_store.h"
#include "catalog/sql_connection.h"

namespace floe::catalog {

class SqlCatalog final : public MetadataPointerStore {
 public:
  static constexpr std::string_view kDefaultCatalogName = "default";

  // Connects with `connect` (OpenSqlite or OpenPostgres bound to a target) and creates the two
  // tables when missing. `serialize_writes` makes this process's writers take turns before the
  // database does: right for SQLite, whose one writer lock otherwise makes waiters sleep in
  // its busy handler; other processes are still kept apart by the database itself.
  static Result<std::unique_ptr<SqlCatalog>> Open(SqlConnectionPool::Connect connect,
                                                  std::string catalog_name = std::string(kDefaultCatalogName),
                                                  bool serialize_writes = false);

  Status CreateNamespace(const Namespace& ns, const Properties& properties) override;
  Result<std::vector<Namespace>> ListNamespaces(const Namespace& parent) override;
  Result<bool> NamespaceExists(const Namespace& ns) override;
  Result<Properties> LoadNamespaceProperties(const Namespace& ns) override;
  Result<PropertiesUpdate> UpdateNamespaceProperties(const Namespace& ns, const std::vector<std::string>& removals,
                                                     const Properties& updates) override;
  Status DropNamespace(const Namespace& ns) override;

  Result<std::vector<TableIdentifier>> ListTables(const Namespace& ns) override;
  Result<std::optional<std::string>> GetPointer(const TableIdentifier& id) override;
  Status SwapPointers(const std::vector<PointerSwap>& swaps) override;
  Status RenameTable(const TableIdentifier& from, const TableIdentifier& to) override;
  Status DeletePointer(const TableIdentifier& id) override;

  Result<std::vector<TableIdentifier>> ListViews(const Namespace& ns) override;
  Result<std::optional<std::string>> GetViewPointer(const TableIdentifier& id) override;
  Status SwapViewPointer(const PointerSwap& swap) override;
  Status RenameView(const TableIdentifier& from, const TableIdentifier& to) override;
  Status DeleteViewPointer(const TableIdentifier& id) override;

  const std::string& catalog_name() const { return catalog_name_; }

  // Every row of this catalog (its catalog_name) in the two tables: what moving the catalog to
  // another backing store carries (MoveCatalogStore).
  struct StoredPointer {
    std::string ns, name;
    SqlValue location, previous;
    bool view = false;
  };
  struct StoredProperty {
    std::string ns, key, value;
  };
  struct Rows {
    std::vector<StoredPointer> pointers;
    std::vector<StoredProperty> properties;
  };
  Result<Rows> ExportRows();
  // Adds `rows` in one transaction and answers how many were not here yet. A row already here
  // with the same values is kept, so a move tried again succeeds; a table, view or property
  // here with a different value is kCatalogStoreConflict and nothing changes.
  Result<int64_t> ImportRows(const Rows& rows);
  // Deletes `rows` in one transaction, each only while it still holds the exported values;
  // kCatalogStoreConflict, with nothing deleted, when one has changed since.
  Status DeleteRows(const Rows& rows);
  // Whether `other` reads the same database as this one (two URIs can name one PostgreSQL): a
  // marker row committed here under a catalog name of its own, looked for there, then removed.
  Result<bool> SameDatabase(SqlCatalog& other);

 private:
  SqlCatalog(std::unique_ptr<SqlConnectionPool> pool, std::string catalog_name, bool serialize_writes)
      : pool_(std::move(pool)), catalog_name_(std::move(catalog_name)), serialize_writes_(serialize_writes) {}

  std::unique_lock<std::mutex> WriterTurn() {
    return serialize_writes_ ? std::unique_lock<std::mutex>(write_mu_) : std::unique_lock<std::mutex>();
  }

  enum class Kind { kTable, kView };

  Status CreateTables();
  // The condition (" AND ...") that selects rows of `kind`. Without the iceberg_type column
  // every row is a table and there are no views.
  std::string KindFilter(Kind kind) const;
  Status RequireViews() const;
  Result<std::vector<TableIdentifier>> List(const Namespace& ns, Kind kind);
  Result<std::optional<std::string>> Get(const TableIdentifier& id, Kind kind);
  Status SwapOne(SqlConnection& connection, const PointerSwap& swap, Kind kind);
  Status Rename(const TableIdentifier& from, const TableIdentifier& to, Kind kind);
  Status Delete(const TableIdentifier& id, Kind kind);
  static std::unexpected<Error> NoSuchEntry(const TableIdentifier& id, Kind kind);
  // AlreadyExists naming what holds `id`: a table or a view.
  std::unexpected<Error> Taken(SqlConnection& connection, const TableIdentifier& id);

  std::unique_ptr<SqlConnectionPool> pool_;
  std::string catalog_name_;
  bool serialize_writes_;
  // Whether iceberg_tables has the iceberg_type column: false only when it could not be added
  // (a database this process may not alter); then views are refused, tables work as before.
  bool has_type_column_ = false;
  std::mutex write_mu_;  // Held by writers when serialize_writes_.
};

}  // namespace floe::catalog
