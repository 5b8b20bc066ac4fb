// Expression: a row filter over a table's columns, as scan planning uses it (format/spec.md,
// "Scan Planning"): true/false, and/or/not, null and NaN tests, comparisons with literals,
// IN lists and string prefixes.
//
// Expressions are immutable trees shared through ExprPtr. An unbound expression names columns;
// Bind() resolves them against a schema (field id and type, literals cast to the column type)
// and pushes NOT down to the predicates, so every evaluator sees only and/or and predicates.
// Any thread may read an expression.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "iceberg/literal.h"
#include "iceberg/schema.h"

namespace floe::iceberg {

enum class ExprOp {
  kTrue, kFalse, kAnd, kOr, kNot,
  kIsNull, kNotNull, kIsNan, kNotNan,
  kLt, kLtEq, kGt, kGtEq, kEq, kNotEq,
  kIn, kNotIn, kStartsWith, kNotStartsWith,
};

struct Expression;
using ExprPtr = std::shared_ptr<const Expression>;

struct Expression {
  ExprOp op = ExprOp::kTrue;
  std::string column;        // The referenced column's name (predicates).
  int32_t field_id = -1;     // Set once bound.
  TypePtr type;              // The column's type, once bound.
  std::vector<Literal> literals;  // One for comparisons and prefixes, any number for IN.
  std::vector<ExprPtr> children;  // and/or: two; not: one.

  bool is_predicate() const { return op >= ExprOp::kIsNull; }
  bool bound() const { return field_id >= 0; }
};

ExprPtr True();
ExprPtr False();
ExprPtr And(ExprPtr a, ExprPtr b);  // Folds constants.
ExprPtr Or(ExprPtr a, ExprPtr b);
ExprPtr Not(ExprPtr a);
ExprPtr Predicate(ExprOp op, std::string column, std::vector<Literal> literals = {});

// Parses filter text: `a >= 5 and (b = 'x' or c is null) and d in (1, 2) and e between 1 and 9
// and not f starts with 'p'`. Keywords are case-insensitive; strings are single-quoted
// ('it''s'); numbers with a fraction are decimals until bound. Errors name the position.
Result<ExprPtr> ParseFilter(std::string_view text);

// Resolves columns and literal types; removes NOT. Unknown columns and literals that do not fit
// the column's type are InvalidArgument.
Result<ExprPtr> Bind(const ExprPtr& expr, const Schema& schema);

// Readable form, e.g. "(l_quantity < 24 and l_shipdate >= '1994-01-01')".
std::string ToString(const ExprPtr& expr);

// Evaluates a bound expression on one row; `value(field_id)` gives the row's value (null for
// missing columns). Comparisons with null are false, as in SQL.
bool EvaluateRow(const ExprPtr& bound, const std::function<Literal(int32_t)>& value);

// Field ids a bound expression reads.
std::vector<int32_t> ReferencedFieldIds(const ExprPtr& bound);

}  // namespace floe::iceberg
