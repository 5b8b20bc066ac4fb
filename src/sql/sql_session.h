// A SQL session: runs statement text against a catalog with session state (current catalog
// and schema). Queries run on the vectorized executor (sql/executor.h); DDL and INSERT call the
// catalog's write methods. Results come back collected (Run) or streamed batch by batch to
// callbacks (RunStreaming), so a server can page them. One thread at a time per session; the
// executor uses its own worker threads inside a call.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "sql/binder/binder.h"
#include "sql/catalog/catalog.h"
#include "sql/execution/query_context.h"
#include "sql/execution/vector.h"

namespace floe::sql {

struct StatementResult {
  std::vector<std::string> column_names;
  std::vector<SqlType> column_types;
  std::vector<std::vector<Value>> rows;
  std::string message;                  // For statements without rows: "USE floe.sales", "INSERT: 3 rows".
  std::optional<int64_t> update_count;  // INSERT and CREATE TABLE AS: rows written.
  std::vector<std::string> warnings;    // For the client; the statement still succeeded.
};

// One batch of a streamed result: `rows()` rows of the statement's columns.
class ResultBatch {
 public:
  ResultBatch(const DataChunk& chunk, const std::vector<SqlType>& types) : chunk_(chunk), types_(types) {}

  int64_t rows() const { return chunk_.rows; }
  size_t column_count() const { return types_.size(); }
  // The executor's vector of column `c` (physical forms: sql/vector.h).
  const ColumnVector& column(size_t c) const { return *chunk_.columns[c]; }
  Value At(int64_t row, size_t column) const { return GetValue(*chunk_.columns[column], types_[column], row); }
  std::vector<Value> Row(int64_t row) const;

 private:
  const DataChunk& chunk_;
  const std::vector<SqlType>& types_;
};

// What a streamed statement reports when it finishes.
struct StatementSummary {
  std::string message;
  std::optional<int64_t> update_count;
  int64_t rows = 0;          // Rows handed to on_batch.
  ScanStats scan;            // Summed over every scan of the statement.
  int64_t peak_memory = 0;   // Bytes.
  std::vector<std::string> warnings;  // For the client (a live read fell back to the snapshot, say).
};

// Callbacks of RunStreaming, per statement: on_columns once (statements without rows give
// none), on_batch per batch, then the summary is in RunStreaming's result. A callback error
// stops the statement and is returned.
struct StreamCallbacks {
  std::function<Status(const std::vector<std::string>& names, const std::vector<SqlType>& types)> on_columns;
  std::function<Status(const ResultBatch& batch)> on_batch;
};

class SqlSession {
 public:
  // A session that reads through `catalog`; writes fail (the catalog is read-only here).
  SqlSession(const SqlCatalog& catalog, BindOptions options = {}) : catalog_(catalog), options_(std::move(options)) {}
  // A session that may also write (DDL, INSERT) through `catalog`.
  SqlSession(SqlCatalog& catalog, BindOptions options = {})
      : catalog_(catalog), writable_(&catalog), options_(std::move(options)) {}

  // Runs every statement of `sql` in order; stops at the first error (results so far are lost,
  // but `each`, when given, has seen every statement that finished before it).
  Result<std::vector<StatementResult>> Run(std::string_view sql, const QueryOptions& query_options = {},
                                           const std::function<void(const StatementResult&)>& each = nullptr);

  // Runs every statement of `sql`, streaming each one's rows to `callbacks`.
  Result<std::vector<StatementSummary>> RunStreaming(std::string_view sql, const QueryOptions& query_options,
                                                     const StreamCallbacks& callbacks);

  // The optimized plan of one query (for tests and EXPLAIN).
  Result<std::string> Explain(std::string_view sql);

  const BindOptions& options() const { return options_; }

 private:
  Result<StatementSummary> RunOne(const ast::Statement& statement, std::string_view sql, const QueryOptions& query_options,
                                  const StreamCallbacks& callbacks);
  Result<StatementSummary> RunWrite(const ast::Statement& statement, BoundStatement& bound, std::string_view sql,
                                    const QueryOptions& query_options);
  // DELETE FROM: the rows the statement's WHERE selects, removed in one commit; their count.
  Result<int64_t> RunDelete(BoundStatement& bound, std::string_view sql, const QueryOptions& query_options);
  // UPDATE: the rows the WHERE selects replaced by their SET values, in one commit; their count.
  Result<int64_t> RunUpdate(BoundStatement& bound, std::string_view sql, const QueryOptions& query_options);
  // MERGE INTO: updates, deletes and inserts in one commit; the rows they changed.
  Result<int64_t> RunMerge(BoundStatement& bound, std::string_view sql, const QueryOptions& query_options);
  // What a write's WHERE (the plan selecting its rows) lets storage skip: the terms pushed into
  // the scan; `exact` when the WHERE is their conjunction, `never_true` when it cannot hold.
  struct PushedWhere {
    LogicalPtr optimized;  // Owns `pushed`.
    const ScanPredicate* pushed = nullptr;
    bool exact = true;
    bool never_true = false;
  };
  Result<PushedWhere> PushWhere(LogicalPtr selection);

  const SqlCatalog& catalog_;
  SqlCatalog* writable_ = nullptr;
  BindOptions options_;
};

}  // namespace floe::sql
