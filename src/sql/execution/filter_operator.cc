// Filter: a conjunction evaluated term by term, each on the rows the previous terms kept, so
// cheap selective terms shrink the work of later ones (and `b <> 0 AND a / b > 1` is safe).
// The rows kept so far are a selection of the input chunk: a term sees only the columns it
// reads, gathered to that selection, and the whole chunk is gathered once, at the end.
#include <algorithm>

#include "sql/execution/physical_operator.h"

namespace floe::sql {
namespace {

struct FilterTerm {
  ExprNodePtr predicate;
  // Input positions the term reads; nullopt: every column (a term with a subquery).
  std::optional<std::vector<size_t>> reads;
  bool advisory = false;  // May be skipped (a dynamic filter's term, which the join re-checks).
};

class FilterOperator final : public StreamOperator {
 public:
  explicit FilterOperator(std::vector<FilterTerm> terms) : terms_(std::move(terms)) {}

  Status Process(DataChunk&& chunk, QueryContext& context, const ChunkCallback& next) const override {
    std::vector<uint32_t> selection;  // Rows of `chunk` kept so far; all of them while `whole`.
    bool whole = true;
    for (const FilterTerm& term : terms_) {
      DataChunk view;
      if (whole) {
        view = chunk;  // Shares the vectors.
      } else if (!term.reads) {
        view = GatherChunk(chunk, selection);
      } else {
        view.rows = static_cast<int64_t>(selection.size());
        view.columns.resize(chunk.columns.size());
        for (size_t position : *term.reads) view.columns[position] = Gather(*chunk.columns[position], selection.data(), view.rows);
      }
      FLOE_ASSIGN_OR_RETURN(std::vector<uint32_t> rows, SelectTrueRows(*term.predicate, view, context));
      auto kept = static_cast<int64_t>(rows.size());
      if (kept == view.rows) continue;
      // Copying every column to drop a few rows costs more than the join's own check of them.
      if (term.advisory && kept * 8 >= view.rows * 7) continue;
      if (rows.empty()) return OkStatus();
      if (whole) {
        selection = std::move(rows);
        whole = false;
      } else {
        for (size_t i = 0; i < rows.size(); ++i) rows[i] = selection[rows[i]];
        selection = std::move(rows);
      }
    }
    if (whole) return next(std::move(chunk));
    return next(GatherChunk(chunk, selection));
  }

 private:
  std::vector<FilterTerm> terms_;
};

BoundExprPtr TermExpression(const ColumnPredicate& term, const LogicalScan& scan) {
  const OutputColumn* column = nullptr;
  for (size_t i = 0; i < scan.scan_columns.size(); ++i) {
    if (scan.table->ColumnAt(scan.scan_columns[i].table_column).name == term.column) column = &scan.output[i];
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
      auto in = std::make_unique<BoundInList>(SqlType::Boolean());
      in->args.push_back(ref());
      for (const auto& v : term.values) in->args.push_back(MakeConstant(v));
      return in;
    }
    case ColumnPredicate::Op::kIsNull:
    case ColumnPredicate::Op::kIsNotNull: {
      auto is_null = std::make_unique<BoundIsNull>(SqlType::Boolean());
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
  std::vector<FilterTerm> compiled;
  for (size_t t = 0; t < terms.size(); ++t) {
    FilterTerm term;
    FLOE_ASSIGN_OR_RETURN(term.predicate, CompileExpression(*terms[t], layout));
    term.advisory = t < advisory.size() && advisory[t];
    if (!terms[t]->HasSubquery()) {
      term.reads.emplace();
      for (ColumnId id : terms[t]->ColumnsRead()) {
        if (auto it = layout.positions.find(id.value()); it != layout.positions.end()) term.reads->push_back(it->second);
      }
    }
    compiled.push_back(std::move(term));
  }
  return std::unique_ptr<StreamOperator>(std::make_unique<FilterOperator>(std::move(compiled)));
}

Result<std::unique_ptr<StreamOperator>> MakeScanFilter(const LogicalScan& scan, const ScanPredicate& predicate,
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
