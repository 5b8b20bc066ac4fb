#include "sql/planner/result_key.h"

#include <cctype>
#include <map>

namespace floe::sql {
namespace {

bool ResultReusable(const BoundExpr& e) {
  if (e.kind == BoundKind::kSubquery) return false;  // Printed as "(subquery)": its plan is not in the text.
  if (e.kind == BoundKind::kCall) {
    const std::string& name = e.As<BoundCall>().name;
    if (name == "random" || name == "rand" || name == "uuid") return false;
  }
  for (const auto& a : e.args) {
    if (!ResultReusable(*a)) return false;
  }
  return true;
}

bool ResultReusable(const LogicalOperator& op) {
  auto all = [](const std::vector<BoundExprPtr>& list) {
    for (const auto& e : list) {
      if (e && !ResultReusable(*e)) return false;
    }
    return true;
  };
  switch (op.kind) {
    case LogicalKind::kScan:
      if (!all(op.As<LogicalScan>().pushed.residual)) return false;
      break;
    case LogicalKind::kFilter: {
      const auto& predicate = op.As<LogicalFilter>().predicate;
      if (predicate && !ResultReusable(*predicate)) return false;
      break;
    }
    case LogicalKind::kProject:
      if (!all(op.As<LogicalProject>().expressions)) return false;
      break;
    case LogicalKind::kAggregate: {
      const auto& aggregate = op.As<LogicalAggregate>();
      if (!all(aggregate.groups)) return false;
      for (const AggregateCall& call : aggregate.aggregates) {
        if (!all(call.args) || (call.filter && !ResultReusable(*call.filter))) return false;
        for (const SortKey& key : call.order) {
          if (!ResultReusable(*key.expr)) return false;
        }
      }
      break;
    }
    case LogicalKind::kJoin: {
      const auto& condition = op.As<LogicalJoin>().condition;
      if (condition && !ResultReusable(*condition)) return false;
      break;
    }
    case LogicalKind::kDistinct:
      break;
    default:
      return false;
  }
  for (const auto& child : op.children) {
    if (!ResultReusable(*child)) return false;
  }
  return true;
}

// Renumbers "#<id>" column references in order of first appearance, leaving quoted text alone
// (a string constant is not a column), and drops the row estimates.
std::string Canonical(const std::string& text) {
  std::string out;
  std::map<std::string, int> ids;
  bool quoted = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '\'') quoted = !quoted;  // '' inside a literal toggles twice.
    if (!quoted && c == '#' && i + 1 < text.size() && std::isdigit(static_cast<unsigned char>(text[i + 1]))) {
      size_t end = i + 1;
      while (end < text.size() && std::isdigit(static_cast<unsigned char>(text[end]))) ++end;
      auto [it, added] = ids.emplace(text.substr(i + 1, end - i - 1), static_cast<int>(ids.size()));
      out += "#c";
      out += std::to_string(it->second);
      i = end - 1;
      continue;
    }
    if (!quoted && text.compare(i, 8, " rows\xE2\x89\x88") == 0) {  // " rows≈N"
      size_t end = i + 8;
      while (end < text.size() && (std::isdigit(static_cast<unsigned char>(text[end])) || text[end] == '.')) ++end;
      i = end - 1;
      continue;
    }
    out += c;
  }
  return out;
}

}  // namespace

std::optional<std::string> ReusableResultKey(const LogicalOperator& plan) {
  if (!ResultReusable(plan)) return std::nullopt;
  std::string text = ExplainPlan(plan, [](const LogicalOperator& op) {
    std::string types = " types:";
    for (const auto& c : op.output) {
      types += " ";
      types += c.type.ToString();
    }
    return types;
  });
  return Canonical(text);
}

}  // namespace floe::sql
