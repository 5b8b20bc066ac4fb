#include "sql/types/value.h"

#include <fmt/ranges.h>

#include <algorithm>
#include <array>
#include <cctype>

#include "sql/types/temporal.h"

namespace floe::sql {

Int128 PowerOfTen(int n) {
  // A table: decimal kernels call this per row.
  static const auto kPowers = [] {
    std::array<Int128, 39> powers{};
    powers[0] = 1;
    for (size_t i = 1; i < powers.size(); ++i) powers[i] = powers[i - 1] * 10;
    return powers;
  }();
  if (n >= 0 && n <= 38) return kPowers[static_cast<size_t>(n)];
  Int128 out = 1;
  for (int i = 0; i < n; ++i) out *= 10;
  return out;
}

std::string DecimalToString(Int128 unscaled, int scale) {
  bool negative = unscaled < 0;
  // Work on the magnitude as unsigned so the most negative value does not overflow.
  unsigned __int128 magnitude = negative ? static_cast<unsigned __int128>(-(unscaled + 1)) + 1 : static_cast<unsigned __int128>(unscaled);
  std::string digits;
  do {
    digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(magnitude % 10)));
    magnitude /= 10;
  } while (magnitude != 0);
  if (scale > 0) {
    if (digits.size() <= static_cast<size_t>(scale)) digits.insert(0, static_cast<size_t>(scale) - digits.size() + 1, '0');
    digits.insert(digits.size() - static_cast<size_t>(scale), 1, '.');
  }
  if (negative) digits.insert(0, 1, '-');
  return digits;
}

Result<Value> ParseDecimalLiteral(std::string_view text) {
  bool negative = false;
  if (!text.empty() && (text[0] == '-' || text[0] == '+')) {
    negative = text[0] == '-';
    text.remove_prefix(1);
  }
  Int128 unscaled = 0;
  int digits = 0, scale = 0;
  bool point = false, significant = false;
  for (char c : text) {
    if (c == '.') {
      if (point) return InvalidArgument("invalid decimal literal");
      point = true;
      continue;
    }
    if (!std::isdigit(static_cast<unsigned char>(c))) return InvalidArgument("invalid decimal literal");
    if (c != '0') significant = true;
    if (significant || point) ++digits;
    if (point) ++scale;
    if (digits > SqlType::kMaxDecimalPrecision) return InvalidArgument("decimal literal has more than 38 digits");
    unscaled = unscaled * 10 + (c - '0');
  }
  int precision = std::max({digits, scale, 1});
  return Value::Decimal(SqlType::Decimal(precision, scale), negative ? -unscaled : unscaled);
}

bool Value::operator==(const Value& other) const {
  if (type_ != other.type_) return false;
  using Fields = std::shared_ptr<const std::vector<Value>>;
  if (std::holds_alternative<Fields>(data_) && std::holds_alternative<Fields>(other.data_)) return as_fields() == other.as_fields();
  return data_ == other.data_;
}

std::string Value::ToText() const {
  if (is_null()) return "NULL";
  switch (type_.kind()) {
    case TypeKind::kRow: {
      std::string out = "{";
      const auto& fields = as_fields();
      for (size_t i = 0; i < fields.size(); ++i) {
        if (i > 0) out += ", ";
        out += i < type_.fields().size() && !type_.fields()[i].name.empty() ? type_.fields()[i].name : fmt::format("field{}", i);
        out.push_back('=');
        out += fields[i].ToText();
      }
      return out + "}";
    }
    case TypeKind::kArray: {
      std::string out = "[";
      const auto& elements = as_elements();
      for (size_t i = 0; i < elements.size(); ++i) {
        if (i > 0) out += ", ";
        out += elements[i].ToText();
      }
      return out + "]";
    }
    case TypeKind::kMap: {
      std::string out = "{";
      for (size_t i = 0; i < map_size(); ++i) {
        if (i > 0) out += ", ";
        out += map_key(i).ToText();
        out.push_back('=');
        out += map_value(i).ToText();
      }
      return out + "}";
    }
    case TypeKind::kBoolean: return as_bool() ? "true" : "false";
    case TypeKind::kDecimal: return DecimalToString(as_decimal(), type_.scale());
    case TypeKind::kReal: return fmt::format("{}", static_cast<float>(as_double()));  // 1.1, not 1.100000023841858
    case TypeKind::kDouble: return fmt::format("{}", as_double());
    case TypeKind::kDate: return FormatDate(as_int());
    case TypeKind::kTimestamp: return FormatTimestamp(as_int(), false);
    case TypeKind::kTimestampTz: return FormatTimestamp(as_int(), true);
    case TypeKind::kVarchar:
    case TypeKind::kUuid: return as_string();
    case TypeKind::kVarbinary: {
      std::string out;
      for (unsigned char c : as_string()) out += fmt::format("{:02x}", c);
      return out;
    }
    case TypeKind::kIntervalDayTime: {
      int64_t micros = as_int();
      std::string sign = micros < 0 ? "-" : "";
      uint64_t m = micros < 0 ? static_cast<uint64_t>(-(micros + 1)) + 1 : static_cast<uint64_t>(micros);
      uint64_t seconds = m / 1'000'000;
      return fmt::format("{}{} {:02d}:{:02d}:{:02d}.{:03d}", sign, seconds / 86400, seconds / 3600 % 24, seconds / 60 % 60,
                         seconds % 60, m % 1'000'000 / 1000);
    }
    case TypeKind::kIntervalYearMonth: {
      int64_t months = as_int();
      return fmt::format("{}{}-{}", months < 0 ? "-" : "", std::abs(months) / 12, std::abs(months) % 12);
    }
    default:
      if (std::holds_alternative<int64_t>(data_)) return std::to_string(as_int());
      if (std::holds_alternative<std::string>(data_)) return as_string();
      return "?";
  }
}

std::string Value::ToSql() const {
  if (is_null()) return "NULL";
  auto quote = [](const std::string& s) {
    std::string out(1, '\'');
    for (char c : s) {
      out.push_back(c);
      if (c == '\'') out.push_back('\'');
    }
    out.push_back('\'');
    return out;
  };
  switch (type_.kind()) {
    case TypeKind::kBoolean: return as_bool() ? "TRUE" : "FALSE";
    case TypeKind::kVarchar: return quote(as_string());
    case TypeKind::kDate: return fmt::format("DATE {}", quote(ToText()));
    case TypeKind::kTimestamp: return fmt::format("TIMESTAMP {}", quote(ToText()));
    case TypeKind::kTimestampTz: return fmt::format("TIMESTAMP {}", quote(ToText()));
    case TypeKind::kUuid: return fmt::format("UUID {}", quote(ToText()));
    case TypeKind::kVarbinary: return fmt::format("X{}", quote(ToText()));
    case TypeKind::kIntervalDayTime: return fmt::format("INTERVAL {} DAY TO SECOND", quote(ToText()));
    case TypeKind::kIntervalYearMonth: return fmt::format("INTERVAL {} YEAR TO MONTH", quote(ToText()));
    case TypeKind::kRow: {
      std::vector<std::string> fields;
      for (const Value& f : as_fields()) fields.push_back(f.ToSql());
      return fmt::format("CAST(ROW({}) AS {})", fmt::join(fields, ", "), type_.ToString());
    }
    case TypeKind::kArray: {
      std::vector<std::string> elements;
      for (const Value& e : as_elements()) elements.push_back(e.ToSql());
      return fmt::format("CAST(ARRAY[{}] AS {})", fmt::join(elements, ", "), type_.ToString());
    }
    case TypeKind::kMap: {
      std::vector<std::string> keys, values;
      for (size_t i = 0; i < map_size(); ++i) {
        keys.push_back(map_key(i).ToSql());
        values.push_back(map_value(i).ToSql());
      }
      return fmt::format("CAST(MAP(ARRAY[{}], ARRAY[{}]) AS {})", fmt::join(keys, ", "), fmt::join(values, ", "),
                         type_.ToString());
    }
    case TypeKind::kReal:
    case TypeKind::kDouble: {
      std::string text = ToText();
      if (text.find_first_of("e.na") == std::string::npos) text += "E0";  // Keep it a double literal.
      return text;
    }
    default: return ToText();
  }
}

}  // namespace floe::sql
