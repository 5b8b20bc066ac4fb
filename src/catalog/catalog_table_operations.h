// CatalogTableOperations: an Iceberg table whose pointer a Catalog holds (SQL or REST), seen
// through iceberg::TableOperations, so iceberg::Table's commits (appends, rewrites, schema
// changes, expiry) work on catalog tables exactly as on folder tables.
//
// A commit is sent as the Table computed it: the REST spec's updates (add-snapshot and
// set-snapshot-ref for an append, add-schema for a schema change, ...) and the requirements
// they imply (the table uuid, the refs they move, the ids they build on), so the catalog fails
// it with Conflict exactly when another writer changed what this commit built on.
// Thread-safe as the Catalog and ObjectStore under it are.
#pragma once

#include <memory>
#include <string>

#include "catalog/catalog.h"
#include "iceberg/table_operations.h"

namespace floe::catalog {

class CatalogTableOperations final : public iceberg::TableOperations {
 public:
  // Loads the table's current metadata to find its location; the store is opened there. A
  // location that is not absolute (PyIceberg's SQL catalog may record "data/persistent/db/t")
  // is looked up under `relative_root` by its longest suffix that exists there.
  static Result<std::shared_ptr<CatalogTableOperations>> Open(std::shared_ptr<Catalog> catalog, TableIdentifier id,
                                                              const std::string& relative_root = "");

  Result<iceberg::VersionedMetadata> Refresh() override;
  Result<iceberg::VersionedMetadata> Commit(const iceberg::VersionedMetadata& base,
                                            const iceberg::TableChange& change) override;
  io::ObjectStore& store() override { return *store_; }
  Result<std::string> KeyForLocation(std::string_view location) const override;
  std::string NewLocation(std::string_view relative) const override;
  const std::string& table_key() const override { return table_key_; }

  const TableIdentifier& id() const { return id_; }

 private:
  CatalogTableOperations(std::shared_ptr<Catalog> catalog, TableIdentifier id)
      : catalog_(std::move(catalog)), id_(std::move(id)) {}
  Result<iceberg::VersionedMetadata> FromLoaded(const LoadedTable& loaded);

  std::shared_ptr<Catalog> catalog_;
  TableIdentifier id_;
  std::string location_;  // The table's location, without a trailing '/'.
  std::string recorded_location_;  // As the metadata records it (differs when moved or relative).
  std::shared_ptr<io::ObjectStore> store_;  // Rooted at location_.
  std::string table_key_;  // "" : the store is rooted at the table.
  int64_t version_ = 0;    // Counts commits seen by this instance (Iceberg tables have no global N).
};

}  // namespace floe::catalog
