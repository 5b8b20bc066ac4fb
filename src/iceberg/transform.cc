#include "iceberg/transform.h"

#include <charconv>

#include "base/civil_date.h"
#include "base/floor_div.h"
#include "iceberg/murmur3.h"

namespace floe::iceberg {
namespace {

bool IsTimestamp(TypeId id) {
  return id == TypeId::kTimestamp || id == TypeId::kTimestampTz || id == TypeId::kTimestampNs ||
         id == TypeId::kTimestampTzNs;
}

bool IsNanos(TypeId id) { return id == TypeId::kTimestampNs || id == TypeId::kTimestampTzNs; }

// Days since the epoch for a date or timestamp value.
int64_t ToDays(const Type& source, int64_t v) {
  if (source.id() == TypeId::kDate || source.id() == TypeId::kInt) return v;
  int64_t per_day = IsNanos(source.id()) ? int64_t{86400} * 1000000000 : int64_t{86400} * 1000000;
  return FloorDiv(v, per_day);
}

// Truncates UTF-8 to at most `n` code points.
std::string TruncateUtf8(const std::string& s, int32_t n) {
  size_t i = 0;
  int32_t count = 0;
  while (i < s.size() && count < n) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    size_t len = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 1;
    i += len;
    ++count;
  }
  return s.substr(0, std::min(i, s.size()));
}

std::optional<int32_t> Param(std::string_view name, std::string_view prefix) {
  if (!name.starts_with(prefix) || !name.ends_with("]")) return std::nullopt;
  std::string_view digits = name.substr(prefix.size(), name.size() - prefix.size() - 1);
  while (!digits.empty() && digits.front() == ' ') digits.remove_prefix(1);
  while (!digits.empty() && digits.back() == ' ') digits.remove_suffix(1);
  int32_t v = 0;
  auto [p, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
  if (ec != std::errc() || p != digits.data() + digits.size()) return std::nullopt;
  return v;
}

}  // namespace

Result<Transform> Transform::Parse(std::string_view name) {
  if (name == "identity") return Identity();
  if (name == "year") return Year();
  if (name == "month") return Month();
  if (name == "day") return Day();
  if (name == "hour") return Hour();
  if (name == "void") return Void();
  if (name.starts_with("bucket[")) {
    auto n = Param(name, "bucket[");
    if (!n || *n <= 0) return InvalidArgument("transform '{}': bucket count must be a positive integer", name);
    return Bucket(*n);
  }
  if (name.starts_with("truncate[")) {
    auto w = Param(name, "truncate[");
    if (!w || *w <= 0) return InvalidArgument("transform '{}': truncate width must be a positive integer", name);
    return Truncate(*w);
  }
  Transform t(Kind::kUnknown, 0);
  t.unknown_ = std::string(name);
  return t;
}

std::string Transform::ToString() const {
  switch (kind_) {
    case Kind::kIdentity: return "identity";
    case Kind::kBucket: return fmt::format("bucket[{}]", param_);
    case Kind::kTruncate: return fmt::format("truncate[{}]", param_);
    case Kind::kYear: return "year";
    case Kind::kMonth: return "month";
    case Kind::kDay: return "day";
    case Kind::kHour: return "hour";
    case Kind::kVoid: return "void";
    case Kind::kUnknown: return unknown_;
  }
  return unknown_;
}

bool Transform::CanTransform(const Type& source) const {
  TypeId id = source.id();
  switch (kind_) {
    case Kind::kIdentity: return source.is_primitive() && id != TypeId::kVariant && id != TypeId::kUnknown;
    case Kind::kBucket:
      return id == TypeId::kInt || id == TypeId::kLong || id == TypeId::kDecimal || id == TypeId::kDate ||
             id == TypeId::kTime || IsTimestamp(id) || id == TypeId::kString || id == TypeId::kUuid ||
             id == TypeId::kFixed || id == TypeId::kBinary;
    case Kind::kTruncate:
      return id == TypeId::kInt || id == TypeId::kLong || id == TypeId::kDecimal || id == TypeId::kString ||
             id == TypeId::kBinary;
    case Kind::kYear:
    case Kind::kMonth:
    case Kind::kDay: return id == TypeId::kDate || IsTimestamp(id);
    case Kind::kHour: return IsTimestamp(id);
    case Kind::kVoid: return true;
    case Kind::kUnknown: return false;
  }
  return false;
}

TypePtr Transform::ResultType(const TypePtr& source) const {
  switch (kind_) {
    case Kind::kIdentity:
    case Kind::kTruncate:
    case Kind::kVoid: return source;
    case Kind::kDay: return Type::Primitive(TypeId::kDate);
    case Kind::kBucket:
    case Kind::kYear:
    case Kind::kMonth:
    case Kind::kHour: return Type::Primitive(TypeId::kInt);
    case Kind::kUnknown: return Type::Primitive(TypeId::kString);
  }
  return source;
}

bool Transform::PreservesOrder() const {
  return kind_ == Kind::kIdentity || kind_ == Kind::kTruncate || kind_ == Kind::kYear || kind_ == Kind::kMonth ||
         kind_ == Kind::kDay || kind_ == Kind::kHour;
}

int32_t BucketHash(const Type& source, const Literal& v) {
  switch (source.id()) {
    case TypeId::kInt:
    case TypeId::kLong:
    case TypeId::kDate:
    case TypeId::kTime:
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz: return Murmur3HashLong(v.as_long());
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTzNs: return Murmur3HashLong(FloorDiv(v.as_long(), 1000));
    case TypeId::kDecimal: return Murmur3Hash32(DecimalToMinimalBytes(v.unscaled()));
    default: return Murmur3Hash32(v.as_bytes());
  }
}

Literal Transform::Apply(const Type& source, const Literal& v) const {
  if (v.is_null() || kind_ == Kind::kVoid || kind_ == Kind::kUnknown) return Literal::Null();
  switch (kind_) {
    case Kind::kIdentity: return v;
    case Kind::kBucket: return Literal::Int((BucketHash(source, v) & 0x7FFFFFFF) % param_);
    case Kind::kTruncate:
      switch (source.id()) {
        case TypeId::kInt: {
          int64_t x = v.as_long();
          return Literal::Int(static_cast<int32_t>(x - (((x % param_) + param_) % param_)));
        }
        case TypeId::kLong: {
          int64_t x = v.as_long();
          return Literal::Long(x - (((x % param_) + param_) % param_));
        }
        case TypeId::kDecimal: {
          __int128 x = v.unscaled();
          return Literal::Decimal(x - (((x % param_) + param_) % param_), v.scale());
        }
        case TypeId::kString: return Literal::String(TruncateUtf8(v.as_bytes(), param_));
        default: return Literal::Binary(v.as_bytes().substr(0, static_cast<size_t>(param_)));
      }
    case Kind::kYear:
    case Kind::kMonth: {
      CivilDate date = CivilFromDays(ToDays(source, v.as_long()));
      if (kind_ == Kind::kYear) return Literal::Int(static_cast<int32_t>(date.year - 1970));
      return Literal::Int(static_cast<int32_t>((date.year - 1970) * 12 + (date.month - 1)));
    }
    case Kind::kDay: return Literal::Int(static_cast<int32_t>(ToDays(source, v.as_long())));
    case Kind::kHour: {
      int64_t per_hour = IsNanos(source.id()) ? int64_t{3600} * 1000000000 : int64_t{3600} * 1000000;
      return Literal::Int(static_cast<int32_t>(FloorDiv(v.as_long(), per_hour)));
    }
    default: return Literal::Null();
  }
}

}  // namespace floe::iceberg
