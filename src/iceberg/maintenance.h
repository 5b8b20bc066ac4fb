// Table maintenance (format/spec.md, "Snapshot Retention Policy"; Iceberg's maintenance
// guidance): expiring snapshots and deleting what only they referenced, and removing orphan
// files no metadata references.
//
// Both commit (expire) or read (orphans) through the Table, then delete files; files are only
// deleted after the metadata that stopped referencing them is committed, so a failed or
// unknown commit deletes nothing. Runs on the caller's thread.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "iceberg/table.h"

namespace floe::iceberg {

// The shortest retention expiry and orphan removal accept unless told otherwise: Trino's 7-day
// default. Shorter ones delete files that running queries, in-flight writes and readers of an
// older snapshot still need, so a request for one (any SQL user's CALL) is refused; 0 is for an
// operator who asked for it explicitly (`--unsafe-retention`).
inline constexpr int64_t kDefaultMinRetentionMs = int64_t{7} * 86'400'000;

struct ExpireOptions {
  int64_t older_than_ms = 0;    // Snapshots older than this may expire (subject to retention).
  int retain_last = 1;          // Always keep this many ancestors of each branch head.
  bool delete_files = true;     // Delete unreachable manifests, manifest lists and data files.
  int64_t min_retention_ms = kDefaultMinRetentionMs;  // now - older_than_ms below this: InvalidArgument.
};

struct ExpireResult {
  std::vector<int64_t> expired_snapshot_ids;
  std::vector<std::string> deleted_files;  // Locations
};

Result<ExpireResult> ExpireSnapshots(Table& table, const ExpireOptions& options);

struct OrphanOptions {
  int64_t older_than_ms = 0;  // Only files last modified before this are candidates.
  bool dry_run = false;
  int64_t min_retention_ms = kDefaultMinRetentionMs;  // now - older_than_ms below this: InvalidArgument.
};

// Deletes files under the table's folder that no snapshot, manifest or metadata file of the
// current metadata references. Returns the orphans' store keys.
Result<std::vector<std::string>> RemoveOrphanFiles(Table& table, const OrphanOptions& options);

}  // namespace floe::iceberg
