// The RLE / bit-packed hybrid encoding (Encodings.md): definition and repetition levels,
// dictionary indices and RLE booleans. The decoder reads borrowed, untrusted bytes and never
// reads past them; the encoder appends to a string. One thread each.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "base/result.h"

namespace floe::parquet {

class RleDecoder {
 public:
  RleDecoder() = default;
  RleDecoder(const uint8_t* data, size_t size, int bit_width) : p_(data), end_(data + size), width_(bit_width) {}

  // Decodes exactly `n` values into `out`; Corruption when the data ends first.
  template <typename T>
  Status Decode(T* out, int64_t n);

  // Decodes `n` values and reports the largest (for bounds checks on dictionary indices).
  Status DecodeIndices(uint32_t* out, int64_t n, uint32_t* max_seen);

  // Before any decoding: whether the data starts with one RLE run of at least `n` copies of
  // `value`. The levels of a page without nulls usually are such a run, and need not be expanded.
  bool StartsWithRunOf(int64_t n, uint64_t value);

 private:
  Status NextRun();

  const uint8_t* p_ = nullptr;
  const uint8_t* end_ = nullptr;
  int width_ = 0;
  int64_t rle_left_ = 0;     // Values left in the current RLE run.
  uint64_t rle_value_ = 0;
  int64_t packed_left_ = 0;  // Values left in the current bit-packed run.
  const uint8_t* packed_ = nullptr;
  int packed_pos_ = 0;       // Values of the current 8-group already consumed.
  uint32_t group_[8] = {};
};

// Appends the hybrid encoding of `values` (no length prefix) to `out`.
template <typename T>
void RleEncode(const T* values, int64_t n, int bit_width, std::string* out);

}  // namespace floe::parquet
