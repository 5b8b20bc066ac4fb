// UNNEST in FROM, as Trino has it: UNNEST(a [, b ...]) [WITH ORDINALITY] [AS u (columns)],
// alone or after other FROM items (`t CROSS JOIN UNNEST(t.items) AS u(x)`, `t, UNNEST(t.items)`,
// `t LEFT JOIN UNNEST(t.items) AS u(x) ON true`), where its arguments read the columns of the
// items before it. It binds to one Unnest operator over the items before it (or over one empty
// row when alone), so the expansion is per row and never a join.
#include <fmt/format.h>

#include "sql/binder/binder_internal.h"

namespace floe::sql {

using ast::Expr;
using ast::ExprKind;
using ast::TableRef;

bool IsUnnest(const TableRef& ref) {
  if (ref.kind != TableRef::Kind::kFunction || !ref.function || ref.function->kind != ExprKind::kFunction) return false;
  const auto& names = ref.function->As<ast::FunctionCall>().names;
  return names.size() == 1 && names[0] == "unnest";
}

Result<LogicalPtr> BinderImpl::BindUnnest(const TableRef& ref, Scope& scope, const CteScope* ctes, LogicalPtr input,
                                          LogicalJoinType join_type) {
  const auto& call = ref.function->As<ast::FunctionCall>();
  if (call.args.empty()) return ErrorAt(ref.location, "UNNEST needs at least one array or map");
  if (call.distinct || call.star_arg || call.window) return ErrorAt(ref.location, "UNNEST takes arrays and maps only");
  ExprContext context;
  context.clause = "UNNEST";
  context.scope = &scope;
  context.ctes = ctes;
  auto unnest = std::make_unique<LogicalUnnest>();
  unnest->join_type = join_type;
  unnest->ordinality = ref.ordinality;
  // The columns each argument adds: its element (a row element's fields), or a map's key and value.
  std::vector<std::pair<std::string, SqlType>> columns;
  for (const auto& arg : call.args) {
    FLOE_ASSIGN_OR_RETURN(auto bound, BindExpr(*arg, context));
    const SqlType& type = bound->type;
    if (type.kind() == TypeKind::kArray && type.element().kind() == TypeKind::kRow) {
      const auto& fields = type.element().fields();
      for (size_t f = 0; f < fields.size(); ++f) {
        columns.emplace_back(fields[f].name.empty() ? fmt::format("field{}", f) : fields[f].name, fields[f].type);
      }
    } else if (type.kind() == TypeKind::kArray) {
      columns.emplace_back("unnest", type.element());
    } else if (type.kind() == TypeKind::kMap) {
      columns.emplace_back("key", type.element());
      columns.emplace_back("value", type.value());
    } else {
      return ErrorAt(arg->location, fmt::format("Cannot unnest type: {}", type.ToString()), ErrorKind::kInvalidArgument,
                     ErrorCode::kTypeMismatch);
    }
    unnest->expressions.push_back(std::move(bound));
  }
  if (ref.ordinality) columns.emplace_back("ordinality", SqlType::Bigint());
  if (ref.column_aliases.size() > columns.size()) {
    return ErrorAt(ref.location, fmt::format("Column alias list has {} entries but UNNEST has {} columns",
                                             ref.column_aliases.size(), columns.size()));
  }
  ScopeRelation relation;
  relation.alias = ref.alias;
  unnest->output = input->output;
  for (size_t i = 0; i < columns.size(); ++i) {
    ColumnId id = NewColumn();
    std::string name = i < ref.column_aliases.size() ? ref.column_aliases[i] : columns[i].first;
    unnest->output.push_back(OutputColumn{id, name, columns[i].second});
    relation.columns.push_back(ScopeColumn{name, id, columns[i].second});
  }
  unnest->children.push_back(std::move(input));
  scope.relations.push_back(std::move(relation));
  return unnest;
}

// `left [CROSS | INNER | LEFT] JOIN UNNEST(...) [ON condition]`: the left rows expanded. A LEFT
// join keeps a row with nothing to unnest once, with NULL elements; its condition must be TRUE
// (Trino's `ON true`), as any other would need the unnested rows matched per left row.
Result<LogicalPtr> BinderImpl::BindJoinUnnest(const TableRef& join, LogicalPtr left, Scope& scope,
                                              const CteScope* ctes) {
  FLOE_ASSIGN_OR_RETURN(LogicalJoinType type, JoinTypeOverLeftRows(join, "UNNEST", ErrorKind::kNotImplemented));
  FLOE_ASSIGN_OR_RETURN(auto plan, BindUnnest(*join.right, scope, ctes, std::move(left), type));
  if (!join.condition) return plan;
  ExprContext context;
  context.clause = "JOIN";
  context.scope = &scope;
  context.ctes = ctes;
  FLOE_ASSIGN_OR_RETURN(auto condition, BindPredicate(*join.condition, context));
  bool always = condition->kind == BoundKind::kConstant && !condition->As<BoundConstant>().value.is_null() &&
                condition->As<BoundConstant>().value.as_bool();
  if (always) return plan;
  if (type == LogicalJoinType::kLeft) {
    return ErrorAt(join.condition->location, "LEFT JOIN UNNEST supports only ON true", ErrorKind::kNotImplemented);
  }
  auto filter = std::make_unique<LogicalFilter>();
  filter->output = plan->output;
  filter->predicate = std::move(condition);
  filter->children.push_back(std::move(plan));
  return filter;
}

}  // namespace floe::sql
