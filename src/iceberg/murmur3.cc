#include "iceberg/murmur3.h"

#include <cstring>

namespace floe::iceberg {
namespace {

constexpr uint32_t kC1 = 0xcc9e2d51;
constexpr uint32_t kC2 = 0x1b873593;

uint32_t Rotl(uint32_t x, int r) { return (x << r) | (x >> (32 - r)); }

uint32_t MixK(uint32_t k) {
  k *= kC1;
  k = Rotl(k, 15);
  return k * kC2;
}

uint32_t Finalize(uint32_t h, size_t length) {
  h ^= static_cast<uint32_t>(length);
  h ^= h >> 16;
  h *= 0x85ebca6b;
  h ^= h >> 13;
  h *= 0xc2b2ae35;
  h ^= h >> 16;
  return h;
}

}  // namespace

int32_t Murmur3Hash32(std::string_view bytes, uint32_t seed) {
  const auto* data = reinterpret_cast<const uint8_t*>(bytes.data());
  size_t blocks = bytes.size() / 4;
  uint32_t h = seed;
  for (size_t i = 0; i < blocks; ++i) {
    uint32_t k = static_cast<uint32_t>(data[4 * i]) | (static_cast<uint32_t>(data[4 * i + 1]) << 8) |
                 (static_cast<uint32_t>(data[4 * i + 2]) << 16) | (static_cast<uint32_t>(data[4 * i + 3]) << 24);
    h ^= MixK(k);
    h = Rotl(h, 13);
    h = h * 5 + 0xe6546b64;
  }
  const uint8_t* tail = data + blocks * 4;
  uint32_t k = 0;
  switch (bytes.size() & 3) {
    case 3: k ^= static_cast<uint32_t>(tail[2]) << 16; [[fallthrough]];
    case 2: k ^= static_cast<uint32_t>(tail[1]) << 8; [[fallthrough]];
    case 1: k ^= tail[0]; h ^= MixK(k);
  }
  return static_cast<int32_t>(Finalize(h, bytes.size()));
}

int32_t Murmur3HashLong(int64_t value) {
  char buf[8];
  for (int i = 0; i < 8; ++i) buf[i] = static_cast<char>(static_cast<uint64_t>(value) >> (8 * i));
  return Murmur3Hash32(std::string_view(buf, 8));
}

}  // namespace floe::iceberg
