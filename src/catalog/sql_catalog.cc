#include "catalog/sql_catalog.h"

#include <chrono>
#include <random>
#include <set>

namespace floe::catalog {
namespace {

// The DDL of Iceberg's JDBC catalog (schema V1: PyIceberg's SqlCatalog's plus `iceberg_type`,
// which tells views from tables); both SQLite and PostgreSQL accept it.
constexpr std::string_view kCreateTables = R"sql(
CREATE TABLE IF NOT EXISTS iceberg_tables (
  catalog_name VARCHAR(255) NOT NULL,
  table_namespace VARCHAR(255) NOT NULL,
  table_name VARCHAR(255) NOT NULL,
  metadata_location VARCHAR(1000),
  previous_metadata_location VARCHAR(1000),
  iceberg_type VARCHAR(5),
  PRIMARY KEY (catalog_name, table_namespace, table_name)
))sql";

constexpr std::string_view kCreateNamespaceProperties = R"sql(
CREATE TABLE IF NOT EXISTS iceberg_namespace_properties (
  catalog_name VARCHAR(255) NOT NULL,
  namespace VARCHAR(255) NOT NULL,
  property_key VARCHAR(255) NOT NULL,
  property_value VARCHAR(1000) NOT NULL,
  PRIMARY KEY (catalog_name, namespace, property_key)
))sql";

// The LIKE pattern of every namespace nested under `ns` ("a.b" → "a.b.%"), with '!' escaping.
std::string ChildPattern(const Namespace& ns) {
  std::string pattern;
  for (char c : NamespaceToString(ns)) {
    if (c == '%' || c == '_' || c == '!') {
      pattern += '!';
    }
    pattern += c;
  }
  return pattern + ".%";
}

std::unexpected<Error> NoSuchNamespace(const Namespace& ns) {
  return CodedError(ErrorCode::kNoSuchNamespace, "no such namespace: {}", NamespaceToString(ns));
}

// Runs `body` in a write transaction, rolling back when it fails.
template <typename Body>
Status InWriteTransaction(SqlConnection& connection, Body&& body) {
  FLOE_RETURN_IF_ERROR(connection.BeginWrite());
  Status status = body();
  if (!status) {
    (void)connection.Rollback();
    return status;
  }
  Status committed = connection.Commit();
  if (!committed) {
    (void)connection.Rollback();
  }
  return committed;
}

}  // namespace

Result<std::unique_ptr<SqlCatalog>> SqlCatalog::Open(SqlConnectionPool::Connect connect, std::string catalog_name,
                                                     bool serialize_writes) {
  auto pool = std::make_unique<SqlConnectionPool>(std::move(connect));
  std::unique_ptr<SqlCatalog> catalog(new SqlCatalog(std::move(pool), std::move(catalog_name), serialize_writes));
  FLOE_RETURN_IF_ERROR(catalog->CreateTables());
  return catalog;
}

Status SqlCatalog::CreateTables() {
  FLOE_ASSIGN_OR_RETURN(auto connection, pool_->Acquire());
  // Two processes creating the tables at once can collide on PostgreSQL's catalog; the loser
  // finds them created on its second try.
  for (int attempt = 0;; ++attempt) {
    auto created = connection->Execute(kCreateTables);
    if (created) {
      created = connection->Execute(kCreateNamespaceProperties);
    }
    if (created) {
      // A database of PyIceberg or of the JDBC catalog's schema V0 lacks the type column: add it,
      // as the JDBC catalog's V1 migration does. Rows it already holds are tables (NULL).
      if (connection->Query("SELECT iceberg_type FROM iceberg_tables WHERE 1 = 0")) {
        has_type_column_ = true;
      } else if (connection->Execute("ALTER TABLE iceberg_tables ADD COLUMN iceberg_type VARCHAR(5)")) {
        has_type_column_ = true;
      } else {
        // Another process may have added it meanwhile; otherwise this database has no views.
        has_type_column_ = connection->Query("SELECT iceberg_type FROM iceberg_tables WHERE 1 = 0").has_value();
      }
      return OkStatus();
    }
    if (attempt == 2) {
      return std::unexpected(std::move(created).error());
    }
  }
}

Status SqlCatalog::CreateNamespace(const Namespace& ns, const Properties& properties) {
  FLOE_RETURN_IF_ERROR(ValidateNamespace(ns));
  if (ns.empty()) {
    return InvalidArgument("cannot create the root namespace");
  }
  FLOE_ASSIGN_OR_RETURN(bool exists, NamespaceExists(ns));
  if (exists) {
    return AlreadyExists("namespace already exists: {}", NamespaceToString(ns));
  }
  FLOE_ASSIGN_OR_RETURN(auto connection, pool_->Acquire());
  auto turn = WriterTurn();
  std::string name = NamespaceToString(ns);
  Properties rows = properties.empty() ? Properties{{"exists", "true"}} : properties;
  Status status = InWriteTransaction(*connection, [&]() -> Status {
    for (const auto& [key, value] : rows) {
      FLOE_RETURN_IF_ERROR(connection->Execute(
          "INSERT INTO iceberg_namespace_properties (catalog_name, namespace, property_key, property_value) "
          "VALUES (?, ?, ?, ?)",
          {catalog_name_, name, key, value}));
    }
    return OkStatus();
  });
  if (!status && status.error().kind() == ErrorKind::kAlreadyExists) {
    return AlreadyExists("namespace already exists: {}", name);
  }
  return status;
}

Result<std::vector<Namespace>> SqlCatalog::ListNamespaces(const Namespace& parent) {
  if (!parent.empty()) {
    FLOE_ASSIGN_OR_RETURN(bool exists, NamespaceExists(parent));
    if (!exists) {
      return NoSuchNamespace(parent);
    }
  }
  FLOE_ASSIGN_OR_RETURN(auto connection, pool_->Acquire());
  FLOE_ASSIGN_OR_RETURN(auto rows, connection->Query(
                                       "SELECT DISTINCT table_namespace FROM iceberg_tables WHERE catalog_name = ? "
                                       "UNION SELECT DISTINCT namespace FROM iceberg_namespace_properties "
                                       "WHERE catalog_name = ?",
                                       {catalog_name_, catalog_name_}));
  std::set<Namespace> children;
  for (const SqlRow& row : rows) {
    if (!row[0]) {
      continue;
    }
    auto ns = NamespaceFromString(*row[0]);
    if (!ns || ns->size() <= parent.size() || !std::equal(parent.begin(), parent.end(), ns->begin())) {
      continue;
    }
    children.insert(Namespace(ns->begin(), ns->begin() + static_cast<std::ptrdiff_t>(parent.size() + 1)));
  }
  return std::vector<Namespace>(children.begin(), children.end());
}

Result<bool> SqlCatalog::NamespaceExists(const Namespace& ns) {
  if (ns.empty()) {
    return true;
  }
  FLOE_ASSIGN_OR_RETURN(auto connection, pool_->Acquire());
  std::string name = NamespaceToString(ns);
  std::string children = ChildPattern(ns);
  FLOE_ASSIGN_OR_RETURN(auto rows,
                        connection->Query("SELECT 1 FROM iceberg_namespace_properties WHERE catalog_name = ? AND "
                                          "(namespace = ? OR namespace LIKE ? ESCAPE '!') "
                                          "UNION ALL SELECT 1 FROM iceberg_tables WHERE catalog_name = ? AND "
                                          "(table_namespace = ? OR table_namespace LIKE ? ESCAPE '!') LIMIT 1",
                                          {catalog_name_, name, children, catalog_name_, name, children}));
  return !rows.empty();
}

Result<Properties> SqlCatalog::LoadNamespaceProperties(const Namespace& ns) {
  FLOE_ASSIGN_OR_RETURN(bool exists, NamespaceExists(ns));
  if (!exists) {
    return NoSuchNamespace(ns);
  }
  FLOE_ASSIGN_OR_RETURN(auto connection, pool_->Acquire());
  FLOE_ASSIGN_OR_RETURN(auto rows, connection->Query("SELECT property_key, property_value FROM "
                                                     "iceberg_namespace_properties WHERE catalog_name = ? AND "
                                                     "namespace = ?",
                                                     {catalog_name_, NamespaceToString(ns)}));
  Properties properties;
  for (const SqlRow& row : rows) {
    properties[row[0].value_or("")] = row[1].value_or("");
  }
  return properties;
}

Result<PropertiesUpdate> SqlCatalog::UpdateNamespaceProperties(const Namespace& ns,
                                                               const std::vector<std::string>& removals,
                                                               const Properties& updates) {
  for (const std::string& key : removals) {
    if (updates.contains(key)) {
      return InvalidArgument("property '{}' is both updated and removed", key);
    }
  }
  FLOE_ASSIGN_OR_RETURN(bool exists, NamespaceExists(ns));
  if (!exists) {
    return NoSuchNamespace(ns);
  }
  std::string name = NamespaceToString(ns);
  PropertiesUpdate result;
  FLOE_ASSIGN_OR_RETURN(auto connection, pool_->Acquire());
  auto turn = WriterTurn();
  FLOE_RETURN_IF_ERROR(InWriteTransaction(*connection, [&]() -> Status {
    result = {};
    for (const std::string& key : removals) {
      FLOE_ASSIGN_OR_RETURN(int64_t changed,
                            connection->Execute("DELETE FROM iceberg_namespace_properties WHERE catalog_name = ? "
                                                "AND namespace = ? AND property_key = ?",
                                                {catalog_name_, name, key}));
      (changed > 0 ? result.removed : result.missing).push_back(key);
    }
    for (const auto& [key, value] : updates) {
      FLOE_ASSIGN_OR_RETURN(int64_t changed,
                            connection->Execute("UPDATE iceberg_namespace_properties SET property_value = ? WHERE "
                                                "catalog_name = ? AND namespace = ? AND property_key = ?",
                                                {value, catalog_name_, name, key}));
      if (changed == 0) {
        FLOE_RETURN_IF_ERROR(connection->Execute(
            "INSERT INTO iceberg_namespace_properties (catalog_name, namespace, property_key, property_value) "
            "VALUES (?, ?, ?, ?)",
            {catalog_name_, name, key, value}));
      }
      result.updated.push_back(key);
    }
    return OkStatus();
  }));
  return result;
}

Status SqlCatalog::DropNamespace(const Namespace& ns) {
  FLOE_ASSIGN_OR_RETURN(bool exists, NamespaceExists(ns));
  if (!exists || ns.empty()) {
    return NoSuchNamespace(ns);
  }
  FLOE_ASSIGN_OR_RETURN(auto connection, pool_->Acquire());
  auto turn = WriterTurn();
  std::string name = NamespaceToString(ns);
  return InWriteTransaction(*connection, [&]() -> Status {
    FLOE_ASSIGN_OR_RETURN(auto tables,
                          connection->Query("SELECT 1 FROM iceberg_tables WHERE catalog_name = ? AND "
                                            "(table_namespace = ? OR table_namespace LIKE ? ESCAPE '!') LIMIT 1",
                                            {catalog_name_, name, ChildPattern(ns)}));
    if (!tables.empty()) {
      return CodedError(ErrorCode::kNamespaceNotEmpty, "namespace not empty: {} holds tables or views", name);
    }
    FLOE_ASSIGN_OR_RETURN(auto children,
                          connection->Query("SELECT 1 FROM iceberg_namespace_properties WHERE catalog_name = ? AND "
                                            "namespace LIKE ? ESCAPE '!' LIMIT 1",
                                            {catalog_name_, ChildPattern(ns)}));
    if (!children.empty()) {
      return CodedError(ErrorCode::kNamespaceNotEmpty, "namespace not empty: {} holds namespaces", name);
    }
    FLOE_RETURN_IF_ERROR(connection->Execute(
        "DELETE FROM iceberg_namespace_properties WHERE catalog_name = ? AND namespace = ?", {catalog_name_, name}));
    return OkStatus();
  });
}

std::string SqlCatalog::KindFilter(Kind kind) const {
  if (kind == Kind::kView) {
    return " AND iceberg_type = 'VIEW'";
  }
  return has_type_column_ ? " AND (iceberg_type = 'TABLE' OR iceberg_type IS NULL)" : "";
}

Status SqlCatalog::RequireViews() const {
  if (!has_type_column_) {
    return NotImplemented("this catalog database has no iceberg_type column (it could not be added), so no views");
  }
  return OkStatus();
}

std::unexpected<Error> SqlCatalog::NoSuchEntry(const TableIdentifier& id, Kind kind) {
  return kind == Kind::kView ? CodedError(ErrorCode::kNoSuchView, "no such view: {}", IdentifierToString(id))
                             : CodedError(ErrorCode::kNoSuchTable, "no such table: {}", IdentifierToString(id));
}

std::unexpected<Error> SqlCatalog::Taken(SqlConnection& connection, const TableIdentifier& id) {
  std::string_view what = "table";
  if (has_type_column_) {
    auto rows = connection.Query(
        "SELECT iceberg_type FROM iceberg_tables WHERE catalog_name = ? AND "
        "table_namespace = ? AND table_name = ?",
        {catalog_name_, NamespaceToString(id.ns), id.name});
    if (rows && !rows->empty() && (*rows)[0][0] == "VIEW") {
      what = "view";
    }
  }
  return AlreadyExists("{} already exists: {}", what, IdentifierToString(id));
}

Result<std::vector<TableIdentifier>> SqlCatalog::List(const Namespace& ns, Kind kind) {
  FLOE_ASSIGN_OR_RETURN(bool exists, NamespaceExists(ns));
  if (!exists) {
    return NoSuchNamespace(ns);
  }
  FLOE_ASSIGN_OR_RETURN(auto connection, pool_->Acquire());
  FLOE_ASSIGN_OR_RETURN(auto rows, connection->Query("SELECT table_name FROM iceberg_tables WHERE catalog_name = ? "
                                                     "AND table_namespace = ?" +
                                                         KindFilter(kind) + " ORDER BY table_name",
                                                     {catalog_name_, NamespaceToString(ns)}));
  std::vector<TableIdentifier> tables;
  for (const SqlRow& row : rows) {
    tables.push_back({ns, row[0].value_or("")});
  }
  return tables;
}

Result<std::optional<std::string>> SqlCatalog::Get(const TableIdentifier& id, Kind kind) {
  FLOE_ASSIGN_OR_RETURN(auto connection, pool_->Acquire());
  FLOE_ASSIGN_OR_RETURN(auto rows, connection->Query("SELECT metadata_location FROM iceberg_tables WHERE "
                                                     "catalog_name = ? AND table_namespace = ? AND table_name = ?" +
                                                         KindFilter(kind),
                                                     {catalog_name_, NamespaceToString(id.ns), id.name}));
  if (rows.empty()) {
    return std::optional<std::string>();
  }
  if (!rows[0][0]) {
    return Corruption("{} has a null metadata_location", IdentifierToString(id));
  }
  return rows[0][0];
}

Status SqlCatalog::SwapOne(SqlConnection& connection, const PointerSwap& swap, Kind kind) {
  std::string ns = NamespaceToString(swap.id.ns);
  if (!swap.expected) {
    auto inserted =
        has_type_column_
            ? connection.Execute(
                  "INSERT INTO iceberg_tables (catalog_name, table_namespace, table_name, "
                  "metadata_location, previous_metadata_location, iceberg_type) "
                  "VALUES (?, ?, ?, ?, NULL, ?)",
                  {catalog_name_, ns, swap.id.name, swap.location, std::string(kind == Kind::kView ? "VIEW" : "TABLE")})
            : connection.Execute(
                  "INSERT INTO iceberg_tables (catalog_name, table_namespace, table_name, "
                  "metadata_location, previous_metadata_location) VALUES (?, ?, ?, ?, NULL)",
                  {catalog_name_, ns, swap.id.name, swap.location});
    if (!inserted && inserted.error().kind() == ErrorKind::kAlreadyExists) {
      return Taken(connection, swap.id);
    }
    if (!inserted) {
      return std::unexpected(std::move(inserted).error());
    }
    return OkStatus();
  }
  FLOE_ASSIGN_OR_RETURN(
      int64_t changed,
      connection.Execute("UPDATE iceberg_tables SET metadata_location = ?, "
                         "previous_metadata_location = ? WHERE catalog_name = ? AND "
                         "table_namespace = ? AND table_name = ? AND metadata_location = ?" +
                             KindFilter(kind),
                         {swap.location, *swap.expected, catalog_name_, ns, swap.id.name, *swap.expected}));
  if (changed != 1) {
    return Conflict("commit of {} lost a race: its metadata is no longer {}", IdentifierToString(swap.id),
                    *swap.expected);
  }
  return OkStatus();
}

Status SqlCatalog::Rename(const TableIdentifier& from, const TableIdentifier& to, Kind kind) {
  FLOE_ASSIGN_OR_RETURN(auto connection, pool_->Acquire());
  auto turn = WriterTurn();
  auto changed = connection->Execute(
      "UPDATE iceberg_tables SET table_namespace = ?, table_name = ? WHERE catalog_name = ? AND "
      "table_namespace = ? AND table_name = ?" +
          KindFilter(kind),
      {NamespaceToString(to.ns), to.name, catalog_name_, NamespaceToString(from.ns), from.name});
  if (!changed) {
    if (changed.error().kind() == ErrorKind::kAlreadyExists) {
      return Taken(*connection, to);
    }
    return std::unexpected(changed.error());
  }
  if (*changed == 0) {
    return NoSuchEntry(from, kind);
  }
  return OkStatus();
}

Status SqlCatalog::Delete(const TableIdentifier& id, Kind kind) {
  FLOE_ASSIGN_OR_RETURN(auto connection, pool_->Acquire());
  auto turn = WriterTurn();
  FLOE_ASSIGN_OR_RETURN(int64_t changed, connection->Execute("DELETE FROM iceberg_tables WHERE catalog_name = ? AND "
                                                             "table_namespace = ? AND table_name = ?" +
                                                                 KindFilter(kind),
                                                             {catalog_name_, NamespaceToString(id.ns), id.name}));
  if (changed == 0) {
    return NoSuchEntry(id, kind);
  }
  return OkStatus();
}

Result<std::vector<TableIdentifier>> SqlCatalog::ListTables(const Namespace& ns) { return List(ns, Kind::kTable); }

Result<std::optional<std::string>> SqlCatalog::GetPointer(const TableIdentifier& id) { return Get(id, Kind::kTable); }

Status SqlCatalog::SwapPointers(const std::vector<PointerSwap>& swaps) {
  FLOE_ASSIGN_OR_RETURN(auto connection, pool_->Acquire());
  auto turn = WriterTurn();
  if (swaps.size() == 1) {
    return SwapOne(*connection, swaps[0], Kind::kTable);  // One statement is atomic without a transaction.
  }
  return InWriteTransaction(*connection, [&]() -> Status {
    for (const PointerSwap& swap : swaps) {
      FLOE_RETURN_IF_ERROR(SwapOne(*connection, swap, Kind::kTable));
    }
    return OkStatus();
  });
}

Status SqlCatalog::RenameTable(const TableIdentifier& from, const TableIdentifier& to) {
  return Rename(from, to, Kind::kTable);
}

Status SqlCatalog::DeletePointer(const TableIdentifier& id) { return Delete(id, Kind::kTable); }

Result<std::vector<TableIdentifier>> SqlCatalog::ListViews(const Namespace& ns) {
  if (!has_type_column_) {
    FLOE_RETURN_IF_ERROR(List(ns, Kind::kTable));  // The namespace must exist all the same.
    return std::vector<TableIdentifier>();
  }
  return List(ns, Kind::kView);
}

Result<std::optional<std::string>> SqlCatalog::GetViewPointer(const TableIdentifier& id) {
  if (!has_type_column_) {
    return std::optional<std::string>();
  }
  return Get(id, Kind::kView);
}

Status SqlCatalog::SwapViewPointer(const PointerSwap& swap) {
  FLOE_RETURN_IF_ERROR(RequireViews());
  FLOE_ASSIGN_OR_RETURN(auto connection, pool_->Acquire());
  auto turn = WriterTurn();
  return SwapOne(*connection, swap, Kind::kView);
}

Status SqlCatalog::RenameView(const TableIdentifier& from, const TableIdentifier& to) {
  FLOE_RETURN_IF_ERROR(RequireViews());
  return Rename(from, to, Kind::kView);
}

Status SqlCatalog::DeleteViewPointer(const TableIdentifier& id) {
  FLOE_RETURN_IF_ERROR(RequireViews());
  return Delete(id, Kind::kView);
}

Result<SqlCatalog::Rows> SqlCatalog::ExportRows() {
  FLOE_ASSIGN_OR_RETURN(auto connection, pool_->Acquire());
  Rows out;
  std::string type = has_type_column_ ? "iceberg_type" : "NULL";
  FLOE_ASSIGN_OR_RETURN(auto pointers, connection->Query("SELECT table_namespace, table_name, metadata_location, "
                                                         "previous_metadata_location, " +
                                                             type +
                                                             " FROM iceberg_tables WHERE catalog_name = ? "
                                                             "ORDER BY table_namespace, table_name",
                                                         {catalog_name_}));
  for (SqlRow& row : pointers) {
    out.pointers.push_back({.ns = row[0].value_or(""),
                            .name = row[1].value_or(""),
                            .location = std::move(row[2]),
                            .previous = std::move(row[3]),
                            .view = row[4] == "VIEW"});
  }
  FLOE_ASSIGN_OR_RETURN(auto properties, connection->Query("SELECT namespace, property_key, property_value FROM "
                                                           "iceberg_namespace_properties WHERE catalog_name = ? "
                                                           "ORDER BY namespace, property_key",
                                                           {catalog_name_}));
  for (const SqlRow& row : properties) {
    out.properties.push_back({row[0].value_or(""), row[1].value_or(""), row[2].value_or("")});
  }
  return out;
}

Result<int64_t> SqlCatalog::ImportRows(const Rows& rows) {
  for (const StoredPointer& pointer : rows.pointers) {
    if (pointer.view && !has_type_column_) {
      return NotImplemented("view {}.{} cannot be stored here: this database has no iceberg_type column", pointer.ns,
                            pointer.name);
    }
  }
  FLOE_ASSIGN_OR_RETURN(auto connection, pool_->Acquire());
  auto turn = WriterTurn();
  int64_t added = 0;
  std::string type = has_type_column_ ? "iceberg_type" : "NULL";
  FLOE_RETURN_IF_ERROR(InWriteTransaction(*connection, [&]() -> Status {
    added = 0;
    for (const StoredProperty& property : rows.properties) {
      FLOE_ASSIGN_OR_RETURN(auto here,
                            connection->Query("SELECT property_value FROM iceberg_namespace_properties "
                                              "WHERE catalog_name = ? AND namespace = ? AND property_key = ?",
                                              {catalog_name_, property.ns, property.key}));
      if (!here.empty()) {
        if (here[0][0] != property.value) {
          return CodedError(ErrorCode::kCatalogStoreConflict,
                            "the target store already has namespace {}'s property '{}' as '{}', not '{}'", property.ns,
                            property.key, here[0][0].value_or("NULL"), property.value);
        }
        continue;
      }
      FLOE_RETURN_IF_ERROR(connection->Execute(
          "INSERT INTO iceberg_namespace_properties (catalog_name, namespace, property_key, property_value) "
          "VALUES (?, ?, ?, ?)",
          {catalog_name_, property.ns, property.key, property.value}));
      ++added;
    }
    for (const StoredPointer& pointer : rows.pointers) {
      FLOE_ASSIGN_OR_RETURN(auto here, connection->Query("SELECT metadata_location, " + type +
                                                             " FROM iceberg_tables WHERE catalog_name = ? AND "
                                                             "table_namespace = ? AND table_name = ?",
                                                         {catalog_name_, pointer.ns, pointer.name}));
      std::string_view kind = pointer.view ? "view" : "table";
      if (!here.empty()) {
        bool view_here = here[0][1] == "VIEW";
        if (here[0][0] != pointer.location || view_here != pointer.view) {
          return CodedError(ErrorCode::kCatalogStoreConflict,
                            "the target store already has {} {}.{} at {}{}, not {}: it holds another catalog's "
                            "history of it, which a move must not overwrite",
                            view_here ? "view" : "table", pointer.ns, pointer.name, here[0][0].value_or("NULL"),
                            view_here != pointer.view ? fmt::format(" (moving a {})", kind) : "",
                            pointer.location.value_or("NULL"));
        }
        continue;
      }
      if (has_type_column_) {
        FLOE_RETURN_IF_ERROR(connection->Execute(
            "INSERT INTO iceberg_tables (catalog_name, table_namespace, table_name, metadata_location, "
            "previous_metadata_location, iceberg_type) VALUES (?, ?, ?, ?, ?, ?)",
            {catalog_name_, pointer.ns, pointer.name, pointer.location, pointer.previous,
             std::string(pointer.view ? "VIEW" : "TABLE")}));
      } else {
        FLOE_RETURN_IF_ERROR(connection->Execute(
            "INSERT INTO iceberg_tables (catalog_name, table_namespace, table_name, metadata_location, "
            "previous_metadata_location) VALUES (?, ?, ?, ?, ?)",
            {catalog_name_, pointer.ns, pointer.name, pointer.location, pointer.previous}));
      }
      ++added;
    }
    return OkStatus();
  }));
  return added;
}

Status SqlCatalog::DeleteRows(const Rows& rows) {
  FLOE_ASSIGN_OR_RETURN(auto connection, pool_->Acquire());
  auto turn = WriterTurn();
  return InWriteTransaction(*connection, [&]() -> Status {
    for (const StoredPointer& pointer : rows.pointers) {
      FLOE_ASSIGN_OR_RETURN(int64_t changed,
                            connection->Execute("DELETE FROM iceberg_tables WHERE catalog_name = ? AND "
                                                "table_namespace = ? AND table_name = ? AND metadata_location = ?",
                                                {catalog_name_, pointer.ns, pointer.name, pointer.location}));
      if (changed != 1) {
        return CodedError(ErrorCode::kCatalogStoreConflict,
                          "{}.{} changed in the old store while its pointer was being moved", pointer.ns, pointer.name);
      }
    }
    for (const StoredProperty& property : rows.properties) {
      FLOE_RETURN_IF_ERROR(
          connection->Execute("DELETE FROM iceberg_namespace_properties WHERE catalog_name = ? AND namespace = ? "
                              "AND property_key = ? AND property_value = ?",
                              {catalog_name_, property.ns, property.key, property.value}));
    }
    return OkStatus();
  });
}

Result<bool> SqlCatalog::SameDatabase(SqlCatalog& other) {
  std::random_device device;
  std::string marker = fmt::format("{:016x}{:08x}", std::uniform_int_distribution<uint64_t>()(device),
                                   static_cast<uint32_t>(std::chrono::steady_clock::now().time_since_epoch().count()));
  // A catalog name no catalog uses, so no reader of either store ever lists the marker.
  const std::string probe_catalog = "floe-store-probe";
  {
    FLOE_ASSIGN_OR_RETURN(auto connection, pool_->Acquire());
    auto turn = WriterTurn();
    FLOE_RETURN_IF_ERROR(connection->Execute(
        "INSERT INTO iceberg_namespace_properties (catalog_name, namespace, property_key, property_value) "
        "VALUES (?, ?, 'probe', 'true')",
        {probe_catalog, marker}));
  }
  Result<std::vector<SqlRow>> seen = [&]() -> Result<std::vector<SqlRow>> {
    FLOE_ASSIGN_OR_RETURN(auto connection, other.pool_->Acquire());
    return connection->Query("SELECT 1 FROM iceberg_namespace_properties WHERE catalog_name = ? AND namespace = ?",
                             {probe_catalog, marker});
  }();
  FLOE_ASSIGN_OR_RETURN(auto connection, pool_->Acquire());
  auto turn = WriterTurn();
  FLOE_RETURN_IF_ERROR(connection->Execute(
      "DELETE FROM iceberg_namespace_properties WHERE catalog_name = ? AND namespace = ?", {probe_catalog, marker}));
  FLOE_RETURN_IF_ERROR(seen);
  return !seen->empty();
}

}  // namespace floe::catalog
