#include "sql/function/scalar_evaluation.h"

#include <algorithm>
#include <cctype>
#include <climits>
#include <cmath>
#include <regex>

#include "sql/function/nested_functions.h"
#include "sql/function/time_zone_functions.h"
#include "sql/types/temporal.h"
#include "sql/types/value_cast.h"

namespace floe::sql {

std::optional<int> CompareValues(const Value& a, const Value& b) {
  if (!(a.type() == b.type())) return std::nullopt;
  auto sign = [](auto x, auto y) { return x < y ? -1 : x > y ? 1 : 0; };
  switch (a.type().kind()) {
    case TypeKind::kBoolean: return sign(a.as_bool(), b.as_bool());
    case TypeKind::kTinyint:
    case TypeKind::kSmallint:
    case TypeKind::kInteger:
    case TypeKind::kBigint:
    case TypeKind::kDate:
    case TypeKind::kTime:
    case TypeKind::kTimestamp:
    case TypeKind::kTimestampTz:
    case TypeKind::kIntervalDayTime:
    case TypeKind::kIntervalYearMonth: return sign(a.as_int(), b.as_int());
    case TypeKind::kDecimal: return sign(a.as_decimal(), b.as_decimal());
    case TypeKind::kReal:
    case TypeKind::kDouble: {
      double x = a.as_double(), y = b.as_double();
      if (std::isnan(x) || std::isnan(y)) return std::nullopt;
      return sign(x, y);
    }
    case TypeKind::kVarchar:
    case TypeKind::kVarbinary:
    case TypeKind::kUuid: return sign(a.as_string().compare(b.as_string()), 0);
    default: return std::nullopt;
  }
}

int CompareForSort(const Value& a, const Value& b) {
  if (a.is_null() || b.is_null()) return a.is_null() == b.is_null() ? 0 : a.is_null() ? 1 : -1;
  TypeKind kind = a.type().kind();
  if (kind == TypeKind::kArray || kind == TypeKind::kRow) {
    const std::vector<Value>& x = a.as_elements();
    const std::vector<Value>& y = b.as_elements();
    for (size_t i = 0; i < std::min(x.size(), y.size()); ++i) {
      if (int c = CompareForSort(x[i], y[i]); c != 0) return c;
    }
    return x.size() < y.size() ? -1 : x.size() > y.size() ? 1 : 0;
  }
  if (std::optional<int> c = CompareValues(a, b)) return *c;
  if (kind == TypeKind::kReal || kind == TypeKind::kDouble) {
    bool x = std::isnan(a.as_double()), y = std::isnan(b.as_double());
    return x == y ? 0 : x ? 1 : -1;
  }
  return 0;
}

bool LikeMatches(std::string_view text, std::string_view pattern, char escape) {
  size_t t = 0, p = 0, star_p = std::string_view::npos, star_t = 0;
  while (t < text.size()) {
    if (p < pattern.size() && escape != '\0' && pattern[p] == escape && p + 1 < pattern.size() && pattern[p + 1] == text[t]) {
      t += 1;
      p += 2;
    } else if (p < pattern.size() && pattern[p] != '%' && (pattern[p] == '_' || pattern[p] == text[t]) &&
               !(escape != '\0' && pattern[p] == escape)) {
      ++t;
      ++p;
    } else if (p < pattern.size() && pattern[p] == '%') {
      star_p = p++;
      star_t = t;
    } else if (star_p != std::string_view::npos) {
      p = star_p + 1;
      t = ++star_t;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '%') ++p;
  return p == pattern.size();
}

Int128 RescaleDecimal(Int128 value, int from_scale, int to_scale) {
  if (to_scale >= from_scale) return value * PowerOfTen(to_scale - from_scale);
  Int128 divisor = PowerOfTen(from_scale - to_scale);
  Int128 q = value / divisor, r = value % divisor;
  if (r * 2 >= divisor) ++q;
  if (r * 2 <= -divisor) --q;
  return q;
}

bool DecimalFits(Int128 value, int precision) {
  Int128 limit = PowerOfTen(precision);
  return value < limit && value > -limit;
}

std::optional<Int128> DivideDecimal(Int128 x, int sx, Int128 y, int sy, int rs) {
  // x/10^sx / (y/10^sy) = x * 10^(rs - sx + sy) / y at scale rs. One extra digit for rounding.
  int shift = rs - sx + sy + 1;
  Int128 numerator = x;
  if (shift >= 0) {
    if (__builtin_mul_overflow(numerator, PowerOfTen(shift), &numerator)) return std::nullopt;
  } else {
    numerator /= PowerOfTen(-shift);
  }
  Int128 q = numerator / y;  // Ten times the result, truncated.
  Int128 last = q % 10;
  q /= 10;
  if (last >= 5) ++q;
  if (last <= -5) --q;
  return q;
}

namespace {

std::unexpected<Error> Overflow(std::string_view what) { return InvalidArgument("{} overflow", what); }
std::unexpected<Error> DivisionByZero() { return CodedError(ErrorCode::kDivisionByZero, "Division by zero"); }

bool FitsType(int64_t v, const SqlType& type) {
  switch (type.kind()) {
    case TypeKind::kTinyint: return v >= -128 && v <= 127;
    case TypeKind::kSmallint: return v >= -32768 && v <= 32767;
    case TypeKind::kInteger: return v >= INT32_MIN && v <= INT32_MAX;
    default: return true;
  }
}

int64_t AddMonths(int64_t value, int64_t months, bool is_date) {
  int64_t days = is_date ? value : FloorDiv(value, kMicrosPerDay);
  int64_t rest = is_date ? 0 : value - days * kMicrosPerDay;
  CivilDate d = CivilFromDays(days);
  int64_t total = d.year * 12 + (d.month - 1) + months;
  CivilDate moved{FloorDiv(total, 12), static_cast<int>(total - FloorDiv(total, 12) * 12) + 1, d.day};
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  bool leap = (moved.year % 4 == 0 && moved.year % 100 != 0) || moved.year % 400 == 0;
  int last = moved.month == 2 && leap ? 29 : kDays[moved.month - 1];
  moved.day = std::min(moved.day, last);
  int64_t new_days = DaysFromCivil(moved);
  return is_date ? new_days : new_days * kMicrosPerDay + rest;
}

Result<Value> Arithmetic(const std::string& name, const SqlType& result, const Value& a, const Value& b) {
  if (a.is_null() || b.is_null()) return Value::Null(result);
  const SqlType& ta = a.type();
  const SqlType& tb = b.type();
  if (result.IsInteger()) {
    int64_t x = a.as_int(), y = b.as_int(), out = 0;
    if (name == "add") {
      if (__builtin_add_overflow(x, y, &out)) return Overflow(result.ToString() + " addition");
    } else if (name == "subtract") {
      if (__builtin_sub_overflow(x, y, &out)) return Overflow(result.ToString() + " subtraction");
    } else if (name == "multiply") {
      if (__builtin_mul_overflow(x, y, &out)) return Overflow(result.ToString() + " multiplication");
    } else if (name == "divide") {
      if (y == 0) return DivisionByZero();
      if (x == INT64_MIN && y == -1) return Overflow(result.ToString() + " division");
      out = x / y;
    } else if (name == "modulus") {
      if (y == 0) return DivisionByZero();
      out = y == -1 ? 0 : x % y;
    }
    if (!FitsType(out, result)) return Overflow(result.ToString() + " arithmetic");
    return Value::Int(result, out);
  }
  if (result.kind() == TypeKind::kDouble || result.kind() == TypeKind::kReal) {
    if (ta.IsInterval() || tb.IsInterval()) return NotImplemented("interval arithmetic with doubles");
    double x = a.as_double(), y = b.as_double();
    if (name == "add") return Value::Double(result, x + y);
    if (name == "subtract") return Value::Double(result, x - y);
    if (name == "multiply") return Value::Double(result, x * y);
    if (name == "divide") return Value::Double(result, x / y);
    if (name == "modulus") return Value::Double(result, std::fmod(x, y));
  }
  if (result.kind() == TypeKind::kDecimal && ta.kind() == TypeKind::kDecimal && tb.kind() == TypeKind::kDecimal) {
    Int128 x = a.as_decimal(), y = b.as_decimal(), out = 0;
    int sx = ta.scale(), sy = tb.scale(), rs = result.scale();
    if (name == "add" || name == "subtract" || name == "modulus") {
      x = RescaleDecimal(x, sx, rs);
      y = RescaleDecimal(y, sy, rs);
      if (name == "add") out = x + y;
      if (name == "subtract") out = x - y;
      if (name == "modulus") {
        if (y == 0) return DivisionByZero();
        out = x % y;
      }
    } else if (name == "multiply") {
      if (__builtin_mul_overflow(x, y, &out)) return Overflow("Decimal");
      out = RescaleDecimal(out, sx + sy, rs);
    } else if (name == "divide") {
      if (y == 0) return DivisionByZero();
      auto q = DivideDecimal(x, sx, y, sy, rs);
      if (!q) return Overflow("Decimal");
      out = *q;
    }
    if (!DecimalFits(out, result.precision())) return Overflow("Decimal");
    return Value::Decimal(result, out);
  }
  bool add = name == "add", sub = name == "subtract";
  // interval + temporal: swap.
  if (add && ta.IsInterval() && tb.IsTemporal()) return Arithmetic(name, result, b, a);
  if ((add || sub) && ta.IsTemporal() && tb.kind() == TypeKind::kIntervalDayTime) {
    int64_t delta = b.as_int();
    if (ta.kind() == TypeKind::kDate) {
      int64_t days = FloorDiv(delta, kMicrosPerDay);
      if (delta % kMicrosPerDay != 0) return InvalidArgument("Cannot add a time interval to a date");
      return Value::Int(result, add ? a.as_int() + days : a.as_int() - days);
    }
    int64_t out = 0;
    if (add ? __builtin_add_overflow(a.as_int(), delta, &out) : __builtin_sub_overflow(a.as_int(), delta, &out)) {
      return Overflow("timestamp");
    }
    return Value::Int(result, out);
  }
  if ((add || sub) && ta.IsTemporal() && tb.kind() == TypeKind::kIntervalYearMonth) {
    return Value::Int(result, AddMonths(a.as_int(), add ? b.as_int() : -b.as_int(), ta.kind() == TypeKind::kDate));
  }
  if ((add || sub) && ta.IsInterval() && tb.IsInterval()) {
    int64_t out = 0;
    if (add ? __builtin_add_overflow(a.as_int(), b.as_int(), &out) : __builtin_sub_overflow(a.as_int(), b.as_int(), &out)) {
      return Overflow("interval");
    }
    return Value::Int(result, out);
  }
  if (sub && ta.IsTemporal() && tb.IsTemporal()) return Value::Int(result, a.as_int() - b.as_int());
  if ((name == "multiply" || name == "divide") && (ta.IsInterval() || tb.IsInterval())) {
    const Value& interval = ta.IsInterval() ? a : b;
    const Value& number = ta.IsInterval() ? b : a;
    double factor = number.type().IsInteger() ? static_cast<double>(number.as_int()) : number.as_double();
    if (name == "divide") {
      if (factor == 0) return DivisionByZero();
      factor = 1.0 / factor;
    }
    return Value::Int(result, static_cast<int64_t>(std::llround(static_cast<double>(interval.as_int()) * factor)));
  }
  return NotImplemented("operator {} on {} and {}", name, ta.ToString(), tb.ToString());
}

// Characters (UTF-8 code points) of s.
std::vector<std::string_view> Utf8Chars(std::string_view s) {
  std::vector<std::string_view> out;
  size_t i = 0;
  while (i < s.size()) {
    size_t n = 1;
    auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0xF0) n = 4;
    else if (c >= 0xE0) n = 3;
    else if (c >= 0xC0) n = 2;
    n = std::min(n, s.size() - i);
    out.push_back(s.substr(i, n));
    i += n;
  }
  return out;
}

std::string Join(const std::vector<std::string_view>& chars, size_t from, size_t to) {
  std::string out;
  for (size_t i = from; i < to && i < chars.size(); ++i) out += chars[i];
  return out;
}

Result<Value> Substring(const SqlType& type, const std::string& s, int64_t start, std::optional<int64_t> length) {
  auto chars = Utf8Chars(s);
  auto n = static_cast<int64_t>(chars.size());
  if (start == 0 || (length && *length <= 0)) return Value::String(type, "");
  if (start < 0) start = n + start + 1;
  if (start < 1 || start > n) return Value::String(type, "");
  int64_t end = length ? std::min(n, start - 1 + *length) : n;
  return Value::String(type, Join(chars, static_cast<size_t>(start - 1), static_cast<size_t>(end)));
}

std::string Trim(const std::string& s, std::string_view chars, bool left, bool right) {
  size_t b = 0, e = s.size();
  if (left) {
    while (b < e && chars.find(s[b]) != std::string_view::npos) ++b;
  }
  if (right) {
    while (e > b && chars.find(s[e - 1]) != std::string_view::npos) --e;
  }
  return s.substr(b, e - b);
}

std::optional<int64_t> TemporalMicros(const Value& v) {
  if (v.type().kind() == TypeKind::kDate) return v.as_int() * kMicrosPerDay;
  return v.as_int();
}

Result<std::regex> CompileRegex(const std::string& pattern) {
  try {
    return std::regex(pattern, std::regex::ECMAScript);
  } catch (const std::regex_error& e) {
    return InvalidArgument("Invalid regular expression '{}': {}", pattern, e.what());
  }
}

double AsDouble(const Value& v) {
  switch (v.type().kind()) {
    case TypeKind::kReal:
    case TypeKind::kDouble: return v.as_double();
    case TypeKind::kDecimal: return static_cast<double>(v.as_decimal()) / static_cast<double>(PowerOfTen(v.type().scale()));
    default: return static_cast<double>(v.as_int());
  }
}

Result<Value> Rounding(const std::string& name, const SqlType& type, const std::vector<Value>& args) {
  const Value& x = args[0];
  int64_t digits = args.size() > 1 ? args[1].as_int() : 0;
  const SqlType& t = x.type();
  if (t.IsInteger()) {
    if (name != "round" || digits >= 0) return Value::Int(type, x.as_int());
    if (digits < -18) return Value::Int(type, 0);
    int64_t p = static_cast<int64_t>(PowerOfTen(static_cast<int>(-digits)));
    int64_t q = x.as_int() / p, r = x.as_int() % p;
    if (r * 2 >= p) ++q;
    if (r * 2 <= -p) --q;
    return Value::Int(type, q * p);
  }
  if (t.kind() == TypeKind::kDecimal) {
    Int128 v = x.as_decimal();
    int s = t.scale();
    if (name == "round") {
      int keep = static_cast<int>(std::clamp<int64_t>(digits, s - 38, s));
      Int128 q = RescaleDecimal(v, s, keep);
      return Value::Decimal(type, q * PowerOfTen(type.scale() - keep));
    }
    Int128 divisor = PowerOfTen(s);
    Int128 q = v / divisor, r = v % divisor;
    if (name == "floor" && r < 0) --q;
    if (name != "floor" && name != "truncate" && r > 0) ++q;
    return Value::Decimal(type, q * PowerOfTen(type.scale()));
  }
  double v = x.as_double();
  if (name == "floor") return Value::Double(type, std::floor(v));
  if (name == "ceil" || name == "ceiling") return Value::Double(type, std::ceil(v));
  if (name == "truncate") return Value::Double(type, std::trunc(v));
  double p = std::pow(10.0, static_cast<double>(digits));
  return Value::Double(type, std::round(v * p) / p);
}

}  // namespace

Result<Value> EvaluateScalarCall(const std::string& name, const SqlType& type, const std::vector<Value>& args) {
  if (IsNestedFunction(name) || (name == "concat" && type.kind() == TypeKind::kArray))
    return EvaluateNestedCall(name, type, args);
  if (IsNestedComparison(name, args)) return EvaluateNestedComparison(name, args);
  auto any_null = [&] {
    return std::any_of(args.begin(), args.end(), [](const Value& v) { return v.is_null(); });
  };
  auto text = [&](std::string s) { return Value::String(type, std::move(s)); };
  if (name == "add" || name == "subtract" || name == "multiply" || name == "divide" || name == "modulus") {
    return Arithmetic(name, type, args[0], args[1]);
  }
  if (name == "eq" || name == "neq" || name == "lt" || name == "lte" || name == "gt" || name == "gte") {
    if (args[0].is_null() || args[1].is_null()) return Value::Null(SqlType::Boolean());
    auto c = CompareValues(args[0], args[1]);
    if (!c) {
      // NaN: unequal to everything, unordered.
      if (args[0].type() == args[1].type()) return Value::Boolean(name == "neq");
      return NotImplemented("comparing {} with {}", args[0].type().ToString(), args[1].type().ToString());
    }
    bool r = name == "eq" ? *c == 0 : name == "neq" ? *c != 0 : name == "lt" ? *c < 0 : name == "lte" ? *c <= 0 : name == "gt" ? *c > 0 : *c >= 0;
    return Value::Boolean(r);
  }
  if (name == "is_distinct_from") {
    if (args[0].is_null() || args[1].is_null()) return Value::Boolean(args[0].is_null() != args[1].is_null());
    auto c = CompareValues(args[0], args[1]);
    if (!c) return Value::Boolean(true);
    return Value::Boolean(*c != 0);
  }
  if (name == "negate") {
    if (args[0].is_null()) return Value::Null(type);
    if (type.IsInteger() || type.IsInterval()) {
      if (args[0].as_int() == INT64_MIN || !FitsType(-args[0].as_int(), type)) return Overflow(type.ToString() + " negation");
      return Value::Int(type, -args[0].as_int());
    }
    if (type.kind() == TypeKind::kDecimal) return Value::Decimal(type, -args[0].as_decimal());
    if (type.kind() == TypeKind::kDouble || type.kind() == TypeKind::kReal) return Value::Double(type, -args[0].as_double());
    return NotImplemented("negation of {}", type.ToString());
  }
  if (name == "coalesce") {
    for (const auto& a : args) {
      if (!a.is_null()) return a;
    }
    return Value::Null(type);
  }
  if (name == "nullif") {
    if (args[0].is_null() || args[1].is_null()) return args[0];
    auto c = CompareValues(args[0], args[1]);
    if (!c) return args[0];
    return *c == 0 ? Value::Null(type) : args[0];
  }
  if (name == "if") {
    bool cond = !args[0].is_null() && args[0].as_bool();
    if (cond) return args[1];
    return args.size() > 2 ? args[2] : Value::Null(type);
  }
  if (name == "greatest" || name == "least") {
    if (any_null()) return Value::Null(type);
    Value best = args[0];
    for (size_t i = 1; i < args.size(); ++i) {
      auto c = CompareValues(args[i], best);
      if (!c) return InvalidArgument("Invalid argument to {}(): NaN", name);
      if (name == "greatest" ? *c > 0 : *c < 0) best = args[i];
    }
    return best;
  }
  if (name == "typeof") return Value::String(type, args[0].type().ToString());
  if (name == "version") return text("floe 0.1");
  if (name == "current_timezone") return text("UTC");  // other session zones: a constant (session_time_zone.h)
  if (IsTimeZoneFunction(name)) return EvaluateTimeZoneCall(name, type, args);
  if (name == "pi") return Value::Double(type, M_PI);
  if (name == "e") return Value::Double(type, M_E);
  // Everything below returns NULL on any NULL argument.
  if (any_null()) return Value::Null(type);

  if (name == "concat") {
    std::string out;
    for (const auto& a : args) out += a.as_string();
    return Value::String(type, std::move(out));
  }
  if (name == "lower" || name == "upper") {
    std::string s = args[0].as_string();
    for (char& c : s) {
      if (static_cast<unsigned char>(c) < 0x80) c = static_cast<char>(name == "lower" ? std::tolower(c) : std::toupper(c));
    }
    return Value::String(type, std::move(s));
  }
  if (name == "like" || name == "ilike") {
    std::string t = args[0].as_string(), pattern = args[1].as_string();
    if (name == "ilike") {
      for (char& c : t) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      for (char& c : pattern) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    char escape = args.size() > 2 && !args[2].as_string().empty() ? args[2].as_string()[0] : '\0';
    return Value::Boolean(LikeMatches(t, pattern, escape));
  }
  if ((name == "length" || name == "char_length") && args[0].type().kind() == TypeKind::kVarchar) {
    int64_t n = 0;
    for (unsigned char c : args[0].as_string()) n += (c & 0xC0) != 0x80;
    return Value::Int(type, n);
  }
  if (name == "length") return Value::Int(type, static_cast<int64_t>(args[0].as_string().size()));
  if (name == "substr" || name == "substring") {
    return Substring(type, args[0].as_string(), args[1].as_int(), args.size() > 2 ? std::optional<int64_t>(args[2].as_int()) : std::nullopt);
  }
  if (name == "trim" || name == "ltrim" || name == "rtrim") {
    std::string chars = args.size() > 1 ? args[1].as_string() : std::string(" ");
    return text(Trim(args[0].as_string(), chars, name != "rtrim", name != "ltrim"));
  }
  if (name == "reverse") {
    auto chars = Utf8Chars(args[0].as_string());
    std::reverse(chars.begin(), chars.end());
    return text(Join(chars, 0, chars.size()));
  }
  if (name == "replace") {
    std::string s = args[0].as_string();
    const std::string& from = args[1].as_string();
    std::string to = args.size() > 2 ? args[2].as_string() : "";
    if (from.empty()) return text(s);
    std::string out;
    size_t at = 0;
    for (size_t hit; (hit = s.find(from, at)) != std::string::npos; at = hit + from.size()) out += s.substr(at, hit - at) + to;
    out += s.substr(at);
    return text(out);
  }
  if (name == "strpos" || name == "position") {
    const std::string& s = args[0].as_string();
    size_t hit = s.find(args[1].as_string());
    if (hit == std::string::npos) return Value::Int(type, 0);
    return Value::Int(type, static_cast<int64_t>(Utf8Chars(std::string_view(s).substr(0, hit)).size()) + 1);
  }
  if (name == "starts_with") return Value::Boolean(args[0].as_string().starts_with(args[1].as_string()));
  if (name == "ends_with") return Value::Boolean(args[0].as_string().ends_with(args[1].as_string()));
  if (name == "split_part") {
    const std::string& s = args[0].as_string();
    const std::string& delim = args[1].as_string();
    int64_t index = args[2].as_int();
    if (index < 1) return InvalidArgument("Index must be greater than zero");
    if (delim.empty()) return index == 1 ? text(s) : Value::Null(type);
    size_t at = 0;
    for (int64_t i = 1;; ++i) {
      size_t hit = s.find(delim, at);
      if (i == index) return text(s.substr(at, hit == std::string::npos ? std::string::npos : hit - at));
      if (hit == std::string::npos) return Value::Null(type);
      at = hit + delim.size();
    }
  }
  if (name == "lpad" || name == "rpad") {
    auto chars = Utf8Chars(args[0].as_string());
    int64_t size = args[1].as_int();
    auto pad = Utf8Chars(args[2].as_string());
    if (size < 0) return InvalidArgument("Target length must be non-negative");
    if (pad.empty()) return InvalidArgument("Padding string must not be empty");
    if (static_cast<int64_t>(chars.size()) >= size) return text(Join(chars, 0, static_cast<size_t>(size)));
    std::string fill;
    for (int64_t i = 0; i < size - static_cast<int64_t>(chars.size()); ++i) fill += pad[static_cast<size_t>(i) % pad.size()];
    std::string body = Join(chars, 0, chars.size());
    return text(name == "lpad" ? fill + body : body + fill);
  }
  if (name == "chr") {
    int64_t cp = args[0].as_int();
    if (cp < 0 || cp > 0x10FFFF) return InvalidArgument("Not a valid Unicode code point: {}", cp);
    std::string out;
    if (cp < 0x80) {
      out.push_back(static_cast<char>(cp));
    } else if (cp < 0x800) {
      out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
      out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
      out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
      out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
      out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else {
      out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
      out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
      out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
      out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    }
    return text(out);
  }
  if (name == "codepoint") {
    auto chars = Utf8Chars(args[0].as_string());
    if (chars.size() != 1) return InvalidArgument("Input string must be a single character string");
    std::string_view c = chars[0];
    auto b0 = static_cast<unsigned char>(c[0]);
    int64_t cp = c.size() == 1 ? b0 : c.size() == 2 ? (b0 & 0x1F) : c.size() == 3 ? (b0 & 0x0F) : (b0 & 0x07);
    for (size_t i = 1; i < c.size(); ++i) cp = (cp << 6) | (static_cast<unsigned char>(c[i]) & 0x3F);
    return Value::Int(type, cp);
  }
  if (name == "to_hex") {
    std::string out;
    for (unsigned char c : args[0].as_string()) out += fmt::format("{:02X}", c);
    return text(out);
  }
  if (name == "from_hex") {
    const std::string& s = args[0].as_string();
    if (s.size() % 2 != 0) return InvalidArgument("invalid input length {}", s.size());
    std::string out;
    for (size_t i = 0; i < s.size(); i += 2) {
      auto hex = [](char c) { return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1; };
      int hi = hex(s[i]), lo = hex(s[i + 1]);
      if (hi < 0 || lo < 0) return InvalidArgument("invalid hex character");
      out.push_back(static_cast<char>(hi * 16 + lo));
    }
    return text(out);
  }
  if (name == "to_utf8" || name == "from_utf8") return text(args[0].as_string());
  if (name == "quote_ident") return text("\"" + args[0].as_string() + "\"");
  if (name == "regexp_like" || name == "regexp_extract" || name == "regexp_replace") {
    FLOE_ASSIGN_OR_RETURN(std::regex re, CompileRegex(args[1].as_string()));
    const std::string& s = args[0].as_string();
    if (name == "regexp_like") return Value::Boolean(std::regex_search(s, re));
    if (name == "regexp_replace") {
      std::string replacement = args.size() > 2 ? args[2].as_string() : "";
      return text(std::regex_replace(s, re, replacement));
    }
    std::smatch match;
    if (!std::regex_search(s, match, re)) return Value::Null(type);
    int64_t group = args.size() > 2 ? args[2].as_int() : 0;
    if (group < 0 || group >= static_cast<int64_t>(match.size())) return InvalidArgument("Pattern has {} groups. Cannot access group {}", match.size() - 1, group);
    if (!match[static_cast<size_t>(group)].matched) return Value::Null(type);
    return text(match[static_cast<size_t>(group)].str());
  }

  // Math.
  if (name == "abs") {
    const Value& x = args[0];
    if (type.IsInteger()) {
      if (x.as_int() == INT64_MIN || !FitsType(std::abs(x.as_int()), type)) return Overflow(type.ToString() + " abs");
      return Value::Int(type, std::abs(x.as_int()));
    }
    if (type.kind() == TypeKind::kDecimal) return Value::Decimal(type, x.as_decimal() < 0 ? -x.as_decimal() : x.as_decimal());
    return Value::Double(type, std::fabs(x.as_double()));
  }
  if (name == "sign") {
    const Value& x = args[0];
    if (type.IsInteger()) return Value::Int(type, (x.as_int() > 0) - (x.as_int() < 0));
    if (type.kind() == TypeKind::kDecimal) {
      return Value::Decimal(type, static_cast<Int128>((x.as_decimal() > 0) - (x.as_decimal() < 0)) * PowerOfTen(type.scale()));
    }
    double v = x.as_double();
    return Value::Double(type, std::isnan(v) ? v : static_cast<double>((v > 0) - (v < 0)));
  }
  if (name == "ceil" || name == "ceiling" || name == "floor" || name == "round" || name == "truncate") return Rounding(name, type, args);
  if (name == "mod") {
    if (type.IsInteger()) {
      if (args[1].as_int() == 0) return DivisionByZero();
      return Value::Int(type, args[1].as_int() == -1 ? 0 : args[0].as_int() % args[1].as_int());
    }
    return Value::Double(type, std::fmod(args[0].as_double(), args[1].as_double()));
  }
  static const std::pair<const char*, double (*)(double)> kUnary[] = {
      {"sqrt", [](double x) { return std::sqrt(x); }},   {"cbrt", [](double x) { return std::cbrt(x); }},
      {"ln", [](double x) { return std::log(x); }},      {"log2", [](double x) { return std::log2(x); }},
      {"log10", [](double x) { return std::log10(x); }}, {"exp", [](double x) { return std::exp(x); }},
      {"sin", [](double x) { return std::sin(x); }},     {"cos", [](double x) { return std::cos(x); }},
      {"tan", [](double x) { return std::tan(x); }},     {"asin", [](double x) { return std::asin(x); }},
      {"acos", [](double x) { return std::acos(x); }},   {"atan", [](double x) { return std::atan(x); }},
      {"degrees", [](double x) { return x * 180.0 / M_PI; }}, {"radians", [](double x) { return x * M_PI / 180.0; }},
  };
  for (const auto& [fname, f] : kUnary) {
    if (name == fname) return Value::Double(type, f(AsDouble(args[0])));
  }
  if (name == "power" || name == "pow") return Value::Double(type, std::pow(args[0].as_double(), args[1].as_double()));
  if (name == "atan2") return Value::Double(type, std::atan2(args[0].as_double(), args[1].as_double()));
  if (name == "log") return Value::Double(type, std::log(args[1].as_double()) / std::log(args[0].as_double()));
  if (name == "is_nan") return Value::Boolean(std::isnan(args[0].as_double()));
  if (name == "is_finite") return Value::Boolean(std::isfinite(args[0].as_double()));
  if (name == "width_bucket") {
    double x = args[0].as_double(), lo = args[1].as_double(), hi = args[2].as_double();
    int64_t n = args[3].as_int();
    if (n <= 0) return InvalidArgument("bucketCount must be greater than 0");
    if (lo == hi) return InvalidArgument("bounds cannot equal each other");
    if (lo < hi ? x < lo : x > lo) return Value::Int(type, 0);
    if (lo < hi ? x >= hi : x <= hi) return Value::Int(type, n + 1);
    return Value::Int(type, static_cast<int64_t>(static_cast<double>(n) * (x - lo) / (hi - lo)) + 1);
  }

  // Date and time.
  if (name == "date_trunc") {
    bool is_date = args[1].type().kind() == TypeKind::kDate;
    auto truncated = TruncateMicros(args[0].as_string(), *TemporalMicros(args[1]));
    if (!truncated) return InvalidArgument("'{}' is not a valid date_trunc unit", args[0].as_string());
    return Value::Int(type, is_date ? FloorDiv(*truncated, kMicrosPerDay) : *truncated);
  }
  if (name == "extract") {
    if (args[1].type().IsInterval()) {
      int64_t v = args[1].as_int();
      const std::string& f = args[0].as_string();
      if (args[1].type().kind() == TypeKind::kIntervalYearMonth) return Value::Int(type, f == "year" ? v / 12 : v % 12);
      int64_t seconds = v / kMicrosPerSecond;
      if (f == "day") return Value::Int(type, seconds / 86400);
      if (f == "hour") return Value::Int(type, seconds / 3600 % 24);
      if (f == "minute") return Value::Int(type, seconds / 60 % 60);
      if (f == "second") return Value::Int(type, seconds % 60);
      return InvalidArgument("Cannot extract {} from an interval", f);
    }
    auto field = ExtractField(args[0].as_string(), *TemporalMicros(args[1]));
    if (!field) return InvalidArgument("'{}' is not a valid extract field", args[0].as_string());
    return Value::Int(type, *field);
  }
  static const char* kFields[] = {"year", "quarter", "month", "week", "day", "day_of_week", "dow", "day_of_year", "doy",
                                  "hour", "minute", "second", "millisecond", "day_of_month", "year_of_week"};
  for (const char* field : kFields) {
    if (name != field) continue;
    std::string f = name == "year_of_week" ? "year" : name;
    auto v = ExtractField(f, *TemporalMicros(args[0]));
    if (!v) return NotImplemented("{}()", name);
    return Value::Int(type, *v);
  }
  if (name == "date_add") {
    const std::string& unit = args[0].as_string();
    int64_t n = args[1].as_int();
    const Value& t = args[2];
    bool is_date = t.type().kind() == TypeKind::kDate;
    if (unit == "month" || unit == "quarter" || unit == "year") {
      int64_t months = unit == "month" ? n : unit == "quarter" ? 3 * n : 12 * n;
      return Value::Int(type, AddMonths(t.as_int(), months, is_date));
    }
    int64_t step = unit == "millisecond" ? 1000 : unit == "second" ? kMicrosPerSecond : unit == "minute" ? 60 * kMicrosPerSecond
                 : unit == "hour" ? 3600 * kMicrosPerSecond : unit == "day" ? kMicrosPerDay : unit == "week" ? 7 * kMicrosPerDay : 0;
    if (step == 0) return InvalidArgument("'{}' is not a valid date_add unit", unit);
    if (is_date) {
      if (step % kMicrosPerDay != 0) return InvalidArgument("'{}' is not a valid unit for a date", unit);
      return Value::Int(type, t.as_int() + n * (step / kMicrosPerDay));
    }
    return Value::Int(type, t.as_int() + n * step);
  }
  if (name == "date_diff") {
    const std::string& unit = args[0].as_string();
    int64_t a = *TemporalMicros(args[1]), b = *TemporalMicros(args[2]);
    if (unit == "month" || unit == "quarter" || unit == "year") {
      CivilDate x = CivilFromDays(FloorDiv(a, kMicrosPerDay)), y = CivilFromDays(FloorDiv(b, kMicrosPerDay));
      int64_t months = (y.year - x.year) * 12 + (y.month - x.month);
      int64_t rest_x = a - DaysFromCivil({x.year, x.month, 1}) * kMicrosPerDay;
      int64_t rest_y = b - DaysFromCivil({y.year, y.month, 1}) * kMicrosPerDay;
      if (months > 0 && rest_y < rest_x) --months;
      if (months < 0 && rest_y > rest_x) ++months;
      return Value::Int(type, unit == "month" ? months : unit == "quarter" ? months / 3 : months / 12);
    }
    int64_t step = unit == "millisecond" ? 1000 : unit == "second" ? kMicrosPerSecond : unit == "minute" ? 60 * kMicrosPerSecond
                 : unit == "hour" ? 3600 * kMicrosPerSecond : unit == "day" ? kMicrosPerDay : unit == "week" ? 7 * kMicrosPerDay : 0;
    if (step == 0) return InvalidArgument("'{}' is not a valid date_diff unit", unit);
    return Value::Int(type, (b - a) / step);
  }
  if (name == "to_unixtime") return Value::Double(type, static_cast<double>(args[0].as_int()) / 1e6);
  if (name == "from_unixtime") return Value::Int(type, static_cast<int64_t>(std::llround(args[0].as_double() * 1e6)));
  if (name == "from_iso8601_timestamp" || name == "from_iso8601_date" || name == "date") {
    if (args[0].type().kind() == TypeKind::kVarchar) {
      auto v = CastFromText(args[0].as_string(), type);
      if (!v) return InvalidArgument("Invalid format: \"{}\"", args[0].as_string());
      return *v;
    }
    auto v = CastValue(args[0], type);
    if (!v) return InvalidArgument("Cannot convert {} to {}", args[0].ToText(), type.ToString());
    return *v;
  }
  if (name == "to_iso8601") {
    if (args[0].type().kind() == TypeKind::kDate) return text(FormatDate(args[0].as_int()));
    std::string s = FormatTimestamp(args[0].as_int(), false);
    s[10] = 'T';
    return text(s + "Z");
  }
  return NotImplemented("function {} is not implemented by the executor yet", name);
}

}  // namespace floe::sql
