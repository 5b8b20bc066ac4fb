// Expressions after binding: every name resolved to a column id, every call to a function
// with a known result type, every implicit coercion made an explicit cast. Owned by the
// logical plan node that evaluates them; copy with Clone(). Any thread may read them.
#pragma once

#include <memory>
#include <set>
#include <string>
#include <vector>

#include "base/kind_cast.h"
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

// An expression's kind; each has its own class below (kCall: BoundCall, ...), holding only what
// that kind means.
enum class BoundKind {
  kConstant,   // BoundConstant
  kColumn,     // BoundColumnRef
  kParameter,  // BoundParameter; type from context (unknown until given)
  kCall,       // BoundCall: scalar function or operator (add, eq, like, ...) over args
  kCast,       // BoundCast: args[0] to type
  kCase,       // BoundCase: args when, then, when, then, ..., [else]
  kAnd,        // BoundAnd: args
  kOr,         // BoundOr: args
  kNot,        // BoundNot: args[0]
  kIsNull,     // BoundIsNull: args[0]
  kInList,     // BoundInList: args[0] IN (args[1..])
  kSubquery,   // BoundSubquery; for kIn/kQuantified args[0] is the left side
};

// "Constant", "Call", ...: for messages.
const char* BoundKindName(BoundKind kind);

enum class SubqueryKind { kScalar, kExists, kIn, kQuantified };

// What every expression has. The rest is its kind's: an expression is made as its kind's class
// (std::make_unique<BoundCall>(type)) and read as it with As<BoundCall>(), which checks the
// kind, so no code reads a field another kind would have had.
struct BoundExpr : KindCast<BoundExpr> {
  virtual ~BoundExpr() = default;
  BoundExpr(const BoundExpr&) = delete;
  BoundExpr& operator=(const BoundExpr&) = delete;

  const BoundKind kind;
  SqlType type;
  int location = -1;               // Byte offset in the SQL text, for errors raised later.
  std::vector<BoundExprPtr> args;  // Operands; empty for constants, columns and parameters.

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

 protected:
  BoundExpr(BoundKind k, SqlType t) : kind(k), type(std::move(t)) {}

 private:
  friend class KindCast<BoundExpr>;  // Calls KindMismatch.
  [[noreturn]] void KindMismatch(BoundKind wanted) const;
};

// The base of each kind's class: fixes the kind, and names it for As<T>().
template <BoundKind K>
struct BoundNode : BoundExpr {
  static constexpr BoundKind kKind = K;
  explicit BoundNode(SqlType t) : BoundExpr(K, std::move(t)) {}
};

struct BoundConstant final : BoundNode<BoundKind::kConstant> {
  using BoundNode::BoundNode;
  Value value;
};

struct BoundColumnRef final : BoundNode<BoundKind::kColumn> {
  using BoundNode::BoundNode;
  ColumnId column;
  std::string name;  // For display only: the id is what identifies the column.
};

struct BoundParameter final : BoundNode<BoundKind::kParameter> {
  using BoundNode::BoundNode;
  int parameter_index = 0;
};

struct BoundCall final : BoundNode<BoundKind::kCall> {
  using BoundNode::BoundNode;
  std::string name;
};

struct BoundCast final : BoundNode<BoundKind::kCast> {
  using BoundNode::BoundNode;
  bool try_cast = false;
};

struct BoundCase final : BoundNode<BoundKind::kCase> {
  using BoundNode::BoundNode;
  bool has_else = false;
};

struct BoundAnd final : BoundNode<BoundKind::kAnd> {
  using BoundNode::BoundNode;
};

struct BoundOr final : BoundNode<BoundKind::kOr> {
  using BoundNode::BoundNode;
};

struct BoundNot final : BoundNode<BoundKind::kNot> {
  using BoundNode::BoundNode;
};

struct BoundIsNull final : BoundNode<BoundKind::kIsNull> {
  using BoundNode::BoundNode;
  bool negated = false;  // IS NOT NULL
};

struct BoundInList final : BoundNode<BoundKind::kInList> {
  using BoundNode::BoundNode;
  bool negated = false;  // NOT IN
};

// NOT EXISTS and NOT IN (subquery) bind as a BoundNot over one of these.
struct BoundSubquery final : BoundNode<BoundKind::kSubquery> {
  using BoundNode::BoundNode;
  SubqueryKind subquery_kind = SubqueryKind::kScalar;
  std::string compare_op;  // kQuantified / kIn: eq, lt, ...
  bool quantifier_all = false;
  std::shared_ptr<const LogicalOperator> plan;  // Immutable once bound; shared by clones.
  std::vector<ColumnId> correlated;             // Outer columns the subquery reads.
};

// Whether the two sets share an id.
bool Intersects(const std::set<ColumnId>& a, const std::set<ColumnId>& b);

std::unique_ptr<BoundConstant> MakeConstant(Value value);
std::unique_ptr<BoundColumnRef> MakeColumn(ColumnId id, SqlType type, std::string name);
std::unique_ptr<BoundCall> MakeCall(std::string name, SqlType type, std::vector<BoundExprPtr> args);
// A cast of `arg` to `type`, or `arg` itself when it has that type already (so not always a
// BoundCast).
BoundExprPtr MakeCast(BoundExprPtr arg, SqlType type, bool try_cast = false);

// Splits a conjunction into its terms (AND is flattened); combines terms back (null if none).
void SplitConjunction(BoundExprPtr expr, std::vector<BoundExprPtr>& out);
BoundExprPtr CombineConjunction(std::vector<BoundExprPtr> terms);

}  // namespace floe::sql
