// Literal: one primitive value of an Iceberg type, as found in partition tuples, column bounds,
// filter expressions and defaults; plus its single-value serializations (format/spec.md,
// Appendix D): the binary form used for bounds and partition summaries, and the JSON form.
//
// The representation depends only on the physical kind (int32 for int and date, int64 for
// long, time and timestamps, bytes for string/binary/fixed/uuid, an int128 unscaled value for
// decimals), so the Type travels beside a Literal where its meaning matters. Plain value type.
#pragma once

#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

#include "iceberg/types.h"

namespace floe::iceberg {

class Literal {
 public:
  enum class Kind { kNull, kBoolean, kInt, kLong, kFloat, kDouble, kString, kBinary, kDecimal };

  Literal() = default;
  static Literal Null() { return Literal(); }
  static Literal Boolean(bool v) { Literal l(Kind::kBoolean); l.i_ = v; return l; }
  static Literal Int(int32_t v) { Literal l(Kind::kInt); l.i_ = v; return l; }
  static Literal Long(int64_t v) { Literal l(Kind::kLong); l.i_ = v; return l; }
  static Literal Float(float v) { Literal l(Kind::kFloat); l.d_ = v; return l; }
  static Literal Double(double v) { Literal l(Kind::kDouble); l.d_ = v; return l; }
  static Literal String(std::string v) { Literal l(Kind::kString); l.s_ = std::move(v); return l; }
  static Literal Binary(std::string v) { Literal l(Kind::kBinary); l.s_ = std::move(v); return l; }
  static Literal Decimal(__int128 unscaled, int32_t scale) {
    Literal l(Kind::kDecimal); l.unscaled_ = unscaled; l.i_ = scale; return l;
  }

  Kind kind() const { return kind_; }
  bool is_null() const { return kind_ == Kind::kNull; }
  bool as_bool() const { return i_ != 0; }
  int32_t as_int() const { return static_cast<int32_t>(i_); }
  int64_t as_long() const { return i_; }  // int and long kinds alike
  double as_double() const { return d_; }
  const std::string& as_bytes() const { return s_; }  // string and binary kinds
  __int128 unscaled() const { return unscaled_; }
  int32_t scale() const { return static_cast<int32_t>(i_); }
  bool is_nan() const { return (kind_ == Kind::kFloat || kind_ == Kind::kDouble) && d_ != d_; }

  // Total order within one kind (int and long compare numerically across kinds; strings and
  // binaries by unsigned bytes, which for UTF-8 is code-point order; -0.0 before +0.0; NaN
  // last). Null sorts first.
  std::strong_ordering Compare(const Literal& other) const;
  bool operator==(const Literal& other) const { return Compare(other) == std::strong_ordering::equal; }
  std::strong_ordering operator<=>(const Literal& other) const { return Compare(other); }

  // A readable form for messages and `describe`: 42, 'abc', 14.20, X'0a0b'.
  std::string ToString() const;

 private:
  explicit Literal(Kind kind) : kind_(kind) {}

  Kind kind_ = Kind::kNull;
  int64_t i_ = 0;
  double d_ = 0;
  std::string s_;
  __int128 unscaled_ = 0;
};

// The physical kind that holds values of `type` (kInt for int and date, kLong for long/time/
// timestamps, kBinary for binary/fixed/uuid, ...).
Literal::Kind KindOf(const Type& type);

// Converts a literal to `type` where that keeps its meaning (int->long, float->double, a
// decimal to the type's scale, a string to a date/timestamp/uuid in ISO form); nullopt if not.
std::optional<Literal> CastLiteral(const Literal& value, const Type& type);

// Appendix D binary form. Reading accepts the shorter encodings promotions leave behind (a
// 4-byte int bound of a column promoted to long, a 4-byte float bound read as double).
std::string ToBinary(const Type& type, const Literal& value);
Result<Literal> FromBinary(const Type& type, std::string_view bytes);

// Appendix D JSON form ("2017-11-16" for a date, "14.20" for a decimal, hex for binary).
nlohmann::json ToJsonValue(const Type& type, const Literal& value);
Result<Literal> FromJsonValue(const Type& type, const nlohmann::json& value);

// Decimal helpers: minimal big-endian two's-complement bytes of an unscaled value, and back.
std::string DecimalToMinimalBytes(__int128 unscaled);
__int128 DecimalFromBytes(std::string_view bytes);
std::string DecimalToString(__int128 unscaled, int32_t scale);

}  // namespace floe::iceberg
