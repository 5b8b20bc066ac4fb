// The syntax tree of one SQL statement: a query, EXPLAIN, the SHOW/DESCRIBE/USE forms, DDL and
// writes. Produced by Parse() (sql/parser.h); move-only; any thread may read a finished tree.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sql/parser/ast_query.h"

namespace floe::sql::ast {

enum class StatementKind {
  kQuery,
  kExplain,            // explained, analyze
  kShowCatalogs,       // like_pattern
  kShowSchemas,        // name: [catalog], like_pattern
  kShowTables,         // name: [catalog.]schema or empty, like_pattern
  kShowColumns,        // name: the table (also DESCRIBE)
  kUse,                // name: [catalog.]schema
  kSetTimeZone,        // name: {zone} (SET TIME ZONE; LOCAL and DEFAULT are UTC)
  kCreateSchema,       // name, if_not_exists
  kCreateTable,        // name, columns, partitioned_by, if_not_exists
  kCreateTableAs,      // name, query, partitioned_by, if_not_exists
  kInsert,             // name, insert_columns, query (VALUES or SELECT)
  kDelete,             // name, where; query: SELECT * FROM the table WHERE (the rows to delete)
  kUpdate,             // name, assignments; query: SELECT *, <each SET value> FROM the table WHERE
  kMerge,              // name, merge_clauses; query: SELECT *, <ON>, <each clause's condition and
                       // values> FROM the table, the source (MERGE INTO ... USING ... ON)
  kDropTable,          // name, if_exists
  kDropSchema,         // name, if_exists
  kAlterTable,         // name, alter_action, column / column_name / new_name
  kAlterTableExecute,  // name, procedure, procedure_args, where
  kAnalyze,            // name: collect the table's column statistics (Trino's ANALYZE)
  kCreateView,         // name, query, query_text, or_replace, view_columns, comment
  kDropView,           // name, if_exists
  kShowCreateView,     // name
};

enum class AlterAction { kAddColumn, kDropColumn, kRenameColumn };

struct ColumnDefinition {
  std::string name;
  TypeName type;
  bool not_null = false;
  bool primary_key = false;  // PRIMARY KEY on the column (implies NOT NULL).
  int location = -1;
};

// `column = value` of UPDATE ... SET and MERGE's UPDATE SET, or a column of MERGE's INSERT (...).
// The value is an item of the statement's query (see StatementKind).
struct Assignment {
  std::string column;
  int location = -1;
};

// One `WHEN [NOT] MATCHED [AND condition] THEN ...` of MERGE. Its condition (when given) and
// values follow one another in the statement's query, in clause order.
struct MergeClause {
  enum class Action { kUpdate, kDelete, kInsert, kNothing };
  bool matched = true;
  Action action = Action::kNothing;
  bool has_condition = false;
  std::vector<Assignment> columns;  // kUpdate: SET columns; kInsert: the column list (empty: all).
  int value_count = 0;              // Values in the query: SET values, or INSERT VALUES.
  int location = -1;
};

// `name => value` or a positional value in ALTER TABLE ... EXECUTE proc(...).
struct ProcedureArgument {
  std::string name;  // Empty for positional.
  ExprPtr value;
};

struct Statement {
  explicit Statement(StatementKind k, int loc = -1) : kind(k), location(loc) {}

  StatementKind kind;
  int location;  // Byte offset of the statement's first token in the original text.
  int length = 0;

  std::unique_ptr<Query> query;
  std::unique_ptr<Statement> explained;
  bool analyze = false;

  std::vector<std::string> name;
  int name_location = -1;
  std::string like_pattern;
  bool if_exists = false;
  bool if_not_exists = false;

  std::vector<ColumnDefinition> columns;
  std::vector<std::string> primary_key;  // A table constraint PRIMARY KEY (a, b).
  int primary_key_location = -1;
  bool unique_ignored = false;           // UNIQUE was given: accepted, not enforced.
  std::vector<ExprPtr> partitioned_by;  // Transforms as calls: day(ts), bucket(16, id), region.
  std::vector<std::string> insert_columns;
  std::vector<Assignment> assignments;     // kUpdate
  std::vector<MergeClause> merge_clauses;  // kMerge
  bool update_from = false;                // kMerge written as PostgreSQL's UPDATE ... FROM

  AlterAction alter_action = AlterAction::kAddColumn;
  std::string column_name;
  std::string new_name;

  std::string procedure;
  std::vector<ProcedureArgument> procedure_args;
  ExprPtr where;

  // CREATE [OR REPLACE] VIEW name [(columns)] [COMMENT '...'] AS query: the query's own text is
  // what the view stores (its locations point into the whole statement's text, as usual).
  bool or_replace = false;
  std::string query_text;
  std::vector<std::string> view_columns;
  std::optional<std::string> comment;
};

using StatementPtr = std::unique_ptr<Statement>;

}  // namespace floe::sql::ast
