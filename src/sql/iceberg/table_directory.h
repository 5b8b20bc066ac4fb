// TableDirectory: where the SQL catalog's schemas and tables live — a catalog service
// (sqlite:, postgresql://, http(s)://: schemas are its namespaces) or a plain warehouse folder
// (file:// or s3://: schemas are its top-level folders, tables the folders under them that hold
// Iceberg metadata, found by listing). Either way a table is reached through
// iceberg::TableOperations, whose Refresh() is the per-query check of the catalog pointer.
// Implementations are thread-safe.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "base/result.h"
#include "iceberg/partition_spec.h"
#include "iceberg/schema.h"
#include "iceberg/table_operations.h"
#include "iceberg/view_metadata.h"

namespace floe::sql::iceberg_sql {

class TableDirectory {
 public:
  virtual ~TableDirectory() = default;

  virtual Result<std::vector<std::string>> SchemaNames() = 0;
  virtual Result<std::vector<std::string>> TableNames(const std::string& schema) = 0;
  // NotFound when there is no such table.
  virtual Result<std::shared_ptr<iceberg::TableOperations>> Open(const std::string& schema, const std::string& table) = 0;

  virtual Status CreateSchema(const std::string& schema) = 0;
  virtual Status DropSchema(const std::string& schema) = 0;  // Conflict when it holds tables.
  virtual Status CreateTable(const std::string& schema, const std::string& table, const iceberg::Schema& columns,
                             const std::vector<iceberg::PartitionField>& partition,
                             const std::map<std::string, std::string>& properties) = 0;
  // Removes the table and its files.
  virtual Status DropTable(const std::string& schema, const std::string& table) = 0;

  // Views, which live in a catalog service (catalog/catalog.h); a warehouse folder has no place
  // for a view's pointer, so it lists none and refuses to create one.
  virtual Result<std::vector<std::string>> ViewNames(const std::string& schema);
  // NotFound (kNoSuchView) when there is no such view.
  virtual Result<iceberg::ViewMetadata> LoadView(const std::string& schema, const std::string& view);
  // Creates the view; with `replace`, an existing view gets `version` (and `columns`) as its
  // current version instead, keeping its history.
  virtual Status CreateView(const std::string& schema, const std::string& view, const iceberg::Schema& columns,
                            const iceberg::ViewVersion& version, const std::map<std::string, std::string>& properties,
                            bool replace);
  virtual Status DropView(const std::string& schema, const std::string& view);
};

// `uri`: sqlite:PATH | postgresql://... | http(s)://... ; `warehouse` is where a catalog service
// puts new tables (may be empty when the service decides).
Result<std::unique_ptr<TableDirectory>> OpenCatalogDirectory(const std::string& uri, const std::string& warehouse);
// A warehouse folder: file:///abs, a plain path, or s3://bucket/prefix.
Result<std::unique_ptr<TableDirectory>> OpenWarehouseDirectory(const std::string& uri);

}  // namespace floe::sql::iceberg_sql
