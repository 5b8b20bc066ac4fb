// What the array and map functions share: the subscript operator and element_at, which take
// either, and the row form of every nested function (its kernel on one-row vectors).
#include "sql/function/nested_functions.h"

#include "sql/function/scalar_evaluation.h"
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
  auto resolve = [name](const std::vector<SqlType>& in) { return ResolveElementAccess(name, in); };
  AddKernelFunction(registry, std::move(name), std::move(signatures), std::move(resolve), std::move(kernel));
}

// Equality of two values of one type: true, false, or nullopt when a NULL leaves it open. With
// `null_equal` (IS NOT DISTINCT FROM) NULL equals NULL and the answer is never open.
std::optional<bool> NestedEqual(const Value& a, const Value& b, bool null_equal) {
  if (a.is_null() || b.is_null()) {
    if (null_equal) return a.is_null() && b.is_null();
    return std::nullopt;
  }
  auto all = [&](const std::vector<Value>& x, const std::vector<Value>& y) -> std::optional<bool> {
    if (x.size() != y.size()) return false;
    bool open = false;
    for (size_t i = 0; i < x.size(); ++i) {
      std::optional<bool> same = NestedEqual(x[i], y[i], null_equal);
      if (!same) {
        open = true;
      } else if (!*same) {
        return false;
      }
    }
    if (open) return std::nullopt;
    return true;
  };
  switch (a.type().kind()) {
    case TypeKind::kArray:
    case TypeKind::kRow:
      return all(a.as_elements(), b.as_elements());
    case TypeKind::kMap: {
      if (a.map_size() != b.map_size()) return false;
      bool open = false;
      for (size_t i = 0; i < a.map_size(); ++i) {
        size_t j = 0;
        while (j < b.map_size() && NestedEqual(a.map_key(i), b.map_key(j), true) != true) ++j;
        if (j == b.map_size()) return false;
        std::optional<bool> same = NestedEqual(a.map_value(i), b.map_value(j), null_equal);
        if (!same) {
          open = true;
        } else if (!*same) {
          return false;
        }
      }
      if (open) return std::nullopt;
      return true;
    }
    default: {
      std::optional<int> c = CompareValues(a, b);
      return c.has_value() && *c == 0;  // NaN equals nothing
    }
  }
}

// `<` and friends of two arrays or rows of one type, as PostgreSQL orders rows: element by
// element until two differ, which decides, or a NULL is met first, which leaves the order open
// (nullopt); an array that is a prefix of the other is less. NaN is greater than every number.
std::optional<int> NestedOrder(const Value& a, const Value& b) {
  if (a.is_null() || b.is_null()) return std::nullopt;
  TypeKind kind = a.type().kind();
  if (kind != TypeKind::kArray && kind != TypeKind::kRow) return CompareForSort(a, b);
  const std::vector<Value>& x = a.as_elements();
  const std::vector<Value>& y = b.as_elements();
  for (size_t i = 0; i < std::min(x.size(), y.size()); ++i) {
    std::optional<int> c = NestedOrder(x[i], y[i]);
    if (!c || *c != 0) return c;
  }
  return x.size() < y.size() ? -1 : x.size() > y.size() ? 1 : 0;
}

bool IsOrderComparison(std::string_view name) { return name == "lt" || name == "lte" || name == "gt" || name == "gte"; }

}  // namespace

bool IsNestedComparison(std::string_view name, const std::vector<Value>& args) {
  if (args.size() != 2) return false;
  TypeKind kind = args[0].type().kind();
  if (IsOrderComparison(name)) return kind == TypeKind::kArray || kind == TypeKind::kRow;
  if (!(name == "eq" || name == "neq" || name == "is_distinct_from")) return false;
  return kind == TypeKind::kArray || kind == TypeKind::kMap || kind == TypeKind::kRow;
}

Result<Value> EvaluateNestedComparison(std::string_view name, const std::vector<Value>& args) {
  if (!(args[0].type() == args[1].type())) {
    return NotImplemented("comparing {} with {}", args[0].type().ToString(), args[1].type().ToString());
  }
  if (name == "is_distinct_from") return Value::Boolean(!*NestedEqual(args[0], args[1], true));
  if (IsOrderComparison(name)) {
    std::optional<int> c = NestedOrder(args[0], args[1]);
    if (!c) return Value::Null(SqlType::Boolean());
    bool holds = name == "lt" ? *c < 0 : name == "lte" ? *c <= 0 : name == "gt" ? *c > 0 : *c >= 0;
    return Value::Boolean(holds);
  }
  std::optional<bool> same = NestedEqual(args[0], args[1], false);
  if (!same) return Value::Null(SqlType::Boolean());
  return Value::Boolean(name == "eq" ? *same : !*same);
}

bool IsNestedFunction(std::string_view name) {
  for (std::string_view n : {"array_constructor", "row_constructor", "subscript", "element_at", "cardinality",
                             "contains", "array_join", "map", "map_keys", "map_values", "sequence"}) {
    if (name == n) return true;
  }
  return false;
}

Result<Value> EvaluateNestedCall(std::string_view name, const SqlType& type, const std::vector<Value>& args) {
  const FunctionInfo* info = FunctionRegistry::BuiltIn().Find(name);
  const VectorKernel* kernel = name == "concat"                  ? &ArrayConcatKernel()
                               : info != nullptr && info->kernel ? &info->kernel
                                                                 : nullptr;
  if (kernel == nullptr) return NotImplemented("function {} has no kernel", name);
  std::vector<VectorPtr> vectors;
  std::vector<KernelArgument> arguments;
  for (const Value& arg : args) vectors.push_back(ConstantVector(arg, 1));
  for (size_t k = 0; k < args.size(); ++k) arguments.push_back({vectors[k].get(), true, args[k].type()});
  FLOE_ASSIGN_OR_RETURN(VectorPtr out, (*kernel)(arguments, type, 1));
  return GetValue(*out, type, 0);
}

// ROW(a, b, ...): a struct slot per row whose fields are the arguments' slots, never null
// itself (a row of NULLs is not a NULL row).
Result<VectorPtr> RowConstructorKernel(const std::vector<KernelArgument>& args, const SqlType& result, int64_t rows) {
  auto out = NewVector(result, rows);
  for (int64_t i = 0; i < rows; ++i) {
    for (size_t f = 0; f < args.size(); ++f) AppendFrom(out->children[f], *args[f].vector, args[f].row(i));
    out->AppendStructSlot(true);
  }
  return VectorPtr(out);
}

Result<ResolvedCall> ResolveRowConstructor(const std::vector<SqlType>& in) {
  std::vector<RowField> fields;
  for (const SqlType& type : in) fields.push_back(RowField{"", type});
  return ResolvedCall{SqlType::Row(std::move(fields)), in};
}

void RegisterNestedAccess(FunctionRegistry& registry) {
  AddKernelFunction(registry, "row_constructor", "ROW(T1, T2, ...) -> row(T1, T2, ...)", ResolveRowConstructor,
                    RowConstructorKernel);
  AddFunction(registry, "subscript", "array(E)[bigint] -> E; map(K,V)[K] -> V", SubscriptKernel);
  AddFunction(registry, "element_at", "element_at(array(E), bigint) -> E; element_at(map(K,V), K) -> V",
              ElementAtKernel);
}

}  // namespace floe::sql
