#include "sql/planner/logical_plan.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

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
std::string GlobalSetsText(const LogicalAggregate& op) {
  return fmt::format("{}", fmt::join(op.global_grouping_sets, ", "));
}

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

std::string OutputNames(const std::vector<OutputColumn>& output, size_t from = 0) {
  std::string columns;
  for (size_t i = from; i < output.size(); ++i) columns += (i > from ? ", " : "") + OutputName(output[i]);
  return columns;
}

std::string LimitText(const std::optional<int64_t>& limit, int64_t offset) {
  return fmt::format("{}{}", limit ? std::to_string(*limit) : "ALL",
                     offset > 0 ? fmt::format(" offset {}", offset) : "");
}

std::string Describe(const LogicalOperator& op) {
  std::string rows = op.estimated_rows >= 0 ? fmt::format(" rows≈{:.0f}", op.estimated_rows) : "";
  switch (op.kind) {
    case LogicalKind::kScan: {
      const auto& scan = op.As<LogicalScan>();
      std::string what = scan.table->name.ToString();
      if (!scan.metadata_table.empty()) what += "$" + scan.metadata_table;
      std::string out = fmt::format("Scan {} [{}]", what, OutputNames(scan.output));
      if (scan.version.kind != TableVersion::Kind::kCurrent) out += " version: " + scan.version.ToString();
      if (!scan.pushed.terms.empty()) {
        std::string terms;
        for (const auto& t : scan.pushed.terms) terms += (terms.empty() ? "" : " AND ") + t.ToString();
        out += " prune: " + terms;
      }
      if (!scan.pushed.residual.empty()) out += " filter: " + ExprList(scan.pushed.residual);
      return out + rows;
    }
    case LogicalKind::kValues: {
      const auto& values = op.As<LogicalValues>();
      size_t count = values.rows.size();
      return fmt::format("Values {} row{} [{}]", count, count == 1 ? "" : "s", OutputNames(values.output)) + rows;
    }
    case LogicalKind::kFilter:
      return "Filter " + op.As<LogicalFilter>().predicate->ToString() + rows;
    case LogicalKind::kProject: {
      const auto& project = op.As<LogicalProject>();
      std::string items;
      for (size_t i = 0; i < project.expressions.size(); ++i) {
        if (i > 0) items += ", ";
        std::string expr = project.expressions[i]->ToString();
        std::string name = OutputName(project.output[i]);
        items += expr == name ? name : name + " := " + expr;
      }
      return "Project [" + items + "]" + rows;
    }
    case LogicalKind::kAggregate: {
      const auto& aggregate = op.As<LogicalAggregate>();
      const auto& groups = aggregate.groups;
      std::string items;
      for (size_t i = 0; i < groups.size(); ++i) {
        items += (i > 0 ? ", " : "") + OutputName(aggregate.output[i]) + " := " + groups[i]->ToString();
      }
      std::string aggregates;
      for (size_t i = 0; i < aggregate.aggregates.size(); ++i) {
        aggregates += (i > 0 ? ", " : "") + OutputName(aggregate.output[groups.size() + i]) +
                      " := " + aggregate.aggregates[i].ToString();
      }
      std::string global;
      if (!GlobalSetsText(aggregate).empty()) global = " global sets: [" + GlobalSetsText(aggregate) + "]";
      return fmt::format("Aggregate group: [{}] aggregates: [{}]{}", items, aggregates, global) + rows;
    }
    case LogicalKind::kWindow: {
      const auto& window = op.As<LogicalWindow>();
      std::string items;
      size_t first = window.output.size() - window.windows.size();
      for (size_t i = 0; i < window.windows.size(); ++i) {
        items += (i > 0 ? ", " : "") + OutputName(window.output[first + i]) + " := " + window.windows[i].ToString();
      }
      return "Window [" + items + "]" + rows;
    }
    case LogicalKind::kJoin: {
      const auto& join = op.As<LogicalJoin>();
      return fmt::format("Join {}{}", JoinName(join.join_type),
                         join.condition ? " ON " + join.condition->ToString() : "") +
             rows;
    }
    case LogicalKind::kSort:
      return "Sort [" + KeysToString(op.As<LogicalSort>().order) + "]" + rows;
    case LogicalKind::kLimit: {
      const auto& limit = op.As<LogicalLimit>();
      return "Limit " + LimitText(limit.limit, limit.offset) + rows;
    }
    case LogicalKind::kTopN: {
      const auto& top = op.As<LogicalTopN>();
      return fmt::format("TopN {} [{}]", LimitText(top.limit, top.offset), KeysToString(top.order)) + rows;
    }
    case LogicalKind::kDistinct:
      return "Distinct" + rows;
    case LogicalKind::kSetOp: {
      const auto& set_op = op.As<LogicalSetOp>();
      const char* name = set_op.set_op == LogicalSetOpType::kUnion       ? "Union"
                         : set_op.set_op == LogicalSetOpType::kIntersect ? "Intersect"
                                                                         : "Except";
      return fmt::format("{}{} [{}]", name, set_op.set_all ? " ALL" : "", OutputNames(set_op.output)) + rows;
    }
    case LogicalKind::kEmpty:
      return "Empty";
    case LogicalKind::kRecursiveCte: {
      const auto& cte = op.As<LogicalRecursiveCte>();
      return fmt::format("RecursiveCte {}{} [{}]", cte.working_table, cte.set_all ? " ALL" : "",
                         OutputNames(cte.output)) +
             rows;
    }
    case LogicalKind::kWorkingTable: {
      const auto& working = op.As<LogicalWorkingTable>();
      return fmt::format("WorkingTable {} [{}]", working.working_table, OutputNames(working.output)) + rows;
    }
    case LogicalKind::kLateralJoin: {
      const auto& lateral = op.As<LogicalLateralJoin>();
      std::string columns;
      for (ColumnId id : lateral.correlated) columns += fmt::format("{}#{}", columns.empty() ? "" : ", ", id.value());
      return fmt::format("LateralJoin {} correlated: [{}]", JoinName(lateral.join_type), columns) + rows;
    }
    case LogicalKind::kUnnest: {
      const auto& unnest = op.As<LogicalUnnest>();
      return fmt::format("Unnest{} [{}] [{}]{}", unnest.join_type == LogicalJoinType::kLeft ? " LEFT" : "",
                         ExprList(unnest.expressions), OutputNames(unnest.output, unnest.children[0]->output.size()),
                         unnest.ordinality ? " WITH ORDINALITY" : "") +
             rows;
    }
  }
  return "?";
}

// The expressions whose subqueries EXPLAIN shows under their node.
void ForEachExplainedExpression(const LogicalOperator& op, const std::function<void(const BoundExpr&)>& visit) {
  switch (op.kind) {
    case LogicalKind::kFilter:
      if (const auto& predicate = op.As<LogicalFilter>().predicate) visit(*predicate);
      break;
    case LogicalKind::kJoin:
      if (const auto& condition = op.As<LogicalJoin>().condition) visit(*condition);
      break;
    case LogicalKind::kProject:
      for (const auto& e : op.As<LogicalProject>().expressions) visit(*e);
      break;
    case LogicalKind::kUnnest:
      for (const auto& e : op.As<LogicalUnnest>().expressions) visit(*e);
      break;
    case LogicalKind::kScan:
      for (const auto& e : op.As<LogicalScan>().pushed.residual) visit(*e);
      break;
    default:
      break;
  }
}

void Explain(const LogicalOperator& op, const std::string& prefix, bool last, bool root, std::string& out,
             const ExplainAnnotator& annotate) {
  out += root ? "" : prefix + (last ? "└─ " : "├─ ");
  out += Describe(op);
  if (annotate) out += annotate(op);
  out += "\n";
  std::string child_prefix = root ? "" : prefix + (last ? "   " : "│  ");
  // Subqueries inside expressions are shown under the node that evaluates them.
  std::vector<const BoundSubquery*> subqueries;
  auto collect = [&](const BoundExpr& e, auto&& self) -> void {
    if (e.kind == BoundKind::kSubquery) subqueries.push_back(&e.As<BoundSubquery>());
    for (const auto& a : e.args) self(*a, self);
  };
  ForEachExplainedExpression(op, [&](const BoundExpr& e) { collect(e, collect); });
  size_t total = op.children.size() + subqueries.size();
  size_t index = 0;
  for (const BoundSubquery* sub : subqueries) {
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
  if (e->kind != BoundKind::kCall || e->As<BoundCall>().name != "eq" || e->args.size() != 2) return;
  if (e->args[0]->kind != BoundKind::kColumn || e->args[1]->kind != BoundKind::kColumn) return;
  ColumnId a = e->args[0]->As<BoundColumnRef>().column, b = e->args[1]->As<BoundColumnRef>().column;
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

namespace {

AggregateCall CloneCall(const AggregateCall& a) {
  return AggregateCall{
      a.function, CloneAll(a.args), a.star, a.distinct, a.filter ? a.filter->Clone() : nullptr, CloneKeys(a.order),
      a.type};
}

WindowCall CloneCall(const WindowCall& w) {
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
  return c;
}

// A new node of `op`'s kind with copies of its kind's fields (not the common ones).
LogicalPtr ClonePayload(const LogicalOperator& op) {
  switch (op.kind) {
    case LogicalKind::kScan: {
      const auto& from = op.As<LogicalScan>();
      auto copy = std::make_unique<LogicalScan>();
      copy->table = from.table;
      copy->metadata_table = from.metadata_table;
      copy->version = from.version;
      copy->scan_columns = from.scan_columns;
      copy->pushed.terms = from.pushed.terms;
      copy->pushed.residual = CloneAll(from.pushed.residual);
      return copy;
    }
    case LogicalKind::kValues: {
      const auto& from = op.As<LogicalValues>();
      auto copy = std::make_unique<LogicalValues>();
      for (const auto& row : from.rows) copy->rows.push_back(CloneAll(row));
      copy->virtual_table = from.virtual_table;
      return copy;
    }
    case LogicalKind::kFilter: {
      const auto& from = op.As<LogicalFilter>();
      auto copy = std::make_unique<LogicalFilter>();
      if (from.predicate) copy->predicate = from.predicate->Clone();
      return copy;
    }
    case LogicalKind::kProject: {
      auto copy = std::make_unique<LogicalProject>();
      copy->expressions = CloneAll(op.As<LogicalProject>().expressions);
      return copy;
    }
    case LogicalKind::kAggregate: {
      const auto& from = op.As<LogicalAggregate>();
      auto copy = std::make_unique<LogicalAggregate>();
      copy->groups = CloneAll(from.groups);
      for (const auto& a : from.aggregates) copy->aggregates.push_back(CloneCall(a));
      copy->global_grouping_sets = from.global_grouping_sets;
      return copy;
    }
    case LogicalKind::kWindow: {
      auto copy = std::make_unique<LogicalWindow>();
      for (const auto& w : op.As<LogicalWindow>().windows) copy->windows.push_back(CloneCall(w));
      return copy;
    }
    case LogicalKind::kJoin: {
      const auto& from = op.As<LogicalJoin>();
      auto copy = std::make_unique<LogicalJoin>();
      copy->join_type = from.join_type;
      if (from.condition) copy->condition = from.condition->Clone();
      return copy;
    }
    case LogicalKind::kSort: {
      auto copy = std::make_unique<LogicalSort>();
      copy->order = CloneKeys(op.As<LogicalSort>().order);
      return copy;
    }
    case LogicalKind::kLimit: {
      const auto& from = op.As<LogicalLimit>();
      auto copy = std::make_unique<LogicalLimit>();
      copy->limit = from.limit;
      copy->offset = from.offset;
      return copy;
    }
    case LogicalKind::kTopN: {
      const auto& from = op.As<LogicalTopN>();
      auto copy = std::make_unique<LogicalTopN>();
      copy->order = CloneKeys(from.order);
      copy->limit = from.limit;
      copy->offset = from.offset;
      return copy;
    }
    case LogicalKind::kDistinct:
      return std::make_unique<LogicalDistinct>();
    case LogicalKind::kSetOp: {
      const auto& from = op.As<LogicalSetOp>();
      auto copy = std::make_unique<LogicalSetOp>();
      copy->set_op = from.set_op;
      copy->set_all = from.set_all;
      return copy;
    }
    case LogicalKind::kEmpty:
      return std::make_unique<LogicalEmpty>();
    case LogicalKind::kUnnest: {
      const auto& from = op.As<LogicalUnnest>();
      auto copy = std::make_unique<LogicalUnnest>();
      copy->expressions = CloneAll(from.expressions);
      copy->ordinality = from.ordinality;
      copy->join_type = from.join_type;
      return copy;
    }
    case LogicalKind::kRecursiveCte: {
      const auto& from = op.As<LogicalRecursiveCte>();
      auto copy = std::make_unique<LogicalRecursiveCte>();
      copy->set_all = from.set_all;
      copy->working_table = from.working_table;
      return copy;
    }
    case LogicalKind::kWorkingTable: {
      auto copy = std::make_unique<LogicalWorkingTable>();
      copy->working_table = op.As<LogicalWorkingTable>().working_table;
      return copy;
    }
    case LogicalKind::kLateralJoin: {
      const auto& from = op.As<LogicalLateralJoin>();
      auto copy = std::make_unique<LogicalLateralJoin>();
      copy->join_type = from.join_type;
      copy->correlated = from.correlated;
      return copy;
    }
  }
  std::abort();  // Every kind is handled above.
}

}  // namespace

LogicalPtr LogicalOperator::Clone() const {
  LogicalPtr copy = ClonePayload(*this);
  for (const auto& child : children) copy->children.push_back(child->Clone());
  copy->output = output;
  copy->estimated_rows = estimated_rows;
  return copy;
}

const char* LogicalKindName(LogicalKind kind) {
  switch (kind) {
    case LogicalKind::kScan:
      return "Scan";
    case LogicalKind::kValues:
      return "Values";
    case LogicalKind::kFilter:
      return "Filter";
    case LogicalKind::kProject:
      return "Project";
    case LogicalKind::kAggregate:
      return "Aggregate";
    case LogicalKind::kWindow:
      return "Window";
    case LogicalKind::kJoin:
      return "Join";
    case LogicalKind::kSort:
      return "Sort";
    case LogicalKind::kLimit:
      return "Limit";
    case LogicalKind::kTopN:
      return "TopN";
    case LogicalKind::kDistinct:
      return "Distinct";
    case LogicalKind::kSetOp:
      return "SetOp";
    case LogicalKind::kEmpty:
      return "Empty";
    case LogicalKind::kUnnest:
      return "Unnest";
    case LogicalKind::kRecursiveCte:
      return "RecursiveCte";
    case LogicalKind::kWorkingTable:
      return "WorkingTable";
    case LogicalKind::kLateralJoin:
      return "LateralJoin";
  }
  return "?";
}

void LogicalOperator::KindMismatch(LogicalKind wanted) const {
  std::fprintf(stderr, "floe: a %s plan node was read as a %s node\n", LogicalKindName(kind), LogicalKindName(wanted));
  std::abort();
}

std::string ExplainPlan(const LogicalOperator& plan, const ExplainAnnotator& annotate) {
  std::string out;
  Explain(plan, "", true, true, out, annotate);
  return out;
}

bool IsInnerJoin(const LogicalOperator& op) {
  if (op.kind != LogicalKind::kJoin) return false;
  LogicalJoinType type = op.As<LogicalJoin>().join_type;
  return type == LogicalJoinType::kInner || type == LogicalJoinType::kCross;
}

// Every expression slot of one node (not its children).
void ForEachExpression(LogicalOperator& op, const std::function<void(BoundExprPtr&)>& visit) {
  auto one = [&](BoundExprPtr& e) {
    if (e) visit(e);
  };
  switch (op.kind) {
    case LogicalKind::kScan:
      for (auto& e : op.As<LogicalScan>().pushed.residual) one(e);
      break;
    case LogicalKind::kValues:
      for (auto& row : op.As<LogicalValues>().rows) {
        for (auto& e : row) one(e);
      }
      break;
    case LogicalKind::kFilter:
      one(op.As<LogicalFilter>().predicate);
      break;
    case LogicalKind::kProject:
      for (auto& e : op.As<LogicalProject>().expressions) one(e);
      break;
    case LogicalKind::kAggregate: {
      auto& aggregate = op.As<LogicalAggregate>();
      for (auto& e : aggregate.groups) one(e);
      for (auto& a : aggregate.aggregates) {
        for (auto& e : a.args) one(e);
        one(a.filter);
        for (auto& k : a.order) one(k.expr);
      }
      break;
    }
    case LogicalKind::kWindow:
      for (auto& w : op.As<LogicalWindow>().windows) {
        for (auto& e : w.args) one(e);
        one(w.filter);
        for (auto& e : w.partition_by) one(e);
        for (auto& k : w.order_by) one(k.expr);
        one(w.frame_start.offset);
        one(w.frame_end.offset);
      }
      break;
    case LogicalKind::kJoin:
      one(op.As<LogicalJoin>().condition);
      break;
    case LogicalKind::kSort:
      for (auto& k : op.As<LogicalSort>().order) one(k.expr);
      break;
    case LogicalKind::kTopN:
      for (auto& k : op.As<LogicalTopN>().order) one(k.expr);
      break;
    case LogicalKind::kUnnest:
      for (auto& e : op.As<LogicalUnnest>().expressions) one(e);
      break;
    case LogicalKind::kLimit:
    case LogicalKind::kDistinct:
    case LogicalKind::kSetOp:
    case LogicalKind::kEmpty:
    case LogicalKind::kRecursiveCte:
    case LogicalKind::kWorkingTable:
    case LogicalKind::kLateralJoin:
      break;
  }
}

void ForEachExpression(const LogicalOperator& op, const std::function<void(const BoundExpr&)>& visit) {
  // The mutable walk only hands out the slots; this visitor cannot change them.
  ForEachExpression(const_cast<LogicalOperator&>(op), [&](BoundExprPtr& e) { visit(*e); });
}

void ForEachSubquery(const BoundExpr& e, const std::function<void(const LogicalOperator&)>& visit) {
  if (e.kind == BoundKind::kSubquery && e.As<BoundSubquery>().plan) visit(*e.As<BoundSubquery>().plan);
  for (const auto& arg : e.args) ForEachSubquery(*arg, visit);
}

// The largest column id anywhere in a plan, subquery plans included: new ids start above it.
int32_t MaxColumnId(const LogicalOperator& op) {
  int32_t max = 0;
  for (const auto& c : op.output) max = std::max(max, c.id.value());
  if (op.kind == LogicalKind::kScan) {
    for (const auto& c : op.As<LogicalScan>().scan_columns) max = std::max(max, c.id.value());
  }
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
