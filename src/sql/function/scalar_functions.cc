// Built-in scalar functions and operators: their names and typing. Evaluation lives with the
// executor (and, for constants, sql/constant_folding.cc).
#include <fmt/format.h>

#include "sql/function/function_registry.h"
#include "sql/function/nested_functions.h"
#include "sql/types/type_rules.h"

namespace floe::sql {
namespace {

using Resolver = std::function<Result<ResolvedCall>(const std::vector<SqlType>&)>;

void AddScalar(FunctionRegistry& registry, std::string name, std::vector<Overload> overloads, bool deterministic = true) {
  FunctionInfo info;
  info.name = name;
  info.kind = FunctionKind::kScalar;
  for (const Overload& o : overloads) {
    std::string params;
    for (size_t i = 0; i < o.parameters.size(); ++i) params += (i > 0 ? ", " : "") + o.parameters[i];
    info.signatures += fmt::format("{}{}({}{}) -> {}", info.signatures.empty() ? "" : "; ", name, params,
                                   o.variadic ? "..." : "", o.result);
  }
  info.resolve = OverloadResolver(name, std::move(overloads));
  info.deterministic = deterministic;
  registry.Add(std::move(info));
}

void AddCustom(FunctionRegistry& registry, std::string name, std::string signatures, Resolver resolve) {
  FunctionInfo info;
  info.name = std::move(name);
  info.kind = FunctionKind::kScalar;
  info.signatures = std::move(signatures);
  info.resolve = std::move(resolve);
  registry.Add(std::move(info));
}

std::unexpected<Error> CannotApply(std::string_view symbol, const std::vector<SqlType>& args) {
  if (args.size() == 1) return CodedError(ErrorCode::kTypeMismatch, "Cannot apply operator: {}{}", symbol, args[0].ToString());
  return CodedError(ErrorCode::kTypeMismatch, "Cannot apply operator: {} {} {}", args[0].ToString(), symbol, args[1].ToString());
}

Resolver Arithmetic(ArithmeticOp op, std::string symbol) {
  return [op, symbol](const std::vector<SqlType>& in) -> Result<ResolvedCall> {
    if (in.size() != 2) return CannotApply(symbol, in);
    SqlType a = in[0].IsUnknown() ? in[1] : in[0];
    SqlType b = in[1].IsUnknown() ? in[0] : in[1];
    if (a.IsUnknown() && b.IsUnknown()) a = b = SqlType::Bigint();
    if (a.IsNumeric() && b.IsNumeric()) {
      if (a.IsInteger() && b.IsInteger()) {
        SqlType t = *CommonSuperType(a, b);
        return ResolvedCall{t, {t, t}};
      }
      if (a.IsExactNumeric() && b.IsExactNumeric()) {
        SqlType x = AsDecimal(a), y = AsDecimal(b);
        FLOE_ASSIGN_OR_RETURN(SqlType result, DecimalArithmeticType(op, x, y));
        return ResolvedCall{result, {x, y}};
      }
      SqlType t = *CommonSuperType(a, b);
      return ResolvedCall{t, {t, t}};
    }
    bool add_or_sub = op == ArithmeticOp::kAdd || op == ArithmeticOp::kSubtract;
    // temporal +/- interval, interval + temporal
    if (add_or_sub && a.IsTemporal() && b.IsInterval()) return ResolvedCall{a, {a, b}};
    if (op == ArithmeticOp::kAdd && a.IsInterval() && b.IsTemporal()) return ResolvedCall{b, {a, b}};
    if (add_or_sub && a.IsInterval() && a == b) return ResolvedCall{a, {a, b}};
    if (op == ArithmeticOp::kSubtract && a.IsTemporal() && b.IsTemporal() && a.kind() != TypeKind::kDate) {
      auto common = CommonSuperType(a, b);
      if (common) return ResolvedCall{SqlType(TypeKind::kIntervalDayTime), {*common, *common}};
    }
    if ((op == ArithmeticOp::kMultiply || op == ArithmeticOp::kDivide) && a.IsInterval() && b.IsNumeric()) {
      return ResolvedCall{a, {a, b.IsInteger() ? SqlType::Bigint() : SqlType::Double()}};
    }
    if (op == ArithmeticOp::kMultiply && a.IsNumeric() && b.IsInterval()) {
      return ResolvedCall{b, {a.IsInteger() ? SqlType::Bigint() : SqlType::Double(), b}};
    }
    return CannotApply(symbol, in);
  };
}

Resolver Comparison(std::string symbol, bool needs_order) {
  return [symbol, needs_order](const std::vector<SqlType>& in) -> Result<ResolvedCall> {
    if (in.size() != 2) return CannotApply(symbol, in);
    auto common = CommonSuperType(in[0], in[1]);
    if (!common) return CannotApply(symbol, in);
    if (needs_order && !common->IsOrderable()) return InvalidArgument("Type {} is not orderable", common->ToString());
    return ResolvedCall{SqlType::Boolean(), {*common, *common}};
  };
}

}  // namespace

void RegisterScalarFunctions(FunctionRegistry& r) {
  // Operators, named as the binder calls them.
  AddCustom(r, "add", "T + T", Arithmetic(ArithmeticOp::kAdd, "+"));
  AddCustom(r, "subtract", "T - T", Arithmetic(ArithmeticOp::kSubtract, "-"));
  AddCustom(r, "multiply", "T * T", Arithmetic(ArithmeticOp::kMultiply, "*"));
  AddCustom(r, "divide", "T / T", Arithmetic(ArithmeticOp::kDivide, "/"));
  AddCustom(r, "modulus", "T % T", Arithmetic(ArithmeticOp::kModulus, "%"));
  AddCustom(r, "negate", "-N", [](const std::vector<SqlType>& in) -> Result<ResolvedCall> {
    if (in.size() != 1 || !(in[0].IsNumeric() || in[0].IsInterval() || in[0].IsUnknown())) return CannotApply("-", in);
    SqlType t = in[0].IsUnknown() ? SqlType::Bigint() : in[0];
    return ResolvedCall{t, {t}};
  });
  for (auto [name, symbol] : {std::pair{"eq", "="}, {"neq", "<>"}, {"is_distinct_from", "IS DISTINCT FROM"}}) {
    AddCustom(r, name, fmt::format("T {} T", symbol), Comparison(symbol, false));
  }
  for (auto [name, symbol] : {std::pair{"lt", "<"}, {"lte", "<="}, {"gt", ">"}, {"gte", ">="}}) {
    AddCustom(r, name, fmt::format("T {} T", symbol), Comparison(symbol, true));
  }
  // concat and ||: strings or binary, or arrays (nested_functions.h).
  AddCustom(r, "concat",
            "concat(varchar, ...) -> varchar; concat(varbinary, ...) -> varbinary; concat(array(E), ...) -> array(E)",
            [strings = OverloadResolver("concat", {{{"varchar", "varchar"}, "varchar", true},
                                                   {{"varbinary", "varbinary"}, "varbinary", true}})](
                const std::vector<SqlType>& in) -> Result<ResolvedCall> {
              if (auto arrays = ResolveArrayConcat(in)) return std::move(*arrays);
              return strings(in);
            });
  AddScalar(r, "like", {{{"varchar", "varchar"}, "boolean"}, {{"varchar", "varchar", "varchar"}, "boolean"}});
  AddScalar(r, "ilike", {{{"varchar", "varchar"}, "boolean"}, {{"varchar", "varchar", "varchar"}, "boolean"}});

  // Conditional.
  AddScalar(r, "coalesce", {{{"T"}, "T", true}});
  AddScalar(r, "nullif", {{{"T", "T"}, "T"}});
  AddScalar(r, "greatest", {{{"T"}, "T", true}});
  AddScalar(r, "least", {{{"T"}, "T", true}});
  AddCustom(r, "if", "if(boolean, T[, T])", [](const std::vector<SqlType>& in) -> Result<ResolvedCall> {
    if ((in.size() != 2 && in.size() != 3) || !CanCoerce(in[0], SqlType::Boolean())) {
      return InvalidArgument("if(condition, true_value[, false_value]) needs a boolean condition");
    }
    SqlType t = in[1];
    if (in.size() == 3) {
      auto common = CommonSuperType(in[1], in[2]);
      if (!common) return InvalidArgument("if() branches have incompatible types {} and {}", in[1].ToString(), in[2].ToString());
      t = *common;
    }
    std::vector<SqlType> args{SqlType::Boolean(), t};
    if (in.size() == 3) args.push_back(t);
    return ResolvedCall{t, args};
  });

  // Math.
  AddScalar(r, "abs", {{{"N"}, "N"}});
  AddScalar(r, "sign", {{{"N"}, "N"}});
  for (const char* name : {"ceil", "ceiling", "floor"}) {
    AddCustom(r, name, fmt::format("{}(N) -> N", name), [name = std::string(name)](const std::vector<SqlType>& in) -> Result<ResolvedCall> {
      if (in.size() != 1 || !(in[0].IsNumeric() || in[0].IsUnknown())) {
        return InvalidArgument("Unexpected parameters for function {}. Expected: {}(N)", name, name);
      }
      SqlType t = in[0].IsUnknown() ? SqlType::Double() : in[0];
      SqlType result = t.kind() == TypeKind::kDecimal ? SqlType::Decimal(std::max(1, t.precision() - t.scale() + (t.scale() > 0 ? 1 : 0)), 0) : t;
      return ResolvedCall{result, {t}};
    });
  }
  AddCustom(r, "round", "round(N[, integer]) -> N", [](const std::vector<SqlType>& in) -> Result<ResolvedCall> {
    if (in.empty() || in.size() > 2 || !(in[0].IsNumeric() || in[0].IsUnknown()) ||
        (in.size() == 2 && !CanCoerce(in[1], SqlType::Bigint()))) {
      return InvalidArgument("Unexpected parameters for function round. Expected: round(N), round(N, integer)");
    }
    SqlType t = in[0].IsUnknown() ? SqlType::Double() : in[0];
    std::vector<SqlType> args{t};
    if (in.size() == 2) args.push_back(SqlType::Bigint());
    SqlType result = t;
    if (t.kind() == TypeKind::kDecimal && in.size() == 1) {
      result = SqlType::Decimal(std::min(SqlType::kMaxDecimalPrecision, t.precision() - t.scale() + 1), 0);
    } else if (t.kind() == TypeKind::kDecimal) {
      result = SqlType::Decimal(std::min(SqlType::kMaxDecimalPrecision, t.precision() + 1), t.scale());
    }
    return ResolvedCall{result, args};
  });
  AddScalar(r, "truncate", {{{"double"}, "double"}});
  for (const char* name : {"sqrt", "cbrt", "ln", "log2", "log10", "exp", "sin", "cos", "tan", "asin", "acos", "atan", "degrees", "radians"}) {
    AddScalar(r, name, {{{"double"}, "double"}});
  }
  AddScalar(r, "power", {{{"double", "double"}, "double"}});
  AddScalar(r, "pow", {{{"double", "double"}, "double"}});
  AddScalar(r, "atan2", {{{"double", "double"}, "double"}});
  AddScalar(r, "log", {{{"double", "double"}, "double"}});
  AddScalar(r, "mod", {{{"bigint", "bigint"}, "bigint"}, {{"double", "double"}, "double"}});
  AddScalar(r, "pi", {{{}, "double"}});
  AddScalar(r, "e", {{{}, "double"}});
  AddScalar(r, "random", {{{}, "double"}, {{"bigint"}, "bigint"}}, false);
  AddScalar(r, "rand", {{{}, "double"}}, false);
  AddScalar(r, "is_nan", {{{"double"}, "boolean"}});
  AddScalar(r, "is_finite", {{{"double"}, "boolean"}});
  AddScalar(r, "width_bucket", {{{"double", "double", "double", "bigint"}, "bigint"}});

  // Strings.
  for (const char* name : {"lower", "upper", "trim", "ltrim", "rtrim", "reverse"}) {
    AddScalar(r, name, {{{"varchar"}, "varchar"}});
  }
  AddScalar(r, "trim", {{{"varchar"}, "varchar"}, {{"varchar", "varchar"}, "varchar"}});
  AddScalar(r, "length", {{{"varchar"}, "bigint"}, {{"varbinary"}, "bigint"}});
  AddScalar(r, "char_length", {{{"varchar"}, "bigint"}});
  AddScalar(r, "substr", {{{"varchar", "bigint"}, "varchar"}, {{"varchar", "bigint", "bigint"}, "varchar"}});
  AddScalar(r, "substring", {{{"varchar", "bigint"}, "varchar"}, {{"varchar", "bigint", "bigint"}, "varchar"}});
  AddScalar(r, "replace", {{{"varchar", "varchar"}, "varchar"}, {{"varchar", "varchar", "varchar"}, "varchar"}});
  AddScalar(r, "strpos", {{{"varchar", "varchar"}, "bigint"}});
  AddScalar(r, "position", {{{"varchar", "varchar"}, "bigint"}});
  AddScalar(r, "starts_with", {{{"varchar", "varchar"}, "boolean"}});
  AddScalar(r, "ends_with", {{{"varchar", "varchar"}, "boolean"}});
  AddScalar(r, "split_part", {{{"varchar", "varchar", "bigint"}, "varchar"}});
  AddScalar(r, "lpad", {{{"varchar", "bigint", "varchar"}, "varchar"}});
  AddScalar(r, "rpad", {{{"varchar", "bigint", "varchar"}, "varchar"}});
  AddScalar(r, "regexp_like", {{{"varchar", "varchar"}, "boolean"}});
  AddScalar(r, "regexp_extract", {{{"varchar", "varchar"}, "varchar"}, {{"varchar", "varchar", "bigint"}, "varchar"}});
  AddScalar(r, "regexp_replace", {{{"varchar", "varchar"}, "varchar"}, {{"varchar", "varchar", "varchar"}, "varchar"}});
  AddScalar(r, "to_hex", {{{"varbinary"}, "varchar"}});
  AddScalar(r, "from_hex", {{{"varchar"}, "varbinary"}});
  AddScalar(r, "md5", {{{"varbinary"}, "varbinary"}});
  AddScalar(r, "to_utf8", {{{"varchar"}, "varbinary"}});
  AddScalar(r, "from_utf8", {{{"varbinary"}, "varchar"}});
  AddScalar(r, "chr", {{{"bigint"}, "varchar"}});
  AddScalar(r, "codepoint", {{{"varchar"}, "integer"}});
  AddScalar(r, "quote_ident", {{{"varchar"}, "varchar"}});

  // Date and time. Units and fields are varchar constants ('day', 'hour', ...).
  AddCustom(r, "date_trunc", "date_trunc(varchar, date|timestamp|timestamptz)", [](const std::vector<SqlType>& in) -> Result<ResolvedCall> {
    if (in.size() != 2 || !CanCoerce(in[0], SqlType::Varchar()) || !(in[1].IsTemporal() || in[1].IsUnknown())) {
      return InvalidArgument("Unexpected parameters for function date_trunc. Expected: date_trunc(varchar, date|timestamp)");
    }
    SqlType t = in[1].IsUnknown() ? SqlType::Timestamp() : in[1];
    return ResolvedCall{t, {SqlType::Varchar(), t}};
  });
  AddCustom(r, "extract", "extract(field FROM date|timestamp)", [](const std::vector<SqlType>& in) -> Result<ResolvedCall> {
    if (in.size() != 2 || !(in[1].IsTemporal() || in[1].IsInterval())) {
      return InvalidArgument("Cannot extract from {}", in.size() == 2 ? in[1].ToString() : "these arguments");
    }
    return ResolvedCall{SqlType::Bigint(), {SqlType::Varchar(), in[1]}};
  });
  for (const char* field : {"year", "quarter", "month", "week", "day", "day_of_week", "dow", "day_of_year", "doy", "hour",
                            "minute", "second", "millisecond", "day_of_month", "year_of_week"}) {
    AddCustom(r, field, fmt::format("{}(date|timestamp) -> bigint", field), [field = std::string(field)](const std::vector<SqlType>& in) -> Result<ResolvedCall> {
      if (in.size() != 1 || !(in[0].IsTemporal() || in[0].IsUnknown())) {
        return InvalidArgument("Unexpected parameters for function {}. Expected: {}(date|timestamp)", field, field);
      }
      SqlType t = in[0].IsUnknown() ? SqlType::Timestamp() : in[0];
      return ResolvedCall{SqlType::Bigint(), {t}};
    });
  }
  AddCustom(r, "date_add", "date_add(varchar, bigint, date|timestamp)", [](const std::vector<SqlType>& in) -> Result<ResolvedCall> {
    if (in.size() != 3 || !CanCoerce(in[0], SqlType::Varchar()) || !CanCoerce(in[1], SqlType::Bigint()) || !in[2].IsTemporal()) {
      return InvalidArgument("Unexpected parameters for function date_add. Expected: date_add(varchar, bigint, date|timestamp)");
    }
    return ResolvedCall{in[2], {SqlType::Varchar(), SqlType::Bigint(), in[2]}};
  });
  AddCustom(r, "date_diff", "date_diff(varchar, T, T) -> bigint", [](const std::vector<SqlType>& in) -> Result<ResolvedCall> {
    if (in.size() != 3 || !CanCoerce(in[0], SqlType::Varchar())) {
      return InvalidArgument("Unexpected parameters for function date_diff. Expected: date_diff(varchar, T, T)");
    }
    auto common = CommonSuperType(in[1], in[2]);
    if (!common || !common->IsTemporal()) return InvalidArgument("date_diff needs two dates or timestamps");
    return ResolvedCall{SqlType::Bigint(), {SqlType::Varchar(), *common, *common}};
  });
  AddScalar(r, "now", {{{}, "timestamptz"}}, false);
  AddScalar(r, "current_timestamp", {{{}, "timestamptz"}}, false);
  AddScalar(r, "localtimestamp", {{{}, "timestamp"}}, false);
  AddScalar(r, "current_date", {{{}, "date"}}, false);
  AddScalar(r, "current_timezone", {{{}, "varchar"}});
  AddScalar(r, "to_unixtime", {{{"timestamptz"}, "double"}});
  AddScalar(r, "from_unixtime", {{{"double"}, "timestamptz"}});
  AddScalar(r, "from_iso8601_timestamp", {{{"varchar"}, "timestamptz"}});
  AddScalar(r, "from_iso8601_date", {{{"varchar"}, "date"}});
  AddScalar(r, "to_iso8601", {{{"date"}, "varchar"}, {{"timestamptz"}, "varchar"}});
  AddScalar(r, "date", {{{"varchar"}, "date"}, {{"timestamptz"}, "date"}});
  AddScalar(r, "date_format", {{{"timestamptz", "varchar"}, "varchar"}});
  AddScalar(r, "format_datetime", {{{"timestamptz", "varchar"}, "varchar"}});
  AddScalar(r, "parse_datetime", {{{"varchar", "varchar"}, "timestamptz"}});
  AddScalar(r, "at_timezone", {{{"timestamptz", "varchar"}, "timestamptz"}});
  AddScalar(r, "with_timezone", {{{"timestamp", "varchar"}, "timestamptz"}});

  // Misc.
  AddScalar(r, "uuid", {{{}, "uuid"}}, false);
  AddScalar(r, "version", {{{}, "varchar"}});
  AddScalar(r, "typeof", {{{"any"}, "varchar"}});
  AddScalar(r, "current_user", {{{}, "varchar"}});
  AddScalar(r, "current_catalog", {{{}, "varchar"}});
  AddScalar(r, "current_schema", {{{}, "varchar"}});
  AddScalar(r, "to_char", {{{"timestamptz", "varchar"}, "varchar"}});
}

}  // namespace floe::sql
