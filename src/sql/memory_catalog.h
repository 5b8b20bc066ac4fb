// An in-memory SqlCatalog for tests and for planning without storage: schemas and tables
// registered by hand. Thread-safe for reads once filled; filling is single-threaded.
#pragma once

#include <map>

#include "sql/catalog.h"

namespace floe::sql {

class MemoryCatalog final : public SqlCatalog {
 public:
  explicit MemoryCatalog(std::string catalog_name = "floe") : catalog_name_(std::move(catalog_name)) {}

  void AddSchema(const std::string& schema);
  // Adds (or replaces) a table; its schema is added too. `location` registers it for
  // iceberg_scan() as well.
  void AddTable(CatalogTable table);

  std::vector<std::string> CatalogNames() const override;
  Result<std::vector<std::string>> SchemaNames(std::string_view catalog) const override;
  Result<std::vector<std::string>> TableNames(std::string_view catalog, std::string_view schema) const override;
  Result<std::shared_ptr<const CatalogTable>> GetTable(const QualifiedTableName& name,
                                                       const TableVersion& version) const override;
  Result<std::shared_ptr<const CatalogTable>> GetTableAt(std::string_view location,
                                                         const TableVersion& version) const override;

 private:
  std::string catalog_name_;
  std::map<std::string, std::map<std::string, std::shared_ptr<const CatalogTable>>> schemas_;
};

}  // namespace floe::sql
