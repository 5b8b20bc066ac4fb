// Bin-pack compaction (Spark's rewrite_data_files, Trino's ALTER TABLE ... EXECUTE optimize),
// which also folds row-level deletes: every data file with deletes is rewritten without the
// deleted rows, and delete files that then apply to nothing are dropped (docs/upserts.md).
// the small data files of each partition, in bins of about one target file, are read back — deletes applied, columns a file lacks
// filled, promoted types widened, exactly as a scan shapes them — and written as files of the
// target size, in one `replace` snapshot (which keeps the stream job's checkpoint, see
// iceberg::kCarriedSummaryPrefix). The rewrite commits with compare-and-swap retries and
// survives concurrent appends (its deleted files are still live in the new base); it fails with
// kConflict if one of them was removed, or any delete file committed, meanwhile (the deleted rows
// would come back), and is simply planned again next time. Readers of older snapshots are unaffected:
// files are only deleted by snapshot expiry. A compaction that rewrote files also brings the
// table's column statistics file (iceberg/table_statistics.h) up to the new snapshot. `floe table compact`, the SQL procedure optimize
// and the stream job's maintenance share it. Runs on the caller's thread.
#pragma once

#include <cstdint>
#include <string>

#include "base/result.h"
#include "iceberg/table.h"

namespace floe::sql::iceberg_sql {

struct CompactionOptions {
  int64_t file_size_threshold = int64_t{100} << 20;  // Files smaller than this are rewritten.
  int64_t target_file_size_bytes = 0;  // 0: the table's write.target-file-size-bytes (default 512 MiB).
  int min_input_files = 2;             // A bin with fewer small files is left alone (at least 2).
};

struct CompactionResult {
  size_t files_rewritten = 0;
  size_t files_added = 0;
  int64_t bytes_rewritten = 0;
  size_t delete_files_removed = 0;  // Delete files that applied to nothing once the rewrite committed.
  std::string statistics_error;  // Empty: the column statistics file was brought up to date.
};

Result<CompactionResult> CompactDataFiles(iceberg::Table& table, const CompactionOptions& options);

}  // namespace floe::sql::iceberg_sql
