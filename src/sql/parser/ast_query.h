// The syntax tree of queries and table references (SELECT, set operations, VALUES, WITH,
// joins, time travel), as written. Owned by its statement; move-only; any thread may read it.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sql/parser/ast_expr.h"

namespace floe::sql::ast {

struct TableRef;
using TableRefPtr = std::unique_ptr<TableRef>;

// `FOR VERSION AS OF <snapshot id | 'branch' | 'tag'>` or `FOR TIMESTAMP AS OF <expr>`
// (Trino syntax, recognized by the pre-parser).
struct TimeTravel {
  enum class Kind { kVersion, kTimestamp };
  Kind kind = Kind::kVersion;
  ExprPtr value;
  int location = -1;  // Of the FOR keyword.
};

enum class JoinType { kInner, kLeft, kRight, kFull, kCross };

struct TableRef {
  enum class Kind { kNamed, kSubquery, kJoin, kFunction };
  // Out of line: the members own a Query, complete only in ast.cc (clang checks this eagerly).
  explicit TableRef(Kind k, int loc = -1);

  Kind kind;
  int location;

  std::vector<std::string> name;  // kNamed: [catalog.][schema.]table, as written (may hold `t$files`).
  std::optional<TimeTravel> time_travel;

  std::string alias;
  std::vector<std::string> column_aliases;

  std::unique_ptr<Query> subquery;  // kSubquery
  ExprPtr function;                 // kFunction: e.g. iceberg_scan('uri'), UNNEST(a, b)
  bool ordinality = false;          // kFunction: WITH ORDINALITY
  bool lateral = false;

  JoinType join_type = JoinType::kInner;  // kJoin
  TableRefPtr left, right;
  ExprPtr condition;
  std::vector<std::string> using_columns;
  bool natural = false;
};

struct SelectItem {
  ExprPtr expr;
  std::string alias;  // Empty when none was given.
  int location = -1;
};

struct NamedWindow {
  std::string name;
  std::unique_ptr<WindowSpec> spec;
};

struct CommonTableExpr {
  std::string name;
  std::vector<std::string> column_aliases;
  std::unique_ptr<Query> query;
  int location = -1;
  bool recursive = false;  // Defined by WITH RECURSIVE: its query may read the CTE itself.
};

enum class SetOpKind { kUnion, kIntersect, kExcept };

// Grouping: plain GROUP BY expressions, or GROUPING SETS / ROLLUP / CUBE (kept as sets).
struct GroupBy {
  std::vector<ExprPtr> expressions;
  std::vector<std::vector<int>> grouping_sets;  // Indexes into expressions; empty: one set of all.
};

struct Query {
  enum class Kind { kSelect, kSetOp, kValues };
  explicit Query(Kind k, int loc = -1) : kind(k), location(loc) {}

  Kind kind;
  int location;

  std::vector<CommonTableExpr> with;
  bool with_recursive = false;

  // kSelect
  bool distinct = false;
  // DISTINCT ON (exprs): one row per distinct value of these, the first in ORDER BY order.
  std::vector<ExprPtr> distinct_on;
  std::vector<SelectItem> select;
  std::vector<TableRefPtr> from;
  ExprPtr where;
  GroupBy group_by;
  ExprPtr having;
  std::vector<NamedWindow> windows;

  // kSetOp
  SetOpKind set_op = SetOpKind::kUnion;
  bool set_all = false;
  std::unique_ptr<Query> left, right;

  // kValues
  std::vector<std::vector<ExprPtr>> values;

  std::vector<OrderItem> order_by;
  ExprPtr limit;
  ExprPtr offset;
};

}  // namespace floe::sql::ast
