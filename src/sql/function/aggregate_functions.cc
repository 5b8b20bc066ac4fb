// Built-in aggregate and window functions: names and typing. Trino's result types: sum of
// integers is bigint, sum of decimal(p,s) is decimal(38,s), avg of integers is double and of
// decimals keeps the decimal type.
#include <fmt/format.h>

#include "sql/function/function_registry.h"
#include "sql/types/type_rules.h"

namespace floe::sql {
namespace {

using Resolver = std::function<Result<ResolvedCall>(const std::vector<SqlType>&)>;

void Add(FunctionRegistry& registry, std::string name, FunctionKind kind, std::string signatures, Resolver resolve) {
  FunctionInfo info;
  info.name = std::move(name);
  info.kind = kind;
  info.signatures = std::move(signatures);
  info.resolve = std::move(resolve);
  registry.Add(std::move(info));
}

std::unexpected<Error> Expected(std::string_view name, std::string_view signature, const std::vector<SqlType>& in) {
  std::string args;
  for (size_t i = 0; i < in.size(); ++i) args += (i > 0 ? ", " : "") + in[i].ToString();
  return InvalidArgument("Unexpected parameters ({}) for function {}. Expected: {}", args, name, signature);
}

}  // namespace

void RegisterAggregateFunctions(FunctionRegistry& r) {
  constexpr FunctionKind kAgg = FunctionKind::kAggregate;
  constexpr FunctionKind kWin = FunctionKind::kWindow;

  Add(r, "count", kAgg, "count(*), count(T) -> bigint", [](const std::vector<SqlType>& in) -> Result<ResolvedCall> {
    if (in.size() > 1) return Expected("count", "count(*), count(T)", in);
    return ResolvedCall{SqlType::Bigint(), in};
  });
  Add(r, "count_if", kAgg, "count_if(boolean) -> bigint", [](const std::vector<SqlType>& in) -> Result<ResolvedCall> {
    if (in.size() != 1 || !CanCoerce(in[0], SqlType::Boolean())) return Expected("count_if", "count_if(boolean)", in);
    return ResolvedCall{SqlType::Bigint(), {SqlType::Boolean()}};
  });
  Add(r, "sum", kAgg, "sum(N)", [](const std::vector<SqlType>& in) -> Result<ResolvedCall> {
    if (in.size() != 1) return Expected("sum", "sum(N)", in);
    const SqlType& t = in[0];
    if (t.IsInteger() || t.IsUnknown()) return ResolvedCall{SqlType::Bigint(), {t.IsUnknown() ? SqlType::Bigint() : t}};
    if (t.kind() == TypeKind::kDecimal) return ResolvedCall{SqlType::Decimal(38, t.scale()), {t}};
    if (t.kind() == TypeKind::kReal || t.kind() == TypeKind::kDouble || t.IsInterval()) return ResolvedCall{t, {t}};
    return Expected("sum", "sum(N)", in);
  });
  Add(r, "avg", kAgg, "avg(N)", [](const std::vector<SqlType>& in) -> Result<ResolvedCall> {
    if (in.size() != 1) return Expected("avg", "avg(N)", in);
    const SqlType& t = in[0];
    if (t.IsInteger() || t.IsUnknown()) return ResolvedCall{SqlType::Double(), {t.IsUnknown() ? SqlType::Double() : t}};
    if (t.kind() == TypeKind::kDecimal || t.kind() == TypeKind::kReal || t.kind() == TypeKind::kDouble || t.IsInterval()) {
      return ResolvedCall{t, {t}};
    }
    return Expected("avg", "avg(N)", in);
  });
  for (const char* name : {"min", "max"}) {
    Add(r, name, kAgg, fmt::format("{}(T) -> T", name),
        [name = std::string(name)](const std::vector<SqlType>& in) -> Result<ResolvedCall> {
          if (in.size() != 1 || !in[0].IsOrderable() || in[0].IsNested())
            return Expected(name, name + "(T) with an orderable T", in);
          return ResolvedCall{in[0], in};
        });
  }
  for (const char* name : {"min_by", "max_by"}) {
    Add(r, name, kAgg, fmt::format("{}(T, K) -> T", name),
        [name = std::string(name)](const std::vector<SqlType>& in) -> Result<ResolvedCall> {
          if (in.size() != 2 || !in[1].IsOrderable() || in[1].IsNested()) return Expected(name, name + "(T, K)", in);
          return ResolvedCall{in[0], in};
        });
  }
  for (const char* name : {"arbitrary", "any_value"}) {
    Add(r, name, kAgg, fmt::format("{}(T) -> T", name), [name = std::string(name)](const std::vector<SqlType>& in) -> Result<ResolvedCall> {
      if (in.size() != 1) return Expected(name, name + "(T)", in);
      return ResolvedCall{in[0], in};
    });
  }
  for (const char* name : {"bool_and", "bool_or", "every"}) {
    Add(r, name, kAgg, fmt::format("{}(boolean) -> boolean", name), [name = std::string(name)](const std::vector<SqlType>& in) -> Result<ResolvedCall> {
      if (in.size() != 1 || !CanCoerce(in[0], SqlType::Boolean())) return Expected(name, name + "(boolean)", in);
      return ResolvedCall{SqlType::Boolean(), {SqlType::Boolean()}};
    });
  }
  for (const char* name : {"stddev", "stddev_samp", "stddev_pop", "variance", "var_samp", "var_pop"}) {
    Add(r, name, kAgg, fmt::format("{}(double) -> double", name), [name = std::string(name)](const std::vector<SqlType>& in) -> Result<ResolvedCall> {
      if (in.size() != 1 || !(in[0].IsNumeric() || in[0].IsUnknown())) return Expected(name, name + "(double)", in);
      return ResolvedCall{SqlType::Double(), {SqlType::Double()}};
    });
  }
  Add(r, "approx_distinct", kAgg, "approx_distinct(T[, double]) -> bigint", [](const std::vector<SqlType>& in) -> Result<ResolvedCall> {
    if (in.empty() || in.size() > 2 || (in.size() == 2 && !CanCoerce(in[1], SqlType::Double()))) {
      return Expected("approx_distinct", "approx_distinct(T), approx_distinct(T, double max_standard_error)", in);
    }
    std::vector<SqlType> args{in[0]};
    if (in.size() == 2) args.push_back(SqlType::Double());
    return ResolvedCall{SqlType::Bigint(), args};
  });
  Add(r, "approx_percentile", kAgg, "approx_percentile(N, double) -> N", [](const std::vector<SqlType>& in) -> Result<ResolvedCall> {
    if (in.size() != 2 || !(in[0].IsNumeric() || in[0].IsTemporal()) || !CanCoerce(in[1], SqlType::Double())) {
      return Expected("approx_percentile", "approx_percentile(N, double percentage)", in);
    }
    return ResolvedCall{in[0], {in[0], SqlType::Double()}};
  });
  Add(r, "array_agg", kAgg, "array_agg(T) -> array(T)", [](const std::vector<SqlType>& in) -> Result<ResolvedCall> {
    if (in.size() != 1) return Expected("array_agg", "array_agg(T)", in);
    return ResolvedCall{SqlType::Array(in[0]), in};
  });
  Add(r, "map_agg", kAgg, "map_agg(K, V) -> map(K,V)", [](const std::vector<SqlType>& in) -> Result<ResolvedCall> {
    if (in.size() != 2 || !in[0].IsOrderable() || in[0].IsNested())
      return Expected("map_agg", "map_agg(K, V) with a comparable K", in);
    return ResolvedCall{SqlType::Map(in[0], in[1]), in};
  });

  // Ranking and navigation (window only).
  for (const char* name : {"row_number", "rank", "dense_rank"}) {
    Add(r, name, kWin, fmt::format("{}() -> bigint", name), [name = std::string(name)](const std::vector<SqlType>& in) -> Result<ResolvedCall> {
      if (!in.empty()) return Expected(name, name + "()", in);
      return ResolvedCall{SqlType::Bigint(), {}};
    });
  }
  for (const char* name : {"percent_rank", "cume_dist"}) {
    Add(r, name, kWin, fmt::format("{}() -> double", name), [name = std::string(name)](const std::vector<SqlType>& in) -> Result<ResolvedCall> {
      if (!in.empty()) return Expected(name, name + "()", in);
      return ResolvedCall{SqlType::Double(), {}};
    });
  }
  Add(r, "ntile", kWin, "ntile(bigint) -> bigint", [](const std::vector<SqlType>& in) -> Result<ResolvedCall> {
    if (in.size() != 1 || !CanCoerce(in[0], SqlType::Bigint())) return Expected("ntile", "ntile(bigint)", in);
    return ResolvedCall{SqlType::Bigint(), {SqlType::Bigint()}};
  });
  for (const char* name : {"lag", "lead"}) {
    Add(r, name, kWin, fmt::format("{}(T[, bigint[, T]]) -> T", name), [name = std::string(name)](const std::vector<SqlType>& in) -> Result<ResolvedCall> {
      if (in.empty() || in.size() > 3 || (in.size() >= 2 && !CanCoerce(in[1], SqlType::Bigint()))) {
        return Expected(name, name + "(T[, bigint offset[, T default]])", in);
      }
      SqlType t = in[0];
      if (in.size() == 3) {
        auto common = CommonSuperType(in[0], in[2]);
        if (!common) return Expected(name, name + "(T, bigint, T)", in);
        t = *common;
      }
      std::vector<SqlType> args{t};
      if (in.size() >= 2) args.push_back(SqlType::Bigint());
      if (in.size() == 3) args.push_back(t);
      return ResolvedCall{t, args};
    });
  }
  for (const char* name : {"first_value", "last_value"}) {
    Add(r, name, kWin, fmt::format("{}(T) -> T", name), [name = std::string(name)](const std::vector<SqlType>& in) -> Result<ResolvedCall> {
      if (in.size() != 1) return Expected(name, name + "(T)", in);
      return ResolvedCall{in[0], in};
    });
  }
  Add(r, "nth_value", kWin, "nth_value(T, bigint) -> T", [](const std::vector<SqlType>& in) -> Result<ResolvedCall> {
    if (in.size() != 2 || !CanCoerce(in[1], SqlType::Bigint())) return Expected("nth_value", "nth_value(T, bigint)", in);
    return ResolvedCall{in[0], {in[0], SqlType::Bigint()}};
  });
}

}  // namespace floe::sql
