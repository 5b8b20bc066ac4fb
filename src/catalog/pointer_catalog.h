// PointerCatalog: the Catalog over a MetadataPointerStore (the SQL catalog) and the metadata
// files themselves. It is what `floe catalog` serves and what roles use for sqlite: and
// postgresql: catalog URIs.
//
// A commit loads each table's current metadata, checks the requirements, applies the updates,
// writes the next metadata file (<location>/metadata/<NNNNN>-<uuid>.metadata.json) and swaps
// the pointers from the locations it loaded. When the swap loses a race but the requirements
// still hold on the newer metadata, it redoes the commit on that metadata (the client asked for
// its requirements, not for a particular base); a failed requirement is returned as Conflict
// for the client to rebase. Files of a lost swap are deleted; files of a swap whose outcome is
// unknown (the database did not answer) are kept, since the pointer may name them.
//
// Locations are confined by the MetadataFileIo's LocationPolicy: a create, set-location or
// register must name a location under an allowed root that overlaps no other table's, and a
// purge deletes only a table's own, allowed folder.
// Thread-safe.
#pragma once

#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <vector>
#include <memory>
#include <string>

#include "catalog/catalog.h"
#include "catalog/metadata_file_io.h"
#include "catalog/metadata_pointer_store.h"
#include "iceberg/table_metadata.h"

namespace floe::catalog {

class PointerCatalog final : public Catalog {
 public:
  // `warehouse`: the URI new tables go under (<warehouse>/<ns levels>/<table>); may be empty
  // when every create names its location.
  PointerCatalog(std::unique_ptr<MetadataPointerStore> pointers, std::unique_ptr<MetadataFileIo> files,
                 std::string warehouse);

  Status CreateNamespace(const Namespace& ns, const Properties& properties) override;
  Result<std::vector<Namespace>> ListNamespaces(const Namespace& parent) override;
  Result<bool> NamespaceExists(const Namespace& ns) override;
  Result<Properties> LoadNamespaceProperties(const Namespace& ns) override;
  Result<PropertiesUpdate> UpdateNamespaceProperties(const Namespace& ns, const std::vector<std::string>& removals,
                                                     const Properties& updates) override;
  Status DropNamespace(const Namespace& ns) override;

  Result<std::vector<TableIdentifier>> ListTables(const Namespace& ns) override;
  Result<bool> TableExists(const TableIdentifier& id) override;
  Result<LoadedTable> LoadTable(const TableIdentifier& id) override;
  Result<LoadedTable> CreateTable(const TableIdentifier& id, const TableCreation& creation, bool stage) override;
  Result<LoadedTable> RegisterTable(const TableIdentifier& id, std::string_view metadata_location,
                                    bool overwrite) override;
  Status RenameTable(const TableIdentifier& from, const TableIdentifier& to) override;
  Status DropTable(const TableIdentifier& id, bool purge) override;

  Result<LoadedTable> CommitTable(const TableCommit& commit) override;
  Status CommitTransaction(const std::vector<TableCommit>& commits) override;

  Result<std::vector<TableIdentifier>> ListViews(const Namespace& ns) override;
  Result<bool> ViewExists(const TableIdentifier& id) override;
  Result<LoadedView> LoadView(const TableIdentifier& id) override;
  Result<LoadedView> CreateView(const TableIdentifier& id, const ViewCreation& creation) override;
  Result<LoadedView> CommitView(const ViewCommit& commit) override;
  Status RenameView(const TableIdentifier& from, const TableIdentifier& to) override;
  Status DropView(const TableIdentifier& id) override;

  // The location a new table gets when its create names none.
  Result<std::string> DefaultLocation(const TableIdentifier& id);

 private:
  Result<std::vector<LoadedTable>> CommitAll(const std::vector<TableCommit>& commits);
  Result<nlohmann::json> ReadMetadata(const std::string& location);
  Status RequireNamespace(const Namespace& ns);
  // The normalized `location` when the policy allows it and no other table's location overlaps
  // it (otherwise a purge of one deletes the other's files).
  Result<std::string> CheckNewLocation(const TableIdentifier& id, std::string_view location);
  Status CollectLocations(const Namespace& ns, const TableIdentifier& skip, std::vector<std::pair<TableIdentifier, std::string>>* out);
  // Commits to the same table from this process take turns (in identifier order when a
  // transaction names several), so they queue instead of racing to write files that lose the
  // swap. Other processes are kept apart by the pointer swap alone.
  std::vector<std::unique_lock<std::mutex>> LockTables(const std::vector<TableCommit>& commits);

  // Metadata files are immutable, so parsed ones are kept by location: loads and commits of a
  // hot table skip reading and parsing it again.
  std::shared_ptr<const nlohmann::json> CachedMetadata(const std::string& location);
  void CacheMetadata(const std::string& location, std::shared_ptr<const nlohmann::json> metadata,
                     std::shared_ptr<const iceberg::TableMetadata> model = nullptr);
  // The typed model of the metadata at `location` (`metadata` is its JSON), which commits check
  // requirements against: parsed once per file.
  Result<std::shared_ptr<const iceberg::TableMetadata>> MetadataModel(const std::string& location,
                                                                      const nlohmann::json& metadata);

  std::mutex cache_mu_;
  std::map<std::string, std::shared_ptr<const nlohmann::json>> cache_;  // Guarded by cache_mu_.
  std::map<std::string, std::shared_ptr<const iceberg::TableMetadata>> models_;  // Guarded by cache_mu_.
  std::deque<std::string> cache_order_;                                  // Oldest first; guarded by cache_mu_.

  std::mutex locks_mu_;
  std::map<TableIdentifier, std::unique_ptr<std::mutex>> table_locks_;  // Guarded by locks_mu_; never shrinks.

  std::unique_ptr<MetadataPointerStore> pointers_;
  std::unique_ptr<MetadataFileIo> files_;
  std::string warehouse_;
};

// The next metadata file's name for a table at `table_location` whose current file is
// `previous` (empty for a new table): "<table_location>/metadata/00003-<uuid>.metadata.json".
std::string NextMetadataLocation(std::string_view table_location, std::string_view previous);

}  // namespace floe::catalog
