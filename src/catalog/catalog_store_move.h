// MoveCatalogStore: a SQL catalog's rows — namespaces with their properties, each table's and
// view's metadata pointer — moved from one backing store to another (SQLite to PostgreSQL and
// back), for `floe up`'s catalog switch. The catalog servers on `from` must be stopped first:
// a commit landing in `from` during the move would be left behind (the delete below refuses
// then, so it is reported, not lost).
//
// The rows are copied into `to` in one transaction, then deleted from `from` in one
// transaction. Deleting is what makes the switch a move rather than a fork: two stores each
// holding a table's pointer would let a client of the old one commit a history the new one
// never sees, and a later switch back would find the old store's stale pointers in the way.
// A row `to` holds already with the same values is fine (a move tried again after a failure
// between the two steps goes through); a different pointer for a table there is
// kCatalogStoreConflict and nothing changes in either store. When both URIs reach one database
// nothing is copied or deleted. Not thread-safe against other movers of the same stores.
#pragma once

#include <cstdint>

#include "base/result.h"
#include "catalog/sql_catalog.h"

namespace floe::catalog {

struct CatalogStoreMove {
  int64_t tables = 0;
  int64_t views = 0;
  int64_t namespace_properties = 0;
  int64_t added = 0;  // Rows `to` did not hold yet.
  bool same_database = false;
};

Result<CatalogStoreMove> MoveCatalogStore(SqlCatalog& from, SqlCatalog& to);

}  // namespace floe::catalog
