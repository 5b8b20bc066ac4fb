// The executor's vectors and chunks. A vector is a formats::ColumnVector holding one of five
// physical forms, whatever the SQL type: booleans (1 byte), 64-bit integers (every integer,
// date, time, timestamp and interval type), doubles (real and double), 128-bit decimals, and
// strings (varchar, varbinary, uuid as its 36-character text). Storage batches are converted at
// the scan (widening only; strings and int64 columns move without a copy) and back at writes.
// A DataChunk is a set of equally long vectors shared by pointer, so projections and filters
// pass columns through without copying. Vectors are immutable once in a chunk; any thread may
// read a chunk.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "base/result.h"
#include "formats/column_batch.h"
#include "sql/types/sql_type.h"
#include "sql/types/value.h"

namespace floe::sql {

using formats::ColumnVector;
using VectorPtr = std::shared_ptr<const ColumnVector>;
using MutableVectorPtr = std::shared_ptr<ColumnVector>;

enum class PhysicalType { kBool, kInt64, kDouble, kInt128, kString };

// Rows per chunk produced by operators that build chunks themselves.
inline constexpr int64_t kChunkRows = 8192;

PhysicalType PhysicalTypeOf(const SqlType& type);
// The ColumnVector type of the executor's form of `type`.
formats::DataType ExecDataType(const SqlType& type);
// Whether the executor can compute on values of `type` (compare, group, sort, aggregate):
// every type but the nested ones.
bool IsExecutable(const SqlType& type);
// Whether vectors of `type` can flow through scans, filters, projections, joins and sorts as
// payload: the executable types, and rows of them (read through field access, s.name).
bool CanCarry(const SqlType& type);

struct DataChunk {
  std::vector<VectorPtr> columns;
  int64_t rows = 0;

  // Approximate bytes held (for memory accounting).
  int64_t Bytes() const;
};

MutableVectorPtr NewVector(const SqlType& type, int64_t reserve = 0);
// Marks slot `i` of a vector being built as null (creating the validity bytes when needed).
void SetNull(ColumnVector& v, int64_t i);

// One value of a vector as a Value of `type`.
Value GetValue(const ColumnVector& v, const SqlType& type, int64_t row);
// Appends a value (of the vector's SQL type, or null).
void AppendValue(ColumnVector& v, const Value& value);
// A vector of `rows` copies of `value`.
VectorPtr ConstantVector(const Value& value, int64_t rows);
// Appends row `row` of `from` to `to` (same physical type).
void AppendFrom(ColumnVector& to, const ColumnVector& from, int64_t row);
// The rows of `v` at `indexes` (in order).
VectorPtr Gather(const ColumnVector& v, const uint32_t* indexes, int64_t count);
// Rows of every column of `chunk` at `indexes`.
DataChunk GatherChunk(const DataChunk& chunk, const std::vector<uint32_t>& indexes);
// Rows [offset, offset + count) of a chunk.
DataChunk SliceChunk(const DataChunk& chunk, int64_t offset, int64_t count);
// All chunks' vectors for column `c` appended into one vector.
VectorPtr Concatenate(const std::vector<DataChunk>& chunks, size_t column, const SqlType& type);

// A storage batch column (typed by StorageDataType) in the executor's form.
Result<VectorPtr> FromStorage(ColumnVector&& column, const SqlType& type);
// The storage form of a SQL type: the formats type a table column of that type is read and
// written as (integer -> kInt32, bigint -> kInt64, date -> kDate, varchar -> kString, ...).
Result<formats::DataType> StorageDataType(const SqlType& type);
// An executor vector in the storage form of `type`.
Result<ColumnVector> ToStorage(const ColumnVector& column, const SqlType& type);

}  // namespace floe::sql
