#include "iceberg/types.h"

#include <array>
#include <cctype>
#include <charconv>
#include <utility>

namespace floe::iceberg {
namespace {

struct PrimitiveName {
  TypeId id;
  std::string_view name;
};

constexpr std::array<PrimitiveName, 16> kPrimitiveNames = {{
    {TypeId::kBoolean, "boolean"},
    {TypeId::kInt, "int"},
    {TypeId::kLong, "long"},
    {TypeId::kFloat, "float"},
    {TypeId::kDouble, "double"},
    {TypeId::kDate, "date"},
    {TypeId::kTime, "time"},
    {TypeId::kTimestamp, "timestamp"},
    {TypeId::kTimestampTz, "timestamptz"},
    {TypeId::kTimestampNs, "timestamp_ns"},
    {TypeId::kTimestampTzNs, "timestamptz_ns"},
    {TypeId::kString, "string"},
    {TypeId::kUuid, "uuid"},
    {TypeId::kBinary, "binary"},
    {TypeId::kUnknown, "unknown"},
    {TypeId::kVariant, "variant"},
}};

std::string_view Trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

std::optional<int32_t> ParseInt(std::string_view s) {
  s = Trim(s);
  int32_t v = 0;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || ptr != s.data() + s.size()) return std::nullopt;
  return v;
}

bool FieldsEqual(const NestedField& a, const NestedField& b) {
  return a.id == b.id && a.name == b.name && a.required == b.required && a.doc == b.doc &&
         a.type->Equals(*b.type);
}

}  // namespace

TypePtr Type::Primitive(TypeId id) {
  // One shared instance per parameterless primitive.
  static const std::array<TypePtr, kPrimitiveNames.size()> kInstances = [] {
    std::array<TypePtr, kPrimitiveNames.size()> out;
    for (size_t i = 0; i < kPrimitiveNames.size(); ++i) {
      out[i] = std::make_shared<const Type>(Key{}, kPrimitiveNames[i].id);
    }
    return out;
  }();
  for (size_t i = 0; i < kPrimitiveNames.size(); ++i) {
    if (kPrimitiveNames[i].id == id) return kInstances[i];
  }
  return nullptr;  // decimal, fixed and nested types have their own factories.
}

TypePtr Type::Decimal(int32_t precision, int32_t scale) {
  auto t = std::make_shared<Type>(Key{}, TypeId::kDecimal);
  t->precision_ = precision;
  t->scale_ = scale;
  return t;
}

TypePtr Type::Fixed(int32_t length) {
  auto t = std::make_shared<Type>(Key{}, TypeId::kFixed);
  t->length_ = length;
  return t;
}

TypePtr Type::Struct(std::vector<NestedField> fields) {
  auto t = std::make_shared<Type>(Key{}, TypeId::kStruct);
  t->fields_ = std::move(fields);
  return t;
}

TypePtr Type::List(NestedField element) {
  auto t = std::make_shared<Type>(Key{}, TypeId::kList);
  if (element.name.empty()) element.name = "element";
  t->fields_.push_back(std::move(element));
  return t;
}

TypePtr Type::Map(NestedField key, NestedField value) {
  auto t = std::make_shared<Type>(Key{}, TypeId::kMap);
  if (key.name.empty()) key.name = "key";
  if (value.name.empty()) value.name = "value";
  key.required = true;
  t->fields_.push_back(std::move(key));
  t->fields_.push_back(std::move(value));
  return t;
}

std::string Type::ToString() const {
  switch (id_) {
    case TypeId::kDecimal:
      return fmt::format("decimal({},{})", precision_, scale_);
    case TypeId::kFixed:
      return fmt::format("fixed[{}]", length_);
    case TypeId::kStruct: {
      std::string out = "struct<";
      for (size_t i = 0; i < fields_.size(); ++i) {
        const NestedField& f = fields_[i];
        out += fmt::format("{}{} {}: {}{}", i ? ", " : "", f.id, f.name, f.required ? "required " : "",
                           f.type->ToString());
      }
      return out + ">";
    }
    case TypeId::kList:
      return fmt::format("list<{}>", element().type->ToString());
    case TypeId::kMap:
      return fmt::format("map<{}, {}>", key().type->ToString(), value().type->ToString());
    default:
      for (const auto& p : kPrimitiveNames) {
        if (p.id == id_) return std::string(p.name);
      }
      return "?";
  }
}

bool Type::Equals(const Type& other) const {
  if (id_ != other.id_ || precision_ != other.precision_ || scale_ != other.scale_ || length_ != other.length_ ||
      fields_.size() != other.fields_.size()) {
    return false;
  }
  for (size_t i = 0; i < fields_.size(); ++i) {
    if (!FieldsEqual(fields_[i], other.fields_[i])) return false;
  }
  return true;
}

Result<TypePtr> ParsePrimitiveType(std::string_view name) {
  std::string_view s = Trim(name);
  for (const auto& p : kPrimitiveNames) {
    if (p.name == s) return Type::Primitive(p.id);
  }
  if (s.starts_with("decimal")) {
    std::string_view rest = Trim(s.substr(7));
    if (rest.size() >= 2 && rest.front() == '(' && rest.back() == ')') {
      rest = rest.substr(1, rest.size() - 2);
      size_t comma = rest.find(',');
      if (comma != std::string_view::npos) {
        auto p = ParseInt(rest.substr(0, comma));
        auto sc = ParseInt(rest.substr(comma + 1));
        if (p && sc) {
          if (*p < 1 || *p > 38 || *sc < 0 || *sc > *p) {
            return InvalidArgument("type '{}': decimal precision must be 1..38 and scale 0..precision", name);
          }
          return Type::Decimal(*p, *sc);
        }
      }
    }
    return InvalidArgument("type '{}': expected decimal(P,S)", name);
  }
  if (s.starts_with("fixed")) {
    std::string_view rest = Trim(s.substr(5));
    if (rest.size() >= 2 && rest.front() == '[' && rest.back() == ']') {
      auto len = ParseInt(rest.substr(1, rest.size() - 2));
      if (len && *len > 0) return Type::Fixed(*len);
    }
    return InvalidArgument("type '{}': expected fixed[L] with L > 0", name);
  }
  if (s.starts_with("geometry") || s.starts_with("geography")) {
    return NotImplemented("type '{}': geospatial types are not supported", name);
  }
  return InvalidArgument("unknown type '{}'", name);
}

bool IsPromotionAllowed(const Type& from, const Type& to) {
  if (from.is_primitive() && to.is_primitive() && from.Equals(to)) return true;
  if (from.id() == TypeId::kInt && to.id() == TypeId::kLong) return true;
  if (from.id() == TypeId::kFloat && to.id() == TypeId::kDouble) return true;
  if (from.id() == TypeId::kDecimal && to.id() == TypeId::kDecimal) {
    return from.scale() == to.scale() && to.precision() >= from.precision();
  }
  return false;
}

}  // namespace floe::iceberg
