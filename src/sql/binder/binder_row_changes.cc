// Binding UPDATE and MERGE. The parser hands each over as a query over the target table (and
// MERGE's source) whose select list carries every expression of the statement after `*`, so
// names, types and functions resolve exactly as in a SELECT; this file takes the bound
// expressions back out of that query's projection and checks what only a write needs: that
// the SET and INSERT columns exist once each and take their values' types, that conditions
// are boolean, and that nothing needs more than the row at hand (aggregates and window
// functions are refused, since storage evaluates the statement one batch at a time). Subqueries
// are allowed: the executor runs them as a SELECT's expressions run them (an uncorrelated one
// once, a correlated one per distinct outer values), reading the tables as they were before the
// statement's commit.
#include <algorithm>
#include <set>

#include "sql/binder/binder_internal.h"
#include "sql/types/type_rules.h"

namespace floe::sql {

using ast::MergeClause;
using ast::Statement;

namespace {

// The index of the table column `name`, or -1.
int ColumnIndex(const CatalogTable& table, const std::string& name) {
  for (size_t i = 0; i < table.columns.size(); ++i) {
    if (table.columns[i].name == name) return static_cast<int>(i);
  }
  return -1;
}

std::vector<BoundExprPtr> ColumnsAsValues(const std::vector<OutputColumn>& columns) {
  std::vector<BoundExprPtr> out;
  for (const OutputColumn& c : columns) out.push_back(MakeColumn(c.id, c.type, c.name));
  return out;
}

// The table column `assignment` sets, once per statement or clause (`assigned` holds those set
// before), or an error at its name.
Result<size_t> AssignedColumn(const BinderImpl& binder, const CatalogTable& table, const ast::Assignment& assignment,
                              std::set<int>& assigned) {
  int column = ColumnIndex(table, assignment.column);
  if (column < 0) {
    return binder.ErrorAt(assignment.location, fmt::format("Column '{}' cannot be resolved", assignment.column),
                          ErrorKind::kInvalidArgument, ErrorCode::kNoSuchColumn);
  }
  if (!assigned.insert(column).second) {
    return binder.ErrorAt(assignment.location, fmt::format("Multiple assignments to column '{}'", assignment.column));
  }
  return static_cast<size_t>(column);
}

// A value assigned to a column of `type`: coerced as INSERT coerces, and, between numbers, also
// narrowed (`SET amount = amount + 1` on a decimal(10,2) column computes a decimal(11,2)): the
// assignment cast PostgreSQL and DuckDB make, failing at run time for a value out of range.
Result<BoundExprPtr> AssignedValue(BinderImpl& binder, BoundExprPtr value, const SqlType& type, int location,
                                   std::string_view what) {
  if (value->type.IsNumeric() && type.IsNumeric() && !CanCoerce(value->type, type)) {
    return MakeCast(std::move(value), type);
  }
  return binder.Coerce(std::move(value), type, location, what);
}

// The first aggregate or window call in `e` outside subqueries, or null: such a value needs
// more rows than the one it changes.
const ast::Expr* FindAggregateOrWindow(const ast::Expr& e, const FunctionRegistry& functions) {
  const ast::ExprPtr* children[2] = {nullptr, nullptr};  // Besides the args.
  if (e.kind == ast::ExprKind::kFunction) {
    const auto& call = e.As<ast::FunctionCall>();
    if (!call.names.empty()) {
      const FunctionInfo* f = functions.Find(call.names.back());
      if (call.window || (f != nullptr && f->kind != FunctionKind::kScalar)) return &e;
    }
    children[0] = &call.filter;
  } else if (e.kind == ast::ExprKind::kCase) {
    children[0] = &e.As<ast::Case>().case_operand;
    children[1] = &e.As<ast::Case>().case_else;
  }
  for (const ast::ExprPtr* child : children) {
    if (child == nullptr || *child == nullptr) continue;
    if (const ast::Expr* found = FindAggregateOrWindow(**child, functions)) return found;
  }
  for (const ast::ExprPtr& arg : e.args) {
    if (const ast::Expr* found = FindAggregateOrWindow(*arg, functions)) return found;
  }
  return nullptr;
}

}  // namespace

Status BinderImpl::RefuseAggregates(const ast::Statement& statement, std::string_view what) const {
  const auto& select = statement.query->select;
  for (size_t i = 1; i < select.size(); ++i) {
    if (const ast::Expr* call = FindAggregateOrWindow(*select[i].expr, functions_)) {
      return ErrorAt(call->location, fmt::format("{} with an aggregate or window function is not supported", what));
    }
  }
  return OkStatus();
}

Status BinderImpl::BindUpdate(const Statement& statement, const CatalogTable& table, BoundStatement& out) {
  FLOE_RETURN_IF_ERROR(RefuseAggregates(statement, "UPDATE ... SET"));
  FLOE_ASSIGN_OR_RETURN(LogicalPtr plan, BindQuery(*statement.query, nullptr, nullptr));
  const auto& select = statement.query->select;  // `*`, then one value per assignment.
  auto value_location = [&](size_t i) { return select[1 + i].location; };
  // SELECT *, v... FROM t [WHERE w] binds to Project([Filter](Scan)); an aggregate or a window
  // function in a value would have put its own operator between them.
  LogicalOperator* scan = plan->kind == LogicalKind::kProject ? plan->children[0].get() : nullptr;
  if (scan != nullptr && scan->kind == LogicalKind::kFilter) scan = scan->children[0].get();
  if (scan == nullptr || scan->kind != LogicalKind::kScan ||
      plan->As<LogicalProject>().expressions.size() != scan->output.size() + statement.assignments.size()) {
    return ErrorAt(value_location(0), "UPDATE ... SET with an aggregate or window function is not supported");
  }
  auto changes = std::make_shared<BoundRowChanges>();
  changes->target_columns = scan->output;
  changes->values = ColumnsAsValues(scan->output);
  std::set<int> assigned;
  for (size_t i = 0; i < statement.assignments.size(); ++i) {
    FLOE_ASSIGN_OR_RETURN(size_t column, AssignedColumn(*this, table, statement.assignments[i], assigned));
    BoundExprPtr value = std::move(plan->As<LogicalProject>().expressions[scan->output.size() + i]);
    const TableColumn& target = table.columns[column];
    FLOE_ASSIGN_OR_RETURN(
        changes->values[column],
        AssignedValue(*this, std::move(value), target.type, value_location(i), fmt::format("SET {}", target.name)));
  }
  out.plan = std::move(plan->children[0]);
  out.row_changes = std::move(changes);
  return OkStatus();
}

Status BinderImpl::BindMerge(const Statement& statement, const CatalogTable& table, BoundStatement& out) {
  FLOE_RETURN_IF_ERROR(RefuseAggregates(statement, "MERGE"));
  FLOE_ASSIGN_OR_RETURN(LogicalPtr plan, BindQuery(*statement.query, nullptr, nullptr));
  const auto& select = statement.query->select;  // `*`, ON, then each clause's expressions.
  // SELECT *, ... FROM target, source binds to Project(Join(Scan, source)).
  LogicalOperator* join = plan->kind == LogicalKind::kProject ? plan->children[0].get() : nullptr;
  if (join == nullptr || join->kind != LogicalKind::kJoin || join->children.size() != 2 ||
      join->children[0]->kind != LogicalKind::kScan || !join->children[0]->As<LogicalScan>().table) {
    return ErrorAt(statement.location, "MERGE with an aggregate or window function is not supported");
  }
  std::vector<BoundExprPtr>& expressions = plan->As<LogicalProject>().expressions;
  auto changes = std::make_shared<BoundRowChanges>();
  changes->target_columns = join->children[0]->output;
  changes->source = std::move(join->children[1]);
  changes->source_columns = changes->source->output;
  size_t next = changes->target_columns.size() + changes->source_columns.size();
  size_t item = 1;  // The select item `next` came from (0 is `*`).
  if (expressions.size() < next + 1) return Internal("MERGE bound to {} expressions", expressions.size());
  std::set<ColumnId> target_ids;
  for (const OutputColumn& c : changes->target_columns) target_ids.insert(c.id);

  // The next expression of the select list, coerced to `type`; `matched` false when it is part
  // of a WHEN NOT MATCHED clause, where the target has no row to read.
  auto take = [&](const SqlType& type, std::string_view what, bool matched) -> Result<BoundExprPtr> {
    if (next >= expressions.size()) return Internal("MERGE: fewer expressions bound than written");
    int location = select[item].location;
    BoundExprPtr e = std::move(expressions[next++]);
    ++item;
    if (!matched && Intersects(e->ColumnsRead(), target_ids)) {
      return ErrorAt(location, "WHEN NOT MATCHED cannot refer to the target table's columns");
    }
    if (type == SqlType::Boolean()) return Coerce(std::move(e), type, location, what);
    return AssignedValue(*this, std::move(e), type, location, what);
  };
  FLOE_ASSIGN_OR_RETURN(changes->on, take(SqlType::Boolean(), "MERGE ... ON", true));
  for (const MergeClause& clause : statement.merge_clauses) {
    BoundRowChanges::Clause bound;
    bound.matched = clause.matched;
    bound.action = clause.action;
    bound.location = clause.location;
    if (clause.has_condition) {
      FLOE_ASSIGN_OR_RETURN(bound.condition, take(SqlType::Boolean(), "WHEN ... AND", clause.matched));
    }
    if (clause.action == MergeClause::Action::kUpdate) {
      bound.values = ColumnsAsValues(changes->target_columns);
      std::set<int> assigned;
      for (const ast::Assignment& assignment : clause.columns) {
        FLOE_ASSIGN_OR_RETURN(size_t column, AssignedColumn(*this, table, assignment, assigned));
        const TableColumn& target = table.columns[column];
        FLOE_ASSIGN_OR_RETURN(bound.values[column], take(target.type, fmt::format("SET {}", target.name), true));
      }
    } else if (clause.action == MergeClause::Action::kInsert) {
      std::vector<int> targets;
      for (const ast::Assignment& c : clause.columns) {
        int column = ColumnIndex(table, c.column);
        if (column < 0) {
          return ErrorAt(c.location, fmt::format("Insert column name does not exist: {}", c.column),
                         ErrorKind::kInvalidArgument, ErrorCode::kNoSuchColumn);
        }
        if (std::find(targets.begin(), targets.end(), column) != targets.end()) {
          return ErrorAt(c.location, fmt::format("Insert column name is specified more than once: {}", c.column));
        }
        targets.push_back(column);
      }
      if (clause.columns.empty()) {
        for (size_t i = 0; i < table.columns.size(); ++i) targets.push_back(static_cast<int>(i));
      }
      if (targets.size() != static_cast<size_t>(clause.value_count)) {
        return ErrorAt(select[item].location,
                       fmt::format("MERGE INSERT has {} values for {} columns", clause.value_count, targets.size()),
                       ErrorKind::kInvalidArgument, ErrorCode::kTypeMismatch);
      }
      for (const TableColumn& c : table.columns) bound.values.push_back(MakeConstant(Value::Null(c.type)));
      for (int column : targets) {
        const TableColumn& target = table.columns[static_cast<size_t>(column)];
        FLOE_ASSIGN_OR_RETURN(bound.values[static_cast<size_t>(column)],
                              take(target.type, fmt::format("INSERT {}", target.name), false));
      }
    }
    changes->clauses.push_back(std::move(bound));
  }
  if (next != expressions.size()) return Internal("MERGE: more expressions bound than written");
  out.row_changes = std::move(changes);
  return OkStatus();
}

}  // namespace floe::sql
