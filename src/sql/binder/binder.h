// The binder: resolves an AST statement against a SqlCatalog into a logical plan. It checks
// every name and type and reports errors with the line and column of the offending text
// ("line 1:8: Column 'x' cannot be resolved"). One Binder binds one statement; single thread.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "base/time_zone.h"
#include "sql/catalog/catalog.h"
#include "sql/parser/ast_statement.h"
#include "sql/planner/logical_plan.h"

namespace floe::sql {

// Session state the binder reads: where unqualified names resolve, and the time zone wall-clock
// operations use (null: UTC; see session_time_zone.h).
struct BindOptions {
  std::string catalog = "floe";
  std::string schema = "default";
  std::shared_ptr<const TimeZone> time_zone;
};

// UPDATE and MERGE after binding (binder_row_changes.cc): how each changed row is computed.
// Expressions read the target's columns (`target_columns`: every table column in order, as the
// scan of the table outputs them) and, for MERGE, the source's (`source_columns`, after them).
struct BoundRowChanges {
  std::vector<OutputColumn> target_columns;
  // UPDATE: one value per table column (the column itself where SET leaves it alone), typed
  // as the column. The rows it changes are those of BoundStatement::plan (Filter(Scan)).
  std::vector<BoundExprPtr> values;

  // MERGE.
  LogicalPtr source;  // The USING relation's plan.
  std::vector<OutputColumn> source_columns;
  BoundExprPtr on;
  struct Clause {
    bool matched = true;
    ast::MergeClause::Action action = ast::MergeClause::Action::kNothing;
    BoundExprPtr condition;            // Null: always.
    std::vector<BoundExprPtr> values;  // kUpdate, kInsert: one per table column, typed as it.
    int location = -1;
  };
  std::vector<Clause> clauses;
};

// A statement after binding. Queries (and EXPLAIN's statement) have a plan; other statements
// are validated and described for the executor that will run them.
struct BoundStatement {
  ast::StatementKind kind = ast::StatementKind::kQuery;
  LogicalPtr plan;          // kQuery, kExplain (the explained query), SHOW/DESCRIBE (as rows)
  bool explain = false;
  bool analyze = false;
  int parameter_count = 0;  // Highest $n / ? used.
  QualifiedTableName target;     // DDL and INSERT: the table (or schema in target.schema).
  std::string description;       // One line for non-query statements: what it would do.
  std::shared_ptr<const TimeZone> time_zone;     // kSetTimeZone: the zone, found
  std::shared_ptr<BoundRowChanges> row_changes;  // kUpdate, kMerge
  std::shared_ptr<const CatalogView> view;       // kCreateView: the view to store
};

// Binds `statement`, whose locations point into `sql`.
Result<BoundStatement> Bind(const ast::Statement& statement, std::string_view sql, const SqlCatalog& catalog,
                            const BindOptions& options = {});

}  // namespace floe::sql
