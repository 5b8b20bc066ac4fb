#include "catalog/catalog_store_move.h"

namespace floe::catalog {

Result<CatalogStoreMove> MoveCatalogStore(SqlCatalog& from, SqlCatalog& to) {
  if (from.catalog_name() != to.catalog_name()) {
    return InvalidArgument("moving catalog '{}' into catalog '{}': the names must match", from.catalog_name(),
                           to.catalog_name());
  }
  CatalogStoreMove move;
  FLOE_ASSIGN_OR_RETURN_CTX(move.same_database, from.SameDatabase(to), "checking whether the two stores are one");
  FLOE_ASSIGN_OR_RETURN_CTX(SqlCatalog::Rows rows, from.ExportRows(), "reading the old store");
  for (const auto& pointer : rows.pointers) ++(pointer.view ? move.views : move.tables);
  move.namespace_properties = static_cast<int64_t>(rows.properties.size());
  if (move.same_database) return move;
  FLOE_ASSIGN_OR_RETURN_CTX(move.added, to.ImportRows(rows), "copying into the new store");
  FLOE_RETURN_IF_ERROR_CTX(from.DeleteRows(rows), "removing the moved rows from the old store");
  return move;
}

}  // namespace floe::catalog
