#include "formats/parquet/bloom_filter.h"

#include <cmath>
#include <cstring>

namespace floe::parquet {
namespace {

constexpr uint32_t kSalt[8] = {0x47b6137bU, 0x44974d91U, 0x8824ad5bU, 0xa2b7289dU,
                               0x705495c7U, 0x2df1424bU, 0x9efc4947U, 0x5c6bfb31U};
constexpr size_t kMinBytes = 32;
constexpr size_t kMaxBytes = 128 << 20;

size_t BlockIndex(uint64_t hash, size_t blocks) { return static_cast<size_t>(((hash >> 32) * blocks) >> 32); }

}  // namespace

std::string BuildBloomFilter(const std::unordered_set<uint64_t>& hashes, double fpp) {
  double ndv = static_cast<double>(std::max<size_t>(hashes.size(), 1));
  if (fpp <= 0 || fpp >= 1) fpp = 0.01;
  double bits = -8.0 * ndv / std::log(1.0 - std::pow(fpp, 1.0 / 8.0));
  size_t bytes = kMinBytes;
  while (bytes < kMaxBytes && static_cast<double>(bytes) * 8 < bits) bytes *= 2;
  std::string bitset(bytes, '\0');
  size_t blocks = bytes / 32;
  for (uint64_t hash : hashes) {
    uint8_t* block = reinterpret_cast<uint8_t*>(bitset.data()) + BlockIndex(hash, blocks) * 32;
    auto key = static_cast<uint32_t>(hash);
    for (int i = 0; i < 8; ++i) {
      uint32_t word;
      std::memcpy(&word, block + 4 * i, 4);
      word |= uint32_t{1} << ((key * kSalt[i]) >> 27);
      std::memcpy(block + 4 * i, &word, 4);
    }
  }
  return bitset;
}

bool BloomFilterMightContain(std::string_view bitset, uint64_t hash) {
  size_t blocks = bitset.size() / 32;
  if (blocks == 0) return true;
  const auto* block = reinterpret_cast<const uint8_t*>(bitset.data()) + BlockIndex(hash, blocks) * 32;
  auto key = static_cast<uint32_t>(hash);
  for (int i = 0; i < 8; ++i) {
    uint32_t word;
    std::memcpy(&word, block + 4 * i, 4);
    if ((word & (uint32_t{1} << ((key * kSalt[i]) >> 27))) == 0) return false;
  }
  return true;
}

}  // namespace floe::parquet
