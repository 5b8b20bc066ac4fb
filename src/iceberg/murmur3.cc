#include "iceberg/murmur3.h"

#include <algorithm>
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

uint64_t Rotl64(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }

uint64_t Fmix64(uint64_t k) {
  k ^= k >> 33;
  k *= 0xff51afd7ed558ccdULL;
  k ^= k >> 33;
  k *= 0xc4ceb9fe1a85ec53ULL;
  k ^= k >> 33;
  return k;
}

uint64_t Load64(const uint8_t* p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | p[i];
  return v;
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

Hash128 Murmur3Hash128(std::string_view bytes, uint64_t seed) {
  constexpr uint64_t kK1 = 0x87c37b91114253d5ULL;
  constexpr uint64_t kK2 = 0x4cf5ad432745937fULL;
  const auto* data = reinterpret_cast<const uint8_t*>(bytes.data());
  const size_t length = bytes.size();
  const size_t blocks = length / 16;
  uint64_t h1 = seed, h2 = seed;
  for (size_t i = 0; i < blocks; ++i) {
    uint64_t k1 = Load64(data + 16 * i), k2 = Load64(data + 16 * i + 8);
    k1 *= kK1;
    k1 = Rotl64(k1, 31);
    k1 *= kK2;
    h1 ^= k1;
    h1 = Rotl64(h1, 27);
    h1 += h2;
    h1 = h1 * 5 + 0x52dce729;
    k2 *= kK2;
    k2 = Rotl64(k2, 33);
    k2 *= kK1;
    h2 ^= k2;
    h2 = Rotl64(h2, 31);
    h2 += h1;
    h2 = h2 * 5 + 0x38495ab5;
  }
  const uint8_t* tail = data + blocks * 16;
  const size_t rest = length & 15;
  uint64_t k1 = 0, k2 = 0;
  for (size_t i = rest; i > 8; --i) k2 = (k2 << 8) | tail[i - 1];
  if (rest > 8) {
    k2 *= kK2;
    k2 = Rotl64(k2, 33);
    k2 *= kK1;
    h2 ^= k2;
  }
  for (size_t i = std::min<size_t>(rest, 8); i > 0; --i) k1 = (k1 << 8) | tail[i - 1];
  if (rest > 0) {
    k1 *= kK1;
    k1 = Rotl64(k1, 31);
    k1 *= kK2;
    h1 ^= k1;
  }
  h1 ^= length;
  h2 ^= length;
  h1 += h2;
  h2 += h1;
  h1 = Fmix64(h1);
  h2 = Fmix64(h2);
  h1 += h2;
  h2 += h1;
  return {h1, h2};
}

}  // namespace floe::iceberg
