#include "iceberg/maintenance.h"

#include <chrono>
#include <set>

namespace floe::iceberg {
namespace {

Status CheckRetention(std::string_view what, int64_t older_than_ms, int64_t min_retention_ms) {
  int64_t now = std::chrono::duration_cast<std::chrono::milliseconds>(
                    std::chrono::system_clock::now().time_since_epoch()).count();
  int64_t retention = now - older_than_ms;
  if (retention < min_retention_ms) {
    return InvalidArgument("{}: retention {} ms is below the minimum of {} ms", what, retention, min_retention_ms);
  }
  return OkStatus();
}

// Locations of every manifest list, manifest and file (data and delete) the given snapshots
// reference. With `live_only`, DELETED entries' files are not counted as referenced.
Status CollectReachable(Table& table, const TableMetadata& m, const std::set<int64_t>& snapshot_ids,
                        std::set<std::string>* lists, std::set<std::string>* manifests, std::set<std::string>* files) {
  for (const Snapshot& s : m.snapshots) {
    if (!snapshot_ids.contains(s.snapshot_id)) continue;
    lists->insert(NormalizeLocation(s.manifest_list));
    FLOE_ASSIGN_OR_RETURN(auto mfs, table.Manifests(s));
    for (const ManifestFile& mf : mfs) {
      if (!manifests->insert(NormalizeLocation(mf.manifest_path)).second) continue;
      FLOE_ASSIGN_OR_RETURN(auto entries, table.ReadEntries(mf));
      for (const ManifestEntry& e : entries) {
        if (e.status != EntryStatus::kDeleted) files->insert(NormalizeLocation(e.data_file.file_path));
      }
    }
  }
  return OkStatus();
}

}  // namespace

Result<ExpireResult> ExpireSnapshots(Table& table, const ExpireOptions& options) {
  FLOE_RETURN_IF_ERROR(CheckRetention("expire snapshots", options.older_than_ms, options.min_retention_ms));
  FLOE_RETURN_IF_ERROR(table.Refresh());
  const TableMetadata before = table.metadata();
  // Retention (the spec's procedure): refs' snapshots, plus each branch's ancestors that are
  // young enough or among its first retain_last.
  std::set<int64_t> retained;
  for (const auto& [name, ref] : before.refs) {
    retained.insert(ref.snapshot_id);
    if (!ref.is_branch) continue;
    int keep = ref.min_snapshots_to_keep.value_or(options.retain_last);
    int64_t max_age = ref.max_snapshot_age_ms.value_or(-1);
    int depth = 0;
    for (const Snapshot* s = before.SnapshotById(ref.snapshot_id); s;
         s = s->parent_snapshot_id ? before.SnapshotById(*s->parent_snapshot_id) : nullptr) {
      bool young = s->timestamp_ms >= options.older_than_ms ||
                   (max_age >= 0 && s->timestamp_ms >= NowMillis() - max_age);
      if (depth < keep || young) {
        retained.insert(s->snapshot_id);
      } else {
        break;
      }
      ++depth;
    }
  }
  if (before.current_snapshot_id) retained.insert(*before.current_snapshot_id);
  // Snapshots outside every lineage are kept while young.
  for (const Snapshot& s : before.snapshots) {
    bool in_lineage = false;
    for (const auto& [name, ref] : before.refs) {
      for (const Snapshot* x = before.SnapshotById(ref.snapshot_id); x && !in_lineage;
           x = x->parent_snapshot_id ? before.SnapshotById(*x->parent_snapshot_id) : nullptr) {
        in_lineage = x->snapshot_id == s.snapshot_id;
      }
    }
    if (!in_lineage && s.timestamp_ms >= options.older_than_ms) retained.insert(s.snapshot_id);
  }
  ExpireResult result;
  for (const Snapshot& s : before.snapshots) {
    if (!retained.contains(s.snapshot_id)) result.expired_snapshot_ids.push_back(s.snapshot_id);
  }
  if (result.expired_snapshot_ids.empty()) return result;

  std::set<int64_t> expired(result.expired_snapshot_ids.begin(), result.expired_snapshot_ids.end());
  Status st = table.RemoveSnapshots(expired);
  if (!st) return std::unexpected(st.error());
  if (!options.delete_files) return result;

  // Everything reachable from what remains stays; what only expired snapshots reached goes.
  std::set<std::string> keep_lists, keep_manifests, keep_files;
  FLOE_RETURN_IF_ERROR(CollectReachable(table, before, retained, &keep_lists, &keep_manifests, &keep_files));
  std::set<std::string> old_lists, old_manifests, old_files;
  // Expired snapshots' files, including ones they marked deleted.
  for (const Snapshot& s : before.snapshots) {
    if (!expired.contains(s.snapshot_id)) continue;
    old_lists.insert(NormalizeLocation(s.manifest_list));
    FLOE_ASSIGN_OR_RETURN(auto mfs, table.Manifests(s));
    for (const ManifestFile& mf : mfs) {
      if (!old_manifests.insert(NormalizeLocation(mf.manifest_path)).second) continue;
      if (keep_manifests.contains(NormalizeLocation(mf.manifest_path))) continue;
      FLOE_ASSIGN_OR_RETURN(auto entries, table.ReadEntries(mf));
      for (const ManifestEntry& e : entries) old_files.insert(NormalizeLocation(e.data_file.file_path));
    }
  }
  auto drop = [&](const std::set<std::string>& candidates, const std::set<std::string>& keep) {
    for (const std::string& loc : candidates) {
      if (keep.contains(loc)) continue;
      auto key = table.ops().KeyForLocation(loc);
      if (key && table.ops().store().Delete(*key)) result.deleted_files.push_back(loc);
    }
  };
  drop(old_files, keep_files);
  drop(old_manifests, keep_manifests);
  drop(old_lists, keep_lists);
  return result;
}

Result<std::vector<std::string>> RemoveOrphanFiles(Table& table, const OrphanOptions& options) {
  FLOE_RETURN_IF_ERROR(CheckRetention("remove orphan files", options.older_than_ms, options.min_retention_ms));
  FLOE_RETURN_IF_ERROR(table.Refresh());
  const TableMetadata& m = table.metadata();
  std::set<int64_t> all;
  for (const Snapshot& s : m.snapshots) all.insert(s.snapshot_id);
  std::set<std::string> lists, manifests, files;
  FLOE_RETURN_IF_ERROR(CollectReachable(table, m, all, &lists, &manifests, &files));
  // Data files referenced only as DELETED entries of live manifests also stay: they become
  // deletable when the snapshots referencing them expire, not as orphans.
  for (const Snapshot& s : m.snapshots) {
    FLOE_ASSIGN_OR_RETURN(auto mfs, table.Manifests(s));
    for (const ManifestFile& mf : mfs) {
      FLOE_ASSIGN_OR_RETURN(auto entries, table.ReadEntries(mf));
      for (const ManifestEntry& e : entries) files.insert(NormalizeLocation(e.data_file.file_path));
    }
  }
  std::set<std::string> referenced_keys;
  auto add = [&](const std::string& loc) {
    if (auto key = table.ops().KeyForLocation(loc)) referenced_keys.insert(*key);
  };
  for (const auto& set : {lists, manifests, files}) {
    for (const std::string& loc : set) add(loc);
  }
  add(table.current().location);
  for (const MetadataLogEntry& e : m.metadata_log) add(e.metadata_file);
  std::string prefix = table.ops().table_key().empty() ? "" : table.ops().table_key() + "/";
  referenced_keys.insert(prefix + "metadata/version-hint.text");

  std::vector<std::string> orphans;
  std::optional<std::string> token;
  do {
    FLOE_ASSIGN_OR_RETURN(io::ListResult page, table.ops().store().List(prefix, "", token));
    for (const io::ObjectInfo& o : page.objects) {
      if (referenced_keys.contains(o.key)) continue;
      if (o.last_modified_millis >= options.older_than_ms) continue;
      // Newer metadata versions than ours belong to concurrent commits, not orphans.
      if (o.key.find("/metadata/v") != std::string::npos && o.key.ends_with(".metadata.json")) {
        std::string_view name = std::string_view(o.key).substr(o.key.rfind('/') + 2);
        int64_t v = std::strtoll(std::string(name).c_str(), nullptr, 10);
        if (v > table.current().version) continue;
      }
      orphans.push_back(o.key);
    }
    token = page.next_token;
  } while (token);
  // Writes a killed process never finished (the local store's temporary files) are orphans too.
  FLOE_ASSIGN_OR_RETURN(std::vector<io::ObjectInfo> unfinished, table.ops().store().ListUnfinishedWrites(prefix));
  std::vector<std::string> abandoned;
  for (const io::ObjectInfo& o : unfinished) {
    if (o.last_modified_millis < options.older_than_ms) abandoned.push_back(o.key);
  }
  if (!options.dry_run && !orphans.empty()) FLOE_RETURN_IF_ERROR(table.ops().store().DeleteMany(orphans));
  if (!options.dry_run && !abandoned.empty()) FLOE_RETURN_IF_ERROR(table.ops().store().DeleteUnfinishedWrites(abandoned));
  orphans.insert(orphans.end(), abandoned.begin(), abandoned.end());
  return orphans;
}

}  // namespace floe::iceberg
