#include "sql/binder/bound_expr.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

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

// A new expression of `e`'s kind with copies of its kind's fields (not the common ones).
BoundExprPtr CopyKindFields(const BoundExpr& e) {
  switch (e.kind) {
    case BoundKind::kConstant: {
      auto copy = std::make_unique<BoundConstant>(e.type);
      copy->value = e.As<BoundConstant>().value;
      return copy;
    }
    case BoundKind::kColumn: {
      const auto& from = e.As<BoundColumnRef>();
      auto copy = std::make_unique<BoundColumnRef>(e.type);
      copy->column = from.column;
      copy->name = from.name;
      return copy;
    }
    case BoundKind::kParameter: {
      auto copy = std::make_unique<BoundParameter>(e.type);
      copy->parameter_index = e.As<BoundParameter>().parameter_index;
      return copy;
    }
    case BoundKind::kCall: {
      auto copy = std::make_unique<BoundCall>(e.type);
      copy->name = e.As<BoundCall>().name;
      return copy;
    }
    case BoundKind::kCast: {
      auto copy = std::make_unique<BoundCast>(e.type);
      copy->try_cast = e.As<BoundCast>().try_cast;
      return copy;
    }
    case BoundKind::kCase: {
      auto copy = std::make_unique<BoundCase>(e.type);
      copy->has_else = e.As<BoundCase>().has_else;
      return copy;
    }
    case BoundKind::kAnd:
      return std::make_unique<BoundAnd>(e.type);
    case BoundKind::kOr:
      return std::make_unique<BoundOr>(e.type);
    case BoundKind::kNot:
      return std::make_unique<BoundNot>(e.type);
    case BoundKind::kIsNull: {
      auto copy = std::make_unique<BoundIsNull>(e.type);
      copy->negated = e.As<BoundIsNull>().negated;
      return copy;
    }
    case BoundKind::kInList: {
      auto copy = std::make_unique<BoundInList>(e.type);
      copy->negated = e.As<BoundInList>().negated;
      return copy;
    }
    case BoundKind::kSubquery: {
      const auto& from = e.As<BoundSubquery>();
      auto copy = std::make_unique<BoundSubquery>(e.type);
      copy->subquery_kind = from.subquery_kind;
      copy->compare_op = from.compare_op;
      copy->quantifier_all = from.quantifier_all;
      copy->plan = from.plan;
      copy->correlated = from.correlated;
      return copy;
    }
  }
  std::abort();
}

// Whether the kind's own fields are equal (`a` and `b` being of one kind).
bool KindFieldsEqual(const BoundExpr& a, const BoundExpr& b) {
  switch (a.kind) {
    case BoundKind::kConstant:
      return a.As<BoundConstant>().value == b.As<BoundConstant>().value;
    case BoundKind::kColumn:
      return a.As<BoundColumnRef>().column == b.As<BoundColumnRef>().column;
    case BoundKind::kParameter:
      return a.As<BoundParameter>().parameter_index == b.As<BoundParameter>().parameter_index;
    case BoundKind::kCall:
      return a.As<BoundCall>().name == b.As<BoundCall>().name;
    case BoundKind::kCast:
      return a.As<BoundCast>().try_cast == b.As<BoundCast>().try_cast;
    case BoundKind::kCase:
      return a.As<BoundCase>().has_else == b.As<BoundCase>().has_else;
    case BoundKind::kIsNull:
      return a.As<BoundIsNull>().negated == b.As<BoundIsNull>().negated;
    case BoundKind::kInList:
      return a.As<BoundInList>().negated == b.As<BoundInList>().negated;
    case BoundKind::kSubquery:
      return false;  // Two subqueries are never treated as the same expression.
    case BoundKind::kAnd:
    case BoundKind::kOr:
    case BoundKind::kNot:
      return true;
  }
  return true;
}

}  // namespace

BoundExprPtr BoundExpr::Clone() const {
  BoundExprPtr copy = CopyKindFields(*this);
  copy->location = location;
  for (const auto& arg : args) copy->args.push_back(arg->Clone());
  return copy;
}

bool BoundExpr::Equals(const BoundExpr& other) const {
  if (kind != other.kind || !(type == other.type) || args.size() != other.args.size()) return false;
  if (!KindFieldsEqual(*this, other)) return false;
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
    case BoundKind::kCall: {
      // Volatile or session-dependent functions are not constants.
      const std::string& name = As<BoundCall>().name;
      if (name == "now" || name == "current_timestamp" || name == "current_date" || name == "localtimestamp" ||
          name == "random" || name == "uuid") {
        return false;
      }
      break;
    }
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
      return As<BoundConstant>().value.ToSql();
    case BoundKind::kColumn: {
      const auto& column = As<BoundColumnRef>();
      return fmt::format("{}#{}", column.name, column.column.value());
    }
    case BoundKind::kParameter:
      return fmt::format("${}", As<BoundParameter>().parameter_index);
    case BoundKind::kCall: {
      const std::string& name = As<BoundCall>().name;
      if (const char* symbol = InfixSymbol(name); symbol != nullptr && args.size() == 2) {
        return fmt::format("({} {} {})", args[0]->ToString(), symbol, args[1]->ToString());
      }
      if (name == "negate" && args.size() == 1) return fmt::format("(-{})", args[0]->ToString());
      // The binder makes the field's name a constant.
      if (name == "field_access" && args.size() == 2 && args[1]->kind == BoundKind::kConstant) {
        return fmt::format("{}.{}", args[0]->ToString(), args[1]->As<BoundConstant>().value.ToText());
      }
      return fmt::format("{}({})", name, JoinArgs(args));
    }
    case BoundKind::kCast:
      return fmt::format("{}({} AS {})", As<BoundCast>().try_cast ? "TRY_CAST" : "CAST", args[0]->ToString(),
                         type.ToString());
    case BoundKind::kCase: {
      bool has_else = As<BoundCase>().has_else;
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
      return fmt::format("({} IS {}NULL)", args[0]->ToString(), As<BoundIsNull>().negated ? "NOT " : "");
    case BoundKind::kInList:
      return fmt::format("({} {}IN ({}))", args[0]->ToString(), As<BoundInList>().negated ? "NOT " : "",
                         JoinArgs(args, 1));
    case BoundKind::kSubquery: {
      const auto& subquery = As<BoundSubquery>();
      std::string correlation;
      if (!subquery.correlated.empty()) {
        correlation = " correlated:";
        for (ColumnId id : subquery.correlated) correlation += fmt::format(" #{}", id.value());
      }
      switch (subquery.subquery_kind) {
        case SubqueryKind::kScalar: return fmt::format("(subquery{})", correlation);
        case SubqueryKind::kExists:
          return fmt::format("EXISTS(subquery{})", correlation);
        case SubqueryKind::kIn:
          return fmt::format("({} IN (subquery{}))", args[0]->ToString(), correlation);
        case SubqueryKind::kQuantified:
          return fmt::format("({} {} {} (subquery{}))", args[0]->ToString(), subquery.compare_op,
                             subquery.quantifier_all ? "ALL" : "ANY", correlation);
      }
      return "(subquery)";
    }
  }
  return "?";
}

void BoundExpr::CollectColumns(std::vector<ColumnId>& out) const {
  if (kind == BoundKind::kColumn) out.push_back(As<BoundColumnRef>().column);
  if (kind == BoundKind::kSubquery) {
    const auto& correlated = As<BoundSubquery>().correlated;
    out.insert(out.end(), correlated.begin(), correlated.end());
  }
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

const char* BoundKindName(BoundKind kind) {
  switch (kind) {
    case BoundKind::kConstant:
      return "Constant";
    case BoundKind::kColumn:
      return "Column";
    case BoundKind::kParameter:
      return "Parameter";
    case BoundKind::kCall:
      return "Call";
    case BoundKind::kCast:
      return "Cast";
    case BoundKind::kCase:
      return "Case";
    case BoundKind::kAnd:
      return "And";
    case BoundKind::kOr:
      return "Or";
    case BoundKind::kNot:
      return "Not";
    case BoundKind::kIsNull:
      return "IsNull";
    case BoundKind::kInList:
      return "InList";
    case BoundKind::kSubquery:
      return "Subquery";
  }
  return "?";
}

void BoundExpr::KindMismatch(BoundKind wanted) const {
  std::fprintf(stderr, "floe: a %s expression was read as a %s expression\n", BoundKindName(kind),
               BoundKindName(wanted));
  std::abort();
}

std::unique_ptr<BoundConstant> MakeConstant(Value value) {
  auto out = std::make_unique<BoundConstant>(value.type());
  out->value = std::move(value);
  return out;
}

std::unique_ptr<BoundColumnRef> MakeColumn(ColumnId id, SqlType type, std::string name) {
  auto out = std::make_unique<BoundColumnRef>(std::move(type));
  out->column = id;
  out->name = std::move(name);
  return out;
}

std::unique_ptr<BoundCall> MakeCall(std::string name, SqlType type, std::vector<BoundExprPtr> args) {
  auto out = std::make_unique<BoundCall>(std::move(type));
  out->name = std::move(name);
  out->args = std::move(args);
  return out;
}

BoundExprPtr MakeCast(BoundExprPtr arg, SqlType type, bool try_cast) {
  if (arg->type == type) return arg;
  auto out = std::make_unique<BoundCast>(std::move(type));
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
  auto out = std::make_unique<BoundAnd>(SqlType::Boolean());
  out->args = std::move(terms);
  return out;
}

}  // namespace floe::sql
