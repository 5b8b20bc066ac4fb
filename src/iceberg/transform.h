// Transform: the partition (and sort) transforms of format/spec.md, "Partition Transforms":
// identity, bucket[N], truncate[W], year, month, day, hour and void; a transform name this
// version does not know parses as kUnknown and is ignored by planning, as v3 requires.
//
// Immutable value; any thread.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "iceberg/literal.h"
#include "iceberg/types.h"

namespace floe::iceberg {

class Transform {
 public:
  enum class Kind { kIdentity, kBucket, kTruncate, kYear, kMonth, kDay, kHour, kVoid, kUnknown };

  Transform() = default;
  static Transform Identity() { return Transform(Kind::kIdentity, 0); }
  static Transform Bucket(int32_t n) { return Transform(Kind::kBucket, n); }
  static Transform Truncate(int32_t width) { return Transform(Kind::kTruncate, width); }
  static Transform Year() { return Transform(Kind::kYear, 0); }
  static Transform Month() { return Transform(Kind::kMonth, 0); }
  static Transform Day() { return Transform(Kind::kDay, 0); }
  static Transform Hour() { return Transform(Kind::kHour, 0); }
  static Transform Void() { return Transform(Kind::kVoid, 0); }

  // Parses the JSON name: "identity", "bucket[16]", "truncate[4]", "day", ... Unknown names
  // give kUnknown; a known name with a bad parameter ("bucket[0]") is InvalidArgument.
  static Result<Transform> Parse(std::string_view name);

  Kind kind() const { return kind_; }
  int32_t param() const { return param_; }  // N of bucket, W of truncate
  std::string ToString() const;             // The JSON name.

  bool CanTransform(const Type& source) const;
  // The partition value type for a source column type.
  TypePtr ResultType(const TypePtr& source) const;
  // Applies the transform; null in, null out (and void always gives null).
  Literal Apply(const Type& source, const Literal& value) const;
  // True when a <= b implies f(a) <= f(b), so range predicates project (all but bucket/void).
  bool PreservesOrder() const;

  bool operator==(const Transform& other) const {
    return kind_ == other.kind_ && param_ == other.param_ && unknown_ == other.unknown_;
  }

 private:
  Transform(Kind kind, int32_t param) : kind_(kind), param_(param) {}

  Kind kind_ = Kind::kIdentity;
  int32_t param_ = 0;
  std::string unknown_;  // The name of an unknown transform, written back unchanged.
};

// The bucket hash of one value per Appendix B (ints as longs, nanosecond timestamps as micros).
int32_t BucketHash(const Type& source, const Literal& value);

}  // namespace floe::iceberg
