// Deletion vectors as a table stores them (format/spec.md, "Deletion Vectors"): Puffin files of
// `deletion-vector-v1` blobs, each located by its delete-manifest entry (content 1, format
// PUFFIN, referenced_data_file, content_offset, content_size_in_bytes, record_count = the
// vector's cardinality). A v3 table holds at most one vector per data file: a writer adding
// deletes to a file that has one writes the union and replaces the old entry in one commit.
//
// Functions run on the caller's thread.
#pragma once

#include <cstdint>
#include <vector>

#include "base/result.h"
#include "iceberg/manifest.h"
#include "iceberg/table.h"

namespace floe::iceberg {

// The deleted positions of `data` held by its vector `dv`, read by the byte range the entry
// gives (never by parsing the whole Puffin file); checked against the entry and `data`.
Result<std::vector<int64_t>> ReadDeletionVector(Table& table, const DataFile& dv, const DataFile& data);

// The positions of `data` its position delete files `files` (Parquet, from before an upgrade
// to v3) delete, for its first vector, which must hold them (format/spec.md, "Scan Planning":
// readers ignore position delete files for a file with a vector). Those scoped to `data` alone
// are added to `replaced`, for the commit to remove; files that name other data files stay.
Result<std::vector<int64_t>> PositionDeletesForVector(Table& table, const DataFile& data,
                                                      const std::vector<DataFile>& files,
                                                      std::vector<DataFile>* replaced);

// The complete set of deleted positions one data file is to have.
struct DeletionVectorUpdate {
  DataFile data_file;
  std::vector<int64_t> positions;  // Any order; repeats allowed.
};

// Writes the vectors of `updates`, one Puffin file per partition (so that every vector of a
// file shares its scope, and a file's entries are dropped together only when all of them
// apply to nothing), and returns their manifest entries' files, in the order of `updates`.
// Nothing is committed.
Result<std::vector<DataFile>> WriteDeletionVectors(Table& table, const std::vector<DeletionVectorUpdate>& updates);

}  // namespace floe::iceberg
