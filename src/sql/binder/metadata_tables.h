// The Iceberg metadata tables a query can read as `"table$name"` (Trino's names and columns):
// $snapshots, $history, $files, $manifests, $partitions, $refs and $properties. Pure
// functions; any thread may call them.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "sql/catalog/catalog.h"

namespace floe::sql {

// The columns of metadata table `kind` of `base`, or nothing when `kind` is not one.
std::optional<std::vector<TableColumn>> MetadataTableColumns(std::string_view kind, const CatalogTable& base);

}  // namespace floe::sql
