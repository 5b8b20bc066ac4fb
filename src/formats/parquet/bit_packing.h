// Little-endian bit packing as Parquet lays it out (RLE/bit-packed hybrid, DELTA_BINARY_PACKED,
// PLAIN booleans): values are packed least-significant bit first, eight values per group, each
// group taking exactly `width` bytes. Stateless functions; any thread.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>

namespace floe::parquet::bits {

// Unpacks 8 values of `width` bits (0..64) from `in` (which holds at least `width` bytes).
template <typename T>
inline void Unpack8(const uint8_t* in, int width, T* out) {
  if (width == 0) {
    for (int i = 0; i < 8; ++i) out[i] = 0;
    return;
  }
  uint8_t buf[80];
  std::memcpy(buf, in, static_cast<size_t>(width));
  std::memset(buf + width, 0, 16);
  const uint64_t mask = width == 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1;
  for (int i = 0; i < 8; ++i) {
    int bit = i * width;
    int byte = bit >> 3;
    int shift = bit & 7;
    uint64_t lo;
    std::memcpy(&lo, buf + byte, 8);
    uint64_t v = lo >> shift;
    if (shift + width > 64) v |= static_cast<uint64_t>(buf[byte + 8]) << (64 - shift);
    out[i] = static_cast<T>(v & mask);
  }
}

// Unpacks `count` values (a multiple of 8) from `in`, which must hold count * width / 8 bytes.
template <typename T>
inline void Unpack(const uint8_t* in, int width, int64_t count, T* out) {
  if (width == 1) {
    for (int64_t g = 0; g < count; g += 8) {
      uint8_t b = in[g >> 3];
      for (int i = 0; i < 8; ++i) out[g + i] = static_cast<T>((b >> i) & 1);
    }
    return;
  }
  if (width <= 24) {
    // Four-byte loads stay inside the input while 4 bytes follow the group; the groups at the
    // tail take the careful path.
    const uint32_t mask = (uint32_t{1} << width) - 1;
    int64_t total = count / 8 * width;
    int64_t g = 0;
    for (; g * width + width + 4 <= total; ++g) {
      const uint8_t* p = in + g * width;
      T* o = out + g * 8;
      for (int i = 0; i < 8; ++i) {
        int bit = i * width;
        uint32_t v;
        std::memcpy(&v, p + (bit >> 3), 4);
        o[i] = static_cast<T>((v >> (bit & 7)) & mask);
      }
    }
    for (; g < count / 8; ++g) Unpack8(in + g * width, width, out + g * 8);
    return;
  }
  for (int64_t g = 0; g < count / 8; ++g) Unpack8(in + g * width, width, out + g * 8);
}

// Packs `groups` groups of 8 values of `width` bits (0..64) into exactly groups * width bytes at
// `out`, streaming the bits through one 64-bit word.
template <typename T>
inline void PackGroups(const T* values, int64_t groups, int width, uint8_t* out) {
  if (width == 0) return;
  const uint64_t mask = width == 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1;
  uint64_t word = 0;
  int used = 0;  // Bits of `word` holding values.
  for (int64_t i = 0, n = groups * 8; i < n; ++i) {
    const uint64_t v = static_cast<uint64_t>(values[i]) & mask;
    word |= v << used;
    used += width;
    if (used >= 64) {
      std::memcpy(out, &word, 8);
      out += 8;
      used -= 64;
      // The bits of v that did not fit (none when it ended exactly on the word's end).
      word = used == 0 ? 0 : v >> (width - used);
    }
  }
  // Eight values of `width` bits fill whole bytes, so `used` is a multiple of 8 here.
  std::memcpy(out, &word, static_cast<size_t>(used / 8));
}

// Packs 8 values of `width` bits, appending `width` bytes to `out`.
template <typename T>
inline void Pack8(const T* values, int width, std::string* out) {
  uint8_t buf[64];
  PackGroups(values, 1, width, buf);
  out->append(reinterpret_cast<const char*>(buf), static_cast<size_t>(width));
}

// Bits needed for `max` (0 for 0).
inline int BitWidth(uint64_t max) { return max == 0 ? 0 : 64 - __builtin_clzll(max); }

}  // namespace floe::parquet::bits
