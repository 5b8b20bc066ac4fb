// The array and map functions (array_functions.cc, map_functions.cc) and what they share: the
// element access of `a[i]`, `m[k]` and element_at over both, element equality, and the row form
// of every nested function. Each function owns its vector kernel; its row form (what the
// constant folder evaluates) runs that kernel on one-row vectors, so a folded constant and a
// column can never disagree.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "sql/function/function_registry.h"
#include "sql/types/value.h"

namespace floe::sql {

// Whether `name` is an array or map function, whose kernel reads and builds nested vectors.
bool IsNestedFunction(std::string_view name);

// `name(args)` on Values through the function's kernel.
Result<Value> EvaluateNestedCall(std::string_view name, const SqlType& type, const std::vector<Value>& args);

// `=`, `<>` and IS DISTINCT FROM of two arrays, maps or rows of one type, as Trino compares them:
// different lengths (or map keys) are unequal; otherwise a pair of unequal elements makes them
// unequal, and failing that a NULL element makes `=` NULL (it might have been equal). IS
// DISTINCT FROM treats NULLs, nested ones too, as equal to each other. `<`, `<=`, `>`, `>=` of
// arrays and rows compare element by element: the first unequal pair decides, a NULL met before
// one makes the result NULL, and a prefix is less than the longer array.
bool IsNestedComparison(std::string_view name, const std::vector<Value>& args);
Result<Value> EvaluateNestedComparison(std::string_view name, const std::vector<Value>& args);

// Whether slot `i` of `a` equals slot `j` of `b`, both non-null executor vectors of one scalar
// type (the binder has coerced them to it). Doubles compare by value (NaN equals nothing).
bool SameElement(const ColumnVector& a, int64_t i, const ColumnVector& b, int64_t j);

// a[i] (`strict`: an index past the end is an error, as Trino's subscript) or element_at(a, i)
// (past the end, or before the start for a negative index, is NULL; negative counts from the end).
Result<VectorPtr> ArrayElementKernel(const std::vector<KernelArgument>& args, const SqlType& result, int64_t rows,
                                     bool strict);
// m[k] (`strict`: a missing key is an error) or element_at(m, k) (NULL).
Result<VectorPtr> MapValueKernel(const std::vector<KernelArgument>& args, const SqlType& result, int64_t rows,
                                 bool strict);

// `a || b` and concat(...) where an argument is an array: the arrays' elements in order, a
// non-array argument one element (`a || 3`); NULL when an argument is NULL. The kernel lives as
// long as the process.
const VectorKernel& ArrayConcatKernel();
// concat's resolver for arrays: the arguments' common element type, or nullopt when no argument
// is an array (then concat is the string function).
std::optional<Result<ResolvedCall>> ResolveArrayConcat(const std::vector<SqlType>& in);

void RegisterNestedAccess(FunctionRegistry& registry);  // ROW(...), subscript, element_at
void RegisterArrayFunctions(FunctionRegistry& registry);
void RegisterMapFunctions(FunctionRegistry& registry);

}  // namespace floe::sql
