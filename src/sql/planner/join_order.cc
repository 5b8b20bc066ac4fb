// Join order by estimated size. Cardinalities come from the tables' row estimates, fixed
// selectivities for filters, and for equi-joins the columns' distinct counts where the catalog
// knows them (Iceberg column bounds): |A join B on a = b| = |A| |B| / max(ndv(a), ndv(b)), the
// textbook estimate, which tells a key/foreign-key join (about the size of the filtered fact
// side) from a join on a low-cardinality column (a multiplication). A tree of inner and cross
// joins is flattened and rebuilt greedily: start from the smallest input, then repeatedly join
// the input connected to what was joined so far that gives the smallest result; at each join
// the smaller side is the right (build) side.
#include <algorithm>
#include <cmath>
#include <optional>
#include <set>

#include "sql/planner/optimizer.h"

namespace floe::sql {
namespace {

constexpr double kUnknownTableRows = 1000;

double TermSelectivity(const ColumnPredicate& term, const CatalogTable& table) {
  // An equality keeps one of the column's distinct values, where statistics know how many.
  double one_value = 0.1;
  for (size_t i = 0; i < table.columns.size() && i < table.column_statistics.size(); ++i) {
    const auto& distinct = table.column_statistics[i].distinct_count;
    if (table.columns[i].name == term.column && distinct && *distinct >= 1) one_value = 1.0 / *distinct;
  }
  switch (term.op) {
    case ColumnPredicate::Op::kEq: return one_value;
    case ColumnPredicate::Op::kIn: return std::min(1.0, one_value * static_cast<double>(term.values.size()));
    case ColumnPredicate::Op::kIsNull: return 0.1;
    case ColumnPredicate::Op::kIsNotNull: return 0.9;
    case ColumnPredicate::Op::kNotEq: return 0.9;
    case ColumnPredicate::Op::kStartsWith: return 0.2;
    default: return 0.3;
  }
}

// A constant's position on its column's number line (ColumnStatistics::min/max): integers,
// days, microseconds, and decimals scaled to the column's scale.
std::optional<double> PositionOf(const Value& v, const SqlType& column) {
  if (v.is_null()) return std::nullopt;
  const SqlType& type = v.type();
  if (type.IsInteger() || type.kind() == TypeKind::kDate) return static_cast<double>(v.as_int());
  if ((type.kind() == TypeKind::kTimestamp || type.kind() == TypeKind::kTimestampTz) && type.precision() <= 6 &&
      column.precision() <= 6) {
    return static_cast<double>(v.as_int());
  }
  if (type.kind() == TypeKind::kDecimal && column.kind() == TypeKind::kDecimal) {
    return static_cast<double>(v.as_decimal()) * std::pow(10.0, column.scale() - type.scale());
  }
  return std::nullopt;
}

// The share of a scan's rows its range terms keep, column by column: the interval every range
// term on a column leaves, over the width between the column's smallest and largest value
// (uniform values assumed). Terms the statistics cannot place count 0.3 each. `used` marks the
// terms accounted for.
double RangeSelectivity(const std::vector<ColumnPredicate>& terms, const CatalogTable& table, std::vector<bool>& used) {
  double selectivity = 1;
  for (size_t i = 0; i < table.columns.size() && i < table.column_statistics.size(); ++i) {
    const ColumnStatistics& stats = table.column_statistics[i];
    if (!stats.min || !stats.max || *stats.max <= *stats.min) continue;
    double low = *stats.min, high = *stats.max;
    bool any = false;
    for (size_t t = 0; t < terms.size(); ++t) {
      const ColumnPredicate& term = terms[t];
      bool lower = term.op == ColumnPredicate::Op::kGt || term.op == ColumnPredicate::Op::kGtEq;
      bool upper = term.op == ColumnPredicate::Op::kLt || term.op == ColumnPredicate::Op::kLtEq;
      if (used[t] || term.column != table.columns[i].name || (!lower && !upper) || term.values.empty()) continue;
      auto at = PositionOf(term.values[0], table.columns[i].type);
      if (!at) continue;
      used[t] = true;
      any = true;
      if (lower) low = std::max(low, *at);
      if (upper) high = std::min(high, *at);
    }
    if (any) selectivity *= std::clamp((high - low) / (*stats.max - *stats.min), 0.0, 1.0);
  }
  return selectivity;
}

// The distinct values of a column of `op`'s output (forward declaration: defined below).
std::optional<double> DistinctCount(const LogicalOperator& op, ColumnId id);

// The share of rows a predicate keeps, over the output of `inputs`: an equality with a
// constant keeps one of the column's distinct values; AND multiplies, OR adds (at most all),
// NOT complements; a LIKE with a leading wildcard keeps a small share (a word inside a comment
// or a name); other terms are a coin toss.
double PredicateSelectivity(const BoundExpr& e, const std::vector<const LogicalOperator*>& inputs) {
  switch (e.kind) {
    case BoundKind::kAnd: {
      double s = 1;
      for (const auto& a : e.args) s *= PredicateSelectivity(*a, inputs);
      return s;
    }
    case BoundKind::kOr: {
      double s = 0;
      for (const auto& a : e.args) s += PredicateSelectivity(*a, inputs);
      return std::min(1.0, s);
    }
    case BoundKind::kNot: return 1 - PredicateSelectivity(*e.args[0], inputs);
    case BoundKind::kCall: {
      const std::string& name = e.As<BoundCall>().name;
      if (name == "like") return 0.1;
      if (name == "eq" && e.args.size() == 2) {
        for (int side = 0; side < 2; ++side) {
          if (e.args[side]->kind != BoundKind::kColumn || e.args[1 - side]->kind != BoundKind::kConstant) continue;
          const auto& column = e.args[side]->As<BoundColumnRef>();
          for (const LogicalOperator* input : inputs) {
            for (const auto& c : input->output) {
              if (c.id != column.column) continue;
              if (auto distinct = DistinctCount(*input, column.column); distinct && *distinct >= 1) return 1.0 / *distinct;
            }
          }
          return 0.1;
        }
      }
      return 0.5;
    }
    default: return 0.5;
  }
}

// The distinct values of column `id` in `op`'s output, when statistics say: found where the
// column is produced (a scan, or a column passed through a projection or a grouping), capped
// by the estimated rows of every node on the way.
std::optional<double> DistinctCount(const LogicalOperator& op, ColumnId id) {
  auto capped = [&](std::optional<double> n) -> std::optional<double> {
    if (n && op.estimated_rows >= 0) return std::min(*n, std::max(1.0, op.estimated_rows));
    return n;
  };
  switch (op.kind) {
    case LogicalKind::kScan: {
      const auto& scan = op.As<LogicalScan>();
      if (!scan.table || !scan.metadata_table.empty() || scan.table->column_statistics.empty()) return std::nullopt;
      for (const ScanColumn& c : scan.scan_columns) {
        if (c.id != id) continue;
        if (scan.table->IsMetadataColumn(c.table_column)) return std::nullopt;
        const auto& stats = scan.table->column_statistics[static_cast<size_t>(c.table_column)];
        return capped(stats.distinct_count);
      }
      return std::nullopt;
    }
    case LogicalKind::kProject: {
      const auto& expressions = op.As<LogicalProject>().expressions;
      for (size_t i = 0; i < expressions.size(); ++i) {
        if (op.output[i].id == id && expressions[i]->kind == BoundKind::kColumn) {
          return capped(DistinctCount(*op.children[0], expressions[i]->As<BoundColumnRef>().column));
        }
      }
      return std::nullopt;
    }
    case LogicalKind::kAggregate: {
      const auto& groups = op.As<LogicalAggregate>().groups;
      for (size_t i = 0; i < groups.size(); ++i) {
        if (op.output[i].id == id && groups[i]->kind == BoundKind::kColumn) {
          return capped(DistinctCount(*op.children[0], groups[i]->As<BoundColumnRef>().column));
        }
      }
      return std::nullopt;
    }
    case LogicalKind::kSetOp:
    case LogicalKind::kValues:
    case LogicalKind::kWindow:
      return std::nullopt;
    default:
      for (const auto& child : op.children) {
        for (const auto& c : child->output) {
          if (c.id == id) return capped(DistinctCount(*child, id));
        }
      }
      return std::nullopt;
  }
}

// The estimated rows of an inner join of `left` and `right` on `condition`: the most selective
// equality between a column of each side whose distinct counts are known; without one, the
// larger input (a key/foreign-key join's usual size).
double InnerJoinRows(const LogicalOperator& left, const LogicalOperator& right, const BoundExpr* condition) {
  double l = left.estimated_rows, r = right.estimated_rows;
  double best = -1;
  for (auto [la, rb] : ColumnEqualities(condition, left, right)) {
    auto nl = DistinctCount(left, la), nr = DistinctCount(right, rb);
    if (!nl || !nr) continue;
    double rows = l * r / std::max({*nl, *nr, 1.0});
    best = best < 0 ? rows : std::min(best, rows);
  }
  if (best >= 0) return std::max(1.0, best);
  // No equality between the sides (or no statistics for one): the pairs the condition keeps,
  // where it is made of terms on constants (the two nations of TPC-H Q7); otherwise the
  // larger input (a key/foreign-key join's usual size).
  if (condition != nullptr && ColumnEqualities(condition, left, right).empty()) {
    return std::max(1.0, l * r * PredicateSelectivity(*condition, {&left, &right}));
  }
  return std::max(l, r);
}

// The rows of `kept` with a match in `other`: with statistics, the share of kept's key values
// that other's (at most) distinct keys can cover; half of them without.
double SemiJoinRows(const LogicalOperator& kept, const LogicalOperator& other, const BoundExpr* condition) {
  double rows = kept.estimated_rows;
  // A condition of one equality only: with more terms the share is not known.
  bool single = condition != nullptr && condition->kind == BoundKind::kCall;
  if (auto pairs = ColumnEqualities(condition, kept, other); single && !pairs.empty()) {
    auto [a, b] = pairs[0];
    auto kept_distinct = DistinctCount(kept, a);
    double other_distinct = DistinctCount(other, b).value_or(other.estimated_rows);
    if (kept_distinct && *kept_distinct > 0) return std::max(1.0, rows * std::min(1.0, other_distinct / *kept_distinct));
  }
  return std::max(1.0, rows * 0.5);
}

void Flatten(LogicalPtr op, std::vector<LogicalPtr>& leaves, std::vector<BoundExprPtr>& terms) {
  if (IsInnerJoin(*op)) {
    SplitConjunction(std::move(op->As<LogicalJoin>().condition), terms);
    Flatten(std::move(op->children[0]), leaves, terms);
    Flatten(std::move(op->children[1]), leaves, terms);
    return;
  }
  leaves.push_back(std::move(op));
}

LogicalPtr MakeJoin(LogicalPtr a, LogicalPtr b, std::vector<BoundExprPtr>& terms) {
  // The larger input probes (left); the smaller one is built into the hash table (right).
  if (a->estimated_rows < b->estimated_rows) std::swap(a, b);
  auto join = std::make_unique<LogicalJoin>();
  std::set<ColumnId> available;
  for (const auto& c : a->output) available.insert(c.id);
  for (const auto& c : b->output) available.insert(c.id);
  std::vector<BoundExprPtr> here, rest;
  for (auto& term : terms) {
    std::set<ColumnId> refs = term->ColumnsRead();
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

// The estimated rows of joining `a` and `b` on the terms they cover, without moving the terms.
double PairRows(const LogicalOperator& a, const LogicalOperator& b, const std::vector<BoundExprPtr>& terms) {
  std::set<ColumnId> available;
  for (const auto& c : a.output) available.insert(c.id);
  for (const auto& c : b.output) available.insert(c.id);
  std::vector<BoundExprPtr> covered;
  for (const auto& term : terms) {
    std::set<ColumnId> refs = term->ColumnsRead();
    if (std::all_of(refs.begin(), refs.end(), [&](ColumnId id) { return available.contains(id); })) covered.push_back(term->Clone());
  }
  BoundExprPtr condition = CombineConjunction(std::move(covered));
  return InnerJoinRows(a, b, condition.get());
}

bool Connected(const LogicalOperator& a, const LogicalOperator& b, const std::vector<BoundExprPtr>& terms) {
  std::set<ColumnId> left, right;
  for (const auto& c : a.output) left.insert(c.id);
  for (const auto& c : b.output) right.insert(c.id);
  for (const auto& term : terms) {
    std::set<ColumnId> refs = term->ColumnsRead();
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
      const auto& scan = op.As<LogicalScan>();
      double rows = scan.table && scan.table->estimated_rows ? static_cast<double>(*scan.table->estimated_rows)
                                                             : kUnknownTableRows;
      if (!scan.metadata_table.empty()) rows = 100;
      static const CatalogTable kNoStatistics;
      const CatalogTable& table = scan.table ? *scan.table : kNoStatistics;
      std::vector<bool> used(scan.pushed.terms.size(), false);
      rows *= RangeSelectivity(scan.pushed.terms, table, used);
      for (size_t t = 0; t < scan.pushed.terms.size(); ++t) {
        if (!used[t]) rows *= TermSelectivity(scan.pushed.terms[t], table);
      }
      for (const auto& term : scan.pushed.residual) rows *= PredicateSelectivity(*term, {&op});
      op.estimated_rows = std::max(1.0, rows);
      break;
    }
    case LogicalKind::kValues:
      op.estimated_rows = static_cast<double>(op.As<LogicalValues>().rows.size());
      break;
    case LogicalKind::kEmpty: op.estimated_rows = 0; break;
    case LogicalKind::kFilter: {
      const BoundExpr* predicate = op.As<LogicalFilter>().predicate.get();
      op.estimated_rows =
          std::max(1.0, child_rows(0) * (predicate ? PredicateSelectivity(*predicate, {op.children[0].get()}) : 1.0));
      break;
    }
    case LogicalKind::kAggregate: {
      const auto& aggregate = op.As<LogicalAggregate>();
      if (aggregate.groups.empty()) {
        op.estimated_rows = 1.0;
        break;
      }
      // As many groups as the keys' distinct combinations, where statistics know them.
      double groups = 1;
      for (const auto& g : aggregate.groups) {
        std::optional<double> distinct;
        if (g->kind == BoundKind::kColumn) distinct = DistinctCount(*op.children[0], g->As<BoundColumnRef>().column);
        groups = distinct ? groups * *distinct : -1;
        if (groups < 0) break;
      }
      op.estimated_rows = groups > 0 ? std::max(1.0, std::min(child_rows(0), groups)) : std::max(1.0, child_rows(0) * 0.1);
      break;
    }
    case LogicalKind::kDistinct: op.estimated_rows = std::max(1.0, child_rows(0) * 0.5); break;
    case LogicalKind::kJoin: {
      const auto& join = op.As<LogicalJoin>();
      double l = child_rows(0), r = child_rows(1);
      switch (join.join_type) {
        case LogicalJoinType::kCross: op.estimated_rows = l * r; break;
        case LogicalJoinType::kInner:
          op.estimated_rows = InnerJoinRows(*op.children[0], *op.children[1], join.condition.get());
          break;
        case LogicalJoinType::kLeft: op.estimated_rows = std::max(l, r); break;
        case LogicalJoinType::kRight: op.estimated_rows = std::max(l, r); break;
        case LogicalJoinType::kFull: op.estimated_rows = l + r; break;
        case LogicalJoinType::kSemi:
          op.estimated_rows = SemiJoinRows(*op.children[0], *op.children[1], join.condition.get());
          break;
        case LogicalJoinType::kAnti:
          op.estimated_rows =
              std::max(1.0, l - SemiJoinRows(*op.children[0], *op.children[1], join.condition.get()) * 0.9);
          break;
        case LogicalJoinType::kRightSemi:
          op.estimated_rows = SemiJoinRows(*op.children[1], *op.children[0], join.condition.get());
          break;
        case LogicalJoinType::kRightAnti:
          op.estimated_rows =
              std::max(1.0, r - SemiJoinRows(*op.children[1], *op.children[0], join.condition.get()) * 0.9);
          break;
      }
      break;
    }
    case LogicalKind::kLimit:
    case LogicalKind::kTopN: {
      const std::optional<int64_t>& limit =
          op.kind == LogicalKind::kLimit ? op.As<LogicalLimit>().limit : op.As<LogicalTopN>().limit;
      op.estimated_rows = limit ? std::min(child_rows(0), static_cast<double>(*limit)) : child_rows(0);
      break;
    }
    case LogicalKind::kSetOp: {
      LogicalSetOpType type = op.As<LogicalSetOp>().set_op;
      op.estimated_rows = type == LogicalSetOpType::kUnion       ? child_rows(0) + child_rows(1)
                          : type == LogicalSetOpType::kIntersect ? std::min(child_rows(0), child_rows(1))
                                                                 : child_rows(0);
      break;
    }
    default: op.estimated_rows = child_rows(0); break;
  }
}

LogicalPtr OrderJoins(LogicalPtr plan) {
  if (!IsInnerJoin(*plan)) {
    for (auto& child : plan->children) child = OrderJoins(std::move(child));
    EstimateCardinality(*plan);
    // Outer, semi and anti joins build their hash table on the smaller side too: the sides
    // swap and the join type mirrors (the preserved side is then the build side, whose
    // unmatched or matched rows the join emits at its end).
    if (plan->kind == LogicalKind::kJoin && plan->children[1]->estimated_rows > plan->children[0]->estimated_rows) {
      std::optional<LogicalJoinType> mirrored;
      auto& join = plan->As<LogicalJoin>();
      switch (join.join_type) {
        case LogicalJoinType::kSemi: mirrored = LogicalJoinType::kRightSemi; break;
        case LogicalJoinType::kAnti: mirrored = LogicalJoinType::kRightAnti; break;
        case LogicalJoinType::kLeft: mirrored = LogicalJoinType::kRight; break;
        case LogicalJoinType::kRight: mirrored = LogicalJoinType::kLeft; break;
        default: break;
      }
      if (mirrored) {
        std::swap(plan->children[0], plan->children[1]);
        join.join_type = *mirrored;
        EstimateCardinality(*plan);
      }
    }
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
  // Greedy operator ordering: join the connected pair with the smallest estimated result
  // (which may build a bushy tree), until one input is left; unconnected inputs are crossed
  // last, smallest product first.
  while (leaves.size() > 1) {
    // Ties (no statistics) go to the pair with the smaller build side.
    size_t best_a = 0, best_b = 1;
    double best_rows = -1, best_build = 0;
    bool best_connected = false;
    for (size_t a = 0; a < leaves.size(); ++a) {
      for (size_t b = a + 1; b < leaves.size(); ++b) {
        bool connected = Connected(*leaves[a], *leaves[b], terms);
        if (best_connected && !connected) continue;
        double rows = connected ? PairRows(*leaves[a], *leaves[b], terms) : leaves[a]->estimated_rows * leaves[b]->estimated_rows;
        double build = std::min(leaves[a]->estimated_rows, leaves[b]->estimated_rows);
        if (best_rows < 0 || (connected && !best_connected) || rows < best_rows || (rows == best_rows && build < best_build)) {
          best_a = a;
          best_b = b;
          best_rows = rows;
          best_build = build;
          best_connected = connected;
        }
      }
    }
    LogicalPtr b = std::move(leaves[best_b]);
    LogicalPtr a = std::move(leaves[best_a]);
    leaves.erase(leaves.begin() + static_cast<std::ptrdiff_t>(best_b));
    leaves[best_a] = MakeJoin(std::move(a), std::move(b), terms);
  }
  LogicalPtr current = std::move(leaves[0]);
  if (!terms.empty()) {
    // Terms that read no column of any input (constants left by folding) filter the result.
    auto filter = std::make_unique<LogicalFilter>();
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
