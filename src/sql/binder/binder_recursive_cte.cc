// WITH RECURSIVE. A recursive CTE is `anchor UNION [ALL] step` where the step reads the CTE
// itself: the anchor binds first, its columns (named by the CTE's column list) give the CTE's
// types, and while the step binds, a reference to the CTE's name is its working table (the
// rows the previous round added). The step's columns are cast to the anchor's types, as
// PostgreSQL and DuckDB do. A CTE of WITH RECURSIVE that does not read itself binds as any CTE.
#include "sql/binder/binder_internal.h"
#include "sql/types/type_rules.h"

namespace floe::sql {

using ast::CommonTableExpr;
using ast::Query;
using ast::TableRef;

Result<LogicalPtr> BinderImpl::BindCteQuery(const CommonTableExpr& cte, const CteScope& earlier) {
  const Query& query = *cte.query;
  const bool union_of_two = query.kind == Query::Kind::kSetOp && query.set_op == ast::SetOpKind::kUnion;
  if (!cte.recursive || !union_of_two) return BindQuery(query, nullptr, &earlier);
  FLOE_ASSIGN_OR_RETURN(LogicalPtr anchor, BindQuery(*query.left, nullptr, &earlier));
  if (!cte.column_aliases.empty() && cte.column_aliases.size() != anchor->output.size()) {
    return ErrorAt(cte.location, fmt::format("WITH query '{}' has {} columns but {} column names", cte.name,
                                             anchor->output.size(), cte.column_aliases.size()));
  }
  WorkingTable working;
  working.name = cte.name;
  working.id = next_working_table_++;
  for (size_t i = 0; i < anchor->output.size(); ++i) {
    OutputColumn column = anchor->output[i];
    if (!cte.column_aliases.empty()) column.name = cte.column_aliases[i];
    working.columns.push_back(std::move(column));
  }
  working_tables_.push_back(working);
  auto step = BindQuery(*query.right, nullptr, &earlier);
  const int references = working_tables_.back().references;
  working_tables_.pop_back();
  if (!step.has_value()) return std::unexpected(step.error());
  if (references == 0) return BindQuery(query, nullptr, &earlier);  // Not recursive after all.
  if (!query.order_by.empty() || query.limit || query.offset) {
    return ErrorAt(cte.location, "ORDER BY, LIMIT and OFFSET of a recursive WITH query are not supported",
                   ErrorKind::kNotImplemented);
  }
  LogicalPtr recursive_part = std::move(*step);
  if (recursive_part->output.size() != working.columns.size()) {
    return ErrorAt(query.right->location,
                   fmt::format("WITH RECURSIVE query '{}': the recursive part has {} columns, the first part {}",
                               cte.name, recursive_part->output.size(), working.columns.size()),
                   ErrorKind::kInvalidArgument, ErrorCode::kTypeMismatch);
  }
  // The step's values take the anchor's types.
  bool cast = false;
  for (size_t i = 0; i < working.columns.size(); ++i)
    cast = cast || !(recursive_part->output[i].type == working.columns[i].type);
  if (cast) {
    auto project = std::make_unique<LogicalProject>();
    for (size_t i = 0; i < working.columns.size(); ++i) {
      const OutputColumn& from = recursive_part->output[i];
      const SqlType& type = working.columns[i].type;
      if (!(from.type == type) && !CanCoerce(from.type, type)) {
        return ErrorAt(
            query.right->location,
            fmt::format("WITH RECURSIVE query '{}': column '{}' is {} in the first part and {} in the recursive "
                        "part",
                        cte.name, working.columns[i].name, type.ToString(), from.type.ToString()),
            ErrorKind::kInvalidArgument, ErrorCode::kTypeMismatch);
      }
      auto ref = MakeColumn(from.id, from.type, from.name);
      project->expressions.push_back(from.type == type ? std::move(ref) : MakeCast(std::move(ref), type));
      project->output.push_back(OutputColumn{NewColumn(), from.name, type});
    }
    project->children.push_back(std::move(recursive_part));
    recursive_part = std::move(project);
  }
  auto node = std::make_unique<LogicalRecursiveCte>();
  node->set_all = query.set_all;
  node->working_table = working.id;
  for (const OutputColumn& c : working.columns) node->output.push_back(OutputColumn{NewColumn(), c.name, c.type});
  node->children.push_back(std::move(anchor));
  node->children.push_back(std::move(recursive_part));
  return node;
}

Result<LogicalPtr> BinderImpl::BindWorkingTableReference(const TableRef& ref, Scope& scope) {
  if (ref.name.size() != 1) return LogicalPtr();
  for (auto it = working_tables_.rbegin(); it != working_tables_.rend(); ++it) {
    if (it->name != ref.name[0]) continue;
    if (ref.time_travel)
      return ErrorAt(ref.time_travel->location, "Time travel applies to tables, not to WITH queries");
    if (ref.column_aliases.size() > it->columns.size()) {
      return ErrorAt(ref.location, fmt::format("WITH query '{}' has {} columns but {} column aliases", it->name,
                                               it->columns.size(), ref.column_aliases.size()));
    }
    ++it->references;
    auto leaf = std::make_unique<LogicalWorkingTable>();
    leaf->working_table = it->id;
    ScopeRelation relation;
    relation.alias = ref.alias.empty() ? it->name : ref.alias;
    for (size_t i = 0; i < it->columns.size(); ++i) {
      std::string name = i < ref.column_aliases.size() ? ref.column_aliases[i] : it->columns[i].name;
      OutputColumn column{NewColumn(), name, it->columns[i].type};
      relation.columns.push_back(ScopeColumn{column.name, column.id, column.type});
      leaf->output.push_back(std::move(column));
    }
    scope.relations.push_back(std::move(relation));
    return LogicalPtr(std::move(leaf));
  }
  return LogicalPtr();
}

}  // namespace floe::sql
