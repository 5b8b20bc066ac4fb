#include "iceberg/expression.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <set>

#include <nlohmann/json.hpp>

namespace floe::iceberg {
namespace {

ExprPtr Make(Expression e) { return std::make_shared<const Expression>(std::move(e)); }

ExprOp Negate(ExprOp op) {
  switch (op) {
    case ExprOp::kTrue: return ExprOp::kFalse;
    case ExprOp::kFalse: return ExprOp::kTrue;
    case ExprOp::kAnd: return ExprOp::kOr;
    case ExprOp::kOr: return ExprOp::kAnd;
    case ExprOp::kIsNull: return ExprOp::kNotNull;
    case ExprOp::kNotNull: return ExprOp::kIsNull;
    case ExprOp::kIsNan: return ExprOp::kNotNan;
    case ExprOp::kNotNan: return ExprOp::kIsNan;
    case ExprOp::kLt: return ExprOp::kGtEq;
    case ExprOp::kLtEq: return ExprOp::kGt;
    case ExprOp::kGt: return ExprOp::kLtEq;
    case ExprOp::kGtEq: return ExprOp::kLt;
    case ExprOp::kEq: return ExprOp::kNotEq;
    case ExprOp::kNotEq: return ExprOp::kEq;
    case ExprOp::kIn: return ExprOp::kNotIn;
    case ExprOp::kNotIn: return ExprOp::kIn;
    case ExprOp::kStartsWith: return ExprOp::kNotStartsWith;
    case ExprOp::kNotStartsWith: return ExprOp::kStartsWith;
    case ExprOp::kNot: return ExprOp::kNot;
  }
  return op;
}

// --- The filter parser --------------------------------------------------------------------

class FilterParser {
 public:
  explicit FilterParser(std::string_view text) : text_(text) {}

  Result<ExprPtr> Parse() {
    FLOE_ASSIGN_OR_RETURN(ExprPtr e, ParseOr());
    SkipSpace();
    if (pos_ != text_.size()) return Error("unexpected text");
    return e;
  }

 private:
  std::unexpected<floe::Error> Error(std::string_view what) {
    return InvalidArgument("filter: {} at position {}: '{}'", what, pos_, text_.substr(pos_, 20));
  }

  void SkipSpace() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }

  // Consumes a keyword (case-insensitive, whole word).
  bool Keyword(std::string_view kw) {
    SkipSpace();
    if (text_.size() - pos_ < kw.size()) return false;
    for (size_t i = 0; i < kw.size(); ++i) {
      if (std::tolower(static_cast<unsigned char>(text_[pos_ + i])) != kw[i]) return false;
    }
    size_t end = pos_ + kw.size();
    if (end < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[end])) || text_[end] == '_')) return false;
    pos_ = end;
    return true;
  }

  bool Symbol(std::string_view s) {
    SkipSpace();
    if (text_.substr(pos_).starts_with(s)) {
      pos_ += s.size();
      return true;
    }
    return false;
  }

  Result<ExprPtr> ParseOr() {
    FLOE_ASSIGN_OR_RETURN(ExprPtr left, ParseAnd());
    while (Keyword("or")) {
      FLOE_ASSIGN_OR_RETURN(ExprPtr right, ParseAnd());
      left = Or(left, right);
    }
    return left;
  }

  Result<ExprPtr> ParseAnd() {
    FLOE_ASSIGN_OR_RETURN(ExprPtr left, ParseNot());
    while (Keyword("and")) {
      FLOE_ASSIGN_OR_RETURN(ExprPtr right, ParseNot());
      left = And(left, right);
    }
    return left;
  }

  Result<ExprPtr> ParseNot() {
    if (Keyword("not")) {
      FLOE_ASSIGN_OR_RETURN(ExprPtr inner, ParseNot());
      return Not(inner);
    }
    return ParsePrimary();
  }

  Result<std::string> Identifier() {
    SkipSpace();
    if (pos_ < text_.size() && text_[pos_] == '"') {
      size_t end = text_.find('"', pos_ + 1);
      if (end == std::string_view::npos) return Error("unterminated quoted name");
      std::string name(text_.substr(pos_ + 1, end - pos_ - 1));
      pos_ = end + 1;
      return name;
    }
    size_t start = pos_;
    while (pos_ < text_.size() &&
           (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_' || text_[pos_] == '.')) {
      ++pos_;
    }
    if (start == pos_) return Error("expected a column name");
    return std::string(text_.substr(start, pos_ - start));
  }

  Result<Literal> ParseLiteral() {
    SkipSpace();
    if (pos_ >= text_.size()) return Error("expected a value");
    if (text_[pos_] == '\'') {
      std::string s;
      ++pos_;
      while (true) {
        if (pos_ >= text_.size()) return Error("unterminated string");
        if (text_[pos_] == '\'') {
          if (pos_ + 1 < text_.size() && text_[pos_ + 1] == '\'') {
            s.push_back('\'');
            pos_ += 2;
            continue;
          }
          ++pos_;
          break;
        }
        s.push_back(text_[pos_++]);
      }
      return Literal::String(std::move(s));
    }
    if (Keyword("true")) return Literal::Boolean(true);
    if (Keyword("false")) return Literal::Boolean(false);
    // Typed literals: date '...', timestamp '...', decimal handled by binding the string.
    for (std::string_view kw : {"date", "timestamp", "time"}) {
      size_t save = pos_;
      if (Keyword(kw)) {
        SkipSpace();
        if (pos_ < text_.size() && text_[pos_] == '\'') return ParseLiteral();
        pos_ = save;
      }
    }
    size_t start = pos_;
    if (text_[pos_] == '-' || text_[pos_] == '+') ++pos_;
    bool fraction = false, exponent = false;
    while (pos_ < text_.size()) {
      char c = text_[pos_];
      if (std::isdigit(static_cast<unsigned char>(c))) {
        ++pos_;
      } else if (c == '.' && !fraction && !exponent) {
        fraction = true;
        ++pos_;
      } else if ((c == 'e' || c == 'E') && !exponent) {
        exponent = true;
        ++pos_;
        if (pos_ < text_.size() && (text_[pos_] == '-' || text_[pos_] == '+')) ++pos_;
      } else {
        break;
      }
    }
    std::string_view num = text_.substr(start, pos_ - start);
    if (num.empty() || num == "-" || num == "+") {
      pos_ = start;
      return Error("expected a value");
    }
    if (exponent) {
      double d = std::strtod(std::string(num).c_str(), nullptr);
      return Literal::Double(d);
    }
    if (fraction) {
      // Kept exact: bound to the column's type later (decimal, double, ...).
      std::string digits;
      int32_t scale = 0;
      bool after = false;
      for (char c : num) {
        if (c == '.') {
          after = true;
        } else {
          digits.push_back(c);
          if (after) ++scale;
        }
      }
      __int128 v = 0;
      bool negative = !digits.empty() && digits[0] == '-';
      for (char c : digits) {
        if (c >= '0' && c <= '9') v = v * 10 + (c - '0');
      }
      return Literal::Decimal(negative ? -v : v, scale);
    }
    int64_t v = 0;
    const char* b = num.data() + (num[0] == '+' ? 1 : 0);
    auto [p, ec] = std::from_chars(b, num.data() + num.size(), v);
    if (ec != std::errc() || p != num.data() + num.size()) return Error("number out of range");
    return Literal::Long(v);
  }

  Result<ExprPtr> ParsePrimary() {
    if (Symbol("(")) {
      FLOE_ASSIGN_OR_RETURN(ExprPtr inner, ParseOr());
      if (!Symbol(")")) return Error("expected ')'");
      return inner;
    }
    if (Keyword("true")) return True();
    if (Keyword("false")) return False();
    FLOE_ASSIGN_OR_RETURN(std::string column, Identifier());
    if (Keyword("is")) {
      bool negated = Keyword("not");
      if (Keyword("null")) return Predicate(negated ? ExprOp::kNotNull : ExprOp::kIsNull, column);
      if (Keyword("nan")) return Predicate(negated ? ExprOp::kNotNan : ExprOp::kIsNan, column);
      return Error("expected NULL or NAN after IS");
    }
    bool negated = Keyword("not");
    if (Keyword("in")) {
      if (!Symbol("(")) return Error("expected '(' after IN");
      std::vector<Literal> values;
      do {
        FLOE_ASSIGN_OR_RETURN(Literal v, ParseLiteral());
        values.push_back(std::move(v));
      } while (Symbol(","));
      if (!Symbol(")")) return Error("expected ')' closing IN");
      return Predicate(negated ? ExprOp::kNotIn : ExprOp::kIn, column, std::move(values));
    }
    if (Keyword("between")) {
      FLOE_ASSIGN_OR_RETURN(Literal lo, ParseLiteral());
      if (!Keyword("and")) return Error("expected AND in BETWEEN");
      FLOE_ASSIGN_OR_RETURN(Literal hi, ParseLiteral());
      ExprPtr e = And(Predicate(ExprOp::kGtEq, column, {lo}), Predicate(ExprOp::kLtEq, column, {hi}));
      return negated ? Not(e) : e;
    }
    if (Keyword("starts")) {
      if (!Keyword("with")) return Error("expected WITH after STARTS");
      FLOE_ASSIGN_OR_RETURN(Literal v, ParseLiteral());
      return Predicate(negated ? ExprOp::kNotStartsWith : ExprOp::kStartsWith, column, {v});
    }
    if (Keyword("like")) {
      FLOE_ASSIGN_OR_RETURN(Literal v, ParseLiteral());
      std::string pattern = v.as_bytes();
      if (pattern.empty() || pattern.back() != '%' || pattern.find_first_of("%_") != pattern.size() - 1) {
        return Error("only LIKE 'prefix%' is supported");
      }
      pattern.pop_back();
      return Predicate(negated ? ExprOp::kNotStartsWith : ExprOp::kStartsWith, column, {Literal::String(pattern)});
    }
    if (negated) return Error("expected IN, BETWEEN, LIKE or STARTS WITH after NOT");
    ExprOp op;
    if (Symbol("<=")) {
      op = ExprOp::kLtEq;
    } else if (Symbol(">=")) {
      op = ExprOp::kGtEq;
    } else if (Symbol("<>") || Symbol("!=")) {
      op = ExprOp::kNotEq;
    } else if (Symbol("==") || Symbol("=")) {
      op = ExprOp::kEq;
    } else if (Symbol("<")) {
      op = ExprOp::kLt;
    } else if (Symbol(">")) {
      op = ExprOp::kGt;
    } else {
      return Error("expected a comparison");
    }
    FLOE_ASSIGN_OR_RETURN(Literal v, ParseLiteral());
    return Predicate(op, column, {v});
  }

  std::string_view text_;
  size_t pos_ = 0;
};

Result<ExprPtr> BindImpl(const ExprPtr& e, const Schema& schema, bool negate) {
  switch (e->op) {
    case ExprOp::kTrue:
    case ExprOp::kFalse:
      return (e->op == ExprOp::kTrue) != negate ? True() : False();
    case ExprOp::kNot:
      return BindImpl(e->children[0], schema, !negate);
    case ExprOp::kAnd:
    case ExprOp::kOr: {
      FLOE_ASSIGN_OR_RETURN(ExprPtr a, BindImpl(e->children[0], schema, negate));
      FLOE_ASSIGN_OR_RETURN(ExprPtr b, BindImpl(e->children[1], schema, negate));
      bool is_and = (e->op == ExprOp::kAnd) != negate;
      return is_and ? And(a, b) : Or(a, b);
    }
    default:
      break;
  }
  const NestedField* field = schema.FindFieldByName(e->column);
  if (!field) {
    // Case-insensitive fallback: SQL users write names in any case.
    for (const NestedField& f : schema.fields()) {
      if (f.name.size() == e->column.size() &&
          std::equal(f.name.begin(), f.name.end(), e->column.begin(),
                     [](char a, char b) { return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b)); })) {
        field = &f;
      }
    }
  }
  if (!field) return InvalidArgument("filter: no column '{}'", e->column);
  if (!field->type->is_primitive()) return InvalidArgument("filter: column '{}' is not primitive", e->column);
  Expression out;
  out.op = negate ? Negate(e->op) : e->op;
  out.column = schema.FindColumnName(field->id);
  out.field_id = field->id;
  out.type = field->type;
  for (const Literal& l : e->literals) {
    auto cast = CastLiteral(l, *field->type);
    if (!cast) {
      return InvalidArgument("filter: {} does not fit column '{}' of type {}", l.ToString(), out.column,
                             field->type->ToString());
    }
    out.literals.push_back(*cast);
  }
  if ((out.op == ExprOp::kIsNan || out.op == ExprOp::kNotNan) && field->type->id() != TypeId::kFloat &&
      field->type->id() != TypeId::kDouble) {
    // NaN tests on non-floating columns are constant.
    return out.op == ExprOp::kIsNan ? False() : True();
  }
  if ((out.op == ExprOp::kStartsWith || out.op == ExprOp::kNotStartsWith) && field->type->id() != TypeId::kString) {
    return InvalidArgument("filter: STARTS WITH needs a string column, '{}' is {}", out.column, field->type->ToString());
  }
  return Make(std::move(out));
}

std::string OpText(ExprOp op) {
  switch (op) {
    case ExprOp::kLt: return "<";
    case ExprOp::kLtEq: return "<=";
    case ExprOp::kGt: return ">";
    case ExprOp::kGtEq: return ">=";
    case ExprOp::kEq: return "=";
    case ExprOp::kNotEq: return "!=";
    default: return "?";
  }
}

std::string LiteralText(const ExprPtr& e, const Literal& l) {
  if (e->type) {
    auto j = ToJsonValue(*e->type, l);
    if (j.is_string()) return "'" + j.get<std::string>() + "'";
    return j.dump();
  }
  return l.ToString();
}

}  // namespace

ExprPtr True() {
  static const ExprPtr kTrue = Make(Expression{ExprOp::kTrue});
  return kTrue;
}

ExprPtr False() {
  static const ExprPtr kFalse = Make(Expression{ExprOp::kFalse});
  return kFalse;
}

ExprPtr And(ExprPtr a, ExprPtr b) {
  if (a->op == ExprOp::kFalse || b->op == ExprOp::kFalse) return False();
  if (a->op == ExprOp::kTrue) return b;
  if (b->op == ExprOp::kTrue) return a;
  Expression e;
  e.op = ExprOp::kAnd;
  e.children = {std::move(a), std::move(b)};
  return Make(std::move(e));
}

ExprPtr Or(ExprPtr a, ExprPtr b) {
  if (a->op == ExprOp::kTrue || b->op == ExprOp::kTrue) return True();
  if (a->op == ExprOp::kFalse) return b;
  if (b->op == ExprOp::kFalse) return a;
  Expression e;
  e.op = ExprOp::kOr;
  e.children = {std::move(a), std::move(b)};
  return Make(std::move(e));
}

ExprPtr Not(ExprPtr a) {
  if (a->op == ExprOp::kTrue) return False();
  if (a->op == ExprOp::kFalse) return True();
  Expression e;
  e.op = ExprOp::kNot;
  e.children = {std::move(a)};
  return Make(std::move(e));
}

ExprPtr Predicate(ExprOp op, std::string column, std::vector<Literal> literals) {
  Expression e;
  e.op = op;
  e.column = std::move(column);
  e.literals = std::move(literals);
  return Make(std::move(e));
}

Result<ExprPtr> ParseFilter(std::string_view text) {
  std::string_view trimmed = text;
  while (!trimmed.empty() && std::isspace(static_cast<unsigned char>(trimmed.front()))) trimmed.remove_prefix(1);
  if (trimmed.empty()) return True();
  return FilterParser(text).Parse();
}

Result<ExprPtr> Bind(const ExprPtr& expr, const Schema& schema) { return BindImpl(expr, schema, false); }

std::string ToString(const ExprPtr& e) {
  switch (e->op) {
    case ExprOp::kTrue: return "true";
    case ExprOp::kFalse: return "false";
    case ExprOp::kAnd: return "(" + ToString(e->children[0]) + " and " + ToString(e->children[1]) + ")";
    case ExprOp::kOr: return "(" + ToString(e->children[0]) + " or " + ToString(e->children[1]) + ")";
    case ExprOp::kNot: return "not " + ToString(e->children[0]);
    case ExprOp::kIsNull: return e->column + " is null";
    case ExprOp::kNotNull: return e->column + " is not null";
    case ExprOp::kIsNan: return e->column + " is nan";
    case ExprOp::kNotNan: return e->column + " is not nan";
    case ExprOp::kIn:
    case ExprOp::kNotIn: {
      std::string out = e->column + (e->op == ExprOp::kIn ? " in (" : " not in (");
      for (size_t i = 0; i < e->literals.size(); ++i) out += (i ? ", " : "") + LiteralText(e, e->literals[i]);
      return out + ")";
    }
    case ExprOp::kStartsWith: return e->column + " starts with " + LiteralText(e, e->literals[0]);
    case ExprOp::kNotStartsWith: return e->column + " not starts with " + LiteralText(e, e->literals[0]);
    default: return e->column + " " + OpText(e->op) + " " + LiteralText(e, e->literals[0]);
  }
}

bool EvaluateRow(const ExprPtr& e, const std::function<Literal(int32_t)>& value) {
  switch (e->op) {
    case ExprOp::kTrue: return true;
    case ExprOp::kFalse: return false;
    case ExprOp::kAnd: return EvaluateRow(e->children[0], value) && EvaluateRow(e->children[1], value);
    case ExprOp::kOr: return EvaluateRow(e->children[0], value) || EvaluateRow(e->children[1], value);
    case ExprOp::kNot: return !EvaluateRow(e->children[0], value);
    default: break;
  }
  Literal v = value(e->field_id);
  switch (e->op) {
    case ExprOp::kIsNull: return v.is_null();
    case ExprOp::kNotNull: return !v.is_null();
    case ExprOp::kIsNan: return v.is_nan();
    case ExprOp::kNotNan: return !v.is_nan();
    default: break;
  }
  if (v.is_null()) return false;
  if (v.is_nan() && e->op != ExprOp::kNotEq && e->op != ExprOp::kNotIn) return false;
  switch (e->op) {
    case ExprOp::kLt: return v < e->literals[0];
    case ExprOp::kLtEq: return v <= e->literals[0];
    case ExprOp::kGt: return v > e->literals[0];
    case ExprOp::kGtEq: return v >= e->literals[0];
    case ExprOp::kEq: return v == e->literals[0];
    case ExprOp::kNotEq: return !(v == e->literals[0]);
    case ExprOp::kIn: return std::any_of(e->literals.begin(), e->literals.end(), [&](const Literal& l) { return v == l; });
    case ExprOp::kNotIn: return std::none_of(e->literals.begin(), e->literals.end(), [&](const Literal& l) { return v == l; });
    case ExprOp::kStartsWith: return v.as_bytes().starts_with(e->literals[0].as_bytes());
    case ExprOp::kNotStartsWith: return !v.as_bytes().starts_with(e->literals[0].as_bytes());
    default: return true;
  }
}

std::vector<int32_t> ReferencedFieldIds(const ExprPtr& e) {
  std::set<int32_t> ids;
  std::vector<const Expression*> pending = {e.get()};
  while (!pending.empty()) {
    const Expression* x = pending.back();
    pending.pop_back();
    if (x->field_id >= 0) ids.insert(x->field_id);
    for (const ExprPtr& c : x->children) pending.push_back(c.get());
  }
  return {ids.begin(), ids.end()};
}

}  // namespace floe::iceberg
