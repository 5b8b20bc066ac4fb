// Vectorized expression evaluation: a bound expression compiled against the column layout of
// its input chunks into a tree of nodes, each producing a whole vector per chunk. Comparisons,
// arithmetic, AND/OR/NOT, IS NULL, IN lists, CASE, casts, LIKE, date_trunc and extract have
// vector kernels; every other function runs row by row through sql/scalar_evaluation.h, so both
// paths share one definition of each function. CASE evaluates each branch only on the rows that
// reach it. A compiled expression is immutable and may be evaluated by many threads at once.
#pragma once

#include <map>
#include <memory>
#include <unordered_map>
#include <vector>

#include "base/result.h"
#include "sql/binder/bound_expr.h"
#include "sql/execution/query_context.h"
#include "sql/execution/vector.h"

namespace floe::sql {

class ExprNode {
 public:
  explicit ExprNode(SqlType type) : type_(std::move(type)) {}
  virtual ~ExprNode() = default;

  // The expression's values for every row of `chunk`.
  virtual Result<VectorPtr> Evaluate(const DataChunk& chunk, QueryContext& context) const = 0;
  // The value when the expression is a constant (kernels then skip broadcasting it).
  virtual const Value* constant() const { return nullptr; }

  const SqlType& type() const { return type_; }
  int location = -1;

 private:
  SqlType type_;
};
using ExprNodePtr = std::unique_ptr<ExprNode>;

// Where a compiled expression finds its inputs: chunk positions by column id, and the values
// of outer columns a correlated subquery reads (compiled in as constants).
struct ColumnLayout {
  std::unordered_map<int32_t, size_t> positions;
  std::vector<SqlType> types;  // By position.
  const std::map<ColumnId, Value>* outer = nullptr;

  static ColumnLayout Of(const std::vector<OutputColumn>& columns, const std::map<ColumnId, Value>* outer);
};

Result<ExprNodePtr> CompileExpression(const BoundExpr& expr, const ColumnLayout& layout);

// Key expressions (of a join, a grouping, a partitioning) evaluated over a chunk: the vectors,
// and the column pointers a KeyEncoder takes.
struct EvaluatedKeys {
  std::vector<VectorPtr> vectors;
  std::vector<const ColumnVector*> columns;
};
Result<EvaluatedKeys> EvaluateKeys(const std::vector<ExprNodePtr>& keys, const DataChunk& chunk, QueryContext& context);

// The rows of `chunk` for which `predicate` is true (not false, not null).
Result<std::vector<uint32_t>> SelectTrueRows(const ExprNode& predicate, const DataChunk& chunk, QueryContext& context);

}  // namespace floe::sql
