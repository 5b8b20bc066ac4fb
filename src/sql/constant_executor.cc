#include "sql/constant_executor.h"

#include <map>

#include "sql/optimizer.h"

namespace floe::sql {
namespace {

using Rows = std::vector<std::vector<Value>>;

BoundExprPtr Bind(const BoundExpr& e, const std::map<ColumnId, const Value*>& row) {
  if (e.kind == BoundKind::kColumn) {
    auto it = row.find(e.column);
    if (it != row.end()) return MakeConstant(*it->second);
  }
  auto copy = e.Clone();
  copy->args.clear();
  for (const auto& arg : e.args) copy->args.push_back(Bind(*arg, row));
  return copy;
}

Result<Value> Evaluate(const BoundExpr& e, const std::vector<OutputColumn>& columns, const std::vector<Value>& row) {
  std::map<ColumnId, const Value*> by_id;
  for (size_t i = 0; i < columns.size() && i < row.size(); ++i) by_id[columns[i].id] = &row[i];
  auto bound = Bind(e, by_id);
  auto value = EvaluateConstant(*bound);
  if (!value) return NotImplemented("evaluating {} needs the executor, which is not built yet", e.ToString());
  return *value;
}

Result<Rows> Run(const LogicalOperator& op) {
  switch (op.kind) {
    case LogicalKind::kValues: {
      Rows out;
      for (const auto& row : op.rows) {
        std::vector<Value> values;
        for (const auto& e : row) {
          FLOE_ASSIGN_OR_RETURN(Value v, Evaluate(*e, {}, {}));
          values.push_back(std::move(v));
        }
        out.push_back(std::move(values));
      }
      return out;
    }
    case LogicalKind::kEmpty:
      return Rows{};
    case LogicalKind::kProject: {
      FLOE_ASSIGN_OR_RETURN(Rows input, Run(*op.children[0]));
      Rows out;
      for (const auto& row : input) {
        std::vector<Value> values;
        for (const auto& e : op.expressions) {
          FLOE_ASSIGN_OR_RETURN(Value v, Evaluate(*e, op.children[0]->output, row));
          values.push_back(std::move(v));
        }
        out.push_back(std::move(values));
      }
      return out;
    }
    case LogicalKind::kFilter: {
      FLOE_ASSIGN_OR_RETURN(Rows input, Run(*op.children[0]));
      Rows out;
      for (auto& row : input) {
        FLOE_ASSIGN_OR_RETURN(Value keep, Evaluate(*op.predicate, op.children[0]->output, row));
        if (!keep.is_null() && keep.as_bool()) out.push_back(std::move(row));
      }
      return out;
    }
    case LogicalKind::kLimit: {
      FLOE_ASSIGN_OR_RETURN(Rows input, Run(*op.children[0]));
      Rows out;
      for (size_t i = static_cast<size_t>(op.offset); i < input.size(); ++i) {
        if (op.limit && out.size() >= static_cast<size_t>(*op.limit)) break;
        out.push_back(std::move(input[i]));
      }
      return out;
    }
    default:
      return NotImplemented("this query needs the executor (scans, joins, aggregation, sorting), which is not built yet");
  }
}

}  // namespace

Result<std::vector<std::vector<Value>>> ExecuteConstantPlan(const LogicalOperator& plan) { return Run(plan); }

}  // namespace floe::sql
