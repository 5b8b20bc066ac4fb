// Where the live rows of some keys are: for an upsert into a v3 table, whose deletes are
// deletion vectors (file + position) rather than equality deletes (key values), each key the
// batch touches must be found in the data files before its previous row can be deleted.
//
// The lookup reads the key columns of every live data file of the current snapshot (with its
// deletes applied, so rows already deleted are not found again), except, for one integer key,
// files whose key bounds lie outside the keys' range: its cost grows with the table, not with
// the batch. Runs on the caller's thread.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "base/result.h"
#include "formats/column_batch.h"
#include "iceberg/manifest.h"
#include "iceberg/table.h"

namespace floe::iceberg {

struct KeyRowsInFile {
  DataFile data_file;
  std::optional<DataFile> deletion_vector;  // The file's current vector, when it has one.
  // Its position delete files from before an upgrade to v3 (Parquet, the table was v2), when it
  // has no vector yet: its first vector must take their positions over.
  std::vector<DataFile> position_delete_files;
  std::vector<int64_t> positions;           // Its live rows whose key is one of the keys, ascending.
};

// The live rows, in the current snapshot of `table`, whose key columns (`key_ids`: top-level
// primitive columns) equal a row of `keys` (batches holding those columns, found by field id).
// Only files with at least one such row are returned. A null key value matches nothing.
Result<std::vector<KeyRowsInFile>> FindKeyRows(Table& table, const std::vector<int32_t>& key_ids,
                                               const std::vector<formats::ColumnBatch>& keys);

}  // namespace floe::iceberg
