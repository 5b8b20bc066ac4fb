#include "iceberg/scan.h"

#include <algorithm>

#include "iceberg/evaluators.h"

namespace floe::iceberg {

Result<ScanPlan> PlanScan(Table& table, const ScanOptions& options) {
  const TableMetadata& m = table.metadata();
  ScanPlan plan;
  const Snapshot* snapshot = nullptr;
  if (options.snapshot_id) {
    snapshot = m.SnapshotById(*options.snapshot_id);
    if (!snapshot) return NotFound("table has no snapshot {}", *options.snapshot_id);
  } else if (options.ref) {
    snapshot = m.SnapshotForRef(*options.ref);
    if (!snapshot) return NotFound("table has no branch or tag '{}'", *options.ref);
  } else if (options.as_of_ms) {
    snapshot = m.SnapshotAsOf(*options.as_of_ms);
    if (!snapshot) return NotFound("table has no snapshot as of {} ms", *options.as_of_ms);
  } else {
    snapshot = m.CurrentSnapshot();
  }
  // Time travel reads with the snapshot's schema; the current snapshot with the current one.
  plan.schema = m.CurrentSchema();
  if (snapshot && (options.snapshot_id || options.as_of_ms || options.ref) && snapshot->schema_id) {
    if (const Schema* s = m.SchemaById(*snapshot->schema_id)) plan.schema = *s;
  }
  ExprPtr filter = options.filter ? options.filter : True();
  FLOE_ASSIGN_OR_RETURN(plan.filter, Bind(filter, plan.schema));
  if (!snapshot) return plan;
  plan.snapshot_id = snapshot->snapshot_id;

  FLOE_ASSIGN_OR_RETURN(auto manifests, table.Manifests(*snapshot));
  plan.manifests_total = static_cast<int>(manifests.size());

  struct SpecContext {
    ExprPtr projected;
    TypePtr partition_type;
  };
  std::map<int32_t, SpecContext> specs;
  auto context_for = [&](int32_t spec_id) -> Result<const SpecContext*> {
    auto it = specs.find(spec_id);
    if (it != specs.end()) return &it->second;
    const PartitionSpec* spec = m.SpecById(spec_id);
    if (!spec) return Corruption("a manifest uses unknown partition spec {}", spec_id);
    SpecContext c;
    c.projected = ProjectInclusive(plan.filter, *spec, plan.schema);
    FLOE_ASSIGN_OR_RETURN(c.partition_type, spec->PartitionType(plan.schema));
    return &specs.emplace(spec_id, std::move(c)).first->second;
  };

  std::vector<std::pair<DataFile, int64_t>> delete_files;
  for (const ManifestFile& mf : manifests) {
    FLOE_ASSIGN_OR_RETURN(const SpecContext* ctx, context_for(mf.partition_spec_id));
    if (!ManifestMightMatch(ctx->projected, mf, *ctx->partition_type)) continue;
    ++plan.manifests_read;
    FLOE_ASSIGN_OR_RETURN(auto entries, table.ReadEntries(mf));
    const PartitionSpec& spec = *m.SpecById(mf.partition_spec_id);
    for (ManifestEntry& e : entries) {
      if (e.status == EntryStatus::kDeleted) continue;
      ++plan.entries_read;
      if (!PartitionMatches(ctx->projected, e.data_file.partition, *ctx->partition_type)) {
        ++plan.files_pruned_by_partition;
        continue;
      }
      if (e.data_file.content != FileContent::kData) {
        // Deletes are filtered with the same metrics: a delete file with no matching rows
        // cannot delete a matching row.
        if (e.data_file.content == FileContent::kEqualityDeletes || FileMightMatch(plan.filter, e.data_file, plan.schema)) {
          delete_files.emplace_back(std::move(e.data_file), e.sequence_number.value_or(0));
        }
        continue;
      }
      if (!FileMightMatch(plan.filter, e.data_file, plan.schema)) {
        ++plan.files_pruned_by_metrics;
        continue;
      }
      FileScanTask task;
      task.residual = Residual(plan.filter, spec, e.data_file.partition);
      task.data_sequence_number = e.sequence_number.value_or(0);
      task.file = std::move(e.data_file);
      plan.tasks.push_back(std::move(task));
    }
  }
  // Scope rules: position deletes apply to data files with seq <= the delete's (and the same
  // path when it names one); equality deletes to data files with seq < the delete's, in the
  // same partition unless the delete's spec is unpartitioned.
  for (FileScanTask& task : plan.tasks) {
    for (const auto& [del, seq] : delete_files) {
      bool applies = false;
      if (del.content == FileContent::kPositionDeletes) {
        applies = task.data_sequence_number <= seq &&
                  (!del.referenced_data_file || *del.referenced_data_file == task.file.file_path);
      } else {
        const PartitionSpec* dspec = m.SpecById(del.spec_id);
        bool global = dspec && dspec->is_unpartitioned();
        applies = task.data_sequence_number < seq &&
                  (global || (del.spec_id == task.file.spec_id && del.partition == task.file.partition));
      }
      if (applies) {
        task.deletes.push_back(del);
        task.delete_sequence_numbers.push_back(seq);
      }
    }
    // A deletion vector holds every position delete of its file (writers merge the older
    // position delete files into it), so those files are not applied beside it (format/spec.md,
    // "Scan Planning"): a partition-wide file from before an upgrade to v3 names it too.
    if (std::any_of(task.deletes.begin(), task.deletes.end(),
                    [](const DataFile& d) { return d.is_deletion_vector(); })) {
      for (size_t i = task.deletes.size(); i-- > 0;) {
        const DataFile& d = task.deletes[i];
        if (d.content == FileContent::kPositionDeletes && !d.is_deletion_vector()) {
          task.deletes.erase(task.deletes.begin() + static_cast<std::ptrdiff_t>(i));
          task.delete_sequence_numbers.erase(task.delete_sequence_numbers.begin() + static_cast<std::ptrdiff_t>(i));
        }
      }
    }
  }
  return plan;
}

}  // namespace floe::iceberg
