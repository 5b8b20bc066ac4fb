// Constant folding: evaluates constant subexpressions at plan time with SQL's null and
// three-valued logic rules, simplifies AND/OR with constant terms, and replaces filters that
// are always true (removed) or never true (an Empty node). Calls whose evaluation could fail
// (division by zero, overflow, bad casts) are left for run time, so an error only happens if
// the row is actually computed.
#include "sql/planner/optimizer.h"
#include "sql/function/scalar_evaluation.h"
#include "sql/types/temporal.h"
#include "sql/types/value_cast.h"

namespace floe::sql {
namespace {

std::optional<Value> Call(const BoundExpr& e, const std::vector<Value>& args) {
  auto out = EvaluateScalarCall(e.As<BoundCall>().name, e.type, args);
  if (!out.has_value()) return std::nullopt;  // Left for run time, where the error is raised.
  return std::move(*out);
}

}  // namespace

std::optional<Value> EvaluateConstant(const BoundExpr& e) {
  switch (e.kind) {
    case BoundKind::kConstant:
      return e.As<BoundConstant>().value;
    case BoundKind::kCast: {
      auto arg = EvaluateConstant(*e.args[0]);
      if (!arg) return std::nullopt;
      auto out = CastValue(*arg, e.type);
      // CastValue does not cast arrays, maps or rows: their casts (TRY_CAST's NULL included) are
      // left for run time.
      bool nested = e.type.IsNested() || arg->type().IsNested();
      if (!out && e.As<BoundCast>().try_cast && !nested) return Value::Null(e.type);
      return out;
    }
    case BoundKind::kNot: {
      auto arg = EvaluateConstant(*e.args[0]);
      if (!arg) return std::nullopt;
      if (arg->is_null()) return Value::Null(SqlType::Boolean());
      return Value::Boolean(!arg->as_bool());
    }
    case BoundKind::kAnd:
    case BoundKind::kOr: {
      bool is_and = e.kind == BoundKind::kAnd;
      bool saw_null = false;
      for (const auto& arg : e.args) {
        auto v = EvaluateConstant(*arg);
        if (!v) return std::nullopt;
        if (v->is_null()) {
          saw_null = true;
        } else if (v->as_bool() != is_and) {
          return Value::Boolean(!is_and);
        }
      }
      return saw_null ? Value::Null(SqlType::Boolean()) : Value::Boolean(is_and);
    }
    case BoundKind::kIsNull: {
      auto v = EvaluateConstant(*e.args[0]);
      if (!v) return std::nullopt;
      return Value::Boolean(v->is_null() != e.As<BoundIsNull>().negated);
    }
    case BoundKind::kInList: {
      bool negated = e.As<BoundInList>().negated;
      auto subject = EvaluateConstant(*e.args[0]);
      if (!subject) return std::nullopt;
      if (subject->is_null()) return Value::Null(SqlType::Boolean());
      bool saw_null = false;
      for (size_t i = 1; i < e.args.size(); ++i) {
        auto item = EvaluateConstant(*e.args[i]);
        if (!item) return std::nullopt;
        if (item->is_null()) {
          saw_null = true;
          continue;
        }
        auto c = CompareValues(*subject, *item);
        if (!c) return std::nullopt;
        if (*c == 0) return Value::Boolean(!negated);
      }
      if (saw_null) return Value::Null(SqlType::Boolean());
      return Value::Boolean(negated);
    }
    case BoundKind::kCase: {
      bool has_else = e.As<BoundCase>().has_else;
      size_t pairs = (e.args.size() - (has_else ? 1 : 0)) / 2;
      for (size_t i = 0; i < pairs; ++i) {
        auto condition = EvaluateConstant(*e.args[2 * i]);
        if (!condition) return std::nullopt;
        if (!condition->is_null() && condition->as_bool()) return EvaluateConstant(*e.args[2 * i + 1]);
      }
      if (has_else) return EvaluateConstant(*e.args.back());
      return Value::Null(e.type);
    }
    case BoundKind::kCall: {
      if (!e.IsConstant()) return std::nullopt;
      std::vector<Value> args;
      for (const auto& arg : e.args) {
        auto v = EvaluateConstant(*arg);
        if (!v) return std::nullopt;
        args.push_back(std::move(*v));
      }
      auto out = Call(e, args);
      if (out && !(out->type() == e.type)) out = CastValue(*out, e.type);
      return out;
    }
    default:
      return std::nullopt;
  }
}

BoundExprPtr FoldExpression(BoundExprPtr e) {
  if (!e || e->kind == BoundKind::kConstant || e->kind == BoundKind::kColumn || e->kind == BoundKind::kParameter) return e;
  for (auto& arg : e->args) arg = FoldExpression(std::move(arg));
  if (e->IsConstant()) {
    if (auto v = EvaluateConstant(*e)) {
      int location = e->location;
      auto out = MakeConstant(std::move(*v));
      out->location = location;
      return out;
    }
    return e;
  }
  // Partial simplification of AND/OR: drop neutral terms, short-circuit on absorbing ones.
  if (e->kind == BoundKind::kAnd || e->kind == BoundKind::kOr) {
    bool is_and = e->kind == BoundKind::kAnd;
    std::vector<BoundExprPtr> kept;
    for (auto& arg : e->args) {
      if (arg->kind == BoundKind::kConstant && !arg->As<BoundConstant>().value.is_null()) {
        if (arg->As<BoundConstant>().value.as_bool() == is_and) continue;  // TRUE in AND, FALSE in OR
        return MakeConstant(Value::Boolean(!is_and));                // FALSE in AND, TRUE in OR
      }
      kept.push_back(std::move(arg));
    }
    if (kept.empty()) return MakeConstant(Value::Boolean(is_and));
    if (kept.size() == 1) return std::move(kept[0]);
    e->args = std::move(kept);
  }
  return e;
}

LogicalPtr FoldConstants(LogicalPtr plan) {
  for (auto& child : plan->children) child = FoldConstants(std::move(child));
  auto fold = [](BoundExprPtr& e) {
    if (e) e = FoldExpression(std::move(e));
  };
  // Not every slot: windows, and an aggregate's ORDER BY keys, keep their expressions as bound.
  switch (plan->kind) {
    case LogicalKind::kFilter: {
      auto& filter = plan->As<LogicalFilter>();
      fold(filter.predicate);
      if (filter.predicate->kind != BoundKind::kConstant) break;
      const Value& v = filter.predicate->As<BoundConstant>().value;
      if (!v.is_null() && v.as_bool()) return std::move(filter.children[0]);
      auto empty = std::make_unique<LogicalEmpty>();
      empty->output = filter.output;
      return empty;
    }
    case LogicalKind::kJoin: {
      auto& join = plan->As<LogicalJoin>();
      fold(join.condition);
      if (join.condition && join.condition->kind == BoundKind::kConstant &&
          !join.condition->As<BoundConstant>().value.is_null() && join.condition->As<BoundConstant>().value.as_bool() &&
          join.join_type == LogicalJoinType::kInner) {
        join.condition = nullptr;
        join.join_type = LogicalJoinType::kCross;
      }
      break;
    }
    case LogicalKind::kProject:
      for (auto& e : plan->As<LogicalProject>().expressions) fold(e);
      break;
    case LogicalKind::kUnnest:
      for (auto& e : plan->As<LogicalUnnest>().expressions) fold(e);
      break;
    case LogicalKind::kAggregate: {
      auto& aggregate = plan->As<LogicalAggregate>();
      for (auto& e : aggregate.groups) fold(e);
      for (auto& a : aggregate.aggregates) {
        for (auto& e : a.args) fold(e);
        fold(a.filter);
      }
      break;
    }
    case LogicalKind::kValues:
      for (auto& row : plan->As<LogicalValues>().rows) {
        for (auto& e : row) fold(e);
      }
      break;
    case LogicalKind::kSort:
      for (auto& k : plan->As<LogicalSort>().order) fold(k.expr);
      break;
    case LogicalKind::kTopN:
      for (auto& k : plan->As<LogicalTopN>().order) fold(k.expr);
      break;
    case LogicalKind::kScan:
      for (auto& e : plan->As<LogicalScan>().pushed.residual) fold(e);
      break;
    default:
      break;
  }
  return plan;
}

}  // namespace floe::sql
