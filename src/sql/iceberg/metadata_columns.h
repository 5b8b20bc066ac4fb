// Iceberg's metadata columns (format/spec.md, "Reserved Field IDs") as hidden columns of every
// Iceberg table in SQL, under the names Spark gives them: `_file`, `_pos`, `_spec_id`, and on
// format v3 tables the row lineage columns `_row_id` and `_last_updated_sequence_number`; and
// Trino's "$path" (the same value as `_file`). A query names them; SELECT * never shows them.
// A scan fills them row by row: a file's path and spec are constants of the file, a position
// counts every row of the file (deleted ones too, as position deletes do), and row lineage
// takes a row's stored values, else inherits them (iceberg/row_lineage.h).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "sql/catalog/catalog.h"

namespace floe::sql::iceberg_sql {

enum class MetadataColumn { kFilePath, kPosition, kSpecId, kRowId, kLastUpdatedSequenceNumber };

// The metadata columns of a table of `format_version` whose columns are `columns`, leaving out
// any whose name one of them has (the table's own column wins).
std::vector<TableColumn> MetadataColumnsFor(const std::vector<TableColumn>& columns, int format_version);

// Which metadata column a field id is, if any.
std::optional<MetadataColumn> MetadataColumnOf(int32_t field_id);

// Whether a row's value depends on where the row sits in its file (so the scan reads whole
// files in order instead of splitting them by row group and skipping pages).
bool DependsOnPosition(MetadataColumn column);

}  // namespace floe::sql::iceberg_sql
