// Shaping what a Parquet file yields into what the engine asked for: a column the file does not
// store (added after the file was written: null; an identity-partition source column some
// writers leave out of data files: the partition value) as a constant vector, and a column
// stored with an older type (promotion int->long, float->double, decimal widening, fixed ->
// varbinary) converted to the requested batch type. Stateless functions; any thread.
#pragma once

#include "base/result.h"
#include "formats/column_batch.h"
#include "iceberg/batch_conversion.h"
#include "iceberg/literal.h"

namespace floe::sql::iceberg_sql {

// `n` copies of `value` (null when value is null) as a vector of `type`.
formats::ColumnVector ConstantVector(const formats::DataType& type, const iceberg::Literal& value, int64_t n);

// `vector` as `type` (the iceberg core's conversion; storage and SQL share it).
using iceberg::ConvertVector;

}  // namespace floe::sql::iceberg_sql
