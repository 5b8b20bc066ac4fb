// Common subexpressions of an aggregation's arguments are computed once per row: a projection
// below the aggregate computes each as a new column, and the arguments read that column.
// TPC-H Q1 sums l_extendedprice * (1 - l_discount) both alone and times (1 + l_tax).
//
// Only arithmetic and casts are shared, and only where they are evaluated for every row of the
// aggregate's input (an aggregate evaluates its arguments over all rows, FILTER masks after):
// the projection evaluates them over exactly those rows, so an error (division by zero,
// overflow) is raised exactly when it would have been. A CASE branch is evaluated only for
// some rows, so nothing inside a CASE (or any other form) is shared.
#include <algorithm>

#include "sql/planner/optimizer.h"

namespace floe::sql {
namespace {

bool WorthSharing(const BoundExpr& e) {
  if (e.kind == BoundKind::kCast) return !e.As<BoundCast>().try_cast;
  if (e.kind != BoundKind::kCall) return false;
  static const char* kArithmetic[] = {"add", "subtract", "multiply", "divide", "modulus", "negate"};
  const std::string& name = e.As<BoundCall>().name;
  return std::any_of(std::begin(kArithmetic), std::end(kArithmetic), [&](const char* n) { return name == n; });
}

int Size(const BoundExpr& e) {
  int n = 1;
  for (const auto& a : e.args) n += Size(*a);
  return n;
}

// Appends the shareable subexpressions reachable from `e` through shareable nodes only.
void CollectShareable(BoundExpr& e, std::vector<BoundExpr*>& out) {
  if (!WorthSharing(e)) return;
  out.push_back(&e);
  for (auto& a : e.args) CollectShareable(*a, out);
}

// Replaces every occurrence of `common` reachable through shareable nodes by `column`.
void Replace(BoundExprPtr& e, const BoundExpr& common, const BoundExpr& column) {
  if (!WorthSharing(*e)) return;
  if (e->Equals(common)) {
    e = column.Clone();
    return;
  }
  for (auto& a : e->args) Replace(a, common, column);
}

class Extractor {
 public:
  explicit Extractor(int32_t max_id) : next_id_(max_id + 1) {}

  void Visit(LogicalPtr& op) {
    for (auto& child : op->children) Visit(child);
    if (op->kind == LogicalKind::kAggregate) ExtractFromAggregate(op->As<LogicalAggregate>());
  }

 private:
  // The argument slots that are evaluated over every input row.
  static std::vector<BoundExprPtr*> ArgumentSlots(LogicalAggregate& aggregate) {
    std::vector<BoundExprPtr*> slots;
    for (auto& call : aggregate.aggregates) {
      if (call.distinct || !call.order.empty()) continue;
      for (auto& a : call.args) slots.push_back(&a);
    }
    return slots;
  }

  void ExtractFromAggregate(LogicalAggregate& aggregate) {
    std::vector<OutputColumn> extracted;
    std::vector<BoundExprPtr> computed;
    while (true) {
      std::vector<BoundExpr*> candidates;
      for (BoundExprPtr* slot : ArgumentSlots(aggregate)) CollectShareable(**slot, candidates);
      // The largest expression that occurs at least twice; its parts go with it.
      BoundExpr* best = nullptr;
      int best_size = 0;
      for (size_t i = 0; i < candidates.size(); ++i) {
        int size = Size(*candidates[i]);
        if (size <= best_size) continue;
        for (size_t j = i + 1; j < candidates.size(); ++j) {
          if (candidates[i]->Equals(*candidates[j])) {
            best = candidates[i];
            best_size = size;
            break;
          }
        }
      }
      if (best == nullptr) break;
      OutputColumn column{ColumnId(next_id_++), "$common", best->type};
      BoundExprPtr common = best->Clone();
      BoundExprPtr reference = MakeColumn(column.id, column.type, column.name);
      for (BoundExprPtr* slot : ArgumentSlots(aggregate)) Replace(*slot, *common, *reference);
      extracted.push_back(column);
      computed.push_back(std::move(common));
    }
    if (computed.empty()) return;
    // Child columns pass through (without a copy), then the shared values.
    auto project = std::make_unique<LogicalProject>();
    for (const OutputColumn& c : aggregate.children[0]->output) {
      project->expressions.push_back(MakeColumn(c.id, c.type, c.name));
      project->output.push_back(c);
    }
    for (size_t i = 0; i < computed.size(); ++i) {
      project->expressions.push_back(std::move(computed[i]));
      project->output.push_back(extracted[i]);
    }
    project->children.push_back(std::move(aggregate.children[0]));
    aggregate.children[0] = std::move(project);
  }

  int32_t next_id_;
};

}  // namespace

LogicalPtr ExtractCommonSubexpressions(LogicalPtr plan) {
  Extractor extractor(MaxColumnId(*plan));
  extractor.Visit(plan);
  return plan;
}

}  // namespace floe::sql
