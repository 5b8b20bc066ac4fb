// The pushed-down SQL predicate (ScanPredicate) in the forms storage evaluates: a bound Iceberg
// filter for planning (partition values, manifest summaries, file bounds and null counts) and
// Parquet row-group predicates keyed by field id (each file names its columns its own way).
// Terms that do not translate exactly are left out: pruning may only ever keep too much.
// Stateless functions; any thread.
#pragma once

#include <vector>

#include "formats/parquet/file_reader.h"
#include "iceberg/expression.h"
#include "iceberg/schema.h"
#include "sql/planner/scan_predicate.h"

namespace floe::sql::iceberg_sql {

// A bound filter (True() when nothing translates). `exact`, when given, is cleared unless the
// filter states the whole predicate (every term translated, no residual).
iceberg::ExprPtr ToIcebergFilter(const ScanPredicate* predicate, const iceberg::Schema& schema, bool* exact = nullptr);

struct FieldPredicate {
  int32_t field_id = 0;
  parquet::ColumnPredicate predicate;  // `column` is filled per file.
};
std::vector<FieldPredicate> ToParquetPredicates(const ScanPredicate* predicate, const iceberg::Schema& schema);

}  // namespace floe::sql::iceberg_sql
