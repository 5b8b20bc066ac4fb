// Column statistics in each physical type's sort order (min/max with NaN and signed-zero rules,
// null and NaN counts), kept per page and per column chunk by the writer, and their encodings:
// Parquet's plain-encoded min_value/max_value and Iceberg's single-value bound serialization.
// One accumulator per column writer; not thread-safe.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>

#include "formats/column_batch.h"
#include "formats/parquet/metadata.h"

namespace floe::parquet {

// How byte strings compare: strings, binary, uuid and fixed compare as unsigned bytes; decimals
// stored as fixed bytes compare as big-endian two's complement.
enum class ByteOrder : uint8_t { kUnsigned, kSignedBigEndian };

inline int CompareBytes(std::string_view a, std::string_view b, ByteOrder order) {
  if (order == ByteOrder::kSignedBigEndian && !a.empty() && !b.empty()) {
    bool na = (static_cast<uint8_t>(a[0]) & 0x80) != 0, nb = (static_cast<uint8_t>(b[0]) & 0x80) != 0;
    if (na != nb) return na ? -1 : 1;
  }
  size_t n = std::min(a.size(), b.size());
  if (n >= 8) {
    // Most pairs differ in their first eight bytes: decide those inline, as big-endian words.
    uint64_t x, y;
    std::memcpy(&x, a.data(), 8);
    std::memcpy(&y, b.data(), 8);
    if (x != y) return __builtin_bswap64(x) < __builtin_bswap64(y) ? -1 : 1;
  }
  int c = n == 0 ? 0 : std::memcmp(a.data(), b.data(), n);
  if (c != 0) return c;
  return a.size() < b.size() ? -1 : a.size() > b.size() ? 1 : 0;
}

// Min/max of one physical type. T is uint8_t (booleans), int32_t, int64_t, float, double, or
// std::string (byte arrays, owned copies).
template <typename T>
struct MinMax {
  bool has = false;
  T min{}, max{};

  void Update(const T& v) {
    if (!has) {
      min = max = v;
      has = true;
    } else {
      if (v < min) min = v;
      if (max < v) max = v;
    }
  }
  void Merge(const MinMax& o) {
    if (!o.has) return;
    Update(o.min);
    Update(o.max);
  }
};

struct ByteMinMax {
  bool has = false;
  std::string min, max;
  ByteOrder order = ByteOrder::kUnsigned;

  void Update(std::string_view v) {
    if (!has) {
      min.assign(v);
      max.assign(v);
      has = true;
      return;
    }
    if (CompareBytes(v, min, order) < 0) min.assign(v);
    if (CompareBytes(v, max, order) > 0) max.assign(v);
  }
  void Merge(const ByteMinMax& o) {
    if (!o.has) return;
    Update(o.min);
    Update(o.max);
  }
};

// Statistics of a page or chunk in physical terms, with min/max already plain-encoded.
struct EncodedStats {
  bool has_min_max = false;
  std::string min, max;  // Plain encoding (byte arrays without the length prefix).
  int64_t null_count = 0;
  int64_t nan_count = 0;
  int64_t num_values = 0;  // Levels: values plus nulls.
};

// Plain-encodes a fixed-width value.
template <typename T>
std::string PlainBytes(T v) {
  std::string s(sizeof(T), '\0');
  std::memcpy(s.data(), &v, sizeof(T));
  return s;
}

// Iceberg's single-value serialization of a Parquet-encoded bound of `type` (decimal bounds
// become minimal big-endian two's complement; uuid and fixed pass through; ints, floats, dates,
// times and timestamps stay little-endian). Strings and binary are truncated to `truncate`
// characters/bytes; an upper bound is then incremented, and dropped when it cannot be.
std::optional<std::string> IcebergBound(const formats::DataType& type, PhysicalType physical, std::string_view plain,
                                        bool upper, int truncate);

}  // namespace floe::parquet

namespace floe::parquet {

// Compares two plain-encoded values of a physical type in its sort order.
int ComparePlain(PhysicalType physical, ByteOrder order, std::string_view a, std::string_view b);

// Merges `from` into `into` (min/max by ComparePlain, counts added).
void MergeStats(PhysicalType physical, ByteOrder order, const EncodedStats& from, EncodedStats* into);

}  // namespace floe::parquet
