#include "serve/query_catalog.h"

#include "sql/iceberg/iceberg_sql_catalog.h"
#include "sql/catalog/memory_catalog.h"

namespace floe::serve {

Result<std::unique_ptr<sql::SqlCatalog>> OpenQueryCatalog(const QueryCatalogOptions& options, std::string* note) {
  using sql::iceberg_sql::IcebergSqlCatalog;
  if (!options.catalog.empty()) {
    FLOE_ASSIGN_OR_RETURN(auto catalog, IcebergSqlCatalog::OpenService(options.catalog, options.warehouse));
    return std::unique_ptr<sql::SqlCatalog>(std::move(catalog));
  }
  if (!options.warehouse.empty()) {
    FLOE_ASSIGN_OR_RETURN(auto catalog, IcebergSqlCatalog::OpenWarehouse(options.warehouse));
    return std::unique_ptr<sql::SqlCatalog>(std::move(catalog));
  }
  *note = "no --catalog or --warehouse: serving an empty catalog (schema default)";
  auto catalog = std::make_unique<sql::MemoryCatalog>();
  catalog->AddSchema("default");
  return std::unique_ptr<sql::SqlCatalog>(std::move(catalog));
}

}  // namespace floe::serve
