// Constant folding: evaluates constant subexpressions at plan time with SQL's null and
// three-valued logic rules, simplifies AND/OR with constant terms, and replaces filters that
// are always true (removed) or never true (an Empty node). Calls whose evaluation could fail
// (division by zero, overflow, bad casts) are left for run time, so an error only happens if
// the row is actually computed.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <string_view>

#include "sql/optimizer.h"
#include "sql/temporal.h"
#include "sql/value_cast.h"

namespace floe::sql {
namespace {

// Comparison of two non-null values of the same type: <0, 0, >0; empty if not comparable.
std::optional<int> Compare(const Value& a, const Value& b) {
  if (!(a.type() == b.type())) return std::nullopt;
  auto sign = [](auto x, auto y) { return x < y ? -1 : x > y ? 1 : 0; };
  switch (a.type().kind()) {
    case TypeKind::kBoolean: return sign(a.as_bool(), b.as_bool());
    case TypeKind::kTinyint:
    case TypeKind::kSmallint:
    case TypeKind::kInteger:
    case TypeKind::kBigint:
    case TypeKind::kDate:
    case TypeKind::kTimestamp:
    case TypeKind::kTimestampTz:
    case TypeKind::kIntervalDayTime:
    case TypeKind::kIntervalYearMonth: return sign(a.as_int(), b.as_int());
    case TypeKind::kDecimal: return sign(a.as_decimal(), b.as_decimal());
    case TypeKind::kReal:
    case TypeKind::kDouble: {
      double x = a.as_double(), y = b.as_double();
      if (std::isnan(x) || std::isnan(y)) return std::nullopt;
      return sign(x, y);
    }
    case TypeKind::kVarchar:
    case TypeKind::kVarbinary:
    case TypeKind::kUuid: return sign(a.as_string().compare(b.as_string()), 0);
    default: return std::nullopt;
  }
}

// SQL LIKE: % matches any run, _ one byte, `escape` makes the next character literal.
bool LikeMatches(std::string_view text, std::string_view pattern, char escape) {
  size_t t = 0, p = 0, star_p = std::string_view::npos, star_t = 0;
  while (t < text.size()) {
    if (p < pattern.size() && escape != '\0' && pattern[p] == escape && p + 1 < pattern.size() && pattern[p + 1] == text[t]) {
      t += 1;
      p += 2;
    } else if (p < pattern.size() && pattern[p] != '%' && (pattern[p] == '_' || pattern[p] == text[t]) &&
               !(escape != '\0' && pattern[p] == escape)) {
      ++t;
      ++p;
    } else if (p < pattern.size() && pattern[p] == '%') {
      star_p = p++;
      star_t = t;
    } else if (star_p != std::string_view::npos) {
      p = star_p + 1;
      t = ++star_t;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '%') ++p;
  return p == pattern.size();
}

bool CheckedAdd(int64_t a, int64_t b, int64_t& out) { return !__builtin_add_overflow(a, b, &out); }
bool CheckedSub(int64_t a, int64_t b, int64_t& out) { return !__builtin_sub_overflow(a, b, &out); }
bool CheckedMul(int64_t a, int64_t b, int64_t& out) { return !__builtin_mul_overflow(a, b, &out); }

bool FitsType(int64_t v, const SqlType& type) {
  switch (type.kind()) {
    case TypeKind::kTinyint: return v >= -128 && v <= 127;
    case TypeKind::kSmallint: return v >= -32768 && v <= 32767;
    case TypeKind::kInteger: return v >= INT32_MIN && v <= INT32_MAX;
    default: return true;
  }
}

std::optional<Value> Arithmetic(const std::string& name, const SqlType& result, const Value& a, const Value& b) {
  if (a.is_null() || b.is_null()) return Value::Null(result);
  if (result.IsInteger()) {
    int64_t x = a.as_int(), y = b.as_int(), out = 0;
    bool ok = name == "add" ? CheckedAdd(x, y, out) : name == "subtract" ? CheckedSub(x, y, out)
            : name == "multiply" ? CheckedMul(x, y, out) : false;
    if (name == "divide" && y != 0 && !(x == INT64_MIN && y == -1)) {
      out = x / y;
      ok = true;
    }
    if (name == "modulus" && y != 0) {
      out = y == -1 ? 0 : x % y;
      ok = true;
    }
    if (!ok || !FitsType(out, result)) return std::nullopt;
    return Value::Int(result, out);
  }
  if (result.kind() == TypeKind::kDouble || result.kind() == TypeKind::kReal) {
    double x = a.as_double(), y = b.as_double();
    if (name == "add") return Value::Double(result, x + y);
    if (name == "subtract") return Value::Double(result, x - y);
    if (name == "multiply") return Value::Double(result, x * y);
    if (name == "divide") return Value::Double(result, x / y);
    if (name == "modulus") return Value::Double(result, std::fmod(x, y));
    return std::nullopt;
  }
  if (result.kind() == TypeKind::kDecimal && (name == "add" || name == "subtract" || name == "multiply")) {
    // Align scales: arguments were cast to decimals; the result scale follows the rules.
    Int128 x = a.as_decimal(), y = b.as_decimal();
    Int128 out;
    if (name == "multiply") {
      if (a.type().scale() + b.type().scale() != result.scale()) return std::nullopt;
      if (__builtin_mul_overflow(x, y, &out)) return std::nullopt;
    } else {
      x *= PowerOfTen(result.scale() - a.type().scale());
      y *= PowerOfTen(result.scale() - b.type().scale());
      out = name == "add" ? x + y : x - y;
    }
    Int128 limit = PowerOfTen(result.precision());
    if (out >= limit || out <= -limit) return std::nullopt;
    return Value::Decimal(result, out);
  }
  // temporal +/- interval
  if ((result.kind() == TypeKind::kTimestamp || result.kind() == TypeKind::kTimestampTz) &&
      b.type().kind() == TypeKind::kIntervalDayTime && (name == "add" || name == "subtract")) {
    int64_t out = 0;
    if (!(name == "add" ? CheckedAdd(a.as_int(), b.as_int(), out) : CheckedSub(a.as_int(), b.as_int(), out))) return std::nullopt;
    return Value::Int(result, out);
  }
  if (result.kind() == TypeKind::kDate && b.type().kind() == TypeKind::kIntervalDayTime && (name == "add" || name == "subtract")) {
    if (b.as_int() % kMicrosPerDay != 0) return std::nullopt;
    int64_t days = b.as_int() / kMicrosPerDay;
    return Value::Int(result, name == "add" ? a.as_int() + days : a.as_int() - days);
  }
  if (result.IsTemporal() && b.type().kind() == TypeKind::kIntervalYearMonth && (name == "add" || name == "subtract")) {
    int64_t months = name == "add" ? b.as_int() : -b.as_int();
    bool is_date = result.kind() == TypeKind::kDate;
    int64_t days = is_date ? a.as_int() : FloorDiv(a.as_int(), kMicrosPerDay);
    int64_t rest = is_date ? 0 : a.as_int() - days * kMicrosPerDay;
    CivilDate d = CivilFromDays(days);
    int64_t total = d.year * 12 + (d.month - 1) + months;
    CivilDate moved{FloorDiv(total, 12), static_cast<int>(total - FloorDiv(total, 12) * 12) + 1, d.day};
    static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    bool leap = (moved.year % 4 == 0 && moved.year % 100 != 0) || moved.year % 400 == 0;
    int last = moved.month == 2 && leap ? 29 : kDays[moved.month - 1];
    moved.day = std::min(moved.day, last);
    int64_t new_days = DaysFromCivil(moved);
    return Value::Int(result, is_date ? new_days : new_days * kMicrosPerDay + rest);
  }
  return std::nullopt;
}

std::optional<Value> Call(const BoundExpr& e, const std::vector<Value>& args) {
  const std::string& name = e.name;
  const SqlType& type = e.type;
  if (name == "add" || name == "subtract" || name == "multiply" || name == "divide" || name == "modulus") {
    return Arithmetic(name, type, args[0], args[1]);
  }
  if (name == "eq" || name == "neq" || name == "lt" || name == "lte" || name == "gt" || name == "gte") {
    if (args[0].is_null() || args[1].is_null()) return Value::Null(SqlType::Boolean());
    auto c = Compare(args[0], args[1]);
    if (!c) return std::nullopt;
    bool r = name == "eq" ? *c == 0 : name == "neq" ? *c != 0 : name == "lt" ? *c < 0 : name == "lte" ? *c <= 0 : name == "gt" ? *c > 0 : *c >= 0;
    return Value::Boolean(r);
  }
  if (name == "is_distinct_from") {
    if (args[0].is_null() || args[1].is_null()) return Value::Boolean(args[0].is_null() != args[1].is_null());
    auto c = Compare(args[0], args[1]);
    if (!c) return std::nullopt;
    return Value::Boolean(*c != 0);
  }
  if (name == "negate") {
    if (args[0].is_null()) return Value::Null(type);
    if (type.IsInteger() || type.IsInterval()) {
      if (args[0].as_int() == INT64_MIN || !FitsType(-args[0].as_int(), type)) return std::nullopt;
      return Value::Int(type, -args[0].as_int());
    }
    if (type.kind() == TypeKind::kDecimal) return Value::Decimal(type, -args[0].as_decimal());
    if (type.kind() == TypeKind::kDouble || type.kind() == TypeKind::kReal) return Value::Double(type, -args[0].as_double());
    return std::nullopt;
  }
  if (name == "concat") {
    std::string out;
    for (const auto& a : args) {
      if (a.is_null()) return Value::Null(type);
      out += a.as_string();
    }
    return Value::String(type, std::move(out));
  }
  if (name == "coalesce") {
    for (const auto& a : args) {
      if (!a.is_null()) return a;
    }
    return Value::Null(type);
  }
  if (name == "nullif") {
    if (args[0].is_null() || args[1].is_null()) return args[0];
    auto c = Compare(args[0], args[1]);
    if (!c) return std::nullopt;
    return *c == 0 ? Value::Null(type) : args[0];
  }
  if (name == "lower" || name == "upper") {
    if (args[0].is_null()) return Value::Null(type);
    std::string s = args[0].as_string();
    for (char& c : s) {
      if (static_cast<unsigned char>(c) < 0x80) c = static_cast<char>(name == "lower" ? std::tolower(c) : std::toupper(c));
    }
    return Value::String(type, std::move(s));
  }
  if (name == "typeof") return Value::String(type, args[0].type().ToString());
  if (name == "like" || name == "ilike") {
    for (const auto& a : args) {
      if (a.is_null()) return Value::Null(type);
    }
    std::string text = args[0].as_string(), pattern = args[1].as_string();
    if (name == "ilike") {
      for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      for (char& c : pattern) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    char escape = args.size() > 2 && !args[2].as_string().empty() ? args[2].as_string()[0] : '\0';
    return Value::Boolean(LikeMatches(text, pattern, escape));
  }
  if (name == "length" && args[0].type().kind() == TypeKind::kVarchar) {
    if (args[0].is_null()) return Value::Null(type);
    int64_t n = 0;
    for (unsigned char c : args[0].as_string()) n += (c & 0xC0) != 0x80;
    return Value::Int(type, n);
  }
  if (name == "date_trunc" && !args[1].is_null() && !args[0].is_null()) {
    bool is_date = args[1].type().kind() == TypeKind::kDate;
    int64_t micros = is_date ? args[1].as_int() * kMicrosPerDay : args[1].as_int();
    auto truncated = TruncateMicros(args[0].as_string(), micros);
    if (!truncated) return std::nullopt;
    return Value::Int(type, is_date ? FloorDiv(*truncated, kMicrosPerDay) : *truncated);
  }
  if (name == "extract" && !args[1].is_null() && args[1].type().IsTemporal()) {
    bool is_date = args[1].type().kind() == TypeKind::kDate;
    auto field = ExtractField(args[0].as_string(), is_date ? args[1].as_int() * kMicrosPerDay : args[1].as_int());
    if (!field) return std::nullopt;
    return Value::Int(type, *field);
  }
  return std::nullopt;
}

}  // namespace

std::optional<Value> EvaluateConstant(const BoundExpr& e) {
  switch (e.kind) {
    case BoundKind::kConstant:
      return e.value;
    case BoundKind::kCast: {
      auto arg = EvaluateConstant(*e.args[0]);
      if (!arg) return std::nullopt;
      auto out = CastValue(*arg, e.type);
      if (!out && e.try_cast) return Value::Null(e.type);
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
      return Value::Boolean(v->is_null() != e.negated);
    }
    case BoundKind::kInList: {
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
        auto c = Compare(*subject, *item);
        if (!c) return std::nullopt;
        if (*c == 0) return Value::Boolean(!e.negated);
      }
      if (saw_null) return Value::Null(SqlType::Boolean());
      return Value::Boolean(e.negated);
    }
    case BoundKind::kCase: {
      size_t pairs = (e.args.size() - (e.has_else ? 1 : 0)) / 2;
      for (size_t i = 0; i < pairs; ++i) {
        auto condition = EvaluateConstant(*e.args[2 * i]);
        if (!condition) return std::nullopt;
        if (!condition->is_null() && condition->as_bool()) return EvaluateConstant(*e.args[2 * i + 1]);
      }
      if (e.has_else) return EvaluateConstant(*e.args.back());
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
      if (arg->kind == BoundKind::kConstant && !arg->value.is_null()) {
        if (arg->value.as_bool() == is_and) continue;               // TRUE in AND, FALSE in OR
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
  fold(plan->predicate);
  fold(plan->condition);
  for (auto& e : plan->expressions) fold(e);
  for (auto& e : plan->groups) fold(e);
  for (auto& row : plan->rows) {
    for (auto& e : row) fold(e);
  }
  for (auto& a : plan->aggregates) {
    for (auto& e : a.args) fold(e);
    fold(a.filter);
  }
  for (auto& k : plan->order) fold(k.expr);
  for (auto& e : plan->pushed.residual) fold(e);
  if (plan->kind == LogicalKind::kFilter && plan->predicate->kind == BoundKind::kConstant) {
    const Value& v = plan->predicate->value;
    if (!v.is_null() && v.as_bool()) return std::move(plan->children[0]);
    auto empty = std::make_unique<LogicalOperator>(LogicalKind::kEmpty);
    empty->output = plan->output;
    return empty;
  }
  if (plan->kind == LogicalKind::kJoin && plan->condition && plan->condition->kind == BoundKind::kConstant &&
      !plan->condition->value.is_null() && plan->condition->value.as_bool() && plan->join_type == LogicalJoinType::kInner) {
    plan->condition = nullptr;
    plan->join_type = LogicalJoinType::kCross;
  }
  return plan;
}

}  // namespace floe::sql
