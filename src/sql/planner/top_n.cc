// Top-N: LIMIT n over ORDER BY becomes one TopN node, which keeps only the best n + offset
// rows in a heap instead of sorting everything.
#include "sql/planner/optimizer.h"

namespace floe::sql {

LogicalPtr IntroduceTopN(LogicalPtr plan) {
  for (auto& child : plan->children) child = IntroduceTopN(std::move(child));
  if (plan->kind != LogicalKind::kLimit || plan->children[0]->kind != LogicalKind::kSort) return plan;
  auto& limit = plan->As<LogicalLimit>();
  if (!limit.limit.has_value()) return plan;
  LogicalPtr sort = std::move(limit.children[0]);
  auto top = std::make_unique<LogicalTopN>();
  top->order = std::move(sort->As<LogicalSort>().order);
  top->limit = limit.limit;
  top->offset = limit.offset;
  top->output = limit.output;
  top->children.push_back(std::move(sort->children[0]));
  return top;
}

}  // namespace floe::sql
