// The filesystem catalog and path-based table references: how `floe table ... --warehouse URI`
// and `floe table ... PATH` find a table without a catalog service.
//
// FileSystemCatalog maps NS.NAME to <warehouse>/NS/NAME (nested namespaces as folders), each a
// FileSystemTableOperations table (vN.metadata.json + version-hint.text, committed by atomic
// create-if-absent). OpenTableAt accepts a table folder (file:///..., s3://..., or a plain
// path) or one metadata.json file; metadata recorded with a location that no longer exists is
// mapped onto the folder given.
//
// Thread-safe: the catalog holds only its store, which is thread-safe.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "iceberg/table.h"

namespace floe::iceberg {

struct TableIdentifier {
  std::vector<std::string> namespace_parts;
  std::string name;

  // "db.events" -> {db}, events; "a.b.t" -> {a, b}, t.
  static Result<TableIdentifier> Parse(std::string_view text);
  std::string ToString() const;
  std::string FolderKey() const;  // "db/events"
};

class FileSystemCatalog {
 public:
  static Result<std::unique_ptr<FileSystemCatalog>> Open(std::string_view warehouse_uri);
  explicit FileSystemCatalog(std::shared_ptr<io::ObjectStore> store) : store_(std::move(store)) {}

  std::shared_ptr<TableOperations> Operations(const TableIdentifier& id) const;
  Result<std::unique_ptr<Table>> LoadTable(const TableIdentifier& id) const;
  Result<std::unique_ptr<Table>> CreateTable(const TableIdentifier& id, const Schema& schema,
                                             const std::vector<PartitionField>& partition_fields,
                                             std::map<std::string, std::string> properties = {}) const;
  io::ObjectStore& store() { return *store_; }

 private:
  std::shared_ptr<io::ObjectStore> store_;
};

// A table from a folder or metadata.json path/URI.
Result<std::unique_ptr<Table>> OpenTableAt(std::string_view path_or_uri);
// The operations of that table, without loading it (NotFound for a missing local folder).
Result<std::shared_ptr<TableOperations>> OpenTableOperationsAt(std::string_view path_or_uri);

// Whether `text` names a path rather than NS.NAME: it has a '/' or a URI scheme.
bool LooksLikePath(std::string_view text);

}  // namespace floe::iceberg
