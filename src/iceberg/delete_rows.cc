#include "iceberg/delete_rows.h"

#include <algorithm>
#include <map>
#include <optional>
#include <string>

#include "iceberg/batch_conversion.h"
#include "iceberg/deletion_vector_file.h"
#include "iceberg/evaluators.h"
#include "iceberg/scan.h"

namespace floe::iceberg {
namespace {

using formats::ColumnBatch;

// Evaluates the bound filter on each row: the matcher for tables without a SQL predicate.
Result<std::vector<uint8_t>> MatchFilter(const ExprPtr& bound, const Schema& schema, const ColumnBatch& batch,
                                         const std::vector<int>& columns) {
  std::vector<int32_t> ids = ReferencedFieldIds(bound);
  std::map<int32_t, std::pair<int, const Type*>> where;  // field id -> batch column, type
  for (int32_t id : ids) {
    int column = -1;
    const Type* type = nullptr;
    for (size_t i = 0; i < schema.fields().size(); ++i) {
      if (schema.fields()[i].id == id) {
        column = columns[i];
        type = schema.fields()[i].type.get();
      }
    }
    // A nested field's value is not a slot of a top-level vector: refusing is better than
    // reading it as null and quietly keeping rows that should go.
    if (!type) return NotImplemented("delete filters on nested fields ({}) are not supported", schema.FindColumnName(id));
    where[id] = {column, type};
  }
  std::vector<uint8_t> out(static_cast<size_t>(batch.num_rows), 0);
  for (int64_t row = 0; row < batch.num_rows; ++row) {
    out[static_cast<size_t>(row)] = EvaluateRow(bound, [&](int32_t id) -> Literal {
      auto it = where.find(id);
      if (it == where.end() || it->second.first < 0) return Literal();
      return LiteralAt(batch.columns[static_cast<size_t>(it->second.first)], row, *it->second.second);
    });
  }
  return out;
}

// The rows of one file that survive, as batches typed like the current schema.
struct Survivors {
  std::vector<ColumnBatch> batches;
  int64_t kept = 0;
  int64_t deleted = 0;
  int64_t added = 0;  // Rows the rewriter put in (counted in `kept` too).
};

// The rewriter's rows must be typed exactly as the file's survivors, since they are written
// into the same file.
Status CheckAddedBatch(const ColumnBatch& added, const std::vector<formats::Field>& fields) {
  if (added.columns.size() != fields.size()) {
    return Internal("the row rewriter gave {} columns, the table has {}", added.columns.size(), fields.size());
  }
  for (size_t i = 0; i < fields.size(); ++i) {
    if (added.columns[i].type().id != fields[i].type.id || added.columns[i].length != added.num_rows) {
      return Internal("the row rewriter's column '{}' is not typed or sized like the table's", fields[i].name);
    }
  }
  return OkStatus();
}

// The rows of a batch this statement removes (one flag per row), and the rows it adds for
// them, from the rewriter, the matcher or the filter itself.
Result<std::vector<uint8_t>> JudgeRows(const ColumnBatch& b, const std::vector<int>& columns,
                                       const std::vector<uint8_t>& already_deleted, const Schema& schema,
                                       const ExprPtr& bound, const DeleteRowsOptions& options,
                                       std::vector<ColumnBatch>* added) {
  std::vector<uint8_t> match;
  if (options.rewriter) {
    FLOE_ASSIGN_OR_RETURN(DeleteRowsOptions::RowChanges changes, options.rewriter(b, columns, already_deleted));
    match = std::move(changes.remove);
    *added = std::move(changes.added);
  } else if (options.matcher) {
    FLOE_ASSIGN_OR_RETURN(match, options.matcher(b, columns));
  } else {
    FLOE_ASSIGN_OR_RETURN(match, MatchFilter(bound, schema, b, columns));
  }
  if (match.size() != static_cast<size_t>(b.num_rows)) {
    return Internal("the row matcher flagged {} rows of a {}-row batch", match.size(), b.num_rows);
  }
  return match;
}

Result<Survivors> ReadSurvivors(Table& table, const FileScanTask& task, const Schema& schema, const ExprPtr& bound,
                                const DeleteRowsOptions& options) {
  FLOE_ASSIGN_OR_RETURN(std::vector<formats::Field> fields, ToBatchFields(schema));
  Survivors out;
  Status st = ReadTaskRows(
      table, task, schema,
      [&](const ColumnBatch& b, const std::vector<int>& columns,
          const std::vector<uint8_t>& already_deleted) -> Status {
        std::vector<ColumnBatch> added;
        FLOE_ASSIGN_OR_RETURN(std::vector<uint8_t> match,
                              JudgeRows(b, columns, already_deleted, schema, bound, options, &added));
        // Columns stored with an older type (promoted since the file was written) are rewritten
        // with the table's current type.
        std::vector<std::optional<formats::ColumnVector>> promoted(columns.size());
        for (size_t i = 0; i < columns.size(); ++i) {
          if (columns[i] < 0 || b.columns[static_cast<size_t>(columns[i])].type().id == fields[i].type.id) continue;
          auto converted = ConvertVector(b.columns[static_cast<size_t>(columns[i])], fields[i].type);
          if (!converted) {
            return std::unexpected(
                converted.error().WithContext(fmt::format("{}: column '{}'", task.file.file_path, fields[i].name)));
          }
          promoted[i] = std::move(*converted);
        }
        std::vector<uint32_t> rows;  // The rows this delete keeps.
        for (int64_t row = 0; row < b.num_rows; ++row) {
          size_t r = static_cast<size_t>(row);
          if (!already_deleted.empty() && already_deleted[r]) continue;  // Gone before this delete.
          if (match[r]) {
            ++out.deleted;
            continue;
          }
          rows.push_back(static_cast<uint32_t>(row));
        }
        ColumnBatch kept;
        kept.fields = fields;
        kept.num_rows = static_cast<int64_t>(rows.size());
        for (size_t i = 0; i < columns.size(); ++i) {
          kept.columns.push_back(
              columns[i] < 0
                  ? NullColumn(fields[i].type, kept.num_rows)
                  : formats::GatherRows(promoted[i] ? *promoted[i] : b.columns[static_cast<size_t>(columns[i])],
                                        rows.data(), kept.num_rows));
        }
        out.kept += kept.num_rows;
        if (kept.num_rows > 0) out.batches.push_back(std::move(kept));
        for (ColumnBatch& a : added) {
          FLOE_RETURN_IF_ERROR(CheckAddedBatch(a, fields));
          if (a.num_rows == 0) continue;
          a.fields = fields;
          out.kept += a.num_rows;
          out.added += a.num_rows;
          out.batches.push_back(std::move(a));
        }
        return OkStatus();
      });
  if (!st) return std::unexpected(st.error());
  return out;
}

void DeleteWritten(Table& table, const std::vector<DataFile>& files) {
  for (const DataFile& f : files) {
    if (auto key = table.ops().KeyForLocation(f.file_path)) (void)table.ops().store().Delete(*key);
  }
}

// The isolation level's conflict filter: the scan's filter under serializable isolation, null
// under snapshot isolation.
Result<ExprPtr> ConflictFilter(const Table& table, const DeleteRowsOptions& options, const ExprPtr& filter) {
  std::string isolation = table.metadata().Property(options.isolation_property, "serializable");
  if (isolation == "serializable") return filter;
  if (isolation == "snapshot") return ExprPtr();
  return InvalidArgument("{} is '{}'; use serializable or snapshot", options.isolation_property, isolation);
}

// Merge-on-read: the removed rows' positions become position delete files (v2) or deletion
// vectors (v3), the added rows new data files, and both one row delta.
Result<DeleteRowsResult> ChangeRowsMergeOnRead(Table& table, const ScanPlan& plan, const ExprPtr& filter,
                                               int64_t planned_sequence_number, const DeleteRowsOptions& options) {
  if (!options.add_files.empty()) return InvalidArgument("an overwrite by filter is copy-on-write");
  const bool vectors = table.metadata().format_version >= 3;
  FLOE_ASSIGN_OR_RETURN(std::vector<formats::Field> fields, ToBatchFields(plan.schema));
  FLOE_ASSIGN_OR_RETURN(ExprPtr conflict_filter, ConflictFilter(table, options, filter));
  DeleteRowsResult result;
  std::vector<ColumnBatch> new_rows;
  // Position deletes by partition of the default spec (a delete file applies within one).
  std::map<std::string, std::pair<std::vector<Literal>, std::map<std::string, std::vector<int64_t>>>> by_partition;
  std::vector<DeletionVectorUpdate> vector_updates;
  std::vector<DataFile> replaced_vectors;
  RowDeltaValidation validation;
  validation.planned_sequence_number = planned_sequence_number;
  validation.conflict_filter = conflict_filter;
  for (const FileScanTask& task : plan.tasks) {
    if (task.file.spec_id != table.metadata().default_spec_id) {
      return NotImplemented(
          "merge-on-read changes to files written with an older partition spec ({}); compact the "
          "table first",
          task.file.file_path);
    }
    std::vector<int64_t> hits;
    int64_t position = 0;  // Batches keep every row of the file, in order.
    FLOE_RETURN_IF_ERROR(ReadTaskRows(table, task, plan.schema,
                                      [&](const ColumnBatch& b, const std::vector<int>& columns,
                                          const std::vector<uint8_t>& already_deleted) -> Status {
                                        std::vector<ColumnBatch> added;
                                        FLOE_ASSIGN_OR_RETURN(std::vector<uint8_t> match,
                                                              JudgeRows(b, columns, already_deleted, plan.schema,
                                                                        plan.filter, options, &added));
                                        for (int64_t row = 0; row < b.num_rows; ++row) {
                                          size_t r = static_cast<size_t>(row);
                                          if (match[r] && (already_deleted.empty() || !already_deleted[r]))
                                            hits.push_back(position + row);
                                        }
                                        position += b.num_rows;
                                        for (ColumnBatch& a : added) {
                                          FLOE_RETURN_IF_ERROR(CheckAddedBatch(a, fields));
                                          if (a.num_rows == 0) continue;
                                          a.fields = fields;
                                          result.added_rows += a.num_rows;
                                          new_rows.push_back(std::move(a));
                                        }
                                        return OkStatus();
                                      }));
    if (hits.empty()) continue;
    result.deleted_rows += static_cast<int64_t>(hits.size());
    validation.referenced_data_files.insert(task.file.file_path);
    if (vectors) {
      // A file has one vector: this one takes over the positions of the current one.
      DeletionVectorUpdate update{task.file, std::move(hits)};
      bool has_vector = false;
      for (const DataFile& del : task.deletes) {
        if (del.is_deletion_vector()) {
          FLOE_ASSIGN_OR_RETURN(std::vector<int64_t> earlier, ReadDeletionVector(table, del, task.file));
          update.positions.insert(update.positions.end(), earlier.begin(), earlier.end());
          replaced_vectors.push_back(del);
          has_vector = true;
        }
      }
      if (!has_vector) {
        // A table upgraded from v2: the file's first vector takes its position deletes over.
        FLOE_ASSIGN_OR_RETURN(std::vector<int64_t> earlier,
                              PositionDeletesForVector(table, task.file, task.deletes, &replaced_vectors));
        update.positions.insert(update.positions.end(), earlier.begin(), earlier.end());
      }
      vector_updates.push_back(std::move(update));
      continue;
    }
    std::string key;
    for (const Literal& l : task.file.partition) key += l.ToString() + "\x1f";
    auto& slot = by_partition[key];
    slot.first = task.file.partition;
    slot.second[task.file.file_path] = std::move(hits);
  }
  if (options.append_rows) {
    FLOE_ASSIGN_OR_RETURN(std::vector<ColumnBatch> appended, options.append_rows());
    for (ColumnBatch& a : appended) {
      FLOE_RETURN_IF_ERROR(CheckAddedBatch(a, fields));
      if (a.num_rows == 0) continue;
      a.fields = fields;
      result.added_rows += a.num_rows;
      new_rows.push_back(std::move(a));
    }
  }
  if (result.deleted_rows == 0 && new_rows.empty()) return result;  // Nothing changes: no snapshot.
  std::vector<DataFile> data, deletes;
  auto written = [&]() -> Status {
    if (!new_rows.empty()) {
      FLOE_ASSIGN_OR_RETURN(data, WriteDataFiles(table, new_rows, options.write));
    }
    if (vectors) {
      if (!vector_updates.empty()) {
        FLOE_ASSIGN_OR_RETURN(deletes, WriteDeletionVectors(table, vector_updates));
      }
      return OkStatus();
    }
    for (const auto& [key, slot] : by_partition) {
      FLOE_ASSIGN_OR_RETURN(DataFile d, WritePositionDeletes(table, slot.second, slot.first));
      deletes.push_back(std::move(d));
    }
    return OkStatus();
  }();
  if (!written) {
    DeleteWritten(table, data);
    DeleteWritten(table, deletes);
    return std::unexpected(written.error());
  }
  Status committed = table.CommitRowDelta(data, deletes, replaced_vectors, &validation);
  if (!committed) {
    if (committed.error().kind() == ErrorKind::kConflict) {
      DeleteWritten(table, data);
      DeleteWritten(table, deletes);
    }
    return std::unexpected(committed.error());
  }
  result.files_added = static_cast<int64_t>(data.size());
  result.delete_files_added = static_cast<int64_t>(deletes.size());
  result.snapshot_id = table.metadata().current_snapshot_id;
  return result;
}

}  // namespace

Result<DeleteRowsResult> DeleteRows(Table& table, const ExprPtr& filter, const DeleteRowsOptions& options) {
  const int64_t planned_sequence_number = table.metadata().last_sequence_number;
  ScanOptions scan;
  scan.filter = filter ? filter : True();
  auto planned = PlanScan(table, scan);
  if (!planned) {
    DeleteWritten(table, options.add_files);
    return std::unexpected(planned.error());
  }
  const ScanPlan& plan = *planned;
  if (options.merge_on_read) return ChangeRowsMergeOnRead(table, plan, scan.filter, planned_sequence_number, options);
  DeleteRowsResult result;
  std::vector<std::string> removed;
  std::vector<DataFile> added = options.add_files;
  for (const FileScanTask& task : plan.tasks) {
    // Files with deletes are read even when every row matches: the count of rows deleted must
    // leave out the rows their deletes already removed.
    bool all_match = !options.rewriter && options.filter_is_exact && task.deletes.empty() &&
                     FileAllRowsMatch(task.residual, task.file, plan.schema);
    if (all_match) {
      removed.push_back(task.file.file_path);
      result.deleted_rows += task.file.record_count;
      ++result.files_dropped;
      continue;
    }
    auto survivors = ReadSurvivors(table, task, plan.schema, plan.filter, options);
    if (!survivors) {
      DeleteWritten(table, added);
      return std::unexpected(survivors.error());
    }
    if (survivors->deleted == 0 && survivors->added == 0) continue;  // Untouched.
    result.deleted_rows += survivors->deleted;
    result.added_rows += survivors->added;
    ++result.files_rewritten;
    removed.push_back(task.file.file_path);
    if (survivors->kept == 0) continue;
    auto written = WriteDataFiles(table, survivors->batches, options.write);
    if (!written) {
      DeleteWritten(table, added);
      return std::unexpected(written.error());
    }
    added.insert(added.end(), written->begin(), written->end());
  }
  if (options.append_rows) {
    auto appended = options.append_rows();
    if (!appended) {
      DeleteWritten(table, added);
      return std::unexpected(appended.error());
    }
    auto fields = ToBatchFields(plan.schema);
    if (!fields) {
      DeleteWritten(table, added);
      return std::unexpected(fields.error());
    }
    std::vector<ColumnBatch> rows;
    for (ColumnBatch& a : *appended) {
      if (Status ok = CheckAddedBatch(a, *fields); !ok) {
        DeleteWritten(table, added);
        return std::unexpected(ok.error());
      }
      if (a.num_rows == 0) continue;
      a.fields = *fields;
      result.added_rows += a.num_rows;
      rows.push_back(std::move(a));
    }
    if (!rows.empty()) {
      auto written = WriteDataFiles(table, rows, options.write);
      if (!written) {
        DeleteWritten(table, added);
        return std::unexpected(written.error());
      }
      added.insert(added.end(), written->begin(), written->end());
    }
  }
  if (removed.empty() && added.empty()) return result;  // Nothing matched: no snapshot.

  OverwriteValidation validation;
  validation.planned_sequence_number = planned_sequence_number;
  validation.fail_on_new_deletes = true;
  auto conflict_filter = ConflictFilter(table, options, scan.filter);
  if (!conflict_filter) {
    DeleteWritten(table, added);
    return std::unexpected(conflict_filter.error());
  }
  validation.conflict_filter = *conflict_filter;
  Status committed = table.OverwriteFiles(removed, added, validation);
  if (!committed) {
    // Definitely not committed: the new files are garbage. An unknown outcome keeps them.
    if (committed.error().kind() == ErrorKind::kConflict) DeleteWritten(table, added);
    return std::unexpected(committed.error());
  }
  result.files_added = static_cast<int64_t>(added.size());
  result.snapshot_id = table.metadata().current_snapshot_id;
  return result;
}

}  // namespace floe::iceberg
