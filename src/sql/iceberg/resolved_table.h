// ResolvedTable: one table at one version for one query — its operations, the metadata read
// when the query resolved it (the catalog pointer is re-read per query), the snapshot the
// version selects and the schema rows are read with. DescribeTable turns it into the binder's
// CatalogTable. Immutable values; any thread.
#pragma once

#include <memory>
#include <string>

#include "iceberg/table_operations.h"
#include "sql/catalog/catalog.h"

namespace floe::sql::iceberg_sql {

struct ResolvedTable {
  std::shared_ptr<iceberg::TableOperations> ops;
  iceberg::VersionedMetadata current;
  const iceberg::Snapshot* snapshot = nullptr;  // Into *current.metadata; null: no snapshot yet.
  iceberg::Schema schema;                       // Time travel reads with the snapshot's schema.

  const iceberg::TableMetadata& metadata() const { return *current.metadata; }
};

// Re-reads the table's pointer through `ops` and picks the snapshot `version` asks for;
// kNotFound when that version does not exist.
Result<std::shared_ptr<const ResolvedTable>> ResolveTable(std::shared_ptr<iceberg::TableOperations> ops,
                                                          const TableVersion& version);

// The binder's view: columns with field ids and SQL types (columns of types SQL cannot show are
// left out), estimated rows from the snapshot summary, partition source columns, properties.
Result<CatalogTable> DescribeTable(const ResolvedTable& table, QualifiedTableName name);

}  // namespace floe::sql::iceberg_sql
