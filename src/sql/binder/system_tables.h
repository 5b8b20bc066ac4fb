// The `system` catalog's tables that JDBC drivers and BI tools read instead of
// information_schema: system.jdbc.catalogs, schemas, tables, columns, table_types and types
// (the columns and types Trino's JDBC DatabaseMetaData selects: getCatalogs, getSchemas,
// getTables, getColumns, getTableTypes, getTypeInfo), the tables the driver only ever reads
// empty (procedures, udts, super_types, ...), and system.metadata.catalogs. The rows come from
// the SqlCatalog at bind time, as information_schema's do. Pure functions; any thread.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "sql/catalog/catalog.h"
#include "sql/types/value.h"

namespace floe::sql {

struct SystemTable {
  std::vector<TableColumn> columns;
  std::vector<std::vector<Value>> rows;
};

// system.`schema`.`table`, or nullopt when there is no such table. Fails when the catalog does.
Result<std::optional<SystemTable>> ReadSystemTable(const SqlCatalog& catalog, std::string_view schema,
                                                   std::string_view table);

// The schemas of the system catalog ("jdbc", "metadata"), for SHOW SCHEMAS FROM system.
std::vector<std::string> SystemSchemaNames();

// java.sql.Types code of `type` as Trino's JDBC tables report it (BIGINT -5, VARCHAR 12, ...).
int JdbcTypeCode(const SqlType& type);

}  // namespace floe::sql
