#include "sql/types/type_rules.h"

#include <algorithm>

namespace floe::sql {
namespace {

int IntegerRank(TypeKind kind) {
  switch (kind) {
    case TypeKind::kTinyint: return 1;
    case TypeKind::kSmallint: return 2;
    case TypeKind::kInteger: return 3;
    case TypeKind::kBigint: return 4;
    default: return 0;
  }
}

}  // namespace

SqlType AsDecimal(const SqlType& exact) {
  switch (exact.kind()) {
    case TypeKind::kTinyint: return SqlType::Decimal(3, 0);
    case TypeKind::kSmallint: return SqlType::Decimal(5, 0);
    case TypeKind::kInteger: return SqlType::Decimal(10, 0);
    case TypeKind::kBigint: return SqlType::Decimal(19, 0);
    default: return exact;
  }
}

std::optional<SqlType> CommonSuperType(const SqlType& a, const SqlType& b) {
  if (a == b) return a;
  if (a.IsUnknown()) return b;
  if (b.IsUnknown()) return a;
  if (a.IsInteger() && b.IsInteger()) return IntegerRank(a.kind()) >= IntegerRank(b.kind()) ? a : b;
  if (a.IsExactNumeric() && b.IsExactNumeric()) {
    SqlType x = AsDecimal(a), y = AsDecimal(b);
    int scale = std::max(x.scale(), y.scale());
    int integral = std::max(x.precision() - x.scale(), y.precision() - y.scale());
    return SqlType::Decimal(std::min(SqlType::kMaxDecimalPrecision, integral + scale), scale);
  }
  if (a.IsNumeric() && b.IsNumeric()) {
    // Real with real or any exact type (integers, decimals) stays real, as in Trino; double
    // covers every other case.
    if ((a.kind() == TypeKind::kReal && (b.kind() == TypeKind::kReal || b.IsExactNumeric())) ||
        (b.kind() == TypeKind::kReal && a.IsExactNumeric())) {
      return SqlType(TypeKind::kReal);
    }
    return SqlType::Double();
  }
  auto temporal_rank = [](TypeKind k) { return k == TypeKind::kDate ? 1 : k == TypeKind::kTimestamp ? 2 : k == TypeKind::kTimestampTz ? 3 : 0; };
  if (temporal_rank(a.kind()) > 0 && temporal_rank(b.kind()) > 0) {
    return temporal_rank(a.kind()) >= temporal_rank(b.kind()) ? a : b;
  }
  if (a.kind() == TypeKind::kRow && b.kind() == TypeKind::kRow && a.fields().size() == b.fields().size()) {
    std::vector<RowField> fields;
    for (size_t i = 0; i < a.fields().size(); ++i) {
      auto field = CommonSuperType(a.fields()[i].type, b.fields()[i].type);
      if (!field) return std::nullopt;
      fields.push_back({a.fields()[i].name, *field});
    }
    return SqlType::Row(std::move(fields));
  }
  if (a.kind() == TypeKind::kArray && b.kind() == TypeKind::kArray) {
    auto element = CommonSuperType(a.element(), b.element());
    if (!element) return std::nullopt;
    return SqlType::Array(*element);
  }
  if (a.kind() == TypeKind::kMap && b.kind() == TypeKind::kMap) {
    auto key = CommonSuperType(a.element(), b.element());
    auto value = CommonSuperType(a.value(), b.value());
    if (!key || !value) return std::nullopt;
    return SqlType::Map(*key, *value);
  }
  return std::nullopt;
}

bool CanCoerce(const SqlType& from, const SqlType& to) {
  if (from == to || from.IsUnknown()) return true;
  auto common = CommonSuperType(from, to);
  return common.has_value() && *common == to;
}

bool CanCast(const SqlType& from, const SqlType& to) {
  if (CanCoerce(from, to)) return true;
  TypeKind f = from.kind(), t = to.kind();
  if (f == TypeKind::kVarchar || t == TypeKind::kVarchar) {
    // Everything scalar converts to and from text, except binary data.
    auto textual = [](const SqlType& x) {
      return x.kind() != TypeKind::kVarbinary && x.kind() != TypeKind::kMap && x.kind() != TypeKind::kArray;
    };
    return textual(from) && textual(to);
  }
  if (from.IsNumeric() && to.IsNumeric()) return true;
  if ((f == TypeKind::kBoolean && to.IsNumeric()) || (from.IsNumeric() && t == TypeKind::kBoolean)) return true;
  if (from.IsTemporal() && to.IsTemporal()) return !(f == TypeKind::kTime) == !(t == TypeKind::kTime);
  if (f == TypeKind::kUuid && t == TypeKind::kVarbinary) return true;
  if (f == TypeKind::kArray && t == TypeKind::kArray) return CanCast(from.element(), to.element());
  if (f == TypeKind::kMap && t == TypeKind::kMap)
    return CanCast(from.element(), to.element()) && CanCast(from.value(), to.value());
  if (f == TypeKind::kRow && t == TypeKind::kRow && from.fields().size() == to.fields().size()) {
    for (size_t i = 0; i < from.fields().size(); ++i) {
      if (!CanCast(from.fields()[i].type, to.fields()[i].type)) return false;
    }
    return true;
  }
  return false;
}

Result<SqlType> DecimalArithmeticType(ArithmeticOp op, const SqlType& a, const SqlType& b) {
  int p1 = a.precision(), s1 = a.scale(), p2 = b.precision(), s2 = b.scale();
  int precision = 0, scale = 0;
  switch (op) {
    case ArithmeticOp::kAdd:
    case ArithmeticOp::kSubtract:
      scale = std::max(s1, s2);
      precision = 1 + std::max(p1 - s1, p2 - s2) + scale;
      break;
    case ArithmeticOp::kMultiply:
      scale = s1 + s2;
      precision = p1 + p2;
      break;
    case ArithmeticOp::kDivide:
      scale = std::max(s1, s2);
      precision = p1 + s2 + std::max(0, s2 - s1);
      break;
    case ArithmeticOp::kModulus:
      scale = std::max(s1, s2);
      precision = std::min(p1 - s1, p2 - s2) + scale;
      break;
  }
  if (scale > SqlType::kMaxDecimalPrecision) {
    return InvalidArgument("DECIMAL scale must be in range [0, 38]: {} op {} needs scale {}", a.ToString(), b.ToString(), scale);
  }
  precision = std::clamp(precision, std::max(scale, 1), SqlType::kMaxDecimalPrecision);
  return SqlType::Decimal(precision, scale);
}

namespace {

// Reads one type from canonical type text at `pos` (the pre-parser's spelling: words separated
// by one space, no spaces around parentheses and commas): "map(varchar,array(decimal(10,2)))".
Result<SqlType> ReadTypeText(std::string_view text, size_t& pos) {
  size_t start = pos;
  while (pos < text.size() && text[pos] != '(' && text[pos] != ',' && text[pos] != ')') ++pos;
  ast::TypeName name;
  name.name = std::string(text.substr(start, pos - start));
  static const std::pair<std::string_view, std::string_view> kAliases[] = {
      {"int", "integer"},     {"int4", "integer"}, {"int8", "bigint"},  {"long", "bigint"},    {"float", "double"},
      {"numeric", "decimal"}, {"bool", "boolean"}, {"text", "varchar"}, {"string", "varchar"}, {"binary", "varbinary"}};
  for (auto [from, to] : kAliases) {
    if (name.name == from) name.name = std::string(to);
  }
  if (name.name == "array" || name.name == "map") {
    if (pos >= text.size() || text[pos] != '(') return InvalidArgument("Unknown type: {}", text);
    ++pos;
    FLOE_ASSIGN_OR_RETURN(SqlType first, ReadTypeText(text, pos));
    if (name.name == "array") {
      if (pos >= text.size() || text[pos] != ')') return InvalidArgument("Unknown type: {}", text);
      ++pos;
      return SqlType::Array(std::move(first));
    }
    if (pos >= text.size() || text[pos] != ',')
      return InvalidArgument("map type needs a key and a value type: {}", text);
    ++pos;
    FLOE_ASSIGN_OR_RETURN(SqlType second, ReadTypeText(text, pos));
    if (pos >= text.size() || text[pos] != ')') return InvalidArgument("Unknown type: {}", text);
    ++pos;
    if (!first.IsOrderable() || first.IsNested())
      return InvalidArgument("map key type must be comparable: {}", first.ToString());
    return SqlType::Map(std::move(first), std::move(second));
  }
  if (pos < text.size() && text[pos] == '(') {
    // Integer parameters, then perhaps more words: "timestamp(6) with time zone".
    ++pos;
    while (pos < text.size() && text[pos] != ')') {
      size_t digits = pos;
      int64_t value = 0;
      while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9' && value < 1'000'000'000)
        value = value * 10 + (text[pos++] - '0');
      if (pos == digits) return InvalidArgument("type parameters must be integer literals: {}", text);
      name.parameters.push_back(value);
      if (pos < text.size() && text[pos] == ',') ++pos;
    }
    if (pos >= text.size()) return InvalidArgument("Unknown type: {}", text);
    ++pos;
    size_t rest = pos;
    while (pos < text.size() && text[pos] != ',' && text[pos] != ')') ++pos;
    name.name += std::string(text.substr(rest, pos - rest));
  }
  return TypeFromName(name);
}

}  // namespace

Result<SqlType> TypeFromText(std::string_view text) {
  size_t pos = 0;
  FLOE_ASSIGN_OR_RETURN(SqlType type, ReadTypeText(text, pos));
  if (pos != text.size()) return InvalidArgument("Unknown type: {}", text);
  return type;
}

Result<SqlType> TypeFromName(const ast::TypeName& written) {
  const std::string& n = written.name;
  if (n.starts_with("array(") || n.starts_with("map(")) {
    // Trino's nested type syntax, passed through the pre-parser as one quoted name.
    FLOE_ASSIGN_OR_RETURN(SqlType nested, TypeFromText(n));
    return written.array ? SqlType::Array(nested) : nested;
  }
  const auto& params = written.parameters;
  SqlType base;
  auto no_params = [&]() -> Status {
    if (!params.empty()) return InvalidArgument("type {} takes no parameters", n);
    return OkStatus();
  };
  if (n == "boolean") {
    FLOE_RETURN_IF_ERROR(no_params());
    base = SqlType::Boolean();
  } else if (n == "tinyint") {
    base = SqlType(TypeKind::kTinyint);
  } else if (n == "smallint") {
    base = SqlType(TypeKind::kSmallint);
  } else if (n == "integer") {
    base = SqlType::Integer();
  } else if (n == "bigint") {
    base = SqlType::Bigint();
  } else if (n == "real") {
    base = SqlType(TypeKind::kReal);
  } else if (n == "double" || n == "double precision") {
    base = SqlType::Double();
  } else if (n == "decimal") {
    int precision = params.empty() ? SqlType::kMaxDecimalPrecision : static_cast<int>(params[0]);
    int scale = params.size() < 2 ? 0 : static_cast<int>(params[1]);
    if (params.size() > 2 || precision < 1 || precision > SqlType::kMaxDecimalPrecision) {
      return InvalidArgument("DECIMAL precision must be in range [1, 38]");
    }
    if (scale < 0 || scale > precision) return InvalidArgument("DECIMAL scale must be in range [0, precision]");
    base = SqlType::Decimal(precision, scale);
  } else if (n == "varchar" || n == "char" || n == "character varying" || n == "character") {
    base = SqlType::Varchar();  // Lengths are accepted and not enforced (Iceberg strings have none).
  } else if (n == "date") {
    FLOE_RETURN_IF_ERROR(no_params());
    base = SqlType::Date();
  } else if (n == "time") {
    base = SqlType(TypeKind::kTime);
  } else if (n == "timestamp") {
    base = SqlType::Timestamp();
  } else if (n == "timestamp with time zone") {
    base = SqlType::TimestampTz();
  } else if (n == "uuid") {
    FLOE_RETURN_IF_ERROR(no_params());
    base = SqlType(TypeKind::kUuid);
  } else if (n == "varbinary") {
    base = SqlType(TypeKind::kVarbinary);
  } else if (n == "interval") {
    // PostgreSQL's field mask: YEAR (1<<2) and MONTH (1<<1) alone make a year-month interval.
    constexpr int kYearMonthMask = (1 << 1) | (1 << 2);
    bool year_month = written.interval_fields != 0 && (written.interval_fields & ~kYearMonthMask) == 0;
    base = SqlType(year_month ? TypeKind::kIntervalYearMonth : TypeKind::kIntervalDayTime);
  } else if (n == "json") {
    base = SqlType::Varchar();
  } else {
    return InvalidArgument("Unknown type: {}", n);
  }
  if (n == "timestamp" || n == "timestamp with time zone" || n == "time") {
    if (!params.empty() && (params.size() > 1 || params[0] < 0 || params[0] > 6)) {
      return NotImplemented("{} precision other than 0..6 is not supported", n);
    }
  }
  if (written.array) return SqlType::Array(base);
  return base;
}

}  // namespace floe::sql
