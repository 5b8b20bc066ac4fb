// Variable-length integers as Kafka, Avro and Parquet's Thrift compact protocol write them:
// unsigned LEB128 varints, and zigzag for signed values. Decoders never read past `end` and
// reject encodings longer than the type allows.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace floe::varint {

constexpr size_t kMaxLength32 = 5;
constexpr size_t kMaxLength64 = 10;

inline uint64_t ZigZagEncode(int64_t v) { return (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63); }
inline int64_t ZigZagDecode(uint64_t v) { return static_cast<int64_t>(v >> 1) ^ -static_cast<int64_t>(v & 1); }
inline uint32_t ZigZagEncode32(int32_t v) { return (static_cast<uint32_t>(v) << 1) ^ static_cast<uint32_t>(v >> 31); }
inline int32_t ZigZagDecode32(uint32_t v) { return static_cast<int32_t>(v >> 1) ^ -static_cast<int32_t>(v & 1); }

// Writes `v` at `out` (room for kMaxLength64 bytes) and returns the bytes written.
inline size_t EncodeUnsigned(uint64_t v, uint8_t* out) {
  size_t n = 0;
  while (v >= 0x80) {
    out[n++] = static_cast<uint8_t>(v | 0x80);
    v >>= 7;
  }
  out[n++] = static_cast<uint8_t>(v);
  return n;
}

inline void AppendUnsigned(std::string* out, uint64_t v) {
  uint8_t buf[kMaxLength64];
  out->append(reinterpret_cast<const char*>(buf), EncodeUnsigned(v, buf));
}
inline void AppendSigned(std::string* out, int64_t v) { AppendUnsigned(out, ZigZagEncode(v)); }

inline size_t UnsignedLength(uint64_t v) {
  size_t n = 1;
  while (v >= 0x80) {
    v >>= 7;
    ++n;
  }
  return n;
}

// Decodes an unsigned varint of at most `max_length` bytes from [*p, end). On success advances
// *p past it. Returns nullopt on truncation or an over-long encoding, leaving *p unchanged.
inline std::optional<uint64_t> DecodeUnsigned(const uint8_t** p, const uint8_t* end,
                                              size_t max_length = kMaxLength64) {
  uint64_t result = 0;
  const uint8_t* q = *p;
  for (size_t i = 0; i < max_length; ++i) {
    if (q == end) return std::nullopt;
    uint8_t byte = *q++;
    if (i == kMaxLength64 - 1 && byte > 1) return std::nullopt;  // Overflows 64 bits.
    result |= static_cast<uint64_t>(byte & 0x7F) << (7 * i);
    if ((byte & 0x80) == 0) {
      *p = q;
      return result;
    }
  }
  return std::nullopt;
}

inline std::optional<int64_t> DecodeSigned(const uint8_t** p, const uint8_t* end) {
  auto v = DecodeUnsigned(p, end);
  if (!v) return std::nullopt;
  return ZigZagDecode(*v);
}

inline std::optional<int32_t> DecodeSigned32(const uint8_t** p, const uint8_t* end) {
  const uint8_t* start = *p;
  auto v = DecodeUnsigned(p, end, kMaxLength32);
  if (!v || *v > 0xFFFFFFFFull) {
    *p = start;
    return std::nullopt;
  }
  return ZigZagDecode32(static_cast<uint32_t>(*v));
}

}  // namespace floe::varint
