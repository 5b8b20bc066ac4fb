// MetadataPointerStore: the catalog's own state, below the metadata files: namespaces with their
// properties and, per table, the location of its current metadata file. The one operation that
// makes commits safe is the conditional swap of that location (compare-and-swap on the previous
// location). SqlCatalog implements it on SQLite and PostgreSQL. Thread-safe.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "base/result.h"
#include "catalog/catalog.h"
#include "catalog/table_identifier.h"

namespace floe::catalog {

// One table's pointer change within SwapPointers.
struct PointerSwap {
  TableIdentifier id;
  std::optional<std::string> expected;  // The current location; nullopt: the table must not exist.
  std::string location;                 // The new location.
};

class MetadataPointerStore {
 public:
  virtual ~MetadataPointerStore() = default;

  virtual Status CreateNamespace(const Namespace& ns, const Properties& properties) = 0;
  virtual Result<std::vector<Namespace>> ListNamespaces(const Namespace& parent) = 0;
  virtual Result<bool> NamespaceExists(const Namespace& ns) = 0;
  virtual Result<Properties> LoadNamespaceProperties(const Namespace& ns) = 0;
  virtual Result<PropertiesUpdate> UpdateNamespaceProperties(const Namespace& ns,
                                                             const std::vector<std::string>& removals,
                                                             const Properties& updates) = 0;
  virtual Status DropNamespace(const Namespace& ns) = 0;

  virtual Result<std::vector<TableIdentifier>> ListTables(const Namespace& ns) = 0;
  // The current metadata location, or nullopt when there is no such table.
  virtual Result<std::optional<std::string>> GetPointer(const TableIdentifier& id) = 0;
  // Sets the pointers of several tables at once: Conflict (nothing changed) when any table's
  // current location is not its `expected`.
  virtual Status SwapPointers(const std::vector<PointerSwap>& swaps) = 0;
  virtual Status RenameTable(const TableIdentifier& from, const TableIdentifier& to) = 0;
  // NotFound when there is no such table.
  virtual Status DeletePointer(const TableIdentifier& id) = 0;

  // Views: the same pointers, kept apart from the tables' (a table is not listed, loaded,
  // renamed or dropped as a view, nor a view as a table) but sharing their names: a name is a
  // table or a view, never both, so creating or renaming onto the other kind is AlreadyExists.
  // NotFound carries kNoSuchView. A swap with `expected` nullopt creates the view.
  virtual Result<std::vector<TableIdentifier>> ListViews(const Namespace& ns) = 0;
  virtual Result<std::optional<std::string>> GetViewPointer(const TableIdentifier& id) = 0;
  virtual Status SwapViewPointer(const PointerSwap& swap) = 0;
  virtual Status RenameView(const TableIdentifier& from, const TableIdentifier& to) = 0;
  virtual Status DeleteViewPointer(const TableIdentifier& id) = 0;
};

}  // namespace floe::catalog
