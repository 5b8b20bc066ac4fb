// A SQL session: runs statement text against a catalog with session state (current catalog
// and schema). Today it parses, binds, optimizes and explains every statement, and answers
// those that need no storage (EXPLAIN, SHOW, information_schema, constant SELECTs); anything
// needing table data or writes returns kNotImplemented ("... not built yet"). One thread at a
// time.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "sql/binder.h"
#include "sql/catalog.h"

namespace floe::sql {

struct StatementResult {
  std::vector<std::string> column_names;
  std::vector<SqlType> column_types;
  std::vector<std::vector<Value>> rows;
  std::string message;  // For statements without rows: "USE floe.sales".
};

class SqlSession {
 public:
  SqlSession(const SqlCatalog& catalog, BindOptions options = {}) : catalog_(catalog), options_(std::move(options)) {}

  // Runs every statement of `sql` in order; stops at the first error (results so far are lost).
  Result<std::vector<StatementResult>> Run(std::string_view sql);

  // The optimized plan of one query (for tests and EXPLAIN).
  Result<std::string> Explain(std::string_view sql);

  const BindOptions& options() const { return options_; }

 private:
  Result<StatementResult> RunOne(const ast::Statement& statement, std::string_view sql);

  const SqlCatalog& catalog_;
  BindOptions options_;
};

}  // namespace floe::sql
