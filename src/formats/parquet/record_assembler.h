// Rebuilds column vectors from decoded leaf chunks (the reverse of level_shredder): flat
// columns turn definition levels into validity; nested columns replay each leaf's levels to
// rebuild struct validity and list/map offsets along its path, then leaves sharing an ancestor
// share that ancestor's vectors. Levels were range-checked by the chunk decoder; the assembler
// checks their structure (a repetition that continues no list is Corruption). Stateless.
#pragma once

#include <vector>

#include "base/result.h"
#include "formats/column_batch.h"
#include "formats/parquet/column_reader.h"
#include "formats/parquet/schema.h"

namespace floe::parquet {

// Builds the vector of top-level field `field` from the decoded chunks of its leaves
// (`chunks[leaf index]`, each present for the field's leaves; consumed).
Result<formats::ColumnVector> AssembleField(const Schema& schema, int field, std::vector<DecodedChunk>& chunks,
                                            int64_t expected_rows);

}  // namespace floe::parquet
