// The batch fields (names, field ids, nullability, types) an Iceberg schema's rows take in a
// ColumnBatch, for the JSON decoder's callers: the same mapping as iceberg::ToBatchFields
// (iceberg/batch_conversion.h), which it forwards to. Stateless; any thread.
#pragma once

#include <vector>

#include "base/result.h"
#include "formats/column_batch.h"
#include "iceberg/schema.h"

namespace floe::formats {

// NotImplemented for types a batch cannot hold yet (nanosecond timestamps, variant, unknown).
Result<std::vector<Field>> BatchFieldsFromSchema(const iceberg::Schema& schema);
Result<Field> BatchFieldFromNested(const iceberg::NestedField& field);

}  // namespace floe::formats
