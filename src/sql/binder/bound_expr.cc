#include "sql/binder/bound_expr.h"

#include <algorithm>

#include <fmt/format.h>

#include "sql/planner/logical_plan.h"

namespace floe::sql {
namespace {

// Operators shown infix by EXPLAIN.
const char* InfixSymbol(const std::string& name) {
  static const std::pair<const char*, const char*> kSymbols[] = {
      {"add", "+"},  {"subtract", "-"}, {"multiply", "*"}, {"divide", "/"}, {"modulus", "%"},
      {"eq", "="},   {"neq", "<>"},     {"lt", "<"},       {"lte", "<="},   {"gt", ">"},
      {"gte", ">="}, {"concat", "||"},  {"like", "LIKE"},  {"is_distinct_from", "IS DISTINCT FROM"},
  };
  for (auto [n, symbol] : kSymbols) {
    if (name == n) return symbol;
  }
  return nullptr;
}

std::string JoinArgs(const std::vector<BoundExprPtr>& args, size_t from = 0) {
  std::string out;
  for (size_t i = from; i < args.size(); ++i) {
    if (i > from) out += ", ";
    out += args[i]->ToString();
  }
  return out;
}

}  // namespace

BoundExprPtr BoundExpr::Clone() const {
  auto copy = std::make_unique<BoundExpr>(kind, type);
  copy->location = location;
  copy->value = value;
  copy->column = column;
  copy->name = name;
  for (const auto& arg : args) copy->args.push_back(arg->Clone());
  copy->negated = negated;
  copy->try_cast = try_cast;
  copy->has_else = has_else;
  copy->parameter_index = parameter_index;
  copy->subquery_kind = subquery_kind;
  copy->compare_op = compare_op;
  copy->quantifier_all = quantifier_all;
  copy->plan = plan;
  copy->correlated = correlated;
  return copy;
}

bool BoundExpr::Equals(const BoundExpr& other) const {
  if (kind != other.kind || !(type == other.type) || args.size() != other.args.size()) return false;
  switch (kind) {
    case BoundKind::kConstant:
      if (!(value == other.value)) return false;
      break;
    case BoundKind::kColumn:
      if (column != other.column) return false;
      break;
    case BoundKind::kParameter:
      if (parameter_index != other.parameter_index) return false;
      break;
    case BoundKind::kCall:
      if (name != other.name) return false;
      break;
    case BoundKind::kSubquery:
      return false;  // Two subqueries are never treated as the same expression.
    default:
      break;
  }
  if (negated != other.negated || try_cast != other.try_cast || has_else != other.has_else) return false;
  for (size_t i = 0; i < args.size(); ++i) {
    if (!args[i]->Equals(*other.args[i])) return false;
  }
  return true;
}

bool BoundExpr::IsConstant() const {
  switch (kind) {
    case BoundKind::kConstant:
      return true;
    case BoundKind::kColumn:
    case BoundKind::kParameter:
    case BoundKind::kSubquery:
      return false;
    case BoundKind::kCall:
      // Volatile or session-dependent functions are not constants.
      if (name == "now" || name == "current_timestamp" || name == "current_date" || name == "localtimestamp" ||
          name == "random" || name == "uuid") {
        return false;
      }
      break;
    default:
      break;
  }
  for (const auto& arg : args) {
    if (!arg->IsConstant()) return false;
  }
  return true;
}

std::string BoundExpr::ToString() const {
  switch (kind) {
    case BoundKind::kConstant:
      return value.ToSql();
    case BoundKind::kColumn:
      return fmt::format("{}#{}", name, column.value());
    case BoundKind::kParameter:
      return fmt::format("${}", parameter_index);
    case BoundKind::kCall: {
      if (const char* symbol = InfixSymbol(name); symbol != nullptr && args.size() == 2) {
        return fmt::format("({} {} {})", args[0]->ToString(), symbol, args[1]->ToString());
      }
      if (name == "negate" && args.size() == 1) return fmt::format("(-{})", args[0]->ToString());
      if (name == "field_access" && args.size() == 2) return fmt::format("{}.{}", args[0]->ToString(), args[1]->value.ToText());
      return fmt::format("{}({})", name, JoinArgs(args));
    }
    case BoundKind::kCast:
      return fmt::format("{}({} AS {})", try_cast ? "TRY_CAST" : "CAST", args[0]->ToString(), type.ToString());
    case BoundKind::kCase: {
      std::string out = "CASE";
      size_t pairs = (args.size() - (has_else ? 1 : 0)) / 2;
      for (size_t i = 0; i < pairs; ++i) {
        out += fmt::format(" WHEN {} THEN {}", args[2 * i]->ToString(), args[2 * i + 1]->ToString());
      }
      if (has_else) out += fmt::format(" ELSE {}", args.back()->ToString());
      return out + " END";
    }
    case BoundKind::kAnd:
    case BoundKind::kOr: {
      std::string out = "(";
      for (size_t i = 0; i < args.size(); ++i) {
        if (i > 0) out += kind == BoundKind::kAnd ? " AND " : " OR ";
        out += args[i]->ToString();
      }
      return out + ")";
    }
    case BoundKind::kNot:
      return fmt::format("(NOT {})", args[0]->ToString());
    case BoundKind::kIsNull:
      return fmt::format("({} IS {}NULL)", args[0]->ToString(), negated ? "NOT " : "");
    case BoundKind::kInList:
      return fmt::format("({} {}IN ({}))", args[0]->ToString(), negated ? "NOT " : "", JoinArgs(args, 1));
    case BoundKind::kSubquery: {
      std::string correlation;
      if (!correlated.empty()) {
        correlation = " correlated:";
        for (ColumnId id : correlated) correlation += fmt::format(" #{}", id.value());
      }
      switch (subquery_kind) {
        case SubqueryKind::kScalar: return fmt::format("(subquery{})", correlation);
        case SubqueryKind::kExists: return fmt::format("{}EXISTS(subquery{})", negated ? "NOT " : "", correlation);
        case SubqueryKind::kIn:
          return fmt::format("({} {}IN (subquery{}))", args[0]->ToString(), negated ? "NOT " : "", correlation);
        case SubqueryKind::kQuantified:
          return fmt::format("({} {} {} (subquery{}))", args[0]->ToString(), compare_op, quantifier_all ? "ALL" : "ANY",
                             correlation);
      }
      return "(subquery)";
    }
  }
  return "?";
}

void BoundExpr::CollectColumns(std::vector<ColumnId>& out) const {
  if (kind == BoundKind::kColumn) out.push_back(column);
  if (kind == BoundKind::kSubquery) out.insert(out.end(), correlated.begin(), correlated.end());
  for (const auto& arg : args) arg->CollectColumns(out);
}

std::set<ColumnId> BoundExpr::ColumnsRead() const {
  std::vector<ColumnId> ids;
  CollectColumns(ids);
  return std::set<ColumnId>(ids.begin(), ids.end());
}

bool BoundExpr::HasSubquery() const {
  return kind == BoundKind::kSubquery || std::any_of(args.begin(), args.end(), [](const BoundExprPtr& a) { return a && a->HasSubquery(); });
}

bool Intersects(const std::set<ColumnId>& a, const std::set<ColumnId>& b) {
  return std::any_of(a.begin(), a.end(), [&](ColumnId id) { return b.contains(id); });
}

BoundExprPtr MakeConstant(Value value) {
  auto out = std::make_unique<BoundExpr>(BoundKind::kConstant, value.type());
  out->value = std::move(value);
  return out;
}

BoundExprPtr MakeColumn(ColumnId id, SqlType type, std::string name) {
  auto out = std::make_unique<BoundExpr>(BoundKind::kColumn, std::move(type));
  out->column = id;
  out->name = std::move(name);
  return out;
}

BoundExprPtr MakeCall(std::string name, SqlType type, std::vector<BoundExprPtr> args) {
  auto out = std::make_unique<BoundExpr>(BoundKind::kCall, std::move(type));
  out->name = std::move(name);
  out->args = std::move(args);
  return out;
}

BoundExprPtr MakeCast(BoundExprPtr arg, SqlType type, bool try_cast) {
  if (arg->type == type) return arg;
  auto out = std::make_unique<BoundExpr>(BoundKind::kCast, std::move(type));
  out->location = arg->location;
  out->try_cast = try_cast;
  out->args.push_back(std::move(arg));
  return out;
}

void SplitConjunction(BoundExprPtr expr, std::vector<BoundExprPtr>& out) {
  if (!expr) return;
  if (expr->kind == BoundKind::kAnd) {
    for (auto& arg : expr->args) SplitConjunction(std::move(arg), out);
    return;
  }
  out.push_back(std::move(expr));
}

BoundExprPtr CombineConjunction(std::vector<BoundExprPtr> terms) {
  if (terms.empty()) return nullptr;
  if (terms.size() == 1) return std::move(terms[0]);
  auto out = std::make_unique<BoundExpr>(BoundKind::kAnd, SqlType::Boolean());
  out->args = std::move(terms);
  return out;
}

}  // namespace floe::sql
