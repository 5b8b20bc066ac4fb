// Equality delete files (format/spec.md, "Equality Delete Files"): rows of some columns of the
// table (the file's `equality_ids`); a row of a data file with a smaller data sequence number,
// in the same partition (or anywhere when the delete file's spec is unpartitioned), whose values
// in those columns equal one of them, is deleted. Upserts write them for the keys they replace.
//
// Functions run on the caller's thread.
#pragma once

#include <cstdint>
#include <vector>

#include "formats/column_batch.h"
#include "iceberg/manifest.h"
#include "iceberg/table.h"

namespace floe::iceberg {

// Writes the key rows of `keys` (batches whose fields are exactly the columns `equality_ids`
// names, by field id) as equality delete files, one per partition of the default spec. Every
// partition source column must be an equality column: a key then lives in one partition only,
// which is where its delete goes. The files are not committed (Table::CommitRowDelta).
Result<std::vector<DataFile>> WriteEqualityDeletes(Table& table, const std::vector<int32_t>& equality_ids,
                                                   const std::vector<formats::ColumnBatch>& keys);

// Whether the default spec's partition can be computed from `equality_ids` alone (see above).
Status CheckPartitionedByKeys(const TableMetadata& metadata, const std::vector<int32_t>& equality_ids);

}  // namespace floe::iceberg
