// The typing rules of floe's SQL (Trino's): implicit coercion to a common super type, which
// explicit casts exist, the exact result types of decimal arithmetic, and the mapping from a
// type as written to a SqlType. Pure functions; any thread may call them.
#pragma once

#include <optional>

#include "base/result.h"
#include "sql/parser/ast_expr.h"
#include "sql/types/sql_type.h"

namespace floe::sql {

// The narrowest type both `a` and `b` coerce to implicitly, if any.
std::optional<SqlType> CommonSuperType(const SqlType& a, const SqlType& b);

// Whether a value of `from` may be used where `to` is expected without a CAST.
bool CanCoerce(const SqlType& from, const SqlType& to);

// Whether CAST(from AS to) exists.
bool CanCast(const SqlType& from, const SqlType& to);

// The decimal type that holds every value of an exact numeric type (integer -> decimal(10,0)).
SqlType AsDecimal(const SqlType& exact);

enum class ArithmeticOp { kAdd, kSubtract, kMultiply, kDivide, kModulus };

// The result type of `a op b` for two decimals (after integers were widened with AsDecimal):
// add/subtract: p = 1 + max(p1-s1, p2-s2) + max(s1, s2), s = max(s1, s2);
// multiply: p = p1 + p2, s = s1 + s2; divide: s = max(s1, s2), p = p1 + s2 + max(0, s2 - s1);
// modulus: s = max(s1, s2), p = min(p1-s1, p2-s2) + s. Precision is capped at 38; a scale
// beyond 38 is an error.
Result<SqlType> DecimalArithmeticType(ArithmeticOp op, const SqlType& a, const SqlType& b);

// The type a written type name denotes ("decimal(10,2)", "varchar", "timestamp with time zone").
Result<SqlType> TypeFromName(const ast::TypeName& name);
// A type from Trino's text ("map(varchar,array(bigint))", words single-spaced, no other spaces).
Result<SqlType> TypeFromText(std::string_view text);

}  // namespace floe::sql
