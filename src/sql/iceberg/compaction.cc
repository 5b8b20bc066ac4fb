#include "sql/iceberg/compaction.h"

#include <algorithm>
#include <charconv>
#include <map>

#include "iceberg/batch_conversion.h"
#include "iceberg/data_files.h"
#include "iceberg/deletion_vector_file.h"
#include "iceberg/row_lineage.h"
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

// Where the rows a compaction kept of one rewritten file went.
struct MovedRows {
  iceberg::DataFile data_file;          // The rewritten file.
  size_t bin = 0;                       // Its bin: the new files that hold its rows.
  int64_t first_ordinal = 0;            // Its first kept row's place among the bin's rows.
  std::vector<int64_t> kept_positions;  // Ascending: the rows it kept, in the order written.
};

// The deletion vectors, on the new files, of the rows that `vectors` (committed on rewritten
// files after the compaction read them) delete and the compaction kept. Rows it already left
// out (deleted when it read them) are skipped: each vector holds its file's older deletes too.
Result<std::vector<iceberg::DataFile>> CarryDeletionVectors(
    iceberg::Table& table, const std::vector<iceberg::DataFile>& vectors, const std::map<std::string, MovedRows>& moved,
    const std::vector<std::vector<iceberg::DataFile>>& bin_outputs) {
  std::map<std::string, iceberg::DeletionVectorUpdate> updates;  // By new file.
  for (const iceberg::DataFile& dv : vectors) {
    auto it = dv.referenced_data_file ? moved.find(*dv.referenced_data_file) : moved.end();
    if (it == moved.end())
      return Corruption("deletion vector {} names a file this compaction did not rewrite", dv.file_path);
    const MovedRows& rows = it->second;
    FLOE_ASSIGN_OR_RETURN(std::vector<int64_t> positions, iceberg::ReadDeletionVector(table, dv, rows.data_file));
    for (int64_t position : positions) {
      auto kept = std::lower_bound(rows.kept_positions.begin(), rows.kept_positions.end(), position);
      if (kept == rows.kept_positions.end() || *kept != position) continue;
      int64_t ordinal = rows.first_ordinal + (kept - rows.kept_positions.begin());
      for (const iceberg::DataFile& f : bin_outputs[rows.bin]) {
        if (ordinal < f.record_count) {
          iceberg::DeletionVectorUpdate& update = updates[f.file_path];
          update.data_file = f;
          update.positions.push_back(ordinal);
          break;
        }
        ordinal -= f.record_count;
      }
    }
  }
  std::vector<iceberg::DeletionVectorUpdate> list;
  for (auto& [path, update] : updates) list.push_back(std::move(update));
  if (list.empty()) return std::vector<iceberg::DataFile>{};
  return iceberg::WriteDeletionVectors(table, list);
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
  // v3: rows move without change, so they keep their lineage (format/spec.md, "Row Lineage"):
  // each file is read with its stored `_row_id` / `_last_updated_sequence_number`, nulls take
  // the inherited values, and the new files store them.
  const bool row_lineage = table.metadata().format_version >= 3;
  const iceberg::Schema read_schema = row_lineage ? iceberg::WithRowLineageFields(schema) : schema;
  const size_t schema_columns = schema.fields().size();
  // Where each kept row of a rewritten file went, for deletion vectors committed meanwhile.
  std::map<std::string, MovedRows> moved;
  std::vector<std::vector<iceberg::DataFile>> bin_outputs;
  for (const auto& tasks : bins) {
    const bool folds_deletes =
        std::any_of(tasks.begin(), tasks.end(), [](const iceberg::FileScanTask* t) { return !t->deletes.empty(); });
    if (!folds_deletes && tasks.size() < static_cast<size_t>(std::max(compaction.min_input_files, 2))) continue;
    std::vector<formats::ColumnBatch> batches;
    int64_t ordinal = 0;  // Rows of the bin written so far: the new files hold them in this order.
    for (const iceberg::FileScanTask* t : tasks) {
      removed.push_back(t->file.file_path);
      result.bytes_rewritten += t->file.file_size_in_bytes;
      MovedRows& rows = moved[t->file.file_path];
      rows.data_file = t->file;
      rows.bin = bin_outputs.size();
      rows.first_ordinal = ordinal;
      int64_t position = 0;  // Of the batch's first row in the file: every row is read.
      FLOE_RETURN_IF_ERROR(iceberg::ReadTaskRows(
          table, *t, read_schema,
          [&](formats::ColumnBatch& b, const std::vector<int>& cols, const std::vector<uint8_t>& deleted) -> Status {
            std::vector<uint32_t> kept;
            for (int64_t r = 0; r < b.num_rows; ++r) {
              if (deleted.empty() || !deleted[static_cast<size_t>(r)]) {
                kept.push_back(static_cast<uint32_t>(r));
                rows.kept_positions.push_back(position + r);
              }
            }
            const auto count = static_cast<int64_t>(kept.size());
            formats::ColumnBatch out;
            out.fields = fields;
            out.num_rows = count;
            for (size_t i = 0; i < schema_columns; ++i) {
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
                out.columns.push_back(ConstantVector(fields[i].type, value, count));
              } else {
                FLOE_ASSIGN_OR_RETURN(formats::ColumnVector v,
                                      ConvertVector(b.columns[static_cast<size_t>(cols[i])], fields[i].type));
                out.columns.push_back(count == b.num_rows ? std::move(v) : formats::GatherRows(v, kept.data(), count));
              }
            }
            if (row_lineage) {
              auto stored = [&](size_t i) { return cols[i] < 0 ? nullptr : &b.columns[static_cast<size_t>(cols[i])]; };
              formats::ColumnVector row_id =
                  iceberg::InheritLineage(stored(schema_columns), position, b.num_rows, t->file.first_row_id, true);
              formats::ColumnVector sequence = iceberg::InheritLineage(stored(schema_columns + 1), position, b.num_rows,
                                                                       t->data_sequence_number, false);
              out.fields.push_back(iceberg::RowIdBatchField());
              out.fields.push_back(iceberg::LastUpdatedSequenceNumberBatchField());
              out.columns.push_back(formats::GatherRows(row_id, kept.data(), count));
              out.columns.push_back(formats::GatherRows(sequence, kept.data(), count));
            }
            position += b.num_rows;
            ordinal += count;
            batches.push_back(std::move(out));
            return OkStatus();
          },
          &equality_deletes));
    }
    iceberg::DataWriteOptions options;
    options.target_file_size_bytes = target;
    options.row_lineage = row_lineage;
    FLOE_ASSIGN_OR_RETURN(auto written, iceberg::WriteDataFiles(table, batches, options));
    // The writer fills one partition's files in order, so the bin's rows are the new files'
    // rows one after another; anything else would send carried deletes to the wrong rows.
    int64_t written_rows = 0;
    for (const iceberg::DataFile& f : written) written_rows += f.record_count;
    if (written_rows != ordinal) {
      return Corruption("compaction wrote {} rows for the {} it read", written_rows, ordinal);
    }
    added.insert(added.end(), written.begin(), written.end());
    bin_outputs.push_back(std::move(written));
  }
  const size_t delete_files_before = DeleteFileCount(table);
  if (removed.empty() && delete_files_before == 0) return result;
  iceberg::RewriteOptions rewrite{.data_sequence_number = planned_sequence_number, .drop_dangling_deletes = true};
  rewrite.carry_deletion_vectors = [&](const std::vector<iceberg::DataFile>& vectors) {
    return CarryDeletionVectors(table, vectors, moved, bin_outputs);
  };
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
