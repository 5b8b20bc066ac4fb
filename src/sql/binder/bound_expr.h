// Expressions after binding: every name resolved to a column id, every call to a function
// with a known result type, every implicit coercion made an explicit cast. Owned by the
// logical plan node that evaluates them; copy with Clone(). Any thread may read them.
#pragma once

#include <memory>
#include <set>
#include <string>
#include <vector>

#include "base/strong_id.h"
#include "sql/types/sql_type.h"
#include "sql/types/value.h"

namespace floe::sql {

// A column produced by some plan node. Ids are unique within one statement's plan, so a
// predicate can move between nodes without renaming its references.
using ColumnId = StrongId<int32_t, struct ColumnIdTag>;

struct LogicalOperator;
struct BoundExpr;
using BoundExprPtr = std::unique_ptr<BoundExpr>;

enum class BoundKind {
  kConstant,   // value
  kColumn,     // column (name: for display)
  kParameter,  // parameter_index; type from context (unknown until given)
  kCall,       // name (scalar function or operator: add, eq, like, ...), args
  kCast,       // args[0] to type; try_cast
  kCase,       // args: when, then, when, then, ..., [else]; has_else
  kAnd,        // args
  kOr,         // args
  kNot,        // args[0]
  kIsNull,     // args[0]; negated for IS NOT NULL
  kInList,     // args[0] IN (args[1..]); negated
  kSubquery,   // subquery_kind, plan; for kIn/kQuantified args[0] is the left side
};

enum class SubqueryKind { kScalar, kExists, kIn, kQuantified };

struct BoundExpr {
  BoundExpr(BoundKind k, SqlType t) : kind(k), type(std::move(t)) {}

  BoundKind kind;
  SqlType type;
  int location = -1;  // Byte offset in the SQL text, for errors raised later.

  Value value;
  ColumnId column;
  std::string name;
  std::vector<BoundExprPtr> args;
  bool negated = false;
  bool try_cast = false;
  bool has_else = false;
  int parameter_index = 0;

  SubqueryKind subquery_kind = SubqueryKind::kScalar;
  std::string compare_op;  // kQuantified / kIn: eq, lt, ...
  bool quantifier_all = false;
  std::shared_ptr<const LogicalOperator> plan;  // Immutable once bound; shared by clones.
  std::vector<ColumnId> correlated;             // Outer columns the subquery reads.

  BoundExprPtr Clone() const;
  // Structural equality (for matching GROUP BY expressions and common subexpressions).
  bool Equals(const BoundExpr& other) const;
  // Whether the expression reads no columns and has no volatile or parameter parts.
  bool IsConstant() const;
  // "(price#3 * 2)", "count(*)": the form EXPLAIN shows.
  std::string ToString() const;
  // Appends every column the expression reads (including correlated subquery inputs).
  void CollectColumns(std::vector<ColumnId>& out) const;
  // The same, as a set.
  std::set<ColumnId> ColumnsRead() const;
  // Whether a subquery appears anywhere in the expression.
  bool HasSubquery() const;
};

// Whether the two sets share an id.
bool Intersects(const std::set<ColumnId>& a, const std::set<ColumnId>& b);

BoundExprPtr MakeConstant(Value value);
BoundExprPtr MakeColumn(ColumnId id, SqlType type, std::string name);
BoundExprPtr MakeCall(std::string name, SqlType type, std::vector<BoundExprPtr> args);
BoundExprPtr MakeCast(BoundExprPtr arg, SqlType type, bool try_cast = false);

// Splits a conjunction into its terms (AND is flattened); combines terms back (null if none).
void SplitConjunction(BoundExprPtr expr, std::vector<BoundExprPtr>& out);
BoundExprPtr CombineConjunction(std::vector<BoundExprPtr> terms);

}  // namespace floe::sql
