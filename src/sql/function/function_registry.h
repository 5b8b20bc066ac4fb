// The functions the binder knows: scalar functions and operators, aggregates and window
// functions, each with a resolver that checks argument types and gives the result type and the
// types the arguments must be cast to. Built once; any thread may read the registry.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "sql/function/vector_kernel.h"
#include "sql/types/sql_type.h"

namespace floe::sql {

enum class FunctionKind { kScalar, kAggregate, kWindow };

// The outcome of resolving a call: its result type and what each argument is cast to.
struct ResolvedCall {
  SqlType result;
  std::vector<SqlType> arguments;
};

struct FunctionInfo {
  std::string name;
  FunctionKind kind = FunctionKind::kScalar;
  std::string signatures;  // For messages: "abs(bigint) -> bigint, abs(double) -> double".
  // Resolves the call for these argument types; an InvalidArgument error explains a mismatch.
  std::function<Result<ResolvedCall>(const std::vector<SqlType>&)> resolve;
  bool deterministic = true;
  // Scalar functions: the kernel over whole vectors, when the function has one (the executor
  // falls back to the row form otherwise).
  VectorKernel kernel;
};

class FunctionRegistry {
 public:
  // The registry with every built-in function.
  static const FunctionRegistry& BuiltIn();

  void Add(FunctionInfo info);
  // Gives the registered function `name` its vector kernel.
  void SetKernel(std::string_view name, VectorKernel kernel);
  const FunctionInfo* Find(std::string_view name) const;
  const std::map<std::string, FunctionInfo, std::less<>>& functions() const { return functions_; }

 private:
  std::map<std::string, FunctionInfo, std::less<>> functions_;
};

// Registers a deterministic scalar function that owns its vector kernel.
void AddKernelFunction(FunctionRegistry& registry, std::string name, std::string signatures,
                       std::function<Result<ResolvedCall>(const std::vector<SqlType>&)> resolve, VectorKernel kernel);

// One overload: parameter types as Trino names ("bigint", "varchar", "T" for any type bound to
// the first T, "N" for any numeric, "D" for any decimal-or-integer kept as is) and the result.
struct Overload {
  std::vector<std::string> parameters;
  std::string result;
  bool variadic = false;  // The last parameter repeats.
};

// A resolver that picks the first overload every argument coerces to.
std::function<Result<ResolvedCall>(const std::vector<SqlType>&)> OverloadResolver(std::string name,
                                                                                  std::vector<Overload> overloads);

// Registration of each function family (scalar_functions.cc, aggregate_functions.cc).
void RegisterScalarFunctions(FunctionRegistry& registry);
void RegisterAggregateFunctions(FunctionRegistry& registry);
// Vector kernels, after the functions they belong to (string_kernels.cc, temporal_kernels.cc).
void RegisterStringKernels(FunctionRegistry& registry);
void RegisterTemporalKernels(FunctionRegistry& registry);

}  // namespace floe::sql
