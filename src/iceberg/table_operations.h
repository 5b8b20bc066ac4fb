// TableOperations: how a table's current metadata is found and replaced. A commit is a
// TableChange, the REST spec's requirements and updates (table_update.h), and one
// compare-and-swap of the metadata pointer: it succeeds only if the table is still at the base
// version the change was computed from (format/spec.md, "Optimistic Concurrency"), or, behind a
// catalog, if the change's requirements still hold of the table's current metadata. Local
// tables apply the updates with TableMetadataBuilder; a catalog is sent them as they are.
//
// Commit's errors have a contract every caller relies on for cleanup:
//   - kConflict: definitely not committed (another writer won); reload and retry.
//   - anything else: the outcome is UNKNOWN (the pointer may or may not have moved); never
//     delete files the attempt wrote, and do not retry blindly.
//
// FileSystemTableOperations keeps a table in a folder of an ObjectStore, the way Iceberg's
// Hadoop tables do: metadata/vN.metadata.json (or vN.gz.metadata.json) plus
// metadata/version-hint.text, committing version N+1 with an atomic create-if-absent, so any
// number of writers on one store are safe. It also reads tables whose metadata files are named
// NNNNN-<uuid>.metadata.json (PyIceberg, catalogs) by taking the highest number.
//
// Implementations are thread-safe: threads may share one instance.
#pragma once

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

#include "iceberg/table_metadata.h"
#include "iceberg/table_requirement.h"
#include "iceberg/table_update.h"
#include "io/object_store.h"

namespace floe::iceberg {

struct VersionedMetadata {
  std::shared_ptr<const TableMetadata> metadata;
  std::string location;  // The metadata file's location (as recorded in metadata logs).
  int64_t version = 0;   // The N of vN.metadata.json; 0 for a table that does not exist yet.
};

// One commit's worth of change: what must hold of the table and what to apply to it.
struct TableChange {
  std::vector<TableRequirementPtr> requirements;
  std::vector<TableUpdatePtr> updates;
};

class TableOperations {
 public:
  virtual ~TableOperations() = default;

  // Reads the table's current metadata. NotFound when the table does not exist.
  virtual Result<VersionedMetadata> Refresh() = 0;
  // Applies `change` to `base` (base.version 0: creates the table from the updates). See the
  // error contract above; requirements that do not hold are Conflict, updates that cannot apply
  // InvalidArgument. Returns the new current version.
  virtual Result<VersionedMetadata> Commit(const VersionedMetadata& base, const TableChange& change) = 0;

  // Where the table's files live.
  virtual io::ObjectStore& store() = 0;
  // The store key of a location recorded in metadata (a data file, manifest, ...). Locations
  // under the table's recorded location map into the table's folder even when the recorded
  // location itself no longer exists (tables get moved).
  virtual Result<std::string> KeyForLocation(std::string_view location) const = 0;
  // The location to record for a new file at `relative` ("data/x.parquet") under the table.
  virtual std::string NewLocation(std::string_view relative) const = 0;
  // The table folder's key prefix in store() ("" or "ns/t"), for listing.
  virtual const std::string& table_key() const = 0;
};

class FileSystemTableOperations final : public TableOperations {
 public:
  // `table_key`: the table folder inside `store` ("" when the store is rooted at the table).
  FileSystemTableOperations(std::shared_ptr<io::ObjectStore> store, std::string table_key);

  Result<VersionedMetadata> Refresh() override;
  Result<VersionedMetadata> Commit(const VersionedMetadata& base, const TableChange& change) override;
  io::ObjectStore& store() override { return *store_; }
  Result<std::string> KeyForLocation(std::string_view location) const override;
  std::string NewLocation(std::string_view relative) const override;
  const std::string& table_key() const override { return table_key_; }

  // Reads one specific metadata file (a path-based reference to vN.metadata.json).
  Result<VersionedMetadata> LoadMetadataFile(std::string_view key);
  // Makes Refresh() read this metadata file instead of finding the latest (read-only use).
  void PinMetadataFile(std::string key) { pinned_key_ = std::move(key); }
  // The store key of the folder's own metadata files ("ns/t/metadata/...").
  std::string MetadataKey(std::string_view file) const;

 private:
  Result<std::optional<std::string>> FindLatestMetadataKey(int64_t* version);

  std::shared_ptr<io::ObjectStore> store_;
  std::string table_key_;
  std::optional<std::string> pinned_key_;
  mutable std::mutex mutex_;
  std::string recorded_location_;  // Guarded by mutex_: the location of the latest metadata read.
};

// Normalises a location for prefix comparison: "file:///a/b" and "file:/a/b" -> "/a/b",
// "./t" -> "t", no trailing slash.
std::string NormalizeLocation(std::string_view location);

// A random version-4 UUID string, and a random positive 63-bit snapshot id.
std::string NewUuid();
int64_t NewSnapshotId();
int64_t NowMillis();

}  // namespace floe::iceberg
