// MurmurHash3, x86 32-bit variant, seed 0: the hash of Iceberg's bucket transform
// (format/spec.md, Appendix B); and the x64 128-bit variant, the hash of Apache DataSketches'
// theta sketches (Puffin apache-datasketches-theta-v1 blobs). Pure functions; any thread.
#pragma once

#include <cstdint>
#include <string_view>

namespace floe::iceberg {

int32_t Murmur3Hash32(std::string_view bytes, uint32_t seed = 0);
// Hash of a long as its 8 little-endian bytes (ints hash as longs, so promotion keeps buckets).
int32_t Murmur3HashLong(int64_t value);

// The x64 128-bit variant: the two 64-bit halves of the hash of `bytes`.
struct Hash128 {
  uint64_t h1 = 0;
  uint64_t h2 = 0;
};
Hash128 Murmur3Hash128(std::string_view bytes, uint64_t seed);

}  // namespace floe::iceberg
