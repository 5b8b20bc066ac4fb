// Parquet's split-block bloom filter (BloomFilter.md): 256-bit blocks of eight 32-bit words,
// one bit set per word from a salted multiply of the low 32 bits of the value's xxHash64, the
// block chosen by the high 32 bits. Stateless functions; any thread.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_set>

namespace floe::parquet {

// The filter's bitset for `hashes` (xxHash64 of each distinct plain-encoded value), sized for
// false-positive probability `fpp`.
std::string BuildBloomFilter(const std::unordered_set<uint64_t>& hashes, double fpp);

// Whether a value with xxHash64 `hash` may be in the filter `bitset`.
bool BloomFilterMightContain(std::string_view bitset, uint64_t hash);

}  // namespace floe::parquet
