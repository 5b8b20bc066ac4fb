// Catalog: what every floe role asks of an Iceberg catalog, whatever holds the pointers (the
// SQL catalog on SQLite or PostgreSQL, or a REST catalog, ours or anyone's).
//
// Commits are the REST spec's requirements and updates: the catalog checks the requirements
// against the table's current metadata, applies the updates, writes the next metadata file and
// swaps the table's pointer atomically (compare-and-swap on the previous metadata location).
// Errors use these kinds and codes, which the REST server maps onto the spec's error types:
// NotFound with ErrorCode kNoSuchTable / kNoSuchNamespace; AlreadyExists ("table already
// exists" / "namespace already exists"); Conflict with kNamespaceNotEmpty, or without a code for
// a failed requirement or lost race (CommitFailedException; reload and retry); InvalidArgument
// for a malformed or unknown update. Implementations are thread-safe; one is shared by a process.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "catalog/table_creation.h"
#include "catalog/table_identifier.h"
#include "iceberg/table_requirement.h"
#include "iceberg/table_update.h"
#include "iceberg/view_update.h"

namespace floe::catalog {

using Properties = std::map<std::string, std::string>;

// A table as loaded: where its current metadata file is and what it says.
struct LoadedTable {
  std::string metadata_location;  // Empty for a staged (not yet created) table.
  nlohmann::json metadata;
  Properties config;  // Per-table client configuration a REST catalog returned.
};

// The outcome of a namespace property update, as the REST response reports it.
struct PropertiesUpdate {
  std::vector<std::string> updated;
  std::vector<std::string> removed;
  std::vector<std::string> missing;  // Removals that named no property.
};

// One table's part of a commit: the spec's requirements and updates (iceberg/table_update.h),
// applied by iceberg::TableMetadataBuilder wherever the metadata file is written.
struct TableCommit {
  TableIdentifier id;
  std::vector<iceberg::TableRequirementPtr> requirements;
  std::vector<iceberg::TableUpdatePtr> updates;
};

// A view as loaded: its current metadata file and what it says (iceberg/view_metadata.h).
struct LoadedView {
  std::string metadata_location;
  nlohmann::json metadata;
  Properties config;
};

// A create-view request (the REST spec's CreateViewRequest): the first version's query and the
// schema of its result. An empty location means the catalog's default for the identifier.
struct ViewCreation {
  std::string location;
  iceberg::Schema schema;
  iceberg::ViewVersion version;
  Properties properties;
};

// A view's commit (the REST spec's CommitViewRequest): replacing a view is one such commit.
struct ViewCommit {
  TableIdentifier id;
  std::vector<iceberg::AssertViewUuid> requirements;
  std::vector<iceberg::ViewUpdate> updates;
};

class Catalog {
 public:
  virtual ~Catalog() = default;

  // Namespaces. A namespace exists once created (or once a table was put in it by another
  // catalog); nested namespaces need not have their parents created first.
  virtual Status CreateNamespace(const Namespace& ns, const Properties& properties) = 0;
  // The namespaces directly under `parent` (the top level for an empty parent).
  virtual Result<std::vector<Namespace>> ListNamespaces(const Namespace& parent) = 0;
  virtual Result<bool> NamespaceExists(const Namespace& ns) = 0;
  virtual Result<Properties> LoadNamespaceProperties(const Namespace& ns) = 0;
  virtual Result<PropertiesUpdate> UpdateNamespaceProperties(const Namespace& ns,
                                                             const std::vector<std::string>& removals,
                                                             const Properties& updates) = 0;
  // Conflict (kNamespaceNotEmpty) while it holds tables.
  virtual Status DropNamespace(const Namespace& ns) = 0;

  // Tables.
  virtual Result<std::vector<TableIdentifier>> ListTables(const Namespace& ns) = 0;
  virtual Result<bool> TableExists(const TableIdentifier& id) = 0;
  virtual Result<LoadedTable> LoadTable(const TableIdentifier& id) = 0;
  // With `stage`, returns the would-be metadata without creating anything: a later commit with
  // assert-create creates the table.
  virtual Result<LoadedTable> CreateTable(const TableIdentifier& id, const TableCreation& creation, bool stage) = 0;
  // Adopts an existing metadata file; with `overwrite`, replaces the pointer of an existing table.
  virtual Result<LoadedTable> RegisterTable(const TableIdentifier& id, std::string_view metadata_location,
                                            bool overwrite) = 0;
  virtual Status RenameTable(const TableIdentifier& from, const TableIdentifier& to) = 0;
  // Removes the pointer; with `purge`, also the table's files under its location.
  virtual Status DropTable(const TableIdentifier& id, bool purge) = 0;

  // Commits.
  virtual Result<LoadedTable> CommitTable(const TableCommit& commit) = 0;
  // All tables' commits take effect together or none does.
  virtual Status CommitTransaction(const std::vector<TableCommit>& commits) = 0;

  // Views (Iceberg views: metadata files of format/view-spec.md). Views and tables share names:
  // creating or renaming onto a table's name is AlreadyExists, and a table is not found as a
  // view (NotFound with kNoSuchView) nor a view as a table (kNoSuchTable).
  virtual Result<std::vector<TableIdentifier>> ListViews(const Namespace& ns) = 0;
  virtual Result<bool> ViewExists(const TableIdentifier& id) = 0;
  virtual Result<LoadedView> LoadView(const TableIdentifier& id) = 0;
  virtual Result<LoadedView> CreateView(const TableIdentifier& id, const ViewCreation& creation) = 0;
  // Conflict when a requirement fails (the view was replaced by someone else's create).
  virtual Result<LoadedView> CommitView(const ViewCommit& commit) = 0;
  virtual Status RenameView(const TableIdentifier& from, const TableIdentifier& to) = 0;
  virtual Status DropView(const TableIdentifier& id) = 0;
};

}  // namespace floe::catalog
