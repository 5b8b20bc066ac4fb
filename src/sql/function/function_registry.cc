#include "sql/function/function_registry.h"

#include <fmt/format.h>

#include "sql/function/nested_functions.h"
#include "sql/function/time_zone_functions.h"
#include "sql/types/type_rules.h"

namespace floe::sql {

const FunctionRegistry& FunctionRegistry::BuiltIn() {
  static const FunctionRegistry registry = [] {
    FunctionRegistry r;
    RegisterScalarFunctions(r);
    RegisterAggregateFunctions(r);
    RegisterStringKernels(r);
    RegisterTemporalKernels(r);
    RegisterTimeZoneFunctions(r);
    RegisterNestedAccess(r);
    RegisterArrayFunctions(r);
    RegisterMapFunctions(r);
    return r;
  }();
  return registry;
}

void FunctionRegistry::SetKernel(std::string_view name, VectorKernel kernel) {
  auto it = functions_.find(name);
  if (it != functions_.end()) it->second.kernel = std::move(kernel);
}

void FunctionRegistry::Add(FunctionInfo info) {
  std::string name = info.name;
  functions_[name] = std::move(info);
}

void AddKernelFunction(FunctionRegistry& registry, std::string name, std::string signatures,
                       std::function<Result<ResolvedCall>(const std::vector<SqlType>&)> resolve, VectorKernel kernel) {
  FunctionInfo info;
  info.name = std::move(name);
  info.kind = FunctionKind::kScalar;
  info.signatures = std::move(signatures);
  info.resolve = std::move(resolve);
  info.kernel = std::move(kernel);
  registry.Add(std::move(info));
}

const FunctionInfo* FunctionRegistry::Find(std::string_view name) const {
  auto it = functions_.find(name);
  return it == functions_.end() ? nullptr : &it->second;
}

namespace {

std::optional<SqlType> NamedType(std::string_view name) {
  if (name == "boolean") return SqlType::Boolean();
  if (name == "integer") return SqlType::Integer();
  if (name == "bigint") return SqlType::Bigint();
  if (name == "double") return SqlType::Double();
  if (name == "varchar") return SqlType::Varchar();
  if (name == "date") return SqlType::Date();
  if (name == "timestamp") return SqlType::Timestamp();
  if (name == "timestamptz") return SqlType::TimestampTz();
  if (name == "varbinary") return SqlType(TypeKind::kVarbinary);
  if (name == "uuid") return SqlType(TypeKind::kUuid);
  if (name == "interval_ds") return SqlType(TypeKind::kIntervalDayTime);
  if (name == "interval_ym") return SqlType(TypeKind::kIntervalYearMonth);
  return std::nullopt;
}

std::string ArgumentList(const std::vector<SqlType>& args) {
  std::string out;
  for (size_t i = 0; i < args.size(); ++i) out += (i > 0 ? ", " : "") + args[i].ToString();
  return out;
}

}  // namespace

std::function<Result<ResolvedCall>(const std::vector<SqlType>&)> OverloadResolver(std::string name,
                                                                                  std::vector<Overload> overloads) {
  return [name, overloads](const std::vector<SqlType>& args) -> Result<ResolvedCall> {
    for (const Overload& overload : overloads) {
      size_t count = overload.parameters.size();
      if (overload.variadic ? args.size() < count - 1 : args.size() != count) continue;
      ResolvedCall call;
      std::optional<SqlType> bound_t;
      bool ok = true;
      // "T" binds to the common super type of every T argument.
      for (size_t i = 0; i < args.size() && ok; ++i) {
        const std::string& p = overload.parameters[std::min(i, count - 1)];
        if (p == "T") {
          auto common = bound_t ? CommonSuperType(*bound_t, args[i]) : std::optional<SqlType>(args[i]);
          if (!common) ok = false;
          bound_t = common;
        }
      }
      for (size_t i = 0; i < args.size() && ok; ++i) {
        const std::string& p = overload.parameters[std::min(i, count - 1)];
        if (p == "T") {
          call.arguments.push_back(*bound_t);
        } else if (p == "N") {
          if (!args[i].IsNumeric() && !args[i].IsUnknown()) ok = false;
          call.arguments.push_back(args[i].IsUnknown() ? SqlType::Double() : args[i]);
        } else if (p == "any") {
          call.arguments.push_back(args[i]);
        } else {
          auto type = NamedType(p);
          if (!type || !CanCoerce(args[i], *type)) ok = false;
          if (type) call.arguments.push_back(*type);
        }
      }
      if (!ok) continue;
      if (overload.result == "T") {
        call.result = bound_t.value_or(SqlType::Unknown());
      } else if (overload.result == "N") {
        call.result = call.arguments.empty() ? SqlType::Double() : call.arguments[0];
      } else {
        call.result = *NamedType(overload.result);
      }
      return call;
    }
    std::string expected;
    for (const Overload& o : overloads) {
      std::string params;
      for (size_t i = 0; i < o.parameters.size(); ++i) params += (i > 0 ? ", " : "") + o.parameters[i];
      expected += fmt::format("{}{}({}{})", expected.empty() ? "" : ", ", name, params, o.variadic ? "..." : "");
    }
    return InvalidArgument("Unexpected parameters ({}) for function {}. Expected: {}", ArgumentList(args), name,
                           expected);
  };
}

}  // namespace floe::sql
