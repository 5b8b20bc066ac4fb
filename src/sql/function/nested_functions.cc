// What the array and map functions share: the subscript operator and element_at, which take
// either, and the row form of every nested function (its kernel on one-row vectors).
#include "sql/function/nested_functions.h"

#include "sql/types/type_rules.h"

namespace floe::sql {
namespace {

Result<VectorPtr> SubscriptKernel(const std::vector<KernelArgument>& args, const SqlType& result, int64_t rows) {
  if (args[0].type.kind() == TypeKind::kMap) return MapValueKernel(args, result, rows, true);
  return ArrayElementKernel(args, result, rows, true);
}

Result<VectorPtr> ElementAtKernel(const std::vector<KernelArgument>& args, const SqlType& result, int64_t rows) {
  if (args[0].type.kind() == TypeKind::kMap) return MapValueKernel(args, result, rows, false);
  return ArrayElementKernel(args, result, rows, false);
}

// a[i] with a bigint i, m[k] with a key of the map's key type.
Result<ResolvedCall> ResolveElementAccess(std::string_view name, const std::vector<SqlType>& in) {
  if (in.size() == 2 && in[0].kind() == TypeKind::kArray && CanCoerce(in[1], SqlType::Bigint())) {
    return ResolvedCall{in[0].element(), {in[0], SqlType::Bigint()}};
  }
  if (in.size() == 2 && in[0].kind() == TypeKind::kMap && CanCoerce(in[1], in[0].element())) {
    return ResolvedCall{in[0].value(), {in[0], in[0].element()}};
  }
  return CodedError(ErrorCode::kTypeMismatch,
                    "Unexpected parameters for function {}. Expected: {}(array(E), bigint), {}(map(K,V), K)", name,
                    name, name);
}

void AddFunction(FunctionRegistry& registry, std::string name, std::string signatures, VectorKernel kernel) {
  FunctionInfo info;
  info.name = name;
  info.kind = FunctionKind::kScalar;
  info.signatures = std::move(signatures);
  info.resolve = [name](const std::vector<SqlType>& in) { return ResolveElementAccess(name, in); };
  info.kernel = std::move(kernel);
  registry.Add(std::move(info));
}

}  // namespace

bool IsNestedFunction(std::string_view name) {
  for (std::string_view n : {"array_constructor", "subscript", "element_at", "cardinality", "contains", "array_join",
                             "map", "map_keys", "map_values"}) {
    if (name == n) return true;
  }
  return false;
}

Result<Value> EvaluateNestedCall(std::string_view name, const SqlType& type, const std::vector<Value>& args) {
  const FunctionInfo* info = FunctionRegistry::BuiltIn().Find(name);
  if (info == nullptr || !info->kernel) return NotImplemented("function {} has no kernel", name);
  std::vector<VectorPtr> vectors;
  std::vector<KernelArgument> arguments;
  for (const Value& arg : args) vectors.push_back(ConstantVector(arg, 1));
  for (size_t k = 0; k < args.size(); ++k) arguments.push_back({vectors[k].get(), true, args[k].type()});
  FLOE_ASSIGN_OR_RETURN(VectorPtr out, info->kernel(arguments, type, 1));
  return GetValue(*out, type, 0);
}

void RegisterNestedAccess(FunctionRegistry& registry) {
  AddFunction(registry, "subscript", "array(E)[bigint] -> E; map(K,V)[K] -> V", SubscriptKernel);
  AddFunction(registry, "element_at", "element_at(array(E), bigint) -> E; element_at(map(K,V), K) -> V",
              ElementAtKernel);
}

}  // namespace floe::sql
