// A scalar function's kernel over whole vectors: the executor calls it once per chunk with the
// evaluated arguments, instead of converting every row to Values and dispatching on the
// function's name (scalar_evaluation's row form, which the constant folder and functions
// without a kernel still use; a kernel must give the same answers). Kernels live beside the
// functions they serve and are found through the registry entry (FunctionInfo::kernel).
#pragma once

#include <functional>
#include <vector>

#include "base/result.h"
#include "sql/execution/vector.h"

namespace floe::sql {

// One evaluated argument: a vector of the chunk's rows, or of one row when `constant`.
struct KernelArgument {
  const ColumnVector* vector = nullptr;
  bool constant = false;
  SqlType type;

  int64_t row(int64_t i) const { return constant ? 0 : i; }
  bool valid(int64_t i) const { return vector->IsValid(row(i)); }
};

// Computes `rows` results of type `result`. Errors carry no position: the caller adds it.
using VectorKernel = std::function<Result<VectorPtr>(const std::vector<KernelArgument>& args, const SqlType& result, int64_t rows)>;

}  // namespace floe::sql
