// Map functions (Trino's names and null rules) and their vector kernels: map(keys, values),
// m[k] and element_at, map_keys, map_values (cardinality is with the array functions). A map
// vector is a map ColumnVector: slot i's entries are children[0] (keys, never null) and
// children[1] (values) at [offsets[i], offsets[i + 1]), in the order they were built.
#include <fmt/format.h>

#include "sql/function/nested_functions.h"
#include "sql/types/type_rules.h"

namespace floe::sql {
namespace {

using Resolver = std::function<Result<ResolvedCall>(const std::vector<SqlType>&)>;

// map(keys, values): entries pair the arrays' elements by position. Keys must be distinct and
// not null, and the arrays equally long (Trino's errors).
Result<VectorPtr> MapConstructorKernel(const std::vector<KernelArgument>& args, const SqlType& result, int64_t rows) {
  if (!IsExecutable(result.element()))
    return NotImplemented("maps with keys of type {} are not supported yet", result.element().ToString());
  auto out = NewVector(result, rows);
  const ColumnVector& keys = args[0].vector->children[0];
  const ColumnVector& values = args[1].vector->children[0];
  for (int64_t i = 0; i < rows; ++i) {
    if (!args[0].valid(i) || !args[1].valid(i)) {
      out->AppendNull();
      continue;
    }
    auto rk = static_cast<size_t>(args[0].row(i)), rv = static_cast<size_t>(args[1].row(i));
    int32_t kb = args[0].vector->offsets[rk], ke = args[0].vector->offsets[rk + 1];
    int32_t vb = args[1].vector->offsets[rv], ve = args[1].vector->offsets[rv + 1];
    if (ke - kb != ve - vb) return InvalidArgument("Key and value arrays must be the same length");
    for (int32_t k = kb; k < ke; ++k) {
      if (!keys.IsValid(k)) return InvalidArgument("map key cannot be null");
      for (int32_t earlier = kb; earlier < k; ++earlier) {
        if (SameElement(keys, earlier, keys, k)) {
          return InvalidArgument("Duplicate map keys ({}) are not allowed",
                                 GetValue(keys, result.element(), k).ToText());
        }
      }
      AppendFrom(out->children[0], keys, k);
      AppendFrom(out->children[1], values, vb + (k - kb));
    }
    out->AppendListEnd(true);
  }
  return VectorPtr(out);
}

// map_keys(m) and map_values(m): the map's offsets over one of its children, as an array.
template <size_t kChild>
Result<VectorPtr> MapPartKernel(const std::vector<KernelArgument>& args, const SqlType& result, int64_t rows) {
  const ColumnVector& map = *args[0].vector;
  if (!args[0].constant) {
    auto out = NewVector(result);
    out->length = map.length;
    out->validity = map.validity;
    out->offsets = map.offsets;
    out->children[0] = map.children[kChild];
    return VectorPtr(out);
  }
  // A constant map: its one slot repeated.
  auto out = NewVector(result, rows);
  for (int64_t i = 0; i < rows; ++i) {
    if (!map.IsValid(0)) {
      out->AppendNull();
      continue;
    }
    for (int32_t k = map.offsets[0]; k < map.offsets[1]; ++k) AppendFrom(out->children[0], map.children[kChild], k);
    out->AppendListEnd(true);
  }
  return VectorPtr(out);
}

Result<ResolvedCall> ResolveMapConstructor(const std::vector<SqlType>& in) {
  if (in.size() != 2 || in[0].kind() != TypeKind::kArray || in[1].kind() != TypeKind::kArray) {
    return CodedError(ErrorCode::kTypeMismatch,
                      "Unexpected parameters for function map. Expected: map(array(K), array(V))");
  }
  SqlType key = in[0].element().IsUnknown() ? SqlType::Unknown() : in[0].element();
  return ResolvedCall{SqlType::Map(key, in[1].element()), {in[0], in[1]}};
}

Resolver ResolveMapPart(std::string name, bool keys) {
  return [name, keys](const std::vector<SqlType>& in) -> Result<ResolvedCall> {
    if (in.size() != 1 || in[0].kind() != TypeKind::kMap) {
      return CodedError(ErrorCode::kTypeMismatch, "Unexpected parameters for function {}. Expected: {}(map(K,V))", name,
                        name);
    }
    return ResolvedCall{SqlType::Array(keys ? in[0].element() : in[0].value()), {in[0]}};
  };
}

}  // namespace

Result<VectorPtr> MapValueKernel(const std::vector<KernelArgument>& args, const SqlType& result, int64_t rows,
                                 bool strict) {
  if (!IsExecutable(args[1].type))
    return NotImplemented("maps with keys of type {} are not supported yet", args[1].type.ToString());
  auto out = NewVector(result, rows);
  const ColumnVector& keys = args[0].vector->children[0];
  const ColumnVector& values = args[0].vector->children[1];
  for (int64_t i = 0; i < rows; ++i) {
    if (!args[0].valid(i) || !args[1].valid(i)) {
      out->AppendNull();
      continue;
    }
    auto r = static_cast<size_t>(args[0].row(i));
    int32_t found = -1;
    for (int32_t k = args[0].vector->offsets[r]; k < args[0].vector->offsets[r + 1] && found < 0; ++k) {
      if (keys.IsValid(k) && SameElement(keys, k, *args[1].vector, args[1].row(i))) found = k;
    }
    if (found >= 0) {
      AppendFrom(*out, values, found);
    } else if (strict) {
      return InvalidArgument("Key not present in map: {}",
                             GetValue(*args[1].vector, args[1].type, args[1].row(i)).ToText());
    } else {
      out->AppendNull();
    }
  }
  return VectorPtr(out);
}

void RegisterMapFunctions(FunctionRegistry& registry) {
  AddKernelFunction(registry, "map", "map(array(K), array(V)) -> map(K,V)", ResolveMapConstructor,
                    MapConstructorKernel);
  AddKernelFunction(registry, "map_keys", "map_keys(map(K,V)) -> array(K)", ResolveMapPart("map_keys", true),
                    MapPartKernel<0>);
  AddKernelFunction(registry, "map_values", "map_values(map(K,V)) -> array(V)", ResolveMapPart("map_values", false),
                    MapPartKernel<1>);
}

}  // namespace floe::sql
