// Top-N: LIMIT n over ORDER BY becomes one TopN node, which keeps only the best n + offset
// rows in a heap instead of sorting everything.
#include "sql/planner/optimizer.h"

namespace floe::sql {

LogicalPtr IntroduceTopN(LogicalPtr plan) {
  for (auto& child : plan->children) child = IntroduceTopN(std::move(child));
  if (plan->kind == LogicalKind::kLimit && plan->limit.has_value() && plan->children[0]->kind == LogicalKind::kSort) {
    LogicalPtr sort = std::move(plan->children[0]);
    auto top = std::make_unique<LogicalOperator>(LogicalKind::kTopN);
    top->order = std::move(sort->order);
    top->limit = plan->limit;
    top->offset = plan->offset;
    top->output = plan->output;
    top->children.push_back(std::move(sort->children[0]));
    return top;
  }
  return plan;
}

}  // namespace floe::sql
