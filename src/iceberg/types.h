// Iceberg's data types: primitives (with decimal(P,S) and fixed[L] parameters) and the nested
// struct, list and map types whose fields carry ids (format/spec.md, "Schemas and Data Types").
//
// Types are immutable values shared through TypePtr (shared_ptr<const Type>): one struct type
// is referenced by every schema version and partition type built from it, so sharing is the
// natural lifetime. Any thread may read a Type.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"

namespace floe::iceberg {

enum class TypeId {
  kBoolean,
  kInt,
  kLong,
  kFloat,
  kDouble,
  kDecimal,
  kDate,
  kTime,
  kTimestamp,
  kTimestampTz,
  kTimestampNs,
  kTimestampTzNs,
  kString,
  kUuid,
  kFixed,
  kBinary,
  kUnknown,  // v3: a column whose values are all null.
  kVariant,  // v3: read-only support (the type round-trips; no values are decoded).
  kStruct,
  kList,
  kMap,
};

class Type;
using TypePtr = std::shared_ptr<const Type>;

// A named, id-carrying member of a struct, or the element of a list, or a map's key or value.
struct NestedField {
  int32_t id = 0;
  std::string name;
  bool required = false;
  TypePtr type;
  std::string doc;                              // Empty when there is none.
  std::optional<std::string> initial_default;   // Raw JSON text (Appendix D JSON form), v3.
  std::optional<std::string> write_default;     // Raw JSON text, v3.
};

class Type {
 public:
  // Primitives without parameters; `id` must not be decimal, fixed or nested.
  static TypePtr Primitive(TypeId id);
  static TypePtr Decimal(int32_t precision, int32_t scale);
  static TypePtr Fixed(int32_t length);
  static TypePtr Struct(std::vector<NestedField> fields);
  static TypePtr List(NestedField element);
  static TypePtr Map(NestedField key, NestedField value);

  TypeId id() const { return id_; }
  bool is_primitive() const { return id_ != TypeId::kStruct && id_ != TypeId::kList && id_ != TypeId::kMap; }
  bool is_nested() const { return !is_primitive(); }

  int32_t precision() const { return precision_; }  // decimal only
  int32_t scale() const { return scale_; }          // decimal only
  int32_t length() const { return length_; }        // fixed only

  // struct: its fields; list: one (the element); map: two (key, value).
  const std::vector<NestedField>& fields() const { return fields_; }
  const NestedField& element() const { return fields_[0]; }  // list only
  const NestedField& key() const { return fields_[0]; }      // map only
  const NestedField& value() const { return fields_[1]; }    // map only

  // The spec's JSON type string for primitives ("decimal(9,2)", "fixed[16]"); a readable
  // "struct<1 a: int, ...>" form for nested types (for messages only).
  std::string ToString() const;

  // Structural equality, including field ids, names, requiredness and docs.
  bool Equals(const Type& other) const;

 private:
  // Only the factories above construct types (make_shared needs a public constructor).
  struct Key {
    explicit Key() = default;
  };

 public:
  Type(Key, TypeId id) : id_(id) {}

 private:

  TypeId id_;
  int32_t precision_ = 0;
  int32_t scale_ = 0;
  int32_t length_ = 0;
  std::vector<NestedField> fields_;
};

// Parses a primitive type name as written in schema JSON: "int", "decimal(9, 2)", "fixed[16]".
Result<TypePtr> ParsePrimitiveType(std::string_view name);

// True when a column of type `from` may be read as `to` (int->long, float->double,
// decimal(P,S)->decimal(P',S) with P' >= P), or the types are the same primitive.
bool IsPromotionAllowed(const Type& from, const Type& to);

}  // namespace floe::iceberg
