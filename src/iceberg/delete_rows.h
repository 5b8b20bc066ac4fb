// Row-level delete by filter, copy-on-write: what `DELETE FROM t WHERE ...` does to a
// copy-on-write Iceberg table in Spark, and PyIceberg's `Table.delete(delete_filter)`; with a
// rewriter, UPDATE and MERGE; merge-on-read when DeleteRowsOptions::merge_on_read says.
//
// Scan planning picks the data files that may hold matching rows (partition and column-metric
// pruning). A file whose metrics prove every row matches (strict evaluation) and that has no
// delete files is dropped without being read. Any other candidate is read with its delete files
// applied (position, equality, deletion vectors); if some of its rows match, the file is
// replaced by one holding the rest (none when all matched), written with the table's default
// spec. Untouched files stay as they are. Everything is committed as one snapshot through
// Table::OverwriteFiles: `delete` when files were only removed, `overwrite` when some were
// rewritten, with the usual summary (deleted-data-files, deleted-records, added-data-files,
// added-records, ...). When nothing matches no snapshot is committed (as PyIceberg does).
//
// Concurrency: the commit re-checks the table as it is then. It fails with kConflict when a
// file being replaced is gone, when delete files were committed since planning (their rows
// would come back in the rewrite), and, under the table's `write.delete.isolation-level`
// `serializable` (the default, as in Iceberg), when a data file appended since might hold
// matching rows; `snapshot` allows such appends. The caller may plan again; new files of a
// failed commit are deleted.
//
// Runs on the caller's thread.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "formats/column_batch.h"
#include "iceberg/data_files.h"
#include "iceberg/expression.h"
#include "iceberg/table.h"

namespace floe::iceberg {

struct DeleteRowsOptions {
  // For predicates an Iceberg expression cannot state (SQL): flags the rows to delete in a
  // batch read with the table schema's columns (`columns` as in ReadTask: the batch column of
  // each schema column, or -1 for null). The filter must then be implied by the matcher (it
  // prunes files), and only drops files unread when `filter_is_exact` says it equals it.
  using RowMatcher = std::function<Result<std::vector<uint8_t>>(const formats::ColumnBatch& batch,
                                                                const std::vector<int>& columns)>;
  RowMatcher matcher;
  bool filter_is_exact = true;
  // UPDATE and MERGE (copy-on-write): instead of the matcher, the rows of a batch to remove and
  // the rows to write in their place. `deleted` flags rows deleted before (empty: none); they
  // must not be removed again. `added` batches are typed like the schema's batch fields
  // (ToBatchFields). Every candidate file is read (none is dropped on statistics alone), and a
  // file is rewritten when it loses or gains rows.
  struct RowChanges {
    std::vector<uint8_t> remove;  // One flag per batch row.
    std::vector<formats::ColumnBatch> added;
  };
  using RowRewriter = std::function<Result<RowChanges>(
      const formats::ColumnBatch& batch, const std::vector<int>& columns, const std::vector<uint8_t>& deleted)>;
  RowRewriter rewriter;
  // Called once after every candidate file was read: rows to add in the same commit (MERGE's
  // WHEN NOT MATCHED inserts), typed as `added` is.
  std::function<Result<std::vector<formats::ColumnBatch>>()> append_rows;
  // The table property naming the statement's isolation level (Iceberg has one per operation:
  // write.delete|update|merge.isolation-level).
  std::string isolation_property = "write.delete.isolation-level";
  // Merge-on-read (Iceberg's write.delete|update|merge.mode): the removed rows become position
  // delete files (v2) or deletion vectors merged with their files' current ones (v3), the added
  // rows new data files, committed as one row delta (Table::CommitRowDelta, validated as
  // RowDeltaValidation says); no data file is rewritten. Files of an older partition spec, and
  // v3 files that still have v2 position delete files, are not supported.
  bool merge_on_read = false;
  DataWriteOptions write;
  // Overwrite by filter (PyIceberg's Table.overwrite, Spark's INSERT OVERWRITE ... WHERE): data
  // files already written to add in the same commit, so readers see the old rows or the new
  // ones, never both or neither. On a definite failure they are deleted with the rest.
  std::vector<DataFile> add_files;
};

struct DeleteRowsResult {
  int64_t deleted_rows = 0;
  int64_t files_dropped = 0;    // Removed whole without being read.
  int64_t files_rewritten = 0;  // Read, then removed or replaced by a file of the remaining rows.
  int64_t files_added = 0;      // Rewritten survivors and add_files.
  int64_t added_rows = 0;       // Rows the rewriter and append_rows added.
  int64_t delete_files_added = 0;      // Merge-on-read: position delete files or deletion vectors.
  std::optional<int64_t> snapshot_id;  // The committed snapshot; none when nothing matched.
};

// Deletes the rows matching the unbound `filter` (True() deletes every row).
Result<DeleteRowsResult> DeleteRows(Table& table, const ExprPtr& filter, const DeleteRowsOptions& options = {});

}  // namespace floe::iceberg
