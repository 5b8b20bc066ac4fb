#include "sql/planner/logical_plan.h"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace floe::sql {
namespace {

std::vector<BoundExprPtr> CloneAll(const std::vector<BoundExprPtr>& in) {
  std::vector<BoundExprPtr> out;
  for (const auto& e : in) out.push_back(e ? e->Clone() : nullptr);
  return out;
}

std::vector<SortKey> CloneKeys(const std::vector<SortKey>& in) {
  std::vector<SortKey> out;
  for (const auto& k : in) out.push_back(SortKey{k.expr->Clone(), k.descending, k.nulls_first});
  return out;
}

std::string KeysToString(const std::vector<SortKey>& keys) {
  std::string out;
  for (size_t i = 0; i < keys.size(); ++i) {
    if (i > 0) out += ", ";
    out += keys[i].expr->ToString();
    out += keys[i].descending ? " DESC" : " ASC";
    out += keys[i].nulls_first ? " NULLS FIRST" : " NULLS LAST";
  }
  return out;
}

std::string ExprList(const std::vector<BoundExprPtr>& exprs) {
  std::string out;
  for (size_t i = 0; i < exprs.size(); ++i) out += (i > 0 ? ", " : "") + exprs[i]->ToString();
  return out;
}

std::string OutputName(const OutputColumn& c) { return fmt::format("{}#{}", c.name, c.id.value()); }

// The numbers of an aggregation's empty grouping sets, "0, 3" (empty when it has none).
std::string GlobalSetsText(const LogicalOperator& op) { return fmt::format("{}", fmt::join(op.global_grouping_sets, ", ")); }

const char* JoinName(LogicalJoinType type) {
  switch (type) {
    case LogicalJoinType::kInner: return "INNER";
    case LogicalJoinType::kLeft: return "LEFT";
    case LogicalJoinType::kRight: return "RIGHT";
    case LogicalJoinType::kFull: return "FULL";
    case LogicalJoinType::kCross: return "CROSS";
    case LogicalJoinType::kSemi: return "SEMI";
    case LogicalJoinType::kAnti: return "ANTI";
    case LogicalJoinType::kRightSemi: return "RIGHT SEMI";
    case LogicalJoinType::kRightAnti: return "RIGHT ANTI";
  }
  return "?";
}

std::string BoundToString(const WindowFrameBound& b) {
  switch (b.kind) {
    case WindowFrameBound::Kind::kUnboundedPreceding: return "UNBOUNDED PRECEDING";
    case WindowFrameBound::Kind::kPreceding: return b.offset->ToString() + " PRECEDING";
    case WindowFrameBound::Kind::kCurrentRow: return "CURRENT ROW";
    case WindowFrameBound::Kind::kFollowing: return b.offset->ToString() + " FOLLOWING";
    case WindowFrameBound::Kind::kUnboundedFollowing: return "UNBOUNDED FOLLOWING";
  }
  return "?";
}

std::string Describe(const LogicalOperator& op) {
  std::string rows = op.estimated_rows >= 0 ? fmt::format(" rows≈{:.0f}", op.estimated_rows) : "";
  switch (op.kind) {
    case LogicalKind::kScan: {
      std::string what;
      if (!op.virtual_table.empty()) {
        what = op.virtual_table;
      } else {
        what = op.table->name.ToString();
        if (!op.metadata_table.empty()) what += "$" + op.metadata_table;
      }
      std::string columns;
      for (size_t i = 0; i < op.output.size(); ++i) columns += (i > 0 ? ", " : "") + OutputName(op.output[i]);
      std::string out = fmt::format("Scan {} [{}]", what, columns);
      if (op.version.kind != TableVersion::Kind::kCurrent) out += " version: " + op.version.ToString();
      if (!op.pushed.terms.empty()) {
        std::string terms;
        for (const auto& t : op.pushed.terms) terms += (terms.empty() ? "" : " AND ") + t.ToString();
        out += " prune: " + terms;
      }
      if (!op.pushed.residual.empty()) out += " filter: " + ExprList(op.pushed.residual);
      return out + rows;
    }
    case LogicalKind::kValues: {
      std::string columns;
      for (size_t i = 0; i < op.output.size(); ++i) columns += (i > 0 ? ", " : "") + OutputName(op.output[i]);
      return fmt::format("Values {} row{} [{}]", op.rows.size(), op.rows.size() == 1 ? "" : "s", columns) + rows;
    }
    case LogicalKind::kFilter:
      return "Filter " + op.predicate->ToString() + rows;
    case LogicalKind::kProject: {
      std::string items;
      for (size_t i = 0; i < op.expressions.size(); ++i) {
        if (i > 0) items += ", ";
        std::string expr = op.expressions[i]->ToString();
        std::string name = OutputName(op.output[i]);
        items += expr == name ? name : name + " := " + expr;
      }
      return "Project [" + items + "]" + rows;
    }
    case LogicalKind::kAggregate: {
      std::string items;
      for (size_t i = 0; i < op.groups.size(); ++i) {
        items += (i > 0 ? ", " : "") + OutputName(op.output[i]) + " := " + op.groups[i]->ToString();
      }
      std::string aggregates;
      for (size_t i = 0; i < op.aggregates.size(); ++i) {
        aggregates += (i > 0 ? ", " : "") + OutputName(op.output[op.groups.size() + i]) + " := " + op.aggregates[i].ToString();
      }
      std::string global;
      if (!GlobalSetsText(op).empty()) global = " global sets: [" + GlobalSetsText(op) + "]";
      return fmt::format("Aggregate group: [{}] aggregates: [{}]{}", items, aggregates, global) + rows;
    }
    case LogicalKind::kWindow: {
      std::string items;
      size_t first = op.output.size() - op.windows.size();
      for (size_t i = 0; i < op.windows.size(); ++i) {
        items += (i > 0 ? ", " : "") + OutputName(op.output[first + i]) + " := " + op.windows[i].ToString();
      }
      return "Window [" + items + "]" + rows;
    }
    case LogicalKind::kJoin:
      return fmt::format("Join {}{}", JoinName(op.join_type), op.condition ? " ON " + op.condition->ToString() : "") + rows;
    case LogicalKind::kSort:
      return "Sort [" + KeysToString(op.order) + "]" + rows;
    case LogicalKind::kLimit:
      return fmt::format("Limit {}{}", op.limit ? std::to_string(*op.limit) : "ALL",
                         op.offset > 0 ? fmt::format(" offset {}", op.offset) : "") + rows;
    case LogicalKind::kTopN:
      return fmt::format("TopN {}{} [{}]", op.limit ? std::to_string(*op.limit) : "ALL",
                         op.offset > 0 ? fmt::format(" offset {}", op.offset) : "", KeysToString(op.order)) + rows;
    case LogicalKind::kDistinct:
      return "Distinct" + rows;
    case LogicalKind::kSetOp: {
      const char* name = op.set_op == LogicalSetOp::kUnion ? "Union" : op.set_op == LogicalSetOp::kIntersect ? "Intersect" : "Except";
      std::string columns;
      for (size_t i = 0; i < op.output.size(); ++i) columns += (i > 0 ? ", " : "") + OutputName(op.output[i]);
      return fmt::format("{}{} [{}]", name, op.set_all ? " ALL" : "", columns) + rows;
    }
    case LogicalKind::kEmpty:
      return "Empty";
    case LogicalKind::kRecursiveCte: {
      std::string columns;
      for (size_t i = 0; i < op.output.size(); ++i) columns += (i > 0 ? ", " : "") + OutputName(op.output[i]);
      return fmt::format("RecursiveCte {}{} [{}]", op.working_table, op.set_all ? " ALL" : "", columns) + rows;
    }
    case LogicalKind::kWorkingTable: {
      std::string columns;
      for (size_t i = 0; i < op.output.size(); ++i) columns += (i > 0 ? ", " : "") + OutputName(op.output[i]);
      return fmt::format("WorkingTable {} [{}]", op.working_table, columns) + rows;
    }
    case LogicalKind::kLateralJoin: {
      std::string columns;
      for (ColumnId id : op.correlated) columns += fmt::format("{}#{}", columns.empty() ? "" : ", ", id.value());
      return fmt::format("LateralJoin {} correlated: [{}]", JoinName(op.join_type), columns) + rows;
    }
    case LogicalKind::kUnnest: {
      std::string columns;
      for (size_t i = op.children[0]->output.size(); i < op.output.size(); ++i) {
        columns += (columns.empty() ? "" : ", ") + OutputName(op.output[i]);
      }
      return fmt::format("Unnest{} [{}] [{}]{}", op.join_type == LogicalJoinType::kLeft ? " LEFT" : "",
                         ExprList(op.expressions), columns, op.ordinality ? " WITH ORDINALITY" : "") +
             rows;
    }
  }
  return "?";
}

void Explain(const LogicalOperator& op, const std::string& prefix, bool last, bool root, std::string& out,
             const ExplainAnnotator& annotate) {
  out += root ? "" : prefix + (last ? "└─ " : "├─ ");
  out += Describe(op);
  if (annotate) out += annotate(op);
  out += "\n";
  std::string child_prefix = root ? "" : prefix + (last ? "   " : "│  ");
  // Subqueries inside expressions are shown under the node that evaluates them.
  std::vector<const BoundExpr*> subqueries;
  auto collect = [&](const BoundExpr& e, auto&& self) -> void {
    if (e.kind == BoundKind::kSubquery) subqueries.push_back(&e);
    for (const auto& a : e.args) self(*a, self);
  };
  if (op.predicate) collect(*op.predicate, collect);
  if (op.condition) collect(*op.condition, collect);
  for (const auto& e : op.expressions) collect(*e, collect);
  for (const auto& e : op.pushed.residual) collect(*e, collect);
  size_t total = op.children.size() + subqueries.size();
  size_t index = 0;
  for (const BoundExpr* sub : subqueries) {
    bool is_last = ++index == total;
    out += child_prefix + (is_last ? "└─ " : "├─ ") + "Subquery " + sub->ToString() + "\n";
    Explain(*sub->plan, child_prefix + (is_last ? "   " : "│  "), true, false, out, annotate);
  }
  for (const auto& child : op.children) {
    Explain(*child, child_prefix, ++index == total, false, out, annotate);
  }
}

}  // namespace

std::string AggregateCall::ToString() const {
  std::string out = function + "(";
  if (distinct) out += "DISTINCT ";
  out += star ? "*" : ExprList(args);
  if (!order.empty()) out += " ORDER BY " + KeysToString(order);
  out += ")";
  if (filter) out += " FILTER (WHERE " + filter->ToString() + ")";
  return out;
}

std::string WindowCall::ToString() const {
  std::string out = function + "(";
  if (distinct) out += "DISTINCT ";
  out += star ? "*" : ExprList(args);
  out += ")";
  if (filter) out += " FILTER (WHERE " + filter->ToString() + ")";
  out += " OVER (";
  std::string spec;
  if (!partition_by.empty()) spec += "PARTITION BY " + ExprList(partition_by);
  if (!order_by.empty()) spec += std::string(spec.empty() ? "" : " ") + "ORDER BY " + KeysToString(order_by);
  const char* mode = frame_mode == FrameMode::kRows ? "ROWS" : frame_mode == FrameMode::kGroups ? "GROUPS" : "RANGE";
  spec += fmt::format("{}{} BETWEEN {} AND {}", spec.empty() ? "" : " ", mode, BoundToString(frame_start), BoundToString(frame_end));
  return out + spec + ")";
}

bool DropsUnmatchedProbeRows(LogicalJoinType type) {
  switch (type) {
    case LogicalJoinType::kInner:
    case LogicalJoinType::kRight:
    case LogicalJoinType::kSemi:
    case LogicalJoinType::kRightSemi:
    case LogicalJoinType::kRightAnti: return true;
    default: return false;
  }
}

namespace {

void CollectColumnEqualities(const BoundExpr* e, const std::set<ColumnId>& left, const std::set<ColumnId>& right,
                             std::vector<std::pair<ColumnId, ColumnId>>& out) {
  if (e == nullptr) return;
  if (e->kind == BoundKind::kAnd) {
    for (const auto& a : e->args) CollectColumnEqualities(a.get(), left, right, out);
    return;
  }
  if (e->kind != BoundKind::kCall || e->name != "eq" || e->args.size() != 2) return;
  if (e->args[0]->kind != BoundKind::kColumn || e->args[1]->kind != BoundKind::kColumn) return;
  ColumnId a = e->args[0]->column, b = e->args[1]->column;
  if (!left.contains(a)) std::swap(a, b);
  if (left.contains(a) && right.contains(b)) out.emplace_back(a, b);
}

}  // namespace

std::vector<std::pair<ColumnId, ColumnId>> ColumnEqualities(const BoundExpr* condition, const LogicalOperator& left,
                                                            const LogicalOperator& right) {
  std::vector<std::pair<ColumnId, ColumnId>> out;
  CollectColumnEqualities(condition, left.OutputIds(), right.OutputIds(), out);
  return out;
}

std::set<ColumnId> LogicalOperator::OutputIds() const {
  std::set<ColumnId> out;
  for (const auto& c : output) out.insert(c.id);
  return out;
}

LogicalPtr LogicalOperator::Clone() const {
  auto copy = std::make_unique<LogicalOperator>(kind);
  for (const auto& child : children) copy->children.push_back(child->Clone());
  copy->output = output;
  copy->estimated_rows = estimated_rows;
  copy->table = table;
  copy->metadata_table = metadata_table;
  copy->virtual_table = virtual_table;
  copy->version = version;
  copy->scan_columns = scan_columns;
  copy->pushed.terms = pushed.terms;
  copy->pushed.residual = CloneAll(pushed.residual);
  for (const auto& row : rows) copy->rows.push_back(CloneAll(row));
  if (predicate) copy->predicate = predicate->Clone();
  copy->expressions = CloneAll(expressions);
  copy->groups = CloneAll(groups);
  copy->global_grouping_sets = global_grouping_sets;
  copy->working_table = working_table;
  for (const auto& a : aggregates) {
    copy->aggregates.push_back(AggregateCall{a.function, CloneAll(a.args), a.star, a.distinct,
                                             a.filter ? a.filter->Clone() : nullptr, CloneKeys(a.order), a.type});
  }
  for (const auto& w : windows) {
    WindowCall c;
    c.function = w.function;
    c.args = CloneAll(w.args);
    c.star = w.star;
    c.distinct = w.distinct;
    c.filter = w.filter ? w.filter->Clone() : nullptr;
    c.partition_by = CloneAll(w.partition_by);
    c.order_by = CloneKeys(w.order_by);
    c.frame_mode = w.frame_mode;
    c.frame_start = WindowFrameBound{w.frame_start.kind, w.frame_start.offset ? w.frame_start.offset->Clone() : nullptr};
    c.frame_end = WindowFrameBound{w.frame_end.kind, w.frame_end.offset ? w.frame_end.offset->Clone() : nullptr};
    c.type = w.type;
    copy->windows.push_back(std::move(c));
  }
  copy->join_type = join_type;
  if (condition) copy->condition = condition->Clone();
  copy->order = CloneKeys(order);
  copy->limit = limit;
  copy->offset = offset;
  copy->set_op = set_op;
  copy->set_all = set_all;
  copy->ordinality = ordinality;
  copy->correlated = correlated;
  return copy;
}

std::string ExplainPlan(const LogicalOperator& plan, const ExplainAnnotator& annotate) {
  std::string out;
  Explain(plan, "", true, true, out, annotate);
  return out;
}

bool IsInnerJoin(const LogicalOperator& op) {
  return op.kind == LogicalKind::kJoin &&
         (op.join_type == LogicalJoinType::kInner || op.join_type == LogicalJoinType::kCross);
}

// Every expression slot of one node (not its children).
void ForEachExpression(LogicalOperator& op, const std::function<void(BoundExprPtr&)>& visit) {
  auto one = [&](BoundExprPtr& e) {
    if (e) visit(e);
  };
  one(op.predicate);
  one(op.condition);
  for (auto& e : op.expressions) one(e);
  for (auto& e : op.groups) one(e);
  for (auto& a : op.aggregates) {
    for (auto& e : a.args) one(e);
    one(a.filter);
    for (auto& k : a.order) one(k.expr);
  }
  for (auto& w : op.windows) {
    for (auto& e : w.args) one(e);
    one(w.filter);
    for (auto& e : w.partition_by) one(e);
    for (auto& k : w.order_by) one(k.expr);
    one(w.frame_start.offset);
    one(w.frame_end.offset);
  }
  for (auto& k : op.order) one(k.expr);
  for (auto& row : op.rows) {
    for (auto& e : row) one(e);
  }
  for (auto& e : op.pushed.residual) one(e);
}

void ForEachExpression(const LogicalOperator& op, const std::function<void(const BoundExpr&)>& visit) {
  // The mutable walk only hands out the slots; this visitor cannot change them.
  ForEachExpression(const_cast<LogicalOperator&>(op), [&](BoundExprPtr& e) { visit(*e); });
}

void ForEachSubquery(const BoundExpr& e, const std::function<void(const LogicalOperator&)>& visit) {
  if (e.kind == BoundKind::kSubquery && e.plan) visit(*e.plan);
  for (const auto& arg : e.args) ForEachSubquery(*arg, visit);
}

// The largest column id anywhere in a plan, subquery plans included: new ids start above it.
int32_t MaxColumnId(const LogicalOperator& op) {
  int32_t max = 0;
  for (const auto& c : op.output) max = std::max(max, c.id.value());
  for (const auto& c : op.scan_columns) max = std::max(max, c.id.value());
  ForEachExpression(const_cast<LogicalOperator&>(op), [&](BoundExprPtr& e) {
    std::vector<ColumnId> ids;
    e->CollectColumns(ids);
    for (ColumnId id : ids) max = std::max(max, id.value());
    ForEachSubquery(*e, [&](const LogicalOperator& plan) { max = std::max(max, MaxColumnId(plan)); });
  });
  for (const auto& child : op.children) max = std::max(max, MaxColumnId(*child));
  return max;
}

}  // namespace floe::sql
