// Turns rows of a (possibly nested) column vector into one leaf column's definition and
// repetition levels plus the slots of its non-null values (Dremel shredding), for the writer.
// Flat columns take a direct path with no per-value branching on the tree. Stateless; any thread.
#pragma once

#include <cstdint>
#include <vector>

#include "base/result.h"
#include "formats/column_batch.h"
#include "formats/parquet/schema.h"

namespace floe::parquet {

struct ShreddedLevels {
  std::vector<int16_t> def, rep;    // One entry per level (empty when max_def / max_rep is 0).
  std::vector<int64_t> positions;   // Slots of the leaf vector holding the non-null values.
  const formats::ColumnVector* leaf = nullptr;
  int64_t num_levels = 0;
  int64_t num_rows = 0;
  // Flat columns without nulls: the values are the contiguous slots [dense_begin, +count).
  bool dense = false;
  int64_t dense_begin = 0;

  void Clear() {
    def.clear();
    rep.clear();
    positions.clear();
    num_levels = num_rows = 0;
    dense = false;
  }
};

// Shreds rows [begin, end) of `column` (the vector of leaf.top_field) for `leaf`.
void ShredLeaf(const LeafColumn& leaf, const formats::ColumnVector& column, int64_t begin, int64_t end,
               ShreddedLevels* out);

// InvalidArgument when a vector does not match its node (type, child count, offsets, nulls in
// a required field), so shredding can trust the batch.
Status ValidateColumn(const SchemaNode& node, const formats::ColumnVector& column);

}  // namespace floe::parquet
