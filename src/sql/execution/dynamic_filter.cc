#include "sql/execution/dynamic_filter.h"

#include <set>

#include <fmt/format.h>

#include "sql/planner/logical_plan.h"
#include "sql/execution/physical_operator.h"

namespace floe::sql {
namespace {

// Build sides with at most this many distinct keys also publish them as a set, which the
// probe's scan applies to each row (a range alone rarely excludes rows of spread-out keys).
constexpr size_t kMaxSetValues = 4096;

// Types whose values are int64 in vectors and whose order is the values' order.
bool RangeFilterable(const SqlType& type) { return type.IsInteger() || type.kind() == TypeKind::kDate; }

int Position(const std::vector<OutputColumn>& columns, ColumnId id) {
  for (size_t i = 0; i < columns.size(); ++i) {
    if (columns[i].id == id) return static_cast<int>(i);
  }
  return -1;
}

// The scan whose column `id` flows unchanged into `node`'s output, through filters, column
// projections and the sides of joins that keep their rows' values (never the null-padded side
// of an outer join, whose rows a filter would turn into padding). Null when there is none.
const LogicalScan* ProducingScan(const LogicalOperator& node, ColumnId id, int* table_column) {
  switch (node.kind) {
    case LogicalKind::kScan: {
      const auto& scan = node.As<LogicalScan>();
      if (!scan.metadata_table.empty()) return nullptr;
      for (const ScanColumn& c : scan.scan_columns) {
        if (c.id == id) {
          *table_column = c.table_column;
          return &scan;
        }
      }
      return nullptr;
    }
    case LogicalKind::kFilter: return ProducingScan(*node.children[0], id, table_column);
    case LogicalKind::kAggregate: {
      // A group key: filtering the input by it removes whole groups, which the join drops anyway.
      const auto& groups = node.As<LogicalAggregate>().groups;
      for (size_t i = 0; i < groups.size(); ++i) {
        if (node.output[i].id == id) {
          const BoundExpr& e = *groups[i];
          if (e.kind != BoundKind::kColumn) return nullptr;
          return ProducingScan(*node.children[0], e.As<BoundColumnRef>().column, table_column);
        }
      }
      return nullptr;
    }
    case LogicalKind::kProject: {
      const auto& expressions = node.As<LogicalProject>().expressions;
      for (size_t i = 0; i < expressions.size(); ++i) {
        if (node.output[i].id == id) {
          const BoundExpr& e = *expressions[i];
          if (e.kind != BoundKind::kColumn) return nullptr;
          return ProducingScan(*node.children[0], e.As<BoundColumnRef>().column, table_column);
        }
      }
      return nullptr;
    }
    case LogicalKind::kJoin: {
      LogicalJoinType type = node.As<LogicalJoin>().join_type;
      bool left_ok = type == LogicalJoinType::kInner || type == LogicalJoinType::kCross ||
                     type == LogicalJoinType::kSemi || type == LogicalJoinType::kAnti;
      bool right_ok = type == LogicalJoinType::kInner || type == LogicalJoinType::kCross ||
                      type == LogicalJoinType::kRightSemi || type == LogicalJoinType::kRightAnti;
      if (left_ok && Position(node.children[0]->output, id) >= 0) return ProducingScan(*node.children[0], id, table_column);
      if (right_ok && Position(node.children[1]->output, id) >= 0) return ProducingScan(*node.children[1], id, table_column);
      return nullptr;
    }
    default: return nullptr;
  }
}

}  // namespace

void DynamicFilters::Publish(const LogicalJoin& join, const Materialized& build) {
  if (!join.condition || !DropsUnmatchedProbeRows(join.join_type)) return;
  const auto& probe = join.children[0]->output;
  const auto& built = join.children[1]->output;
  std::map<const LogicalOperator*, std::vector<ColumnPredicate>> found;
  for (auto [a, b] : ColumnEqualities(join.condition.get(), *join.children[0], *join.children[1])) {
    int probe_at = Position(probe, a), build_at = Position(built, b);
    const SqlType& type = built[static_cast<size_t>(build_at)].type;
    if (!RangeFilterable(type) || !(probe[static_cast<size_t>(probe_at)].type == type)) continue;
    bool any = false;
    int64_t low = 0, high = 0;
    std::set<int64_t> distinct;  // Kept while small: then the exact set filters rows too.
    for (const DataChunk& chunk : build.chunks) {
      const ColumnVector& v = *chunk.columns[static_cast<size_t>(build_at)];
      const int64_t* values = v.Data<int64_t>();
      for (int64_t i = 0; i < chunk.rows; ++i) {
        if (!v.IsValid(i)) continue;
        low = any ? std::min(low, values[i]) : values[i];
        high = any ? std::max(high, values[i]) : values[i];
        any = true;
        if (distinct.size() <= kMaxSetValues) distinct.insert(values[i]);
      }
    }
    if (!any) continue;  // An empty build side: the join itself ends quickly.
    int table_column = 0;
    const LogicalScan* scan = ProducingScan(*join.children[0], a, &table_column);
    // A metadata column (_pos, _row_id, ...) is no column of the files: no statistics to prune by.
    if (scan == nullptr || !scan->table || scan->table->IsMetadataColumn(table_column)) continue;
    const TableColumn& column = scan->table->columns[static_cast<size_t>(table_column)];
    ColumnPredicate lower{column.name, column.field_id, ColumnPredicate::Op::kGtEq, {Value::Int(type, low)}};
    ColumnPredicate upper{column.name, column.field_id, ColumnPredicate::Op::kLtEq, {Value::Int(type, high)}};
    lower.advisory = upper.advisory = true;
    found[scan].push_back(std::move(lower));
    found[scan].push_back(std::move(upper));
    if (distinct.size() <= kMaxSetValues) {
      ColumnPredicate in{column.name, column.field_id, ColumnPredicate::Op::kIn, {}};
      in.advisory = true;
      for (int64_t v : distinct) in.values.push_back(Value::Int(type, v));
      found[scan].push_back(std::move(in));
    }
  }
  std::lock_guard lock(mutex_);
  for (auto& [scan, by_join] : terms_) {
    if (by_join.erase(&join) > 0) current_.erase(scan);
  }
  for (auto& [scan, published] : found) {
    terms_[scan][&join] = std::move(published);
    current_.erase(scan);
  }
}

const ScanPredicate* DynamicFilters::PredicateFor(const LogicalScan& scan) {
  std::lock_guard lock(mutex_);
  auto it = terms_.find(&scan);
  if (it == terms_.end() || it->second.empty()) return &scan.pushed;
  if (auto made = current_.find(&scan); made != current_.end()) return made->second;
  ScanPredicate& combined = combined_.emplace_back();
  combined.terms = scan.pushed.terms;
  for (const auto& e : scan.pushed.residual) combined.residual.push_back(e->Clone());
  for (const auto& [join, terms] : it->second) combined.terms.insert(combined.terms.end(), terms.begin(), terms.end());
  current_[&scan] = &combined;
  return &combined;
}

std::string DynamicFilters::Describe(const LogicalOperator& scan) const {
  std::lock_guard lock(mutex_);
  auto it = terms_.find(&scan);
  if (it == terms_.end()) return "";
  std::string out;
  for (const auto& [join, terms] : it->second) {
    for (const auto& t : terms) {
      // A long key set would drown the plan: its size says enough.
      std::string text = t.op == ColumnPredicate::Op::kIn && t.values.size() > 8
                             ? fmt::format("{} IN ({} values)", t.column, t.values.size())
                             : t.ToString();
      out += (out.empty() ? "" : " AND ") + text;
    }
  }
  return out;
}

}  // namespace floe::sql
