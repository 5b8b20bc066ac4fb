// Row-at-a-time evaluation of scalar functions and operators over Values: the one definition of
// each function's semantics (null rules, Trino's decimal arithmetic, overflow and division
// errors, string and date functions). The constant folder calls it at plan time (and keeps a
// call for run time when it fails); the vectorized evaluator calls it for functions without a
// vectorized kernel, and its kernels follow the same rules. Pure functions; any thread.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "sql/types/value.h"

namespace floe::sql {

// <0, 0, >0 for two non-null values of the same type; empty when they are not comparable
// (different types, NaN).
std::optional<int> CompareValues(const Value& a, const Value& b);

// ORDER BY's total order of two values of one orderable type, NULLs included: a NULL (nested
// ones too) sorts after every value, NaN after every number, arrays and rows compare element by
// element, field by field, a shorter array that is a prefix of a longer one first. The caller
// places top-level NULLs itself (NULLS FIRST/LAST) and reverses for DESC.
int CompareForSort(const Value& a, const Value& b);

// SQL LIKE: % matches any run, _ one byte, `escape` (or '\0') makes the next character literal.
bool LikeMatches(std::string_view text, std::string_view pattern, char escape);

// `name(args)` with result type `type`. Runtime failures (division by zero, overflow, bad
// input) are kInvalidArgument errors with Trino's messages; a function with no implementation is
// kNotImplemented. Volatile functions (now, random, uuid) are not handled here.
Result<Value> EvaluateScalarCall(const std::string& name, const SqlType& type, const std::vector<Value>& args);

// Decimal helpers shared with the vectorized kernels: rescales an unscaled value from one
// scale to another (rounding half away from zero when reducing).
Int128 RescaleDecimal(Int128 value, int from_scale, int to_scale);
// Whether `value` fits in `precision` digits.
bool DecimalFits(Int128 value, int precision);
// Decimal division of x (scale sx) by y (scale sy) to result scale rs, rounding half away from
// zero. The caller checks y != 0.
std::optional<Int128> DivideDecimal(Int128 x, int sx, Int128 y, int sy, int rs);

}  // namespace floe::sql
