#include "serve/pg_types.h"

#include <fmt/format.h>

#include <bit>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstring>

#include "serve/parameter_substitution.h"
#include "sql/types/temporal.h"

namespace floe::serve::pg {
namespace {

using sql::TypeKind;

constexpr int64_t kPgEpochDays = 10957;                      // 2000-01-01 in days since 1970-01-01.
constexpr int64_t kPgEpochMicros = kPgEpochDays * 86'400'000'000LL;

void Big16(std::string* out, int16_t v) {
  out->push_back(static_cast<char>((v >> 8) & 0xff));
  out->push_back(static_cast<char>(v & 0xff));
}
void Big32(std::string* out, int32_t v) {
  for (int i = 0; i < 4; ++i) out->push_back(static_cast<char>((static_cast<uint32_t>(v) >> (24 - 8 * i)) & 0xff));
}
void Big64(std::string* out, int64_t v) {
  for (int i = 0; i < 8; ++i) out->push_back(static_cast<char>((static_cast<uint64_t>(v) >> (56 - 8 * i)) & 0xff));
}
uint64_t ReadBig(std::string_view bytes) {
  uint64_t v = 0;
  for (char c : bytes) v = (v << 8) | static_cast<uint8_t>(c);
  return v;
}

bool IsInteger(std::string_view text) {
  size_t i = (!text.empty() && (text[0] == '-' || text[0] == '+')) ? 1 : 0;
  if (i >= text.size() || text.size() > 21) return false;
  for (; i < text.size(); ++i) {
    if (text[i] < '0' || text[i] > '9') return false;
  }
  return true;
}

bool IsNumber(std::string_view text) {
  double ignored;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), ignored);
  return ec == std::errc() && end == text.data() + text.size() && !text.empty() && text.size() < 80;
}

std::string TrimFraction(std::string text) {
  // "10:00:00.500000" -> "10:00:00.5"; "10:00:00.000000" -> "10:00:00".
  size_t dot = text.rfind('.');
  if (dot == std::string::npos) return text;
  size_t end = dot + 1;
  while (end < text.size() && std::isdigit(static_cast<unsigned char>(text[end]))) ++end;
  size_t last = end;
  while (last > dot + 1 && text[last - 1] == '0') --last;
  if (last == dot + 1) last = dot;
  return text.substr(0, last) + text.substr(end);
}

std::string DoubleText(double d) {
  if (std::isnan(d)) return "NaN";
  if (std::isinf(d)) return d > 0 ? "Infinity" : "-Infinity";
  return fmt::format("{}", d);
}

// float4 prints its own shortest digits, as PostgreSQL does.
std::string RealText(double d) {
  if (!std::isfinite(d)) return DoubleText(d);
  return fmt::format("{}", static_cast<float>(d));
}

// The array type of a scalar type's OID; text for the others (a map or row has no array type).
int32_t ArrayOid(int32_t element_oid) {
  switch (element_oid) {
    case oid::kBool:
      return oid::kBoolArray;
    case oid::kBytea:
      return oid::kByteaArray;
    case oid::kInt2:
      return oid::kInt2Array;
    case oid::kInt4:
      return oid::kInt4Array;
    case oid::kInt8:
      return oid::kInt8Array;
    case oid::kFloat4:
      return oid::kFloat4Array;
    case oid::kFloat8:
      return oid::kFloat8Array;
    case oid::kNumeric:
      return oid::kNumericArray;
    case oid::kDate:
      return oid::kDateArray;
    case oid::kTime:
      return oid::kTimeArray;
    case oid::kTimestamp:
      return oid::kTimestampArray;
    case oid::kTimestampTz:
      return oid::kTimestampTzArray;
    case oid::kInterval:
      return oid::kIntervalArray;
    case oid::kUuid:
      return oid::kUuidArray;
    case oid::kText:
      return oid::kTextArray;
    default:
      return oid::kText;
  }
}

bool IsScalar(const sql::SqlType& type) {
  return type.kind() != TypeKind::kRow && type.kind() != TypeKind::kArray && type.kind() != TypeKind::kMap;
}

// An array element in PostgreSQL's array literal: NULL bare, other text double-quoted when it
// is empty, spells NULL, or holds a character the literal gives meaning to.
std::string ArrayElementText(const std::optional<std::string>& text) {
  if (!text) return "NULL";
  std::string lower;
  for (char c : *text) lower.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  bool quote = text->empty() || lower == "null";
  for (char c : *text)
    quote = quote || c == '"' || c == '\\' || c == '{' || c == '}' || c == ',' ||
            std::isspace(static_cast<unsigned char>(c));
  if (!quote) return *text;
  std::string out = "\"";
  for (char c : *text) {
    if (c == '"' || c == '\\') out.push_back('\\');
    out.push_back(c);
  }
  return out + '"';
}

}  // namespace

int32_t TypeOid(const sql::SqlType& type) {
  switch (type.kind()) {
    case TypeKind::kArray:
      return IsScalar(type.element()) ? ArrayOid(TypeOid(type.element())) : oid::kText;
    case TypeKind::kBoolean: return oid::kBool;
    case TypeKind::kTinyint:
    case TypeKind::kSmallint: return oid::kInt2;
    case TypeKind::kInteger: return oid::kInt4;
    case TypeKind::kBigint: return oid::kInt8;
    case TypeKind::kReal: return oid::kFloat4;
    case TypeKind::kDouble: return oid::kFloat8;
    case TypeKind::kDecimal: return oid::kNumeric;
    case TypeKind::kDate: return oid::kDate;
    case TypeKind::kTime: return oid::kTime;
    case TypeKind::kTimestamp: return oid::kTimestamp;
    case TypeKind::kTimestampTz: return oid::kTimestampTz;
    case TypeKind::kIntervalDayTime:
    case TypeKind::kIntervalYearMonth: return oid::kInterval;
    case TypeKind::kUuid: return oid::kUuid;
    case TypeKind::kVarbinary: return oid::kBytea;
    default: return oid::kText;  // varchar, unknown (NULL), and row/array/map as text.
  }
}

int16_t TypeSize(int32_t type_oid) {
  switch (type_oid) {
    case oid::kBool: return 1;
    case oid::kInt2: return 2;
    case oid::kInt4:
    case oid::kFloat4:
    case oid::kDate:
    case oid::kOid: return 4;
    case oid::kInt8:
    case oid::kFloat8:
    case oid::kTime:
    case oid::kTimestamp:
    case oid::kTimestampTz: return 8;
    case oid::kInterval:
    case oid::kUuid: return 16;
    default: return -1;
  }
}

std::string_view TypeName(int32_t type_oid) {
  switch (type_oid) {
    case oid::kBool: return "boolean";
    case oid::kBytea: return "bytea";
    case oid::kInt8: return "bigint";
    case oid::kInt2: return "smallint";
    case oid::kInt4: return "integer";
    case oid::kFloat4: return "real";
    case oid::kFloat8: return "double precision";
    case oid::kNumeric: return "numeric";
    case oid::kDate: return "date";
    case oid::kTime: return "time without time zone";
    case oid::kTimestamp: return "timestamp without time zone";
    case oid::kTimestampTz: return "timestamp with time zone";
    case oid::kInterval: return "interval";
    case oid::kUuid: return "uuid";
    case oid::kVarchar: return "character varying";
    case oid::kBoolArray:
      return "boolean[]";
    case oid::kByteaArray:
      return "bytea[]";
    case oid::kInt2Array:
      return "smallint[]";
    case oid::kInt4Array:
      return "integer[]";
    case oid::kInt8Array:
      return "bigint[]";
    case oid::kFloat4Array:
      return "real[]";
    case oid::kFloat8Array:
      return "double precision[]";
    case oid::kNumericArray:
      return "numeric[]";
    case oid::kDateArray:
      return "date[]";
    case oid::kTimeArray:
      return "time without time zone[]";
    case oid::kTimestampArray:
      return "timestamp without time zone[]";
    case oid::kTimestampTzArray:
      return "timestamp with time zone[]";
    case oid::kIntervalArray:
      return "interval[]";
    case oid::kUuidArray:
      return "uuid[]";
    case oid::kTextArray:
      return "text[]";
    default: return "text";
  }
}

std::optional<std::string> TextValue(const sql::Value& value, const TimeZone& zone) {
  if (value.is_null()) return std::nullopt;
  switch (value.type().kind()) {
    case TypeKind::kBoolean: return std::string(value.as_bool() ? "t" : "f");
    case TypeKind::kReal: return RealText(value.as_double());
    case TypeKind::kDouble: return DoubleText(value.as_double());
    case TypeKind::kTime:
    case TypeKind::kTimestamp: return TrimFraction(value.ToText());
    case TypeKind::kTimestampTz: {
      int64_t instant = value.as_int();
      int32_t offset = zone.OffsetAt(FloorDiv(instant, sql::kMicrosPerSecond));
      std::string local = sql::FormatTimestamp(instant + int64_t{offset} * sql::kMicrosPerSecond, false);
      return TrimFraction(local) + FormatUtcOffset(offset);
    }
    case TypeKind::kVarbinary: return "\\x" + value.ToText();
    case TypeKind::kArray: {
      if (!IsScalar(value.type().element())) return value.ToText();
      std::string out = "{";
      for (size_t i = 0; i < value.as_elements().size(); ++i) {
        if (i > 0) out.push_back(',');
        out += ArrayElementText(TextValue(value.as_elements()[i], zone));
      }
      return out + "}";
    }
    default: return value.ToText();
  }
}

Result<std::optional<std::string>> BinaryValue(const sql::Value& value) {
  if (value.is_null()) return std::optional<std::string>();
  std::string out;
  switch (value.type().kind()) {
    case TypeKind::kBoolean: out.push_back(value.as_bool() ? 1 : 0); break;
    case TypeKind::kTinyint:
    case TypeKind::kSmallint: Big16(&out, static_cast<int16_t>(value.as_int())); break;
    case TypeKind::kInteger: Big32(&out, static_cast<int32_t>(value.as_int())); break;
    case TypeKind::kBigint: Big64(&out, value.as_int()); break;
    case TypeKind::kReal: Big32(&out, std::bit_cast<int32_t>(static_cast<float>(value.as_double()))); break;
    case TypeKind::kDouble: Big64(&out, std::bit_cast<int64_t>(value.as_double())); break;
    case TypeKind::kDecimal: {
      FLOE_ASSIGN_OR_RETURN(out, EncodeNumeric(value.ToText()));
      break;
    }
    case TypeKind::kDate: Big32(&out, static_cast<int32_t>(value.as_int() - kPgEpochDays)); break;
    case TypeKind::kTimestamp:
    case TypeKind::kTimestampTz: Big64(&out, value.as_int() - kPgEpochMicros); break;
    case TypeKind::kVarchar:
    case TypeKind::kVarbinary: out = value.as_string(); break;
    default: {
      if (TypeOid(value.type()) != oid::kText) {
        return NotImplemented("binary format for type {} is not supported", value.type().ToString());
      }
      out = value.ToText();
    }
  }
  return std::optional<std::string>(std::move(out));
}

Result<std::string> EncodeNumeric(std::string_view text) {
  bool negative = !text.empty() && text[0] == '-';
  if (negative || (!text.empty() && text[0] == '+')) text.remove_prefix(1);
  size_t dot = text.find('.');
  std::string integer(text.substr(0, dot));
  std::string fraction = dot == std::string_view::npos ? "" : std::string(text.substr(dot + 1));
  for (char c : integer + fraction) {
    if (c < '0' || c > '9') return InvalidArgument("'{}' is not a decimal number", text);
  }
  int16_t dscale = static_cast<int16_t>(fraction.size());
  while (integer.size() % 4 != 0) integer.insert(integer.begin(), '0');
  while (fraction.size() % 4 != 0) fraction.push_back('0');
  std::vector<int16_t> digits;
  for (size_t i = 0; i < integer.size(); i += 4) digits.push_back(static_cast<int16_t>(std::stoi(integer.substr(i, 4))));
  int weight = static_cast<int>(digits.size()) - 1;
  for (size_t i = 0; i < fraction.size(); i += 4) digits.push_back(static_cast<int16_t>(std::stoi(fraction.substr(i, 4))));
  size_t first = 0;
  while (first < digits.size() && digits[first] == 0) {
    ++first;
    --weight;
  }
  size_t last = digits.size();
  while (last > first && digits[last - 1] == 0) --last;
  std::string out;
  bool zero = first == last;
  Big16(&out, static_cast<int16_t>(last - first));
  Big16(&out, static_cast<int16_t>(zero ? 0 : weight));
  Big16(&out, static_cast<int16_t>(negative && !zero ? 0x4000 : 0));
  Big16(&out, dscale);
  for (size_t i = first; i < last; ++i) Big16(&out, digits[i]);
  return out;
}

Result<std::string> DecodeNumeric(std::string_view bytes) {
  if (bytes.size() < 8) return InvalidArgument("numeric parameter: {} bytes, wanted at least 8", bytes.size());
  int ndigits = static_cast<int16_t>(ReadBig(bytes.substr(0, 2)));
  int weight = static_cast<int16_t>(ReadBig(bytes.substr(2, 2)));
  uint16_t sign = static_cast<uint16_t>(ReadBig(bytes.substr(4, 2)));
  int dscale = static_cast<int16_t>(ReadBig(bytes.substr(6, 2)));
  if (sign == 0xC000) return std::string("'NaN'");
  if (ndigits < 0 || dscale < 0 || dscale > 1000 || bytes.size() != 8 + 2 * static_cast<size_t>(ndigits) ||
      weight > 1000 || weight < -1000) {
    return InvalidArgument("numeric parameter: malformed");
  }
  std::vector<int> digits;
  for (int i = 0; i < ndigits; ++i) {
    int d = static_cast<int16_t>(ReadBig(bytes.substr(8 + 2 * i, 2)));
    if (d < 0 || d > 9999) return InvalidArgument("numeric parameter: digit {} out of range", d);
    digits.push_back(d);
  }
  auto digit_at = [&](int position) { return position >= 0 && position < ndigits ? digits[position] : 0; };
  std::string integer;
  for (int w = weight, i = 0; w >= 0; --w, ++i) integer += integer.empty() ? fmt::format("{}", digit_at(i)) : fmt::format("{:04}", digit_at(i));
  if (integer.empty()) integer = "0";
  std::string fraction;
  for (int i = weight + 1; static_cast<int>(fraction.size()) < dscale; ++i) fraction += fmt::format("{:04}", digit_at(i));
  fraction.resize(static_cast<size_t>(dscale));
  std::string out = (sign == 0x4000 ? "-" : "") + integer;
  if (!fraction.empty()) out += "." + fraction;
  return out;
}

Result<std::string> ParameterLiteral(int32_t type_oid, int16_t format, const std::optional<std::string>& bytes) {
  if (!bytes.has_value()) return std::string("NULL");
  const std::string& b = *bytes;
  if (format == 1) {
    auto need = [&](size_t n) -> Status {
      if (b.size() != n) return InvalidArgument("binary parameter of type {}: {} bytes, wanted {}", TypeName(type_oid), b.size(), n);
      return OkStatus();
    };
    switch (type_oid) {
      case oid::kBool: FLOE_RETURN_IF_ERROR(need(1)); return std::string(b[0] ? "TRUE" : "FALSE");
      case oid::kInt2: FLOE_RETURN_IF_ERROR(need(2)); return std::to_string(static_cast<int16_t>(ReadBig(b)));
      case oid::kInt4: FLOE_RETURN_IF_ERROR(need(4)); return std::to_string(static_cast<int32_t>(ReadBig(b)));
      case oid::kInt8: FLOE_RETURN_IF_ERROR(need(8)); return std::to_string(static_cast<int64_t>(ReadBig(b)));
      case oid::kFloat4: {
        FLOE_RETURN_IF_ERROR(need(4));
        float f = std::bit_cast<float>(static_cast<uint32_t>(ReadBig(b)));
        return std::isfinite(f) ? fmt::format("CAST({} AS real)", f) : fmt::format("CAST('{}' AS real)", DoubleText(f));
      }
      case oid::kFloat8: {
        FLOE_RETURN_IF_ERROR(need(8));
        double d = std::bit_cast<double>(ReadBig(b));
        return std::isfinite(d) ? fmt::format("{:e}", d) : fmt::format("CAST('{}' AS double)", DoubleText(d));
      }
      case oid::kNumeric: {
        FLOE_ASSIGN_OR_RETURN(std::string text, DecodeNumeric(b));
        return text;
      }
      case oid::kDate:
        FLOE_RETURN_IF_ERROR(need(4));
        return sql::Value::Int(sql::SqlType::Date(), static_cast<int32_t>(ReadBig(b)) + kPgEpochDays).ToSql();
      case oid::kTimestamp:
        FLOE_RETURN_IF_ERROR(need(8));
        return sql::Value::Int(sql::SqlType::Timestamp(), static_cast<int64_t>(ReadBig(b)) + kPgEpochMicros).ToSql();
      case oid::kTimestampTz:
        FLOE_RETURN_IF_ERROR(need(8));
        return sql::Value::Int(sql::SqlType::TimestampTz(), static_cast<int64_t>(ReadBig(b)) + kPgEpochMicros).ToSql();
      case oid::kBytea: return sql::Value::String(sql::SqlType(TypeKind::kVarbinary), b).ToSql();
      case oid::kText:
      case oid::kVarchar:
      case oid::kBpchar:
      case oid::kUnknown:
      case oid::kUnspecified: return QuoteString(b);
      default: return NotImplemented("binary parameters of type OID {} are not supported", type_oid);
    }
  }
  if (b.find('\0') != std::string::npos) return InvalidArgument("text parameter contains a NUL byte");
  switch (type_oid) {
    case oid::kBool: {
      std::string lower;
      for (char c : b) lower.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
      if (lower == "t" || lower == "true" || lower == "1" || lower == "yes" || lower == "on") return std::string("TRUE");
      if (lower == "f" || lower == "false" || lower == "0" || lower == "no" || lower == "off") return std::string("FALSE");
      return InvalidArgument("invalid input syntax for type boolean: \"{}\"", b);
    }
    case oid::kInt2:
    case oid::kInt4:
    case oid::kInt8:
      if (!IsInteger(b)) return InvalidArgument("invalid input syntax for type {}: \"{}\"", TypeName(type_oid), b);
      return b;
    case oid::kFloat4:
    case oid::kFloat8:
    case oid::kNumeric:
      if (!IsNumber(b)) return fmt::format("CAST({} AS {})", QuoteString(b), type_oid == oid::kNumeric ? "decimal(38,9)" : "double");
      return type_oid == oid::kNumeric ? b : fmt::format("CAST({} AS double)", b);
    case oid::kDate: return "DATE " + QuoteString(b);
    case oid::kTimestamp:
    case oid::kTimestampTz: return "TIMESTAMP " + QuoteString(b);
    case oid::kText:
    case oid::kVarchar:
    case oid::kBpchar: return QuoteString(b);
    default: return UntypedLiteral(b);
  }
}

}  // namespace floe::serve::pg
