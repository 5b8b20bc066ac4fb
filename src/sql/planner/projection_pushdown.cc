// Projection pushdown: every node keeps only the columns something above it reads, so scans
// decode only the columns a query needs. The root keeps its full output.
#include <set>

#include "sql/planner/optimizer.h"

namespace floe::sql {
namespace {

void AddRefs(const BoundExpr* e, std::set<ColumnId>& out) {
  if (e == nullptr) return;
  std::vector<ColumnId> ids;
  e->CollectColumns(ids);
  out.insert(ids.begin(), ids.end());
}

void Prune(LogicalOperator& op, std::set<ColumnId> required, bool root) {
  switch (op.kind) {
    case LogicalKind::kScan: {
      auto& scan = op.As<LogicalScan>();
      for (const auto& e : scan.pushed.residual) AddRefs(e.get(), required);
      std::vector<ScanColumn> columns;
      std::vector<OutputColumn> output;
      // The executor applies the pushed terms again, so their columns are read too.
      auto in_terms = [&](const ScanColumn& c) {
        if (!scan.table || !scan.metadata_table.empty()) return false;
        for (const auto& term : scan.pushed.terms) {
          if (scan.table->ColumnAt(c.table_column).name == term.column) return true;
        }
        return false;
      };
      for (size_t i = 0; i < scan.scan_columns.size(); ++i) {
        if (root || required.contains(scan.scan_columns[i].id) || in_terms(scan.scan_columns[i])) {
          columns.push_back(scan.scan_columns[i]);
          output.push_back(op.output[i]);
        }
      }
      scan.scan_columns = std::move(columns);
      op.output = std::move(output);
      return;
    }
    case LogicalKind::kProject: {
      auto& project = op.As<LogicalProject>();
      if (!root) {
        std::vector<BoundExprPtr> expressions;
        std::vector<OutputColumn> output;
        for (size_t i = 0; i < project.expressions.size(); ++i) {
          if (required.contains(op.output[i].id)) {
            expressions.push_back(std::move(project.expressions[i]));
            output.push_back(op.output[i]);
          }
        }
        project.expressions = std::move(expressions);
        op.output = std::move(output);
      }
      std::set<ColumnId> below;
      for (const auto& e : project.expressions) AddRefs(e.get(), below);
      Prune(*op.children[0], below, false);
      return;
    }
    case LogicalKind::kFilter: {
      AddRefs(op.As<LogicalFilter>().predicate.get(), required);
      Prune(*op.children[0], required, false);
      op.output = op.children[0]->output;
      return;
    }
    case LogicalKind::kAggregate: {
      auto& aggregate = op.As<LogicalAggregate>();
      if (!root) {
        std::vector<AggregateCall> aggregates;
        std::vector<OutputColumn> output(op.output.begin(), op.output.begin() + aggregate.groups.size());
        for (size_t i = 0; i < aggregate.aggregates.size(); ++i) {
          if (required.contains(op.output[aggregate.groups.size() + i].id)) {
            aggregates.push_back(std::move(aggregate.aggregates[i]));
            output.push_back(op.output[aggregate.groups.size() + i]);
          }
        }
        aggregate.aggregates = std::move(aggregates);
        op.output = std::move(output);
      }
      std::set<ColumnId> below;
      for (const auto& g : aggregate.groups) AddRefs(g.get(), below);
      for (const auto& a : aggregate.aggregates) {
        for (const auto& e : a.args) AddRefs(e.get(), below);
        AddRefs(a.filter.get(), below);
        for (const auto& k : a.order) AddRefs(k.expr.get(), below);
      }
      Prune(*op.children[0], below, false);
      return;
    }
    case LogicalKind::kWindow: {
      auto& window = op.As<LogicalWindow>();
      size_t first = op.output.size() - window.windows.size();
      std::vector<WindowCall> windows;
      std::vector<OutputColumn> window_output;
      for (size_t i = 0; i < window.windows.size(); ++i) {
        if (root || required.contains(op.output[first + i].id)) {
          windows.push_back(std::move(window.windows[i]));
          window_output.push_back(op.output[first + i]);
        }
      }
      window.windows = std::move(windows);
      std::set<ColumnId> below = required;
      for (const auto& w : window.windows) {
        for (const auto& e : w.args) AddRefs(e.get(), below);
        AddRefs(w.filter.get(), below);
        for (const auto& e : w.partition_by) AddRefs(e.get(), below);
        for (const auto& k : w.order_by) AddRefs(k.expr.get(), below);
      }
      Prune(*op.children[0], below, false);
      op.output = op.children[0]->output;
      op.output.insert(op.output.end(), window_output.begin(), window_output.end());
      return;
    }
    case LogicalKind::kJoin: {
      auto& join = op.As<LogicalJoin>();
      AddRefs(join.condition.get(), required);
      Prune(*op.children[0], required, false);
      Prune(*op.children[1], required, false);
      // Semi and anti joins pass only their preserved side's rows on.
      switch (join.join_type) {
        case LogicalJoinType::kSemi:
        case LogicalJoinType::kAnti: op.output = op.children[0]->output; break;
        case LogicalJoinType::kRightSemi:
        case LogicalJoinType::kRightAnti: op.output = op.children[1]->output; break;
        default:
          op.output = op.children[0]->output;
          op.output.insert(op.output.end(), op.children[1]->output.begin(), op.children[1]->output.end());
      }
      return;
    }
    case LogicalKind::kUnnest: {
      auto& unnest = op.As<LogicalUnnest>();
      // The input keeps what is read above and what the arrays are computed from; the element
      // columns all stay (the operator makes each of them).
      size_t elements = op.output.size() - op.children[0]->output.size();
      std::vector<OutputColumn> element_output(op.output.end() - static_cast<std::ptrdiff_t>(elements),
                                               op.output.end());
      for (const auto& e : unnest.expressions) AddRefs(e.get(), required);
      Prune(*op.children[0], required, false);
      op.output = op.children[0]->output;
      op.output.insert(op.output.end(), element_output.begin(), element_output.end());
      return;
    }
    case LogicalKind::kLateralJoin: {
      auto& lateral = op.As<LogicalLateralJoin>();
      // The left side also keeps the columns the right side reads per row.
      std::set<ColumnId> left = required;
      left.insert(lateral.correlated.begin(), lateral.correlated.end());
      Prune(*op.children[0], left, false);
      Prune(*op.children[1], required, false);
      op.output = op.children[0]->output;
      op.output.insert(op.output.end(), op.children[1]->output.begin(), op.children[1]->output.end());
      return;
    }
    case LogicalKind::kSort:
    case LogicalKind::kTopN:
    case LogicalKind::kLimit: {
      if (op.kind != LogicalKind::kLimit) {
        const auto& order = op.kind == LogicalKind::kSort ? op.As<LogicalSort>().order : op.As<LogicalTopN>().order;
        for (const auto& k : order) AddRefs(k.expr.get(), required);
      }
      Prune(*op.children[0], required, root);
      op.output = op.children[0]->output;
      return;
    }
    case LogicalKind::kDistinct:
    case LogicalKind::kSetOp: {
      // Every column takes part in equality: children keep all of theirs.
      for (auto& child : op.children) {
        std::set<ColumnId> all;
        for (const auto& c : child->output) all.insert(c.id);
        Prune(*child, all, false);
      }
      if (op.kind == LogicalKind::kDistinct) op.output = op.children[0]->output;
      return;
    }
    default:
      for (auto& child : op.children) {
        std::set<ColumnId> all;
        for (const auto& c : child->output) all.insert(c.id);
        Prune(*child, all, false);
      }
      return;
  }
}

}  // namespace

LogicalPtr PushDownProjections(LogicalPtr plan) {
  std::set<ColumnId> all;
  for (const auto& c : plan->output) all.insert(c.id);
  Prune(*plan, all, true);
  return plan;
}

}  // namespace floe::sql
