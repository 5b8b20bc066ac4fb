// Subquery decorrelation: a correlated subquery in a WHERE conjunct becomes a join, so it runs
// once over all outer rows instead of once per distinct outer value.
//   - [NOT] EXISTS (SELECT ... WHERE inner.k = outer.k AND ...)  ->  semi (anti) join of the outer
//     input with the subquery's input, on the correlated conjuncts pulled out of its filters
//     (an equality is required: it becomes the hash key; the rest is checked on each pair).
//   - expr op (SELECT f(agg) FROM ... WHERE inner.k = outer.k ...)  ->  the aggregate grouped by
//     inner.k, joined to the outer input on outer.k = inner.k, the subquery replaced by the
//     aggregate's column. Only aggregates that are NULL over no rows (min, max, sum, avg, ...)
//     under NULL-propagating arithmetic qualify: then an outer row without a group gets exactly
//     the value the subquery would give it (NULL). The join is inner when the conjunct is a
//     comparison with the subquery (a NULL makes it not true, so rows without a group drop out
//     either way, and the join can take part in join ordering), left otherwise.
// Uncorrelated subqueries run once (IN and NOT IN into a null-aware hash set), and filter
// pushdown moves them like any other term, down to the scan whose column they test. Other
// correlated shapes (correlated IN, correlation under an aggregate or a projection,
// non-equality correlation only) run per distinct set of outer values, which is always correct.
#include <algorithm>
#include <functional>
#include <set>

#include "sql/planner/optimizer.h"

namespace floe::sql {
namespace {

bool Within(const std::set<ColumnId>& a, const std::set<ColumnId>& b) {
  return std::all_of(a.begin(), a.end(), [&](ColumnId id) { return b.contains(id); });
}

// Whether any expression in the subtree reads one of `ids`.
bool ReadsAny(LogicalOperator& op, const std::set<ColumnId>& ids) {
  bool found = false;
  ForEachExpression(op, [&](BoundExprPtr& e) { found |= Intersects(e->ColumnsRead(), ids); });
  for (auto& child : op.children) found |= ReadsAny(*child, ids);
  return found;
}

// Moves the conjuncts that read `outer` columns out of the filters and inner-join conditions at
// the top of `op` (descending only through those) into `pulled`. Returns false when the
// subtree still reads an outer column afterwards (correlation somewhere this cannot lift).
bool PullCorrelatedTerms(LogicalOperator& op, const std::set<ColumnId>& outer, std::vector<BoundExprPtr>& pulled) {
  if (op.kind == LogicalKind::kFilter || IsInnerJoin(op)) {
    BoundExprPtr& slot =
        op.kind == LogicalKind::kFilter ? op.As<LogicalFilter>().predicate : op.As<LogicalJoin>().condition;
    std::vector<BoundExprPtr> terms, kept;
    if (slot) SplitConjunction(std::move(slot), terms);
    for (auto& term : terms) {
      if (Intersects(term->ColumnsRead(), outer) && !term->HasSubquery()) {
        pulled.push_back(std::move(term));
      } else {
        kept.push_back(std::move(term));
      }
    }
    slot = CombineConjunction(std::move(kept));
    if (op.kind == LogicalKind::kFilter && !slot) slot = MakeConstant(Value::Boolean(true));
    if (op.kind == LogicalKind::kJoin)
      op.As<LogicalJoin>().join_type = slot ? LogicalJoinType::kInner : LogicalJoinType::kCross;
    for (auto& child : op.children) {
      if (!PullCorrelatedTerms(*child, outer, pulled)) return false;
    }
    return true;
  }
  return !ReadsAny(op, outer);
}

// Splits `outer_expr = inner_expr` (either order); false when the term is another shape.
bool SplitCorrelatedEquality(const BoundExpr& term, const std::set<ColumnId>& outer, const std::set<ColumnId>& inner,
                             const BoundExpr** outer_side, const BoundExpr** inner_side) {
  if (term.kind != BoundKind::kCall || term.As<BoundCall>().name != "eq" || term.args.size() != 2) return false;
  for (int side = 0; side < 2; ++side) {
    std::set<ColumnId> a = term.args[side]->ColumnsRead(), b = term.args[1 - side]->ColumnsRead();
    if (!a.empty() && !b.empty() && Within(a, outer) && Within(b, inner)) {
      *outer_side = term.args[side].get();
      *inner_side = term.args[1 - side].get();
      return true;
    }
  }
  return false;
}

bool HasEquality(const std::vector<BoundExprPtr>& terms, const std::set<ColumnId>& outer, const std::set<ColumnId>& inner) {
  const BoundExpr *o = nullptr, *i = nullptr;
  return std::any_of(terms.begin(), terms.end(), [&](const BoundExprPtr& t) { return SplitCorrelatedEquality(*t, outer, inner, &o, &i); });
}

// Aggregates whose value over no rows is NULL.
bool NullOnEmpty(const AggregateCall& call) {
  static const std::set<std::string> kNames = {"min", "max", "sum", "avg", "arbitrary", "any_value", "stddev", "stddev_samp",
                                               "stddev_pop", "variance", "var_samp", "var_pop"};
  return !call.star && kNames.contains(call.function);
}

// Whether the expression is NULL whenever a column it reads is NULL.
bool PropagatesNull(const BoundExpr& e) {
  static const std::set<std::string> kStrict = {"add", "subtract", "multiply", "divide", "modulus", "negate"};
  switch (e.kind) {
    case BoundKind::kColumn:
    case BoundKind::kConstant: return true;
    case BoundKind::kCast:
      return !e.As<BoundCast>().try_cast && PropagatesNull(*e.args[0]);
    case BoundKind::kCall:
      return kStrict.contains(e.As<BoundCall>().name) &&
             std::all_of(e.args.begin(), e.args.end(), [](const BoundExprPtr& a) { return PropagatesNull(*a); });
    default: return false;
  }
}

bool IsComparison(const BoundExpr& e) {
  static const std::set<std::string> kComparisons = {"eq", "neq", "lt", "lte", "gt", "gte"};
  return e.kind == BoundKind::kCall && kComparisons.contains(e.As<BoundCall>().name);
}

class Decorrelator {
 public:
  explicit Decorrelator(int32_t max_id) : next_id_(max_id + 1) {}

  LogicalPtr Rewrite(LogicalPtr op) {
    for (auto& child : op->children) child = Rewrite(std::move(child));
    // Subqueries nested in expressions first, so an inner correlation is gone before the
    // subquery that holds it is considered.
    ForEachExpression(*op, [&](BoundExprPtr& e) { RewriteNested(*e); });
    if (op->kind != LogicalKind::kFilter) return op;
    return RewriteFilter(std::move(op));
  }

 private:
  ColumnId NewId() { return ColumnId(next_id_++); }

  void RewriteNested(BoundExpr& e) {
    if (e.kind == BoundKind::kSubquery) {
      auto& subquery = e.As<BoundSubquery>();
      if (subquery.plan) subquery.plan = std::shared_ptr<const LogicalOperator>(Rewrite(subquery.plan->Clone()));
    }
    for (auto& arg : e.args) RewriteNested(*arg);
  }

  LogicalPtr RewriteFilter(LogicalPtr op) {
    auto& filter = op->As<LogicalFilter>();
    std::vector<OutputColumn> output = filter.output;
    std::vector<BoundExprPtr> terms, kept;
    SplitConjunction(std::move(filter.predicate), terms);
    LogicalPtr input = std::move(filter.children[0]);
    bool changed = false;
    for (auto& term : terms) {
      if (auto joined = TryExists(*term, input)) {
        input = std::move(joined);
        changed = true;
        continue;
      }
      if (auto joined = TryScalar(*term, input)) {
        input = std::move(joined);
        changed = true;
      }
      kept.push_back(std::move(term));
    }
    filter.children[0] = std::move(input);
    filter.predicate = CombineConjunction(std::move(kept));
    if (!changed) return op;
    LogicalPtr result;
    if (filter.predicate) {
      filter.output = filter.children[0]->output;
      result = std::move(op);
    } else {
      result = std::move(filter.children[0]);
    }
    // The parent sees the columns it saw before (scalar subqueries' joins add columns).
    auto same_columns = [&](const std::vector<OutputColumn>& now) {
      return now.size() == output.size() &&
             std::equal(now.begin(), now.end(), output.begin(), [](const OutputColumn& a, const OutputColumn& b) { return a.id == b.id; });
    };
    if (same_columns(result->output)) return result;
    auto project = std::make_unique<LogicalProject>();
    for (const auto& c : output) project->expressions.push_back(MakeColumn(c.id, c.type, c.name));
    project->output = output;
    project->children.push_back(std::move(result));
    return project;
  }

  // Whether a subquery's correlated columns all come from `input`: only then can a join with
  // `input` supply them (others come from a query further out).
  static bool CorrelatedWith(const BoundSubquery& subquery, const LogicalOperator& input) {
    if (subquery.correlated.empty()) return false;
    std::set<ColumnId> available = input.OutputIds();
    return std::all_of(subquery.correlated.begin(), subquery.correlated.end(), [&](ColumnId id) { return available.contains(id); });
  }

  // [NOT] EXISTS -> semi (anti) join. Returns the join, or null (and `input` untouched).
  LogicalPtr TryExists(const BoundExpr& term, LogicalPtr& input) {
    bool negated = false;
    const BoundExpr* inside = &term;
    if (inside->kind == BoundKind::kNot) {
      negated = true;
      inside = inside->args[0].get();
    }
    if (inside->kind != BoundKind::kSubquery) return nullptr;
    const auto* e = &inside->As<BoundSubquery>();
    if (e->subquery_kind != SubqueryKind::kExists) return nullptr;
    if (!CorrelatedWith(*e, *input) || !inlined_.insert(e->plan.get()).second) return nullptr;
    LogicalPtr body = e->plan->Clone();
    // The select list does not matter to EXISTS; a LIMIT does not change whether a row exists.
    while (body->kind == LogicalKind::kProject || body->kind == LogicalKind::kDistinct ||
           (body->kind == LogicalKind::kLimit && body->As<LogicalLimit>().offset == 0 &&
            body->As<LogicalLimit>().limit.value_or(1) > 0)) {
      body = std::move(body->children[0]);
    }
    std::set<ColumnId> outer(e->correlated.begin(), e->correlated.end());
    std::vector<BoundExprPtr> pulled;
    if (!PullCorrelatedTerms(*body, outer, pulled) || !HasEquality(pulled, outer, body->OutputIds())) return nullptr;
    std::set<ColumnId> visible = body->OutputIds();
    visible.insert(outer.begin(), outer.end());
    for (const auto& t : pulled) {
      if (!Within(t->ColumnsRead(), visible)) return nullptr;
    }
    auto join = std::make_unique<LogicalJoin>();
    join->join_type = negated ? LogicalJoinType::kAnti : LogicalJoinType::kSemi;
    join->condition = CombineConjunction(std::move(pulled));
    join->output = input->output;
    join->children.push_back(std::move(input));
    join->children.push_back(std::move(body));
    return join;
  }

  // A correlated scalar aggregate in `term` -> grouped aggregate joined to `input`; the
  // subquery in `term` becomes a column. Returns the join, or null (`term`, `input` untouched).
  LogicalPtr TryScalar(BoundExpr& term, LogicalPtr& input) {
    BoundExprPtr* slot = FindScalarSubquery(term);
    if (slot == nullptr) return nullptr;
    const auto& subquery = (*slot)->As<BoundSubquery>();
    if (!CorrelatedWith(subquery, *input) || inlined_.contains(subquery.plan.get())) return nullptr;
    LogicalPtr body = subquery.plan->Clone();
    LogicalProject* project = nullptr;
    LogicalOperator* below_project = body.get();
    if (body->kind == LogicalKind::kProject) {
      project = &body->As<LogicalProject>();
      below_project = body->children[0].get();
      if (project->expressions.size() != 1 || !PropagatesNull(*project->expressions[0])) return nullptr;
    }
    if (below_project->kind != LogicalKind::kAggregate) return nullptr;
    auto* aggregate = &below_project->As<LogicalAggregate>();
    if (!aggregate->groups.empty() || aggregate->aggregates.empty()) return nullptr;
    if (!std::all_of(aggregate->aggregates.begin(), aggregate->aggregates.end(), NullOnEmpty)) return nullptr;
    if (project == nullptr && aggregate->output.size() != 1) return nullptr;
    std::set<ColumnId> outer(subquery.correlated.begin(), subquery.correlated.end());
    LogicalOperator& below = *aggregate->children[0];
    std::vector<BoundExprPtr> pulled;
    if (!PullCorrelatedTerms(below, outer, pulled) || pulled.empty()) return nullptr;
    std::set<ColumnId> inner = below.OutputIds();
    std::vector<const BoundExpr*> outer_keys, inner_keys;
    for (const auto& t : pulled) {
      const BoundExpr *o = nullptr, *i = nullptr;
      if (!SplitCorrelatedEquality(*t, outer, inner, &o, &i)) return nullptr;
      outer_keys.push_back(o);
      inner_keys.push_back(i);
    }
    // Group the aggregate by the inner keys; a projection above passes them through.
    std::vector<OutputColumn> group_outputs;
    std::vector<BoundExprPtr> groups;
    for (const BoundExpr* k : inner_keys) {
      group_outputs.push_back({NewId(), "$correlation", k->type});
      groups.push_back(k->Clone());
    }
    aggregate->groups = std::move(groups);
    aggregate->output.insert(aggregate->output.begin(), group_outputs.begin(), group_outputs.end());
    std::vector<OutputColumn> key_columns = group_outputs;
    ColumnId value_id = project ? project->output[0].id : aggregate->output.back().id;
    if (project != nullptr) {
      for (auto& key : key_columns) {
        project->expressions.push_back(MakeColumn(key.id, key.type, key.name));
        key.id = NewId();
        project->output.push_back(key);
      }
    }
    std::vector<BoundExprPtr> condition;
    for (size_t k = 0; k < outer_keys.size(); ++k) {
      std::vector<BoundExprPtr> args;
      args.push_back(outer_keys[k]->Clone());
      args.push_back(MakeColumn(key_columns[k].id, key_columns[k].type, key_columns[k].name));
      condition.push_back(MakeCall("eq", SqlType::Boolean(), std::move(args)));
    }
    inlined_.insert(subquery.plan.get());
    SqlType value_type = subquery.type;
    bool inner_join = IsComparison(term) && std::any_of(term.args.begin(), term.args.end(), [&](const BoundExprPtr& a) { return &a == slot; });
    *slot = MakeColumn(value_id, value_type, "$subquery");
    auto join = std::make_unique<LogicalJoin>();
    join->join_type = inner_join ? LogicalJoinType::kInner : LogicalJoinType::kLeft;
    join->condition = CombineConjunction(std::move(condition));
    join->output = input->output;
    join->output.insert(join->output.end(), body->output.begin(), body->output.end());
    join->children.push_back(std::move(input));
    join->children.push_back(std::move(body));
    return join;
  }

  // The one scalar subquery in `e` (null when there is none or more than one).
  static BoundExprPtr* FindScalarSubquery(BoundExpr& e) {
    BoundExprPtr* found = nullptr;
    int count = 0;
    std::function<void(BoundExpr&)> walk = [&](BoundExpr& node) {
      for (auto& arg : node.args) {
        if (arg->kind == BoundKind::kSubquery) {
          ++count;
          if (arg->As<BoundSubquery>().subquery_kind == SubqueryKind::kScalar) found = &arg;
        }
        walk(*arg);
      }
    };
    walk(e);
    return count == 1 ? found : nullptr;
  }

  int32_t next_id_;
  std::set<const LogicalOperator*> inlined_;
};

}  // namespace

LogicalPtr DecorrelateSubqueries(LogicalPtr plan) {
  Decorrelator decorrelator(MaxColumnId(*plan));
  return decorrelator.Rewrite(std::move(plan));
}

}  // namespace floe::sql
