// The SqlCatalog a query server reads: the Iceberg tables behind `--catalog URI` /
// `--warehouse URI`. One place for `floe query` and `floe up`'s query role to open it.
#pragma once

#include <memory>
#include <string>

#include "base/result.h"
#include "sql/catalog/catalog.h"

namespace floe::serve {

struct QueryCatalogOptions {
  std::string catalog;    // sqlite:PATH, postgresql://..., http(s)://host:port; empty: none.
  std::string warehouse;  // file:///abs/path or s3://bucket/prefix; empty: none.
};

// The catalog to serve: an IcebergSqlCatalog over the catalog service or the warehouse folder;
// with neither, an empty catalog with one schema, `default`, and a line for the operator in `note`.
Result<std::unique_ptr<sql::SqlCatalog>> OpenQueryCatalog(const QueryCatalogOptions& options, std::string* note);

}  // namespace floe::serve
