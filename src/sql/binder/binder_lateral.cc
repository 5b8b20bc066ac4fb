// LATERAL (subquery) in FROM: the subquery may read the columns of the FROM items before it, as
// a correlated subquery reads an enclosing query's. Bound as a kLateralJoin that runs it per
// left row; a LATERAL subquery that reads none of them is an ordinary join.
#include "sql/binder/binder_internal.h"
#include "sql/parser/ast_query.h"

namespace floe::sql {

bool IsLateral(const ast::TableRef& ref) { return ref.kind == ast::TableRef::Kind::kSubquery && ref.lateral; }

Result<LogicalPtr> BinderImpl::BindLateral(const ast::TableRef& ref, Scope& scope, const CteScope* ctes,
                                           LogicalPtr input, LogicalJoinType join_type, const ast::Expr* condition) {
  // `scope` holds the items before it: the subquery's scope chain passes through them.
  FLOE_ASSIGN_OR_RETURN(auto right, BindQuery(*ref.subquery, &scope, ctes));
  FLOE_RETURN_IF_ERROR(NameSubqueryRelation(ref, *right, scope));
  BoundExprPtr on;
  if (condition != nullptr) {
    ExprContext context;
    context.clause = "JOIN";
    context.scope = &scope;
    context.ctes = ctes;
    FLOE_ASSIGN_OR_RETURN(on, BindPredicate(*condition, context));
    bool always = on->kind == BoundKind::kConstant && !on->As<BoundConstant>().value.is_null() &&
                  on->As<BoundConstant>().value.as_bool();
    if (always) on = nullptr;
  }
  std::set<ColumnId> left_ids = input->OutputIds();
  auto read_from_left = [&](const LogicalOperator& plan) {
    bool any = false;
    for (ColumnId id : ColumnsReadBy(plan)) any = any || left_ids.contains(id);
    return any;
  };

  if (!read_from_left(*right)) {
    // Nothing of the left side is read: an ordinary join, which the optimizer may reorder.
    auto join = std::make_unique<LogicalJoin>();
    join->join_type = on != nullptr && join_type == LogicalJoinType::kCross ? LogicalJoinType::kInner : join_type;
    join->condition = std::move(on);
    join->output = input->output;
    join->output.insert(join->output.end(), right->output.begin(), right->output.end());
    join->children.push_back(std::move(input));
    join->children.push_back(std::move(right));
    return join;
  }

  BoundExprPtr above;  // An inner join's ON, applied to the joined rows.
  if (on != nullptr && join_type == LogicalJoinType::kLeft) {
    // A LEFT join's ON decides which of a left row's subquery rows it keeps: it becomes part of
    // the per-row run, so a row none pass is kept once with NULLs.
    auto filter = std::make_unique<LogicalFilter>();
    filter->output = right->output;
    filter->predicate = std::move(on);
    filter->children.push_back(std::move(right));
    right = std::move(filter);
  } else {
    above = std::move(on);
  }
  auto lateral = std::make_unique<LogicalLateralJoin>();
  lateral->join_type = join_type;
  for (ColumnId id : ColumnsReadBy(*right)) {
    if (left_ids.contains(id)) lateral->correlated.push_back(id);
  }
  lateral->output = input->output;
  lateral->output.insert(lateral->output.end(), right->output.begin(), right->output.end());
  lateral->children.push_back(std::move(input));
  lateral->children.push_back(std::move(right));
  if (above == nullptr) return lateral;
  auto filter = std::make_unique<LogicalFilter>();
  filter->output = lateral->output;
  filter->predicate = std::move(above);
  filter->children.push_back(std::move(lateral));
  return filter;
}

Result<LogicalJoinType> BinderImpl::JoinTypeOverLeftRows(const ast::TableRef& join, std::string_view what,
                                                         ErrorKind right_or_full) const {
  if (join.natural || !join.using_columns.empty()) {
    return ErrorAt(join.right->location, fmt::format("{} cannot be joined with USING or NATURAL", what),
                   ErrorKind::kNotImplemented);
  }
  switch (join.join_type) {
    case ast::JoinType::kCross:
    case ast::JoinType::kInner:
      return LogicalJoinType::kCross;
    case ast::JoinType::kLeft:
      return LogicalJoinType::kLeft;
    default:
      return ErrorAt(join.right->location,
                     fmt::format("RIGHT and FULL joins with {} are not {}", what,
                                 right_or_full == ErrorKind::kNotImplemented ? "supported" : "allowed"),
                     right_or_full);
  }
}

Result<LogicalPtr> BinderImpl::BindJoinLateral(const ast::TableRef& join, LogicalPtr left, Scope& scope,
                                               const CteScope* ctes) {
  // The subquery runs per left row: there is no right row a RIGHT or FULL join could keep.
  FLOE_ASSIGN_OR_RETURN(LogicalJoinType type, JoinTypeOverLeftRows(join, "LATERAL", ErrorKind::kInvalidArgument));
  return BindLateral(*join.right, scope, ctes, std::move(left), type, join.condition.get());
}

}  // namespace floe::sql
