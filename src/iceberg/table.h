// Table: one Iceberg table and the changes floe commits to it, each an optimistic transaction
// through TableOperations: compute the change from the latest base as the spec's updates (an
// append is [add-snapshot, set-snapshot-ref main], a property change [set-properties], ...) and
// the requirements they imply, commit them, and on a conflict reload and rebase (appends) or
// re-validate (deletes, rewrites, schema changes) with backoff. The metadata rules themselves
// live in TableMetadataBuilder, which applies the updates.
//
// File hygiene: manifests a change writes are written once and reused by every retry; an
// attempt's manifest list is deleted when that attempt definitely lost; when a commit's outcome
// is unknown nothing it wrote is deleted.
//
// A Table is used by one thread at a time; several Tables (in several threads or processes)
// may share one table through their TableOperations.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "iceberg/expression.h"
#include "iceberg/manifest.h"
#include "iceberg/table_operations.h"

namespace floe::iceberg {

struct RetryPolicy {
  int max_attempts = 50;         // commit.retry.num-retries is 4 in Java; local CAS races are cheap.
  int64_t min_backoff_ms = 1;
  int64_t max_backoff_ms = 200;
};

// A schema change, applied in order to the current schema (format/spec.md, "Schema Evolution").
struct SchemaChange {
  enum class Kind { kAddColumn, kDropColumn, kRenameColumn, kPromoteType, kMakeOptional, kMoveFirst, kMoveAfter };
  Kind kind = Kind::kAddColumn;
  std::string column;       // Dotted name of the column changed (for add: of the new column).
  TypePtr type;             // add: the new column's type (nested ids are reassigned); promote: the new type
  std::string new_name;     // rename
  std::string after;        // move after
  std::string doc;          // add
};

// What an overwrite re-checks against the commits made since its caller read the table,
// besides that every file it removes is still live (Java's OverwriteFiles validations).
// What a row delta whose deletes were planned from a scan checks before it commits (Java's
// RowDelta validateDataFilesExist, validateNoConflictingDeleteFiles and, under serializable
// isolation, validateNoConflictingDataFiles).
struct RowDeltaValidation {
  int64_t planned_sequence_number = 0;  // The table's last-sequence-number the caller read.
  // The data files the deletes name: each must still be live (a file compacted away since
  // would take the deleted rows along into its replacement), and no delete file committed
  // since may name one of them or apply to a whole partition (its rows and this change's new
  // rows would then disagree about which rows remain).
  std::set<std::string> referenced_data_files;
  // Serializable isolation: fail when a data file added since might hold matching rows.
  ExprPtr conflict_filter;
};

struct OverwriteValidation {
  int64_t planned_sequence_number = 0;  // The table's last-sequence-number the caller read.
  // Fail when delete files were committed since: the rows they delete from a file this
  // overwrite rewrites would come back in the rewrite (validateNoConflictingDeletes). Position
  // deletes and deletion vectors that name a file the overwrite keeps do not count.
  bool fail_on_new_deletes = true;
  // Serializable isolation: fail when a data file added since might hold rows matching this
  // unbound filter, which the overwrite would have had to see (validateNoConflictingData).
  // Null: snapshot isolation, concurrent appends are fine.
  ExprPtr conflict_filter;
  // With fail_on_new_deletes: equality deletes committed since are fine (a rewrite whose new
  // files keep the planned data sequence number stays under them); position deletes still fail.
  bool allow_new_equality_deletes = false;
};

// How a rewrite (compaction) commits, beyond replacing files.
struct RewriteOptions {
  // The data sequence number the new files carry instead of the new snapshot's: that of the
  // snapshot whose rows (deletes applied) they hold. Equality deletes committed since then
  // keep applying to them, so the rewrite need not fail over them (Java's
  // RewriteFiles.dataSequenceNumber). Unset: the new snapshot's, and any new delete fails it.
  std::optional<int64_t> data_sequence_number;
  // Also remove the delete files that, once the rewrite is committed, apply to no live data
  // file (format/spec.md, "Scan Planning": nothing older, or as old for position deletes, in
  // their partition or, unpartitioned, anywhere): they could never delete a row again.
  bool drop_dangling_deletes = false;
  // Deletion vectors committed since the plan on files the rewrite removes would otherwise fail
  // it (their deletes would be lost with the old files). With this, each attempt hands them
  // over instead and commits the vectors it returns, which must delete the same rows where the
  // rewrite moved them (compaction knows where each kept row went), replacing them in the same
  // snapshot: a busy upsert job that touches every file each batch no longer starves
  // compaction. Files it writes are deleted when the attempt loses.
  std::function<Result<std::vector<DataFile>>(const std::vector<DataFile>& vectors)> carry_deletion_vectors;
};

class Table {
 public:
  // Loads the current metadata through `ops`.
  static Result<std::unique_ptr<Table>> Load(std::shared_ptr<TableOperations> ops);
  // Creates a new table (v2) at `location` through `ops`; AlreadyExists if one is there.
  static Result<std::unique_ptr<Table>> Create(std::shared_ptr<TableOperations> ops, const Schema& schema,
                                               const std::vector<PartitionField>& partition_fields,
                                               std::map<std::string, std::string> properties = {});

  const TableMetadata& metadata() const { return *current_.metadata; }
  const VersionedMetadata& current() const { return current_; }
  TableOperations& ops() { return *ops_; }
  Status Refresh();

  void set_retry_policy(RetryPolicy policy) { retry_ = policy; }
  // Extra snapshot summary entries for the next data commit (e.g. floe.offsets.<topic>).
  void set_summary_properties(std::map<std::string, std::string> props) { extra_summary_ = std::move(props); }
  // For the next data commit: extra summary entries computed from the base of each attempt (the
  // stream job merges its offsets into the base's). An error aborts the commit without retry;
  // Conflict marks it as definitely not committed.
  using SummaryFunction = std::function<Result<std::map<std::string, std::string>>(const TableMetadata& base)>;
  void set_summary_function(SummaryFunction fn) { summary_fn_ = std::move(fn); }

  // Data changes. Files carry their partition tuple for the table's default spec.
  Status FastAppend(const std::vector<DataFile>& files);
  // As FastAppend, then merges the default spec's small data manifests once there are at least
  // commit.manifest.min-count-to-merge (100) of them, bin-packing up to
  // commit.manifest.target-size-bytes (8 MiB): planning reads fewer manifests. FastAppend does
  // this too when commit.manifest-merge.enabled is "true".
  Status MergeAppend(const std::vector<DataFile>& files);
  // Appends manifests the caller already wrote (all entries ADDED, sequence numbers unassigned),
  // in one snapshot: bulk loads and tools that write manifests in parallel.
  Status AppendManifests(const std::vector<ManifestFile>& manifests);
  // Removes `deleted` (by path; each must be live in the base, else the commit fails with
  // Conflict) and adds `added`. Operation: delete (no adds), overwrite, or replace (rewrite).
  Status OverwriteFiles(const std::vector<std::string>& deleted, const std::vector<DataFile>& added);
  // As above, validated against what changed since `validation.planned_sequence_number`.
  Status OverwriteFiles(const std::vector<std::string>& deleted, const std::vector<DataFile>& added,
                        const OverwriteValidation& validation);
  Status DeleteFiles(const std::vector<std::string>& deleted) { return OverwriteFiles(deleted, {}); }
  Status RewriteFiles(const std::vector<std::string>& deleted, const std::vector<DataFile>& added,
                      const RewriteOptions& options = {});
  // The live delete files of `existing` (manifests of `base`) that apply to no data file once
  // `deleted` is gone and files of `added_sequence_number` in `added` are in (see RewriteOptions).
  Result<std::set<std::string>> DanglingDeletes(const TableMetadata& base, const std::vector<ManifestFile>& existing,
                                                const std::set<std::string>& deleted,
                                                const std::vector<DataFile>& added, int64_t added_sequence_number);
  // The manifests of `existing` with `replaced_vectors` marked DELETED (those holding none are
  // kept as they are), after checking that each of `added_vectors`' data files is live in
  // `base` with exactly the vector it replaces (none when it replaces none): kConflict if not.
  Result<std::vector<ManifestFile>> ReplaceDeletionVectors(const TableMetadata& base, int64_t snapshot_id,
                                                           const std::vector<ManifestFile>& existing,
                                                           const std::vector<DataFile>& added_vectors,
                                                           const std::vector<DataFile>& replaced_vectors,
                                                           std::vector<std::string>* written);
  // Adds position or equality delete files (merge-on-read row deletes) in one snapshot.
  Status AddDeleteFiles(const std::vector<DataFile>& deletes);
  // Adds data files and delete files in one snapshot (Java's RowDelta): an upsert's new rows
  // and the equality deletes of the keys' previous rows. The deletes share the new rows' data
  // sequence number, so they apply only to older files (format/spec.md, "Scan Planning").
  // Operation: overwrite (delete when there are no data files). Like an append it rebases over
  // concurrent commits; the caller's summary function decides whether a base is acceptable.
  // Deletion vectors among `deletes` (v3) replace the vectors `replaced_vectors` of the same
  // data files, which the caller merged into them (and those files' position delete files
  // scoped to them alone, from before an upgrade to v3, whose positions the caller merged too): the commit fails with
  // kConflict, without retrying, when a vector's data file is gone or the file's current vector is no longer the one it
  // replaces (a concurrent writer or compaction changed it: the batch must plan again). With `validation` (a
  // merge-on-read UPDATE, MERGE or DELETE that planned its deletes from a scan), each attempt also checks the base the
  // deletes would land on.
  Status CommitRowDelta(const std::vector<DataFile>& data, const std::vector<DataFile>& deletes,
                        const std::vector<DataFile>& replaced_vectors = {},
                        const RowDeltaValidation* validation = nullptr);
  // Merges the default spec's small data manifests (commit.manifest.min-count-to-merge, default
  // 100, and commit.manifest.target-size-bytes) into fewer, dropping DELETED entries, in one
  // `replace` snapshot; nothing when there are fewer. Sets *merged to the manifests replaced.
  Status RewriteManifests(size_t* merged = nullptr);

  // Metadata changes.
  Status UpdateSchema(const std::vector<SchemaChange>& changes);
  Status UpdatePartitionSpec(const std::vector<PartitionField>& fields);  // New default spec (ids reused)
  // `format-version` among `set` is not stored: it upgrades the table to that version (Java's
  // rule; a lower version is refused). Upgrading to v3 starts row lineage at next-row-id 0.
  Status SetProperties(const std::map<std::string, std::string>& set, const std::vector<std::string>& remove = {});
  // Records a statistics file (a "statistics" entry of the metadata: snapshot-id,
  // statistics-path, file sizes, blob-metadata), replacing the one of the same snapshot.
  Status SetStatistics(const nlohmann::json& statistics_file);
  Status Rollback(int64_t snapshot_id);  // Must be an ancestor of the current snapshot.
  Status SetRef(const std::string& name, const SnapshotRef& ref);  // Create or replace a branch/tag.
  Status RemoveRef(const std::string& name);
  // Removes snapshots from the metadata (and the snapshot log entries before them); refs must
  // not point at them. Used by ExpireSnapshots, which picks them and deletes their files.
  Status RemoveSnapshots(const std::set<int64_t>& snapshot_ids);

  // Every live data file of a snapshot (the current one by default), with inherited numbers.
  Result<std::vector<ManifestEntry>> LiveEntries(std::optional<int64_t> snapshot_id = std::nullopt);
  // The records of a snapshot's manifest list.
  Result<std::vector<ManifestFile>> Manifests(const Snapshot& snapshot);
  // The entries of one manifest (all statuses), with inheritance applied.
  Result<std::vector<ManifestEntry>> ReadEntries(const ManifestFile& manifest);

  // Reads or writes a file by its recorded location.
  Result<std::string> ReadLocation(std::string_view location);
  Status WriteLocation(std::string_view location, std::string_view bytes);

 private:
  using Updates = std::vector<TableUpdatePtr>;
  // Computes the updates of one attempt from `base`.
  using Attempt = std::function<Result<Updates>(const TableMetadata& base, std::vector<std::string>* written)>;

  Table(std::shared_ptr<TableOperations> ops, VersionedMetadata current)
      : ops_(std::move(ops)), current_(std::move(current)) {}

  // Runs `attempt` against the latest base and commits, retrying on conflicts. `written`
  // collects locations an attempt wrote that only that attempt references.
  Status CommitWithRetry(const Attempt& attempt);
  // Writes a manifest with `entries` for the default spec; returns its manifest-list record.
  Result<ManifestFile> WriteNewManifest(const TableMetadata& base, int64_t snapshot_id,
                                        const std::vector<ManifestEntry>& entries,
                                        ManifestContent content = ManifestContent::kData);
  Status Append(const std::vector<DataFile>& files, bool merge);
  // Merges `manifests` (the new one first) per the merge properties; new files keep status
  // ADDED, older ones become EXISTING, DELETED entries are dropped.
  Result<std::vector<ManifestFile>> MergeManifests(const TableMetadata& base, int64_t snapshot_id,
                                                   std::vector<ManifestFile> manifests, std::vector<std::string>* written);
  // Removing a data file also removes the delete files scoped to it alone (file-scoped
  // position deletes and deletion vectors), which would otherwise dangle.
  Status ReplaceFiles(const std::vector<std::string>& deleted, const std::vector<DataFile>& added,
                      std::string_view operation, const OverwriteValidation* validation,
                      const RewriteOptions& rewrite = {});
  // The updates that add the next snapshot to `base` with `manifests` and `summary` additions
  // and move main to it.
  Result<Updates> AddSnapshot(const TableMetadata& base, int64_t snapshot_id, std::string_view operation,
                              std::vector<ManifestFile> manifests, const std::map<std::string, std::string>& delta,
                              std::vector<std::string>* written);

  std::shared_ptr<TableOperations> ops_;
  VersionedMetadata current_;
  RetryPolicy retry_;
  std::map<std::string, std::string> extra_summary_;
  SummaryFunction summary_fn_;
};

}  // namespace floe::iceberg
