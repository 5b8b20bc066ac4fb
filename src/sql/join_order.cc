// Join order by estimated size. Cardinalities come from the tables' row estimates and fixed
// selectivities (there are no column statistics at this level). A tree of inner and cross
// joins is flattened and rebuilt greedily: start from the smallest input, then repeatedly join
// the smallest input connected to what was joined so far; at each join the smaller side is
// the right (build) side.
#include <algorithm>
#include <set>

#include "sql/optimizer.h"

namespace floe::sql {
namespace {

constexpr double kUnknownTableRows = 1000;

double TermSelectivity(const ColumnPredicate& term) {
  switch (term.op) {
    case ColumnPredicate::Op::kEq: return 0.1;
    case ColumnPredicate::Op::kIn: return std::min(1.0, 0.1 * static_cast<double>(term.values.size()));
    case ColumnPredicate::Op::kIsNull: return 0.1;
    case ColumnPredicate::Op::kIsNotNull: return 0.9;
    case ColumnPredicate::Op::kNotEq: return 0.9;
    case ColumnPredicate::Op::kStartsWith: return 0.2;
    default: return 0.3;
  }
}

std::set<ColumnId> Refs(const BoundExpr& e) {
  std::vector<ColumnId> ids;
  e.CollectColumns(ids);
  return std::set<ColumnId>(ids.begin(), ids.end());
}

bool IsInnerJoin(const LogicalOperator& op) {
  return op.kind == LogicalKind::kJoin && (op.join_type == LogicalJoinType::kInner || op.join_type == LogicalJoinType::kCross);
}

void Flatten(LogicalPtr op, std::vector<LogicalPtr>& leaves, std::vector<BoundExprPtr>& terms) {
  if (IsInnerJoin(*op)) {
    SplitConjunction(std::move(op->condition), terms);
    Flatten(std::move(op->children[0]), leaves, terms);
    Flatten(std::move(op->children[1]), leaves, terms);
    return;
  }
  leaves.push_back(std::move(op));
}

LogicalPtr MakeJoin(LogicalPtr a, LogicalPtr b, std::vector<BoundExprPtr>& terms) {
  // The larger input probes (left); the smaller one is built into the hash table (right).
  if (a->estimated_rows < b->estimated_rows) std::swap(a, b);
  auto join = std::make_unique<LogicalOperator>(LogicalKind::kJoin);
  std::set<ColumnId> available;
  for (const auto& c : a->output) available.insert(c.id);
  for (const auto& c : b->output) available.insert(c.id);
  std::vector<BoundExprPtr> here, rest;
  for (auto& term : terms) {
    std::set<ColumnId> refs = Refs(*term);
    bool covered = std::all_of(refs.begin(), refs.end(), [&](ColumnId id) { return available.contains(id); });
    (covered ? here : rest).push_back(std::move(term));
  }
  terms = std::move(rest);
  join->condition = CombineConjunction(std::move(here));
  join->join_type = join->condition ? LogicalJoinType::kInner : LogicalJoinType::kCross;
  join->output = a->output;
  join->output.insert(join->output.end(), b->output.begin(), b->output.end());
  join->children.push_back(std::move(a));
  join->children.push_back(std::move(b));
  EstimateCardinality(*join);
  return join;
}

bool Connected(const LogicalOperator& a, const LogicalOperator& b, const std::vector<BoundExprPtr>& terms) {
  std::set<ColumnId> left, right;
  for (const auto& c : a.output) left.insert(c.id);
  for (const auto& c : b.output) right.insert(c.id);
  for (const auto& term : terms) {
    std::set<ColumnId> refs = Refs(*term);
    bool l = false, r = false;
    for (ColumnId id : refs) {
      l |= left.contains(id);
      r |= right.contains(id);
    }
    if (l && r) return true;
  }
  return false;
}

}  // namespace

void EstimateCardinality(LogicalOperator& op) {
  for (auto& child : op.children) EstimateCardinality(*child);
  auto child_rows = [&](size_t i) { return op.children.size() > i ? op.children[i]->estimated_rows : 1.0; };
  switch (op.kind) {
    case LogicalKind::kScan: {
      double rows = op.table && op.table->estimated_rows ? static_cast<double>(*op.table->estimated_rows) : kUnknownTableRows;
      if (!op.metadata_table.empty()) rows = 100;
      for (const auto& term : op.pushed.terms) rows *= TermSelectivity(term);
      for (size_t i = 0; i < op.pushed.residual.size(); ++i) rows *= 0.5;
      op.estimated_rows = std::max(1.0, rows);
      break;
    }
    case LogicalKind::kValues: op.estimated_rows = static_cast<double>(op.rows.size()); break;
    case LogicalKind::kEmpty: op.estimated_rows = 0; break;
    case LogicalKind::kFilter: op.estimated_rows = std::max(1.0, child_rows(0) * 0.5); break;
    case LogicalKind::kAggregate:
      op.estimated_rows = op.groups.empty() ? 1.0 : std::max(1.0, child_rows(0) * 0.1);
      break;
    case LogicalKind::kDistinct: op.estimated_rows = std::max(1.0, child_rows(0) * 0.5); break;
    case LogicalKind::kJoin: {
      double l = child_rows(0), r = child_rows(1);
      switch (op.join_type) {
        case LogicalJoinType::kCross: op.estimated_rows = l * r; break;
        case LogicalJoinType::kInner: op.estimated_rows = std::max(l, r); break;
        case LogicalJoinType::kLeft: op.estimated_rows = std::max(l, r); break;
        case LogicalJoinType::kRight: op.estimated_rows = std::max(l, r); break;
        case LogicalJoinType::kFull: op.estimated_rows = l + r; break;
        case LogicalJoinType::kSemi:
        case LogicalJoinType::kAnti: op.estimated_rows = l * 0.5; break;
      }
      break;
    }
    case LogicalKind::kLimit:
    case LogicalKind::kTopN:
      op.estimated_rows = op.limit ? std::min(child_rows(0), static_cast<double>(*op.limit)) : child_rows(0);
      break;
    case LogicalKind::kSetOp:
      op.estimated_rows = op.set_op == LogicalSetOp::kUnion ? child_rows(0) + child_rows(1)
                          : op.set_op == LogicalSetOp::kIntersect ? std::min(child_rows(0), child_rows(1)) : child_rows(0);
      break;
    default: op.estimated_rows = child_rows(0); break;
  }
}

LogicalPtr OrderJoins(LogicalPtr plan) {
  if (!IsInnerJoin(*plan)) {
    for (auto& child : plan->children) child = OrderJoins(std::move(child));
    EstimateCardinality(*plan);
    return plan;
  }
  std::vector<LogicalPtr> leaves;
  std::vector<BoundExprPtr> terms;
  std::vector<OutputColumn> output = plan->output;
  Flatten(std::move(plan), leaves, terms);
  for (auto& leaf : leaves) {
    leaf = OrderJoins(std::move(leaf));
    EstimateCardinality(*leaf);
  }
  auto smallest = [&](auto&& eligible) {
    size_t best = leaves.size();
    for (size_t i = 0; i < leaves.size(); ++i) {
      if (eligible(i) && (best == leaves.size() || leaves[i]->estimated_rows < leaves[best]->estimated_rows)) best = i;
    }
    return best;
  };
  size_t first = smallest([](size_t) { return true; });
  LogicalPtr current = std::move(leaves[first]);
  leaves.erase(leaves.begin() + static_cast<std::ptrdiff_t>(first));
  while (!leaves.empty()) {
    size_t next = smallest([&](size_t i) { return Connected(*current, *leaves[i], terms); });
    if (next == leaves.size()) next = smallest([](size_t) { return true; });
    LogicalPtr leaf = std::move(leaves[next]);
    leaves.erase(leaves.begin() + static_cast<std::ptrdiff_t>(next));
    current = MakeJoin(std::move(current), std::move(leaf), terms);
  }
  if (!terms.empty()) {
    // Terms that read no column of any input (constants left by folding) filter the result.
    auto filter = std::make_unique<LogicalOperator>(LogicalKind::kFilter);
    filter->output = current->output;
    filter->predicate = CombineConjunction(std::move(terms));
    filter->children.push_back(std::move(current));
    current = std::move(filter);
    EstimateCardinality(*current);
  }
  (void)output;  // Parents address columns by id, so the new column order is harmless.
  return current;
}

}  // namespace floe::sql
