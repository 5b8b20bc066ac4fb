// Predicate pushdown: moves each conjunct of a filter as close to the data as it can go
// without changing results, turns cross joins with connecting predicates into inner joins,
// and hands scans the conjuncts storage can use (ScanPredicate): simple column-versus-constant
// comparisons become pruning terms; the rest run as the scan's residual filter. Conjuncts
// common to every branch of an OR are factored out first, so `(a AND b) OR (a AND c)` can use
// `a` as a join key (TPC-H Q19).
#include <algorithm>
#include <map>
#include <set>

#include "sql/planner/optimizer.h"

namespace floe::sql {
namespace {

// Whether a term gives the same answer wherever it is evaluated. An uncorrelated subquery
// does: it runs once per query whatever rows reach it (so `o_orderkey IN (SELECT ...)` can
// filter the orders scan instead of the join result above it).
bool Deterministic(const BoundExpr& e) {
  if (e.kind == BoundKind::kSubquery && !e.As<BoundSubquery>().correlated.empty()) return false;
  if (e.kind == BoundKind::kCall) {
    const std::string& name = e.As<BoundCall>().name;
    if (name == "random" || name == "rand" || name == "uuid") return false;
  }
  return std::all_of(e.args.begin(), e.args.end(), [](const BoundExprPtr& a) { return Deterministic(*a); });
}

BoundExprPtr Substitute(const BoundExpr& e, const std::map<ColumnId, const BoundExpr*>& replacements) {
  if (e.kind == BoundKind::kColumn) {
    auto it = replacements.find(e.As<BoundColumnRef>().column);
    if (it != replacements.end()) return it->second->Clone();
  }
  auto copy = e.Clone();
  copy->args.clear();
  for (const auto& arg : e.args) copy->args.push_back(Substitute(*arg, replacements));
  return copy;
}

// (a AND b) OR (a AND c) -> a AND (b OR c); an OR some branch of which is wholly common is
// true whenever the common terms are, and is dropped.
void FactorOrTerms(std::vector<BoundExprPtr>& terms) {
  std::vector<BoundExprPtr> out;
  for (auto& term : terms) {
    if (term->kind != BoundKind::kOr || !Deterministic(*term)) {
      out.push_back(std::move(term));
      continue;
    }
    std::vector<std::vector<BoundExprPtr>> branches;
    for (auto& arg : term->args) {
      branches.emplace_back();
      SplitConjunction(arg->Clone(), branches.back());
    }
    std::vector<BoundExprPtr> common;
    for (auto& candidate : branches[0]) {
      bool everywhere = std::all_of(branches.begin() + 1, branches.end(), [&](const std::vector<BoundExprPtr>& branch) {
        return std::any_of(branch.begin(), branch.end(), [&](const BoundExprPtr& t) { return t->Equals(*candidate); });
      });
      if (everywhere) common.push_back(candidate->Clone());
    }
    if (common.empty()) {
      out.push_back(std::move(term));
      continue;
    }
    auto rest = std::make_unique<BoundOr>(SqlType::Boolean());
    bool always = false;
    for (auto& branch : branches) {
      std::vector<BoundExprPtr> remaining;
      for (auto& t : branch) {
        bool shared = std::any_of(common.begin(), common.end(), [&](const BoundExprPtr& c) { return c->Equals(*t); });
        if (!shared) remaining.push_back(std::move(t));
      }
      if (remaining.empty()) always = true;
      else rest->args.push_back(CombineConjunction(std::move(remaining)));
    }
    for (auto& c : common) out.push_back(std::move(c));
    if (!always) out.push_back(rest->args.size() == 1 ? std::move(rest->args[0]) : std::move(rest));
  }
  terms = std::move(out);
}

LogicalPtr WrapFilter(LogicalPtr op, std::vector<BoundExprPtr> terms) {
  if (terms.empty()) return op;
  auto filter = std::make_unique<LogicalFilter>();
  filter->output = op->output;
  filter->predicate = CombineConjunction(std::move(terms));
  filter->children.push_back(std::move(op));
  return filter;
}

std::optional<ColumnPredicate::Op> PredicateOpFor(const std::string& name, bool flipped) {
  if (name == "eq") return ColumnPredicate::Op::kEq;
  if (name == "neq") return ColumnPredicate::Op::kNotEq;
  if (name == "lt") return flipped ? ColumnPredicate::Op::kGt : ColumnPredicate::Op::kLt;
  if (name == "lte") return flipped ? ColumnPredicate::Op::kGtEq : ColumnPredicate::Op::kLtEq;
  if (name == "gt") return flipped ? ColumnPredicate::Op::kLt : ColumnPredicate::Op::kGt;
  if (name == "gte") return flipped ? ColumnPredicate::Op::kLtEq : ColumnPredicate::Op::kGtEq;
  return std::nullopt;
}

// A term of the form `column op constant` (either order), `column IN (constants)`,
// `column IS [NOT] NULL` or `column LIKE 'prefix%'` over a data column of `scan`.
std::optional<ColumnPredicate> ToColumnPredicate(const BoundExpr& term, const LogicalScan& scan) {
  if (!scan.metadata_table.empty() || !scan.table) return std::nullopt;
  auto column_of = [&](const BoundExpr& e) -> const TableColumn* {
    if (e.kind != BoundKind::kColumn) return nullptr;
    for (const ScanColumn& sc : scan.scan_columns) {
      // A metadata column ("$path", _pos, ...) is no column of the files: nothing prunes by it.
      if (sc.id == e.As<BoundColumnRef>().column)
        return scan.table->IsMetadataColumn(sc.table_column) ? nullptr : &scan.table->columns[sc.table_column];
    }
    return nullptr;
  };
  auto constant = [](const BoundExpr& e) {
    return e.kind == BoundKind::kConstant && !e.As<BoundConstant>().value.is_null();
  };
  ColumnPredicate out;
  if (term.kind == BoundKind::kCall && term.args.size() == 2) {
    const std::string& name = term.As<BoundCall>().name;
    if (name == "like") {
      const TableColumn* column = column_of(*term.args[0]);
      if (column == nullptr || !constant(*term.args[1])) return std::nullopt;
      const std::string& pattern = term.args[1]->As<BoundConstant>().value.as_string();
      size_t wildcard = pattern.find_first_of("%_");
      if (wildcard == std::string::npos || wildcard == 0 || pattern.find_first_of("%_", wildcard + 1) != std::string::npos ||
          pattern[wildcard] != '%' || wildcard + 1 != pattern.size()) {
        return std::nullopt;
      }
      out.column = column->name;
      out.field_id = column->field_id;
      out.op = ColumnPredicate::Op::kStartsWith;
      out.values.push_back(Value::String(SqlType::Varchar(), pattern.substr(0, wildcard)));
      return out;
    }
    for (int side = 0; side < 2; ++side) {
      const TableColumn* column = column_of(*term.args[side]);
      if (column == nullptr || !constant(*term.args[1 - side])) continue;
      auto op = PredicateOpFor(name, side == 1);
      if (!op) return std::nullopt;
      out.column = column->name;
      out.field_id = column->field_id;
      out.op = *op;
      out.values.push_back(term.args[1 - side]->As<BoundConstant>().value);
      return out;
    }
    return std::nullopt;
  }
  if (term.kind == BoundKind::kInList && !term.As<BoundInList>().negated) {
    const TableColumn* column = column_of(*term.args[0]);
    if (column == nullptr) return std::nullopt;
    for (size_t i = 1; i < term.args.size(); ++i) {
      if (term.args[i]->kind != BoundKind::kConstant) return std::nullopt;
      const Value& value = term.args[i]->As<BoundConstant>().value;
      if (!value.is_null()) out.values.push_back(value);
    }
    out.column = column->name;
    out.field_id = column->field_id;
    out.op = ColumnPredicate::Op::kIn;
    return out;
  }
  if (term.kind == BoundKind::kIsNull) {
    const TableColumn* column = column_of(*term.args[0]);
    if (column == nullptr) return std::nullopt;
    out.column = column->name;
    out.field_id = column->field_id;
    out.op = term.As<BoundIsNull>().negated ? ColumnPredicate::Op::kIsNotNull : ColumnPredicate::Op::kIsNull;
    return out;
  }
  return std::nullopt;
}

LogicalPtr Push(LogicalPtr op, std::vector<BoundExprPtr> terms);

LogicalPtr PushChildrenOnly(LogicalPtr op, std::vector<BoundExprPtr> terms) {
  for (auto& child : op->children) child = Push(std::move(child), {});
  return WrapFilter(std::move(op), std::move(terms));
}

LogicalPtr Push(LogicalPtr op, std::vector<BoundExprPtr> terms) {
  switch (op->kind) {
    case LogicalKind::kFilter: {
      SplitConjunction(std::move(op->As<LogicalFilter>().predicate), terms);
      FactorOrTerms(terms);
      return Push(std::move(op->children[0]), std::move(terms));
    }
    case LogicalKind::kProject: {
      const auto& project = op->As<LogicalProject>();
      std::map<ColumnId, const BoundExpr*> definitions;
      for (size_t i = 0; i < project.expressions.size(); ++i) {
        if (Deterministic(*project.expressions[i]) && !project.expressions[i]->HasSubquery())
          definitions[op->output[i].id] = project.expressions[i].get();
      }
      std::set<ColumnId> produced = op->OutputIds();
      std::vector<BoundExprPtr> below, kept;
      for (auto& term : terms) {
        std::set<ColumnId> refs = term->ColumnsRead();
        bool movable = true;
        for (ColumnId id : refs) {
          if (produced.contains(id) && !definitions.contains(id)) movable = false;
        }
        if (movable) {
          below.push_back(Substitute(*term, definitions));
        } else {
          kept.push_back(std::move(term));
        }
      }
      op->children[0] = Push(std::move(op->children[0]), std::move(below));
      return WrapFilter(std::move(op), std::move(kept));
    }
    case LogicalKind::kJoin: {
      auto& join = op->As<LogicalJoin>();
      std::set<ColumnId> left = op->children[0]->OutputIds(), right = op->children[1]->OutputIds();
      std::vector<BoundExprPtr> left_terms, right_terms, join_terms, kept;
      LogicalJoinType type = join.join_type;
      bool inner = type == LogicalJoinType::kInner || type == LogicalJoinType::kCross;
      if (inner && join.condition) SplitConjunction(std::move(join.condition), terms);
      for (auto& term : terms) {
        std::set<ColumnId> refs = term->ColumnsRead();
        bool uses_left = Intersects(refs, left), uses_right = Intersects(refs, right);
        bool can_left = inner || type == LogicalJoinType::kLeft || type == LogicalJoinType::kSemi || type == LogicalJoinType::kAnti;
        bool can_right = inner || type == LogicalJoinType::kRight || type == LogicalJoinType::kRightSemi ||
                         type == LogicalJoinType::kRightAnti;
        if (!uses_right && can_left && Deterministic(*term)) {
          left_terms.push_back(std::move(term));
        } else if (!uses_left && uses_right && can_right && Deterministic(*term)) {
          right_terms.push_back(std::move(term));
        } else if (inner && !term->HasSubquery()) {
          join_terms.push_back(std::move(term));
        } else {
          kept.push_back(std::move(term));
        }
      }
      if (!inner && join.condition) {
        // ON terms that read only the side whose rows are not preserved can filter it early.
        std::vector<BoundExprPtr> on_terms, remaining;
        SplitConjunction(std::move(join.condition), on_terms);
        for (auto& term : on_terms) {
          std::set<ColumnId> refs = term->ColumnsRead();
          bool uses_left = Intersects(refs, left), uses_right = Intersects(refs, right);
          if (type == LogicalJoinType::kLeft && uses_right && !uses_left && Deterministic(*term)) {
            right_terms.push_back(std::move(term));
          } else if (type == LogicalJoinType::kRight && uses_left && !uses_right && Deterministic(*term)) {
            left_terms.push_back(std::move(term));
          } else {
            remaining.push_back(std::move(term));
          }
        }
        join.condition = CombineConjunction(std::move(remaining));
      }
      if (inner) {
        join.condition = CombineConjunction(std::move(join_terms));
        join.join_type = join.condition ? LogicalJoinType::kInner : LogicalJoinType::kCross;
      }
      op->children[0] = Push(std::move(op->children[0]), std::move(left_terms));
      op->children[1] = Push(std::move(op->children[1]), std::move(right_terms));
      return WrapFilter(std::move(op), std::move(kept));
    }
    case LogicalKind::kAggregate: {
      const auto& aggregate = op->As<LogicalAggregate>();
      std::map<ColumnId, const BoundExpr*> keys;
      for (size_t i = 0; i < aggregate.groups.size(); ++i) keys[op->output[i].id] = aggregate.groups[i].get();
      std::set<ColumnId> produced = op->OutputIds();
      std::vector<BoundExprPtr> below, kept;
      for (auto& term : terms) {
        // A global grouping set answers a row even for no input: no filter may empty it.
        bool movable = !aggregate.groups.empty() && aggregate.global_grouping_sets.empty() && Deterministic(*term);
        for (ColumnId id : term->ColumnsRead()) {
          if (produced.contains(id) && !keys.contains(id)) movable = false;
        }
        if (movable) {
          below.push_back(Substitute(*term, keys));
        } else {
          kept.push_back(std::move(term));
        }
      }
      op->children[0] = Push(std::move(op->children[0]), std::move(below));
      return WrapFilter(std::move(op), std::move(kept));
    }
    case LogicalKind::kSort:
    case LogicalKind::kDistinct: {
      op->children[0] = Push(std::move(op->children[0]), std::move(terms));
      return op;
    }
    case LogicalKind::kUnnest: {
      // A term on the input's columns alone keeps or drops all of a row's expansions alike, so
      // it filters the input instead (a scan below may prune files by it).
      std::set<ColumnId> input = op->children[0]->OutputIds();
      std::vector<BoundExprPtr> below, kept;
      for (auto& term : terms) {
        bool movable = Deterministic(*term) && !term->HasSubquery();
        for (ColumnId id : term->ColumnsRead()) movable = movable && input.contains(id);
        (movable ? below : kept).push_back(std::move(term));
      }
      op->children[0] = Push(std::move(op->children[0]), std::move(below));
      return WrapFilter(std::move(op), std::move(kept));
    }
    case LogicalKind::kWindow: {
      // Only predicates on columns every window partitions by keep window results unchanged.
      std::set<ColumnId> partition_columns;
      bool first = true;
      for (const auto& w : op->As<LogicalWindow>().windows) {
        std::set<ColumnId> mine;
        for (const auto& p : w.partition_by) {
          if (p->kind == BoundKind::kColumn) mine.insert(p->As<BoundColumnRef>().column);
        }
        if (first) {
          partition_columns = mine;
          first = false;
        } else {
          std::set<ColumnId> both;
          std::set_intersection(partition_columns.begin(), partition_columns.end(), mine.begin(), mine.end(),
                                std::inserter(both, both.end()));
          partition_columns = both;
        }
      }
      std::set<ColumnId> produced = op->OutputIds();
      std::vector<BoundExprPtr> below, kept;
      for (auto& term : terms) {
        bool movable = Deterministic(*term);
        for (ColumnId id : term->ColumnsRead()) {
          if (produced.contains(id) && !partition_columns.contains(id)) movable = false;
        }
        (movable ? below : kept).push_back(std::move(term));
      }
      op->children[0] = Push(std::move(op->children[0]), std::move(below));
      return WrapFilter(std::move(op), std::move(kept));
    }
    case LogicalKind::kSetOp: {
      std::vector<BoundExprPtr> kept;
      std::vector<std::vector<BoundExprPtr>> per_child(op->children.size());
      for (auto& term : terms) {
        if (!Deterministic(*term)) {
          kept.push_back(std::move(term));
          continue;
        }
        for (size_t c = 0; c < op->children.size(); ++c) {
          std::map<ColumnId, const BoundExpr*> mapping;
          std::vector<BoundExprPtr> columns;
          for (size_t i = 0; i < op->output.size(); ++i) {
            const OutputColumn& child_column = op->children[c]->output[i];
            columns.push_back(MakeColumn(child_column.id, child_column.type, child_column.name));
          }
          for (size_t i = 0; i < op->output.size(); ++i) mapping[op->output[i].id] = columns[i].get();
          per_child[c].push_back(Substitute(*term, mapping));
        }
      }
      for (size_t c = 0; c < op->children.size(); ++c) op->children[c] = Push(std::move(op->children[c]), std::move(per_child[c]));
      return WrapFilter(std::move(op), std::move(kept));
    }
    case LogicalKind::kScan: {
      std::vector<BoundExprPtr> kept;
      for (auto& term : terms) {
        if (term->HasSubquery()) {
          kept.push_back(std::move(term));
          continue;
        }
        auto& scan = op->As<LogicalScan>();
        if (auto predicate = ToColumnPredicate(*term, scan)) {
          scan.pushed.terms.push_back(std::move(*predicate));
        } else {
          scan.pushed.residual.push_back(std::move(term));
        }
      }
      return WrapFilter(std::move(op), std::move(kept));
    }
    default:
      return PushChildrenOnly(std::move(op), std::move(terms));
  }
}

}  // namespace

LogicalPtr PushDownFilters(LogicalPtr plan) { return Push(std::move(plan), {}); }

}  // namespace floe::sql
