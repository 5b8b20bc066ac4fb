// Subqueries in expressions: scalar, EXISTS, IN and quantified (= ANY, < ALL, ...). The columns of
// enclosing queries a subquery reads are recorded as its correlated columns, for decorrelation.
#include "sql/binder/binder_internal.h"
#include "sql/types/type_rules.h"

namespace floe::sql {

Result<BoundExprPtr> BinderImpl::BindSubquery(const ast::Expr& expr, ExprContext& context) {
  int at = expr.location;
  const ast::Query* query = nullptr;
  if (expr.kind == ast::ExprKind::kSubquery) query = expr.As<ast::Subquery>().subquery.get();
  if (expr.kind == ast::ExprKind::kExists) query = expr.As<ast::Exists>().subquery.get();
  if (expr.kind == ast::ExprKind::kInSubquery) query = expr.As<ast::InSubquery>().subquery.get();
  FLOE_ASSIGN_OR_RETURN(auto plan, BindQuery(*query, context.scope, context.ctes));
  auto out = std::make_unique<BoundSubquery>(SqlType::Boolean());
  out->location = at;
  // The subquery's outer references were recorded on the scope chain while binding it.
  std::vector<ColumnId> visible;
  for (Scope* s = context.scope; s != nullptr; s = s->parent) {
    for (const auto& relation : s->relations) {
      for (const auto& column : relation.columns) visible.push_back(column.id);
    }
  }
  std::vector<ColumnId> read = ColumnsReadBy(*plan);
  for (ColumnId id : read) {
    if (std::find(visible.begin(), visible.end(), id) != visible.end()) out->correlated.push_back(id);
  }
  if (expr.kind == ast::ExprKind::kExists) {
    out->subquery_kind = SubqueryKind::kExists;
  } else {
    if (plan->output.size() != 1) {
      return ErrorAt(at, fmt::format("Subquery must return exactly one column, not {}", plan->output.size()));
    }
    if (expr.kind == ast::ExprKind::kSubquery) {
      out->subquery_kind = SubqueryKind::kScalar;
      out->type = plan->output[0].type;
    } else {
      const auto& in = expr.As<ast::InSubquery>();
      FLOE_ASSIGN_OR_RETURN(auto left, BindExpr(*in.args[0], context));
      const SqlType& right_type = plan->output[0].type;
      auto common = CommonSuperType(left->type, right_type);
      if (!common) {
        return ErrorAt(at, fmt::format("Value expression and result of subquery must be of the same type: {} vs {}",
                                       left->type.ToString(), right_type.ToString()));
      }
      if (!(right_type == *common)) {
        // Cast the subquery's column with a projection on top of it.
        auto project = std::make_unique<LogicalProject>();
        ColumnId id = NewColumn();
        project->expressions.push_back(
            MakeCast(MakeColumn(plan->output[0].id, right_type, plan->output[0].name), *common));
        project->output.push_back(OutputColumn{id, plan->output[0].name, *common});
        project->children.push_back(std::move(plan));
        plan = std::move(project);
      }
      FLOE_ASSIGN_OR_RETURN(left, Coerce(std::move(left), *common, at, "IN"));
      out->args.push_back(std::move(left));
      const char* op = OperatorFunction(in.op);
      if (op == nullptr || !IsComparison(op))
        return ErrorAt(at, fmt::format("Operator {} is not supported with ANY/ALL", in.op));
      out->compare_op = op;
      out->quantifier_all = in.quantifier_all;
      out->subquery_kind = in.op == "=" && !in.quantifier_all ? SubqueryKind::kIn : SubqueryKind::kQuantified;
    }
  }
  out->plan = std::move(plan);
  return out;
}

}  // namespace floe::sql
