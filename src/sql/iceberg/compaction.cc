#include "sql/iceberg/compaction.h"

#include <algorithm>
#include <charconv>
#include <map>

#include "iceberg/batch_conversion.h"
#include "iceberg/data_files.h"
#include "iceberg/scan.h"
#include "iceberg/table_statistics.h"
#include "sql/iceberg/scan_columns.h"

namespace floe::sql::iceberg_sql {
namespace {

// The current snapshot's live delete files, from its summary.
size_t DeleteFileCount(const iceberg::Table& table) {
  const iceberg::Snapshot* snapshot = table.metadata().CurrentSnapshot();
  if (!snapshot) return 0;
  auto it = snapshot->summary.find("total-delete-files");
  size_t count = 0;
  if (it != snapshot->summary.end()) std::from_chars(it->second.data(), it->second.data() + it->second.size(), count);
  return count;
}

// Commits the removal of dangling delete files alone, when there are any.
Status DropDanglingDeletes(iceberg::Table& table, const iceberg::RewriteOptions& rewrite) {
  FLOE_ASSIGN_OR_RETURN(auto manifests, table.Manifests(*table.metadata().CurrentSnapshot()));
  FLOE_ASSIGN_OR_RETURN(auto dangling, table.DanglingDeletes(table.metadata(), manifests, {}, {}, 0));
  if (dangling.empty()) return OkStatus();
  return table.RewriteFiles({}, {}, rewrite);
}

}  // namespace

Result<CompactionResult> CompactDataFiles(iceberg::Table& table, const CompactionOptions& compaction) {
  const int64_t threshold = compaction.file_size_threshold;
  CompactionResult result;
  iceberg::ScanOptions all;
  FLOE_ASSIGN_OR_RETURN(iceberg::ScanPlan plan, iceberg::PlanScan(table, all));
  // The rewritten rows are the planned snapshot's: the new files keep its sequence number, so
  // deletes committed meanwhile (an upsert job's) still apply to them and need not fail this.
  const iceberg::Snapshot* planned = table.metadata().CurrentSnapshot();
  if (!planned) return result;
  const int64_t planned_sequence_number = planned->sequence_number;
  bool any_deletes = false;
  std::map<std::string, std::vector<const iceberg::FileScanTask*>> groups;
  int32_t spec_id = table.metadata().default_spec_id;
  for (const iceberg::FileScanTask& t : plan.tasks) {
    // Files with deletes are rewritten whatever their size, read with the deletes applied (the
    // new files' sequence number is the planned snapshot's, not older than any of those
    // deletes, so they do not apply twice); delete files left applying to nothing are then
    // dropped in the same commit, so readers without delete support see the right rows.
    const bool has_deletes = !t.deletes.empty();
    any_deletes = any_deletes || has_deletes;
    if (t.file.spec_id != spec_id || (t.file.file_size_in_bytes >= threshold && !has_deletes)) continue;
    std::string key;
    for (const iceberg::Literal& l : t.file.partition) key += l.ToString() + "\x1f";
    groups[key].push_back(&t);
  }
  const iceberg::Schema& schema = table.metadata().CurrentSchema();
  FLOE_ASSIGN_OR_RETURN(auto fields, iceberg::ToBatchFields(schema));
  std::vector<std::string> removed;
  std::vector<iceberg::DataFile> added;
  int64_t target = compaction.target_file_size_bytes > 0
                       ? compaction.target_file_size_bytes
                       : table.metadata().PropertyAsLong("write.target-file-size-bytes", int64_t{512} << 20);
  target = std::max<int64_t>(threshold, target);
  // Each partition's small files in bins of about one target file, so that memory holds one
  // bin's rows at a time however many files there are.
  std::vector<std::vector<const iceberg::FileScanTask*>> bins;
  for (const auto& [key, tasks] : groups) {
    std::vector<const iceberg::FileScanTask*> bin;
    int64_t bytes = 0;
    for (const iceberg::FileScanTask* t : tasks) {
      if (!bin.empty() && bytes + t->file.file_size_in_bytes > target) {
        bins.push_back(std::move(bin));
        bin.clear();
        bytes = 0;
      }
      bin.push_back(t);
      bytes += t->file.file_size_in_bytes;
    }
    if (!bin.empty()) bins.push_back(std::move(bin));
  }
  iceberg::EqualityDeleteCache equality_deletes;  // Read once for every file they apply to.
  for (const auto& tasks : bins) {
    const bool folds_deletes =
        std::any_of(tasks.begin(), tasks.end(), [](const iceberg::FileScanTask* t) { return !t->deletes.empty(); });
    if (!folds_deletes && tasks.size() < static_cast<size_t>(std::max(compaction.min_input_files, 2))) continue;
    std::vector<formats::ColumnBatch> batches;
    for (const iceberg::FileScanTask* t : tasks) {
      removed.push_back(t->file.file_path);
      result.bytes_rewritten += t->file.file_size_in_bytes;
      FLOE_RETURN_IF_ERROR(iceberg::ReadTask(table, *t, schema, [&](const formats::ColumnBatch& b, const std::vector<int>& cols) -> Status {
        formats::ColumnBatch out;
        out.fields = fields;
        out.num_rows = b.num_rows;
        for (size_t i = 0; i < cols.size(); ++i) {
          if (cols[i] < 0) {
            // A column the file does not store: its identity partition value, else null.
            iceberg::Literal value;
            const iceberg::PartitionSpec& spec = table.metadata().DefaultSpec();
            for (size_t p = 0; p < spec.fields().size() && p < t->file.partition.size(); ++p) {
              if (spec.fields()[p].source_id == schema.fields()[i].id &&
                  spec.fields()[p].transform.kind() == iceberg::Transform::Kind::kIdentity) {
                value = t->file.partition[p];
              }
            }
            out.columns.push_back(ConstantVector(fields[i].type, value, b.num_rows));
          } else {
            FLOE_ASSIGN_OR_RETURN(formats::ColumnVector v, ConvertVector(b.columns[static_cast<size_t>(cols[i])], fields[i].type));
            out.columns.push_back(std::move(v));
          }
        }
        batches.push_back(std::move(out));
        return OkStatus();
      }, &equality_deletes));
    }
    iceberg::DataWriteOptions options;
    options.target_file_size_bytes = target;
    FLOE_ASSIGN_OR_RETURN(auto written, iceberg::WriteDataFiles(table, batches, options));
    added.insert(added.end(), written.begin(), written.end());
  }
  const size_t delete_files_before = DeleteFileCount(table);
  if (removed.empty() && delete_files_before == 0) return result;
  iceberg::RewriteOptions rewrite{.data_sequence_number = planned_sequence_number, .drop_dangling_deletes = true};
  if (removed.empty() && !any_deletes) {
    // Nothing to rewrite, but delete files may apply to nothing any more: drop them, if so.
    FLOE_RETURN_IF_ERROR(DropDanglingDeletes(table, rewrite));
    result.delete_files_removed = delete_files_before - DeleteFileCount(table);
    return result;
  }
  FLOE_RETURN_IF_ERROR(table.RewriteFiles(removed, added, rewrite));
  result.delete_files_removed = delete_files_before - std::min(delete_files_before, DeleteFileCount(table));
  result.files_rewritten = removed.size();
  result.files_added = added.size();
  // The planner's distinct counts, brought up to the new snapshot (reading only what was
  // appended since the last statistics file, when that is all that changed). They are hints:
  // a failure leaves the compaction committed and is reported.
  auto statistics = iceberg::UpdateTableStatistics(table);
  if (!statistics.has_value()) result.statistics_error = statistics.error().ToString();
  return result;
}


}  // namespace floe::sql::iceberg_sql
