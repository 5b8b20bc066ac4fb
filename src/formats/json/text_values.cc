#include "formats/json/text_values.h"

#include <charconv>
#include <cmath>
#include <limits>

#include "base/civil_date.h"

namespace floe::formats::text {
namespace {

bool Digits(std::string_view s, size_t at, size_t n, int64_t* out) {
  if (at + n > s.size()) return false;
  int64_t v = 0;
  for (size_t i = at; i < at + n; ++i) {
    if (s[i] < '0' || s[i] > '9') return false;
    v = v * 10 + (s[i] - '0');
  }
  *out = v;
  return true;
}

bool ValidDate(int64_t y, int64_t m, int64_t d) {
  static const int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (m < 1 || m > 12 || d < 1) return false;
  bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
  return d <= kDays[m - 1] + (m == 2 && leap ? 1 : 0);
}

// Parses "HH:MM[:SS[.frac]]" at s[at...]; *end gets the index after it.
bool TimeAt(std::string_view s, size_t at, int64_t* micros, size_t* end) {
  int64_t h, m, sec = 0, frac = 0;
  if (!Digits(s, at, 2, &h) || at + 2 >= s.size() || s[at + 2] != ':' || !Digits(s, at + 3, 2, &m)) return false;
  size_t i = at + 5;
  if (i < s.size() && s[i] == ':') {
    if (!Digits(s, i + 1, 2, &sec)) return false;
    i += 3;
    if (i < s.size() && (s[i] == '.' || s[i] == ',')) {
      ++i;
      size_t start = i;
      int64_t scale = 100000;
      while (i < s.size() && s[i] >= '0' && s[i] <= '9') {
        if (scale > 0) frac += (s[i] - '0') * scale;
        scale /= 10;
        ++i;
      }
      if (i == start) return false;
    }
  }
  if (h > 23 || m > 59 || sec > 60) return false;
  *micros = ((h * 60 + m) * 60 + sec) * 1000000 + frac;
  *end = i;
  return true;
}

}  // namespace

std::optional<int32_t> ParseDate(std::string_view s) {
  int64_t y, m, d;
  if (s.size() != 10 || s[4] != '-' || s[7] != '-' || !Digits(s, 0, 4, &y) || !Digits(s, 5, 2, &m) || !Digits(s, 8, 2, &d)) {
    return std::nullopt;
  }
  if (!ValidDate(y, m, d)) return std::nullopt;
  return static_cast<int32_t>(DaysFromCivil({y, static_cast<int>(m), static_cast<int>(d)}));
}

std::optional<int64_t> ParseTime(std::string_view s) {
  int64_t micros;
  size_t end;
  if (!TimeAt(s, 0, &micros, &end) || end != s.size()) return std::nullopt;
  return micros;
}

std::optional<int64_t> ParseTimestamp(std::string_view s) {
  int64_t y, mo, d;
  if (s.size() < 10 || s[4] != '-' || s[7] != '-' || !Digits(s, 0, 4, &y) || !Digits(s, 5, 2, &mo) || !Digits(s, 8, 2, &d) ||
      !ValidDate(y, mo, d)) {
    return std::nullopt;
  }
  int64_t days = DaysFromCivil({y, static_cast<int>(mo), static_cast<int>(d)});
  int64_t micros = 0;
  size_t i = 10;
  if (i < s.size() && (s[i] == 'T' || s[i] == 't' || s[i] == ' ')) {
    if (!TimeAt(s, i + 1, &micros, &i)) return std::nullopt;
  }
  int64_t offset = 0;
  if (i < s.size()) {
    if (s[i] == 'Z' || s[i] == 'z') {
      ++i;
    } else if (s[i] == '+' || s[i] == '-') {
      int sign = s[i] == '-' ? -1 : 1;
      int64_t oh, om = 0;
      if (!Digits(s, i + 1, 2, &oh)) return std::nullopt;
      i += 3;
      if (i < s.size() && s[i] == ':') ++i;
      if (i < s.size()) {
        if (!Digits(s, i, 2, &om)) return std::nullopt;
        i += 2;
      }
      if (oh > 23 || om > 59) return std::nullopt;
      offset = sign * (oh * 60 + om) * 60 * 1000000;
    }
  }
  if (i != s.size()) return std::nullopt;
  return days * 86400000000LL + micros - offset;
}

std::optional<__int128> ParseDecimal(std::string_view s, int precision, int scale) {
  size_t i = 0;
  bool neg = false;
  if (i < s.size() && (s[i] == '-' || s[i] == '+')) neg = s[i++] == '-';
  unsigned __int128 v = 0;
  int digits = 0, frac_digits = 0;
  bool seen_point = false, any = false;
  int64_t exponent = 0;
  for (; i < s.size(); ++i) {
    char c = s[i];
    if (c >= '0' && c <= '9') {
      any = true;
      if (v == 0 && c == '0' && !seen_point) continue;  // Leading zeros.
      v = v * 10 + static_cast<unsigned>(c - '0');
      if (v != 0 || seen_point) ++digits;
      if (seen_point) ++frac_digits;
      if (digits > 40) return std::nullopt;
    } else if (c == '.' && !seen_point) {
      seen_point = true;
    } else if (c == 'e' || c == 'E') {
      auto e = ParseInt(s.substr(i + 1));
      if (!e || *e < -100 || *e > 100) return std::nullopt;
      exponent = *e;
      i = s.size();
      break;
    } else {
      return std::nullopt;
    }
  }
  if (!any) return std::nullopt;
  int64_t shift = scale - frac_digits + exponent;  // Multiply by 10^shift.
  while (shift > 0) {
    v *= 10;
    --shift;
    if (v > (static_cast<unsigned __int128>(1) << 126)) return std::nullopt;
  }
  while (shift < 0) {
    if (v % 10 != 0) return std::nullopt;  // Would lose digits.
    v /= 10;
    ++shift;
  }
  unsigned __int128 limit = 1;
  for (int p = 0; p < precision; ++p) limit *= 10;
  if (v >= limit) return std::nullopt;
  auto out = static_cast<__int128>(v);
  return neg ? -out : out;
}

std::optional<std::string> ParseUuid(std::string_view s) {
  // The canonical 36-character form, or the 32 hex digits alone.
  if (s.size() != 36 && s.size() != 32) return std::nullopt;
  const bool hyphens = s.size() == 36;
  std::string out(16, '\0');
  size_t j = 0;
  for (size_t i = 0; i < s.size();) {
    if (hyphens && (i == 8 || i == 13 || i == 18 || i == 23)) {
      if (s[i] != '-') return std::nullopt;
      ++i;
      continue;
    }
    auto hex = [](char c) -> int {
      if (c >= '0' && c <= '9') return c - '0';
      if (c >= 'a' && c <= 'f') return c - 'a' + 10;
      if (c >= 'A' && c <= 'F') return c - 'A' + 10;
      return -1;
    };
    int a = hex(s[i]), b = hex(s[i + 1]);
    if (a < 0 || b < 0) return std::nullopt;
    out[j++] = static_cast<char>(a << 4 | b);
    i += 2;
  }
  return out;
}

std::optional<std::string> DecodeBase64(std::string_view s) {
  auto val = [](char c) -> int {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+' || c == '-') return 62;
    if (c == '/' || c == '_') return 63;
    return -1;
  };
  while (!s.empty() && s.back() == '=') s.remove_suffix(1);
  std::string out;
  out.reserve(s.size() * 3 / 4);
  uint32_t acc = 0;
  int bits = 0;
  for (char c : s) {
    int v = val(c);
    if (v < 0) return std::nullopt;
    acc = acc << 6 | static_cast<uint32_t>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<char>((acc >> bits) & 0xFF));
    }
  }
  if (bits >= 6) return std::nullopt;
  return out;
}

std::optional<int64_t> ParseInt(std::string_view s) {
  if (!s.empty() && s[0] == '+') s.remove_prefix(1);
  int64_t v;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size() || s.empty()) return std::nullopt;
  return v;
}

std::optional<double> ParseDouble(std::string_view s) {
  if (s == "NaN" || s == "nan") return std::numeric_limits<double>::quiet_NaN();
  if (s == "Infinity" || s == "inf" || s == "+Infinity") return std::numeric_limits<double>::infinity();
  if (s == "-Infinity" || s == "-inf") return -std::numeric_limits<double>::infinity();
  if (!s.empty() && s[0] == '+') s.remove_prefix(1);
  double v;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size() || s.empty()) return std::nullopt;
  return v;
}

}  // namespace floe::formats::text
