// Row lineage's row-level fields (format/spec.md, "Row Lineage", v3): `_row_id` and
// `_last_updated_sequence_number`, metadata columns with reserved field ids that a data file may
// store. Where a file stores null (or lacks the column, as files with only new rows do), the
// value is inherited: `_row_id` = the file's first_row_id + the row's position, and
// `_last_updated_sequence_number` = the file's data sequence number. A writer that moves rows
// without changing them (compaction) writes both values out so they survive the move.
//
// Functions are pure and run on the caller's thread.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "formats/column_batch.h"
#include "iceberg/schema.h"

namespace floe::iceberg {

inline constexpr int32_t kRowIdFieldId = 2147483540;
inline constexpr int32_t kLastUpdatedSequenceNumberFieldId = 2147483539;
inline constexpr std::string_view kRowIdColumn = "_row_id";
inline constexpr std::string_view kLastUpdatedSequenceNumberColumn = "_last_updated_sequence_number";

// `schema` with both lineage fields appended (optional longs), for reading a data file's stored
// values by field id.
Schema WithRowLineageFields(const Schema& schema);

// The two lineage fields as batch fields, in the order above.
formats::Field RowIdBatchField();
formats::Field LastUpdatedSequenceNumberBatchField();

// The values of `count` rows at positions `first_position`, `first_position` + 1, ... of a data
// file: `stored` is the file's column (null when the file lacks it; its slot i holds the row at
// first_position + i) and `inherited_base` what a null inherits: for `_row_id` the file's
// first_row_id, to which the position is added; for the sequence number the file's data sequence
// number (with `add_position` false). A null inherited_base (a file of a snapshot from before an
// upgrade to v3, which has no row ids) leaves nulls null.
formats::ColumnVector InheritLineage(const formats::ColumnVector* stored, int64_t first_position, int64_t count,
                                     std::optional<int64_t> inherited_base, bool add_position);

}  // namespace floe::iceberg
