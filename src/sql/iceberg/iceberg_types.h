// Between Iceberg's types and values and the SQL engine's: the SqlType a column of an Iceberg
// type has, the batch type the engine expects for a SqlType (what scans hand the executor and
// what AppendRows receives), the Iceberg type CREATE TABLE gives a SqlType, and a SQL constant
// as an Iceberg literal for scan planning. Stateless functions; any thread.
#pragma once

#include <optional>

#include "base/result.h"
#include "formats/column_batch.h"
#include "iceberg/literal.h"
#include "iceberg/types.h"
#include "sql/types/sql_type.h"
#include "sql/types/value.h"

namespace floe::sql::iceberg_sql {

// NotImplemented for types SQL cannot show (variant, unknown, nanosecond timestamps are read as
// microseconds: timestamp(6)).
Result<SqlType> SqlTypeFor(const iceberg::Type& type);

// The batch type of a SQL type: varchar -> kString, real -> kFloat, varbinary -> kBinary,
// row -> kStruct, ...
formats::DataType BatchTypeFor(const SqlType& type);

// The Iceberg type for a SQL column type; nested ids are drawn from `next_id`.
Result<iceberg::TypePtr> IcebergTypeFor(const SqlType& type, int32_t* next_id);

// A non-null SQL constant as a literal of `type`, or nullopt when it has no exact counterpart
// (pruning then ignores the term).
std::optional<iceberg::Literal> LiteralFor(const Value& value, const iceberg::Type& type);

// A partition or bound literal of `type` as a SQL value of `sql_type` (null literal -> null).
Value ValueFor(const iceberg::Literal& literal, const iceberg::Type& type, const SqlType& sql_type);

}  // namespace floe::sql::iceberg_sql
