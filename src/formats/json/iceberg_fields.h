// The batch fields (names, field ids, nullability, types) an Iceberg schema's rows take in a
// ColumnBatch. Stateless; any thread.
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
