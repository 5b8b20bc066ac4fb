// OpenCatalog: the Catalog for a catalog URI, as every floe role spells it: sqlite:PATH,
// postgresql://... (or postgres://...), or http(s)://host:port for a REST catalog.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "catalog/catalog.h"
#include "catalog/sql_catalog.h"

namespace floe::catalog {

struct CatalogOptions {
  std::string uri;                    // sqlite:PATH | postgresql://... | http(s)://...
  std::string warehouse;              // Where new tables go (file:///abs or s3://bucket/prefix).
  std::string catalog_name = "default";  // The SQL catalogs' catalog_name column.
  // Where tables may live (LocationPolicy): these roots, or the warehouse when none is given.
  // With neither, nothing is confined (only for catalogs opened to read).
  std::vector<std::string> allowed_locations;
};

Result<std::unique_ptr<Catalog>> OpenCatalog(const CatalogOptions& options);

// The pointer layer alone of a SQL catalog URI (sqlite:PATH, postgresql://...): what moving a
// catalog to another backing store reads and writes. kInvalidCatalogBackend for any other URI
// or a malformed one, kCatalogStoreUnreachable when the database cannot be opened.
Result<std::unique_ptr<SqlCatalog>> OpenSqlCatalog(const std::string& uri, const std::string& catalog_name = "default");

// `uri` with its password (postgresql://user:secret@...) as "****", for pages, logs and
// messages: a PostgreSQL URI typed into the console may carry one.
std::string RedactCatalogUri(std::string_view uri);

}  // namespace floe::catalog
