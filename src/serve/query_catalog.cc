#include "serve/query_catalog.h"

#include "sql/memory_catalog.h"

namespace floe::serve {

Result<std::unique_ptr<sql::SqlCatalog>> OpenQueryCatalog(const QueryCatalogOptions& options, std::string* note) {
  // The Iceberg-backed SqlCatalog comes with issue #9 (branch sqlscan); until it lands the
  // server plans and answers against an empty catalog, and says so.
  if (!options.catalog.empty() || !options.warehouse.empty()) {
    *note = "reading Iceberg tables through --catalog/--warehouse is not built yet (issue #9): serving an empty catalog";
  }
  auto catalog = std::make_unique<sql::MemoryCatalog>();
  catalog->AddSchema("default");
  return std::unique_ptr<sql::SqlCatalog>(std::move(catalog));
}

}  // namespace floe::serve
