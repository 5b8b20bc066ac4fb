// BatchTransform: the stream job's `--transform "SELECT … FROM events [WHERE …]"`, run by the SQL
// engine on each batch of decoded events — the same binder, functions, casts and vectorized
// evaluation as any query — so that fresh reads apply the very same transform to the log tail.
//
// The SQL is one SELECT over the table `events` (the event schema's columns): expressions with
// aliases and a WHERE condition; no joins, aggregates, window functions, ordering, limits,
// DISTINCT, set operations or other tables, since each batch must map to rows independently of
// the others. The output schema is the SELECT list: one optional column per expression, named
// by its alias, with Iceberg types from its SQL type.
//
// Apply isolates failures per row: when an expression fails on some rows (a cast of 'abc' to
// bigint), those rows are left out and reported, and every other row is kept, so the job can
// send exactly the failing events to its dead-letter table. Not thread-safe: one caller at a
// time (each stream job and each log-tail partition reader owns its own).
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "formats/column_batch.h"
#include "iceberg/schema.h"

namespace floe::sql::iceberg_sql {

struct RowFailure {
  int64_t row = 0;  // Index into the batch given to Apply.
  std::string message;
};

class BatchTransform {
 public:
  // kInvalidArgument (with the position in `sql`) for SQL that is not such a SELECT over `events`.
  static Result<std::unique_ptr<BatchTransform>> Compile(std::string_view sql, const iceberg::Schema& events);
  ~BatchTransform();
  BatchTransform(const BatchTransform&) = delete;
  BatchTransform& operator=(const BatchTransform&) = delete;

  const std::string& sql() const;
  // The rows' schema: field ids 1..n in SELECT order (nested ids after them), all optional.
  const iceberg::Schema& output_schema() const;
  // Batch fields of output_schema(), what Apply's batches carry.
  const std::vector<formats::Field>& output_fields() const;

  // The rows of `events` (batch fields of the event schema) that pass WHERE, shaped by the
  // SELECT list, in input order. Rows whose expressions fail are left out and appended to
  // `failures`. Errors only for what no row caused (memory limits, a bug).
  Result<std::vector<formats::ColumnBatch>> Apply(const formats::ColumnBatch& events, std::vector<RowFailure>* failures);

 private:
  BatchTransform();
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace floe::sql::iceberg_sql
