// Between Iceberg's model and formats::ColumnBatch, the columnar currency of the Parquet codec:
// batch fields for a schema, one slot as a Literal or as JSON, null and converted columns.
//
// Stateless functions; any thread (batches themselves are single-threaded).
#pragma once

#include <vector>

#include <nlohmann/json.hpp>

#include "formats/column_batch.h"
#include "iceberg/literal.h"
#include "iceberg/schema.h"

namespace floe::iceberg {

// Batch fields (names, ids, nullability, types) for a schema's columns. NotImplemented for
// types batches cannot hold (variant, geometry).
Result<std::vector<formats::Field>> ToBatchFields(const Schema& schema);
Result<formats::Field> ToBatchField(const NestedField& field);

// Slot `row` of a primitive vector as a literal of `type` (null for a null slot).
Literal LiteralAt(const formats::ColumnVector& vector, int64_t row, const Type& type);

// Slot `row` as JSON: primitives in the Appendix D JSON form, structs as objects by name,
// lists as arrays, maps as objects (string keys) or [{"key":..,"value":..}] lists.
nlohmann::ordered_json JsonAt(const formats::ColumnVector& vector, int64_t row, const Type& type);

// `rows` copies of a primitive `value` (null: all null) as a vector of `type`'s batch type: the
// column a data file does not store but its identity partition value fixes.
Result<formats::ColumnVector> ConstantColumn(const Type& type, const Literal& value, int64_t rows);

// For each column of `schema`, the index of the batch field with the same field id (or the same
// name when the batch has no ids), or -1.
std::vector<int> MatchColumns(const std::vector<formats::Field>& batch_fields, const Schema& schema);

// `n` null slots of `type` (structs: null children too).
formats::ColumnVector NullColumn(const formats::DataType& type, int64_t n);

// `vector` as `type`, for a column stored with an older type: Iceberg's promotions (int->long,
// float->double, decimal widening), fixed/uuid->binary, string<->binary, nanoseconds->
// microseconds, and structs field by field (by id, else name; missing fields null). Unchanged
// (moved) when it already has that type; NotImplemented for other pairs.
Result<formats::ColumnVector> ConvertVector(formats::ColumnVector vector, const formats::DataType& type);

// A timestamp_ns or timestamptz_ns vector as timestamp or timestamptz: microseconds, rounded
// down (so instants before 1970 keep their order and calendar fields).
formats::ColumnVector NanosToMicros(const formats::ColumnVector& nanos);

}  // namespace floe::iceberg
