// Filter: a conjunction evaluated term by term, each on the rows the previous terms kept, so
// cheap selective terms shrink the work of later ones (and `b <> 0 AND a / b > 1` is safe).
#include "sql/execution/physical_operator.h"

namespace floe::sql {
namespace {

class FilterOperator final : public StreamOperator {
 public:
  // `advisory[i]`: term i may be skipped (a dynamic filter's term, which the join re-checks).
  FilterOperator(std::vector<ExprNodePtr> terms, std::vector<bool> advisory)
      : terms_(std::move(terms)), advisory_(std::move(advisory)) {}

  Status Process(DataChunk&& chunk, QueryContext& context, const ChunkCallback& next) const override {
    DataChunk current = std::move(chunk);
    for (size_t t = 0; t < terms_.size(); ++t) {
      FLOE_ASSIGN_OR_RETURN(auto rows, SelectTrueRows(*terms_[t], current, context));
      auto kept = static_cast<int64_t>(rows.size());
      if (kept == current.rows) continue;
      // Copying every column to drop a few rows costs more than the join's own check of them.
      if (advisory_[t] && kept * 8 >= current.rows * 7) continue;
      if (rows.empty()) return OkStatus();
      current = GatherChunk(current, rows);
    }
    return next(std::move(current));
  }

 private:
  std::vector<ExprNodePtr> terms_;
  std::vector<bool> advisory_;
};

BoundExprPtr TermExpression(const ColumnPredicate& term, const LogicalOperator& scan) {
  const OutputColumn* column = nullptr;
  for (size_t i = 0; i < scan.scan_columns.size(); ++i) {
    if (scan.table->columns[scan.scan_columns[i].table_column].name == term.column) column = &scan.output[i];
  }
  if (column == nullptr) return nullptr;
  auto ref = [&] { return MakeColumn(column->id, column->type, column->name); };
  auto call = [&](const char* name, Value v) {
    std::vector<BoundExprPtr> args;
    args.push_back(ref());
    args.push_back(MakeConstant(std::move(v)));
    return MakeCall(name, SqlType::Boolean(), std::move(args));
  };
  switch (term.op) {
    case ColumnPredicate::Op::kEq: return call("eq", term.values[0]);
    case ColumnPredicate::Op::kNotEq: return call("neq", term.values[0]);
    case ColumnPredicate::Op::kLt: return call("lt", term.values[0]);
    case ColumnPredicate::Op::kLtEq: return call("lte", term.values[0]);
    case ColumnPredicate::Op::kGt: return call("gt", term.values[0]);
    case ColumnPredicate::Op::kGtEq: return call("gte", term.values[0]);
    case ColumnPredicate::Op::kStartsWith:
      return call("like", Value::String(SqlType::Varchar(), term.values[0].as_string() + "%"));
    case ColumnPredicate::Op::kIn: {
      auto in = std::make_unique<BoundExpr>(BoundKind::kInList, SqlType::Boolean());
      in->args.push_back(ref());
      for (const auto& v : term.values) in->args.push_back(MakeConstant(v));
      return in;
    }
    case ColumnPredicate::Op::kIsNull:
    case ColumnPredicate::Op::kIsNotNull: {
      auto is_null = std::make_unique<BoundExpr>(BoundKind::kIsNull, SqlType::Boolean());
      is_null->negated = term.op == ColumnPredicate::Op::kIsNotNull;
      is_null->args.push_back(ref());
      return is_null;
    }
  }
  return nullptr;
}

}  // namespace

Result<std::unique_ptr<StreamOperator>> MakeFilter(std::vector<const BoundExpr*> terms, const ColumnLayout& layout,
                                                   std::vector<bool> advisory) {
  std::vector<ExprNodePtr> compiled;
  for (const BoundExpr* term : terms) {
    FLOE_ASSIGN_OR_RETURN(auto node, CompileExpression(*term, layout));
    compiled.push_back(std::move(node));
  }
  advisory.resize(compiled.size(), false);
  return std::unique_ptr<StreamOperator>(std::make_unique<FilterOperator>(std::move(compiled), std::move(advisory)));
}

Result<std::unique_ptr<StreamOperator>> MakeScanFilter(const LogicalOperator& scan, const ScanPredicate& predicate,
                                                       const ColumnLayout& layout) {
  std::vector<BoundExprPtr> owned;
  std::vector<bool> advisory;
  for (const auto& term : predicate.terms) {
    advisory.push_back(term.advisory);
    auto e = TermExpression(term, scan);
    if (!e) return Internal("pushed predicate on {} reads a column the scan does not produce", term.column);
    owned.push_back(std::move(e));
  }
  std::vector<const BoundExpr*> terms;
  for (const auto& e : owned) terms.push_back(e.get());
  for (const auto& e : predicate.residual) terms.push_back(e.get());
  return MakeFilter(std::move(terms), layout, std::move(advisory));
}

}  // namespace floe::sql
