#include "iceberg/literal.h"

#include <bit>
#include <cmath>
#include <cstring>

#include <nlohmann/json.hpp>

#include "base/bytes.h"
#include "base/civil_date.h"
#include "base/floor_div.h"

namespace floe::iceberg {
namespace {

using Json = nlohmann::json;

// Floats ordered as Java's Double.compare: -NaN < -inf < ... < -0 < 0 < ... < inf < NaN.
std::strong_ordering CompareDoubles(double a, double b) {
  bool an = a != a, bn = b != b;
  if (an || bn) {
    if (an && bn) return std::strong_ordering::equal;
    return an ? std::strong_ordering::greater : std::strong_ordering::less;
  }
  if (a < b) return std::strong_ordering::less;
  if (a > b) return std::strong_ordering::greater;
  bool as = std::signbit(a), bs = std::signbit(b);
  if (as == bs) return std::strong_ordering::equal;
  return as ? std::strong_ordering::less : std::strong_ordering::greater;
}

std::string Hex(std::string_view bytes) {
  static const char kDigits[] = "0123456789abcdef";
  std::string out;
  for (unsigned char c : bytes) {
    out.push_back(kDigits[c >> 4]);
    out.push_back(kDigits[c & 15]);
  }
  return out;
}

std::optional<std::string> Unhex(std::string_view text) {
  if (text.size() % 2) return std::nullopt;
  std::string out;
  auto digit = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  for (size_t i = 0; i < text.size(); i += 2) {
    int hi = digit(text[i]), lo = digit(text[i + 1]);
    if (hi < 0 || lo < 0) return std::nullopt;
    out.push_back(static_cast<char>(hi * 16 + lo));
  }
  return out;
}

std::string FormatDate(int64_t days) {
  CivilDate d = CivilFromDays(days);
  return fmt::format("{:04}-{:02}-{:02}", d.year, d.month, d.day);
}

std::string FormatTime(int64_t micros_of_day, int digits, int64_t units_per_second) {
  int64_t seconds = micros_of_day / units_per_second;
  int64_t fraction = micros_of_day % units_per_second;
  return fmt::format("{:02}:{:02}:{:02}.{:0{}}", seconds / 3600, (seconds / 60) % 60, seconds % 60, fraction, digits);
}

std::string FormatTimestamp(int64_t value, int64_t units_per_second, int digits) {
  int64_t units_per_day = units_per_second * 86400;
  int64_t days = FloorDiv(value, units_per_day);
  int64_t rest = value - days * units_per_day;
  return FormatDate(days) + "T" + FormatTime(rest, digits, units_per_second);
}

// Parses "HH:MM:SS[.fraction]" into units (micros or nanos) of the day.
std::optional<int64_t> ParseTime(std::string_view s, int digits) {
  if (s.size() < 8 || s[2] != ':' || s[5] != ':') return std::nullopt;
  auto num = [&](size_t pos, size_t len) -> std::optional<int64_t> {
    int64_t v = 0;
    for (size_t i = pos; i < pos + len; ++i) {
      if (s[i] < '0' || s[i] > '9') return std::nullopt;
      v = v * 10 + (s[i] - '0');
    }
    return v;
  };
  auto h = num(0, 2), m = num(3, 2), sec = num(6, 2);
  if (!h || !m || !sec || *h > 23 || *m > 59 || *sec > 60) return std::nullopt;
  int64_t unit = 1;
  for (int i = 0; i < digits; ++i) unit *= 10;
  int64_t fraction = 0;
  if (s.size() > 8) {
    if (s[8] != '.') return std::nullopt;
    std::string_view f = s.substr(9);
    if (f.empty() || f.size() > static_cast<size_t>(digits)) return std::nullopt;
    auto v = num(9, f.size());
    if (!v) return std::nullopt;
    fraction = *v;
    for (size_t i = f.size(); i < static_cast<size_t>(digits); ++i) fraction *= 10;
  }
  return ((*h * 60 + *m) * 60 + *sec) * unit + fraction;
}

std::optional<int64_t> ParseDate(std::string_view s) {
  // [-]YYYY-MM-DD
  bool negative = !s.empty() && s[0] == '-';
  if (negative) s.remove_prefix(1);
  size_t dash = s.find('-');
  if (dash == std::string_view::npos || dash < 4 || s.size() != dash + 6 || s[dash + 3] != '-') return std::nullopt;
  int64_t y = 0;
  for (size_t i = 0; i < dash; ++i) {
    if (s[i] < '0' || s[i] > '9') return std::nullopt;
    y = y * 10 + (s[i] - '0');
  }
  auto two = [&](size_t pos) -> int {
    if (s[pos] < '0' || s[pos] > '9' || s[pos + 1] < '0' || s[pos + 1] > '9') return -1;
    return (s[pos] - '0') * 10 + (s[pos + 1] - '0');
  };
  int m = two(dash + 1), d = two(dash + 4);
  if (m < 1 || m > 12 || d < 1 || d > 31) return std::nullopt;
  return DaysFromCivil({negative ? -y : y, m, d});
}

// "YYYY-MM-DDTHH:MM:SS[.f][+00:00|Z]" -> units since the epoch.
std::optional<int64_t> ParseTimestamp(std::string_view s, int digits, bool with_zone) {
  size_t t = s.find('T');
  if (t == std::string_view::npos) t = s.find(' ');
  if (t == std::string_view::npos) {
    auto days = ParseDate(s);
    if (!days) return std::nullopt;
    int64_t unit = digits == 9 ? 1000000000 : 1000000;
    return *days * 86400 * unit;
  }
  auto days = ParseDate(s.substr(0, t));
  if (!days) return std::nullopt;
  std::string_view rest = s.substr(t + 1);
  int64_t offset_minutes = 0;
  if (rest.ends_with("Z")) {
    rest.remove_suffix(1);
  } else if (rest.size() > 6 && (rest[rest.size() - 6] == '+' || rest[rest.size() - 6] == '-') &&
             rest[rest.size() - 3] == ':') {
    std::string_view z = rest.substr(rest.size() - 6);
    int hh = (z[1] - '0') * 10 + (z[2] - '0');
    int mm = (z[4] - '0') * 10 + (z[5] - '0');
    offset_minutes = (z[0] == '-' ? -1 : 1) * (hh * 60 + mm);
    rest.remove_suffix(6);
  }
  (void)with_zone;
  auto time = ParseTime(rest, digits);
  if (!time) return std::nullopt;
  int64_t unit = digits == 9 ? 1000000000 : 1000000;
  return *days * 86400 * unit + *time - offset_minutes * 60 * unit;
}

std::optional<std::string> ParseUuid(std::string_view s) {
  std::string hex;
  for (char c : s) {
    if (c != '-') hex.push_back(c);
  }
  if (hex.size() != 32 || s.size() != 36) return std::nullopt;
  return Unhex(hex);
}

std::string FormatUuid(std::string_view bytes) {
  std::string h = Hex(bytes);
  if (h.size() != 32) return h;
  return h.substr(0, 8) + "-" + h.substr(8, 4) + "-" + h.substr(12, 4) + "-" + h.substr(16, 4) + "-" + h.substr(20);
}

std::optional<__int128> ParseDecimal(std::string_view s, int32_t scale) {
  bool negative = false;
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) {
    negative = s[0] == '-';
    s.remove_prefix(1);
  }
  __int128 v = 0;
  int fraction_digits = -1;
  if (s.empty()) return std::nullopt;
  for (char c : s) {
    if (c == '.') {
      if (fraction_digits >= 0) return std::nullopt;
      fraction_digits = 0;
      continue;
    }
    if (c < '0' || c > '9') return std::nullopt;
    v = v * 10 + (c - '0');
    if (fraction_digits >= 0) ++fraction_digits;
  }
  if (fraction_digits < 0) fraction_digits = 0;
  if (fraction_digits > scale) return std::nullopt;  // Would lose digits.
  for (int i = fraction_digits; i < scale; ++i) v *= 10;
  return negative ? -v : v;
}

}  // namespace

std::string DecimalToMinimalBytes(__int128 v) {
  // Big-endian two's complement with no redundant sign bytes.
  std::string out;
  for (int i = 15; i >= 0; --i) out.push_back(static_cast<char>(static_cast<unsigned __int128>(v) >> (i * 8)));
  size_t start = 0;
  while (start < 15) {
    unsigned char b = static_cast<unsigned char>(out[start]);
    unsigned char next = static_cast<unsigned char>(out[start + 1]);
    if ((b == 0x00 && !(next & 0x80)) || (b == 0xFF && (next & 0x80))) {
      ++start;
    } else {
      break;
    }
  }
  return out.substr(start);
}

__int128 DecimalFromBytes(std::string_view bytes) {
  if (bytes.empty()) return 0;
  unsigned __int128 v = (static_cast<unsigned char>(bytes[0]) & 0x80) ? ~static_cast<unsigned __int128>(0) : 0;
  for (unsigned char c : bytes) v = (v << 8) | c;
  return static_cast<__int128>(v);
}

std::string DecimalToString(__int128 v, int32_t scale) {
  bool negative = v < 0;
  unsigned __int128 u = negative ? -static_cast<unsigned __int128>(v) : static_cast<unsigned __int128>(v);
  std::string digits;
  do {
    digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(u % 10)));
    u /= 10;
  } while (u != 0);
  if (scale > 0) {
    while (digits.size() <= static_cast<size_t>(scale)) digits.insert(digits.begin(), '0');
    digits.insert(digits.end() - scale, '.');
  }
  return negative ? "-" + digits : digits;
}

std::strong_ordering Literal::Compare(const Literal& o) const {
  if (kind_ == Kind::kNull || o.kind_ == Kind::kNull) {
    if (kind_ == o.kind_) return std::strong_ordering::equal;
    return kind_ == Kind::kNull ? std::strong_ordering::less : std::strong_ordering::greater;
  }
  auto integral = [](Kind k) { return k == Kind::kInt || k == Kind::kLong || k == Kind::kBoolean; };
  if (integral(kind_) && integral(o.kind_)) return i_ <=> o.i_;
  auto floating = [](Kind k) { return k == Kind::kFloat || k == Kind::kDouble; };
  if (floating(kind_) && floating(o.kind_)) return CompareDoubles(d_, o.d_);
  if (floating(kind_) && integral(o.kind_)) return CompareDoubles(d_, static_cast<double>(o.i_));
  if (integral(kind_) && floating(o.kind_)) return CompareDoubles(static_cast<double>(i_), o.d_);
  if (kind_ == Kind::kDecimal && o.kind_ == Kind::kDecimal) {
    __int128 a = unscaled_, b = o.unscaled_;
    for (int32_t s = scale(); s < o.scale(); ++s) a *= 10;
    for (int32_t s = o.scale(); s < scale(); ++s) b *= 10;
    return a <=> b;
  }
  if ((kind_ == Kind::kString || kind_ == Kind::kBinary) && (o.kind_ == Kind::kString || o.kind_ == Kind::kBinary)) {
    int c = std::memcmp(s_.data(), o.s_.data(), std::min(s_.size(), o.s_.size()));
    if (c != 0) return c < 0 ? std::strong_ordering::less : std::strong_ordering::greater;
    return s_.size() <=> o.s_.size();
  }
  return kind_ <=> o.kind_;
}

std::string Literal::ToString() const {
  switch (kind_) {
    case Kind::kNull: return "null";
    case Kind::kBoolean: return i_ ? "true" : "false";
    case Kind::kInt:
    case Kind::kLong: return std::to_string(i_);
    case Kind::kFloat:
    case Kind::kDouble: return fmt::format("{}", d_);
    case Kind::kString: return "'" + s_ + "'";
    case Kind::kBinary: return "X'" + Hex(s_) + "'";
    case Kind::kDecimal: return DecimalToString(unscaled_, scale());
  }
  return "?";
}

Literal::Kind KindOf(const Type& type) {
  switch (type.id()) {
    case TypeId::kBoolean: return Literal::Kind::kBoolean;
    case TypeId::kInt:
    case TypeId::kDate: return Literal::Kind::kInt;
    case TypeId::kLong:
    case TypeId::kTime:
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs: return Literal::Kind::kLong;
    case TypeId::kFloat: return Literal::Kind::kFloat;
    case TypeId::kDouble: return Literal::Kind::kDouble;
    case TypeId::kString: return Literal::Kind::kString;
    case TypeId::kUuid:
    case TypeId::kFixed:
    case TypeId::kBinary: return Literal::Kind::kBinary;
    case TypeId::kDecimal: return Literal::Kind::kDecimal;
    default: return Literal::Kind::kNull;
  }
}

std::optional<Literal> CastLiteral(const Literal& v, const Type& type) {
  if (v.is_null()) return v;
  Literal::Kind want = KindOf(type);
  switch (type.id()) {
    case TypeId::kBoolean:
      if (v.kind() == Literal::Kind::kBoolean) return v;
      return std::nullopt;
    case TypeId::kInt:
      if (v.kind() == Literal::Kind::kInt) return v;
      if (v.kind() == Literal::Kind::kLong && v.as_long() >= INT32_MIN && v.as_long() <= INT32_MAX) {
        return Literal::Int(static_cast<int32_t>(v.as_long()));
      }
      return std::nullopt;
    case TypeId::kLong:
      if (v.kind() == Literal::Kind::kInt || v.kind() == Literal::Kind::kLong) return Literal::Long(v.as_long());
      return std::nullopt;
    case TypeId::kFloat:
      if (v.kind() == Literal::Kind::kFloat) return v;
      if (v.kind() == Literal::Kind::kDouble) return Literal::Float(static_cast<float>(v.as_double()));
      if (v.kind() == Literal::Kind::kInt || v.kind() == Literal::Kind::kLong) {
        return Literal::Float(static_cast<float>(v.as_long()));
      }
      if (v.kind() == Literal::Kind::kDecimal) {
        return Literal::Float(static_cast<float>(static_cast<double>(v.unscaled()) / std::pow(10.0, v.scale())));
      }
      return std::nullopt;
    case TypeId::kDouble:
      if (v.kind() == Literal::Kind::kFloat || v.kind() == Literal::Kind::kDouble) return Literal::Double(v.as_double());
      if (v.kind() == Literal::Kind::kInt || v.kind() == Literal::Kind::kLong) {
        return Literal::Double(static_cast<double>(v.as_long()));
      }
      if (v.kind() == Literal::Kind::kDecimal) {
        return Literal::Double(static_cast<double>(v.unscaled()) / std::pow(10.0, v.scale()));
      }
      return std::nullopt;
    case TypeId::kDecimal: {
      __int128 u;
      int32_t s;
      if (v.kind() == Literal::Kind::kDecimal) {
        u = v.unscaled();
        s = v.scale();
      } else if (v.kind() == Literal::Kind::kInt || v.kind() == Literal::Kind::kLong) {
        u = v.as_long();
        s = 0;
      } else if (v.kind() == Literal::Kind::kString) {
        auto parsed = ParseDecimal(v.as_bytes(), type.scale());
        if (!parsed) return std::nullopt;
        return Literal::Decimal(*parsed, type.scale());
      } else if (v.kind() == Literal::Kind::kDouble || v.kind() == Literal::Kind::kFloat) {
        double scaled = v.as_double() * std::pow(10.0, type.scale());
        if (scaled != std::round(scaled)) return std::nullopt;
        return Literal::Decimal(static_cast<__int128>(scaled), type.scale());
      } else {
        return std::nullopt;
      }
      while (s < type.scale()) {
        u *= 10;
        ++s;
      }
      while (s > type.scale() && u % 10 == 0) {  // 0.050 fits decimal(P,2)
        u /= 10;
        --s;
      }
      if (s != type.scale()) return std::nullopt;
      return Literal::Decimal(u, s);
    }
    case TypeId::kDate:
      if (v.kind() == Literal::Kind::kInt) return v;
      if (v.kind() == Literal::Kind::kString) {
        auto d = ParseDate(v.as_bytes());
        if (d) return Literal::Int(static_cast<int32_t>(*d));
      }
      return std::nullopt;
    case TypeId::kTime:
      if (v.kind() == Literal::Kind::kLong || v.kind() == Literal::Kind::kInt) return Literal::Long(v.as_long());
      if (v.kind() == Literal::Kind::kString) {
        auto t = ParseTime(v.as_bytes(), 6);
        if (t) return Literal::Long(*t);
      }
      return std::nullopt;
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs: {
      if (v.kind() == Literal::Kind::kLong || v.kind() == Literal::Kind::kInt) return Literal::Long(v.as_long());
      if (v.kind() == Literal::Kind::kString) {
        bool ns = type.id() == TypeId::kTimestampNs || type.id() == TypeId::kTimestampTzNs;
        auto t = ParseTimestamp(v.as_bytes(), ns ? 9 : 6, true);
        if (t) return Literal::Long(*t);
      }
      return std::nullopt;
    }
    case TypeId::kString:
      if (v.kind() == Literal::Kind::kString) return v;
      return std::nullopt;
    case TypeId::kUuid:
      if (v.kind() == Literal::Kind::kBinary && v.as_bytes().size() == 16) return v;
      if (v.kind() == Literal::Kind::kString) {
        auto u = ParseUuid(v.as_bytes());
        if (u) return Literal::Binary(*u);
      }
      return std::nullopt;
    case TypeId::kFixed:
    case TypeId::kBinary:
      if (v.kind() == Literal::Kind::kBinary || v.kind() == Literal::Kind::kString) return Literal::Binary(v.as_bytes());
      return std::nullopt;
    default:
      (void)want;
      return std::nullopt;
  }
}

std::string ToBinary(const Type& type, const Literal& v) {
  std::string out;
  ByteWriter w(&out);
  switch (type.id()) {
    case TypeId::kBoolean: out.push_back(v.as_bool() ? 1 : 0); break;
    case TypeId::kInt:
    case TypeId::kDate: w.AppendLittle<int32_t>(v.as_int()); break;
    case TypeId::kLong:
    case TypeId::kTime:
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs: w.AppendLittle<int64_t>(v.as_long()); break;
    case TypeId::kFloat: w.AppendLittle<float>(static_cast<float>(v.as_double())); break;
    case TypeId::kDouble: w.AppendLittle<double>(v.as_double()); break;
    case TypeId::kDecimal: out = DecimalToMinimalBytes(v.unscaled()); break;
    default: out = v.as_bytes(); break;
  }
  return out;
}

Result<Literal> FromBinary(const Type& type, std::string_view bytes) {
  ByteReader r(bytes);
  auto wrong_size = [&]() {
    return Corruption("a {} value cannot be {} bytes long", type.ToString(), bytes.size());
  };
  switch (type.id()) {
    case TypeId::kBoolean:
      if (bytes.size() != 1) return wrong_size();
      return Literal::Boolean(bytes[0] != 0);
    case TypeId::kInt:
    case TypeId::kDate:
      if (bytes.size() != 4) return wrong_size();
      return Literal::Int(*r.ReadLittle<int32_t>("int"));
    case TypeId::kLong:
    case TypeId::kTime:
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs:
      if (bytes.size() == 4) return Literal::Long(*r.ReadLittle<int32_t>("int"));  // Promoted from int.
      if (bytes.size() != 8) return wrong_size();
      return Literal::Long(*r.ReadLittle<int64_t>("long"));
    case TypeId::kFloat:
      if (bytes.size() != 4) return wrong_size();
      return Literal::Float(*r.ReadLittle<float>("float"));
    case TypeId::kDouble:
      if (bytes.size() == 4) return Literal::Double(*r.ReadLittle<float>("float"));  // Promoted from float.
      if (bytes.size() != 8) return wrong_size();
      return Literal::Double(*r.ReadLittle<double>("double"));
    case TypeId::kDecimal:
      if (bytes.empty() || bytes.size() > 16) return wrong_size();
      return Literal::Decimal(DecimalFromBytes(bytes), type.scale());
    case TypeId::kString:
      return Literal::String(std::string(bytes));
    case TypeId::kUuid:
      if (bytes.size() != 16) return wrong_size();
      return Literal::Binary(std::string(bytes));
    case TypeId::kFixed:
    case TypeId::kBinary:
      return Literal::Binary(std::string(bytes));
    default:
      return NotImplemented("no single-value binary form for {}", type.ToString());
  }
}

nlohmann::json ToJsonValue(const Type& type, const Literal& v) {
  if (v.is_null()) return nullptr;
  switch (type.id()) {
    case TypeId::kBoolean: return v.as_bool();
    case TypeId::kInt:
    case TypeId::kLong: return v.as_long();
    case TypeId::kFloat:
    case TypeId::kDouble: return v.as_double();
    case TypeId::kDecimal: return DecimalToString(v.unscaled(), v.scale());
    case TypeId::kDate: return FormatDate(v.as_long());
    case TypeId::kTime: return FormatTime(v.as_long(), 6, 1000000);
    case TypeId::kTimestamp: return FormatTimestamp(v.as_long(), 1000000, 6);
    case TypeId::kTimestampTz: return FormatTimestamp(v.as_long(), 1000000, 6) + "+00:00";
    case TypeId::kTimestampNs: return FormatTimestamp(v.as_long(), 1000000000, 9);
    case TypeId::kTimestampTzNs: return FormatTimestamp(v.as_long(), 1000000000, 9) + "+00:00";
    case TypeId::kString: return v.as_bytes();
    case TypeId::kUuid: return FormatUuid(v.as_bytes());
    case TypeId::kFixed:
    case TypeId::kBinary: return Hex(v.as_bytes());
    default: return nullptr;
  }
}

Result<Literal> FromJsonValue(const Type& type, const nlohmann::json& j) {
  if (j.is_null()) return Literal::Null();
  std::optional<Literal> raw;
  switch (type.id()) {
    case TypeId::kBoolean:
      if (j.is_boolean()) raw = Literal::Boolean(j.get<bool>());
      break;
    case TypeId::kInt:
    case TypeId::kLong:
      if (j.is_number_integer()) raw = Literal::Long(j.get<int64_t>());
      break;
    case TypeId::kFloat:
    case TypeId::kDouble:
      if (j.is_number()) raw = Literal::Double(j.get<double>());
      break;
    case TypeId::kFixed:
    case TypeId::kBinary:
      if (j.is_string()) {
        auto bytes = Unhex(j.get<std::string>());
        if (bytes) raw = Literal::Binary(*bytes);
      }
      break;
    default:
      if (j.is_string()) raw = Literal::String(j.get<std::string>());
      break;
  }
  if (raw) {
    if (auto cast = CastLiteral(*raw, type)) return *cast;
  }
  return InvalidArgument("{} is not a valid {} value", j.dump(), type.ToString());
}

}  // namespace floe::iceberg
