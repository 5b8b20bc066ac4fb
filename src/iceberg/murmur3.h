// MurmurHash3, x86 32-bit variant, seed 0: the hash of Iceberg's bucket transform
// (format/spec.md, Appendix B). Pure function; any thread.
#pragma once

#include <cstdint>
#include <string_view>

namespace floe::iceberg {

int32_t Murmur3Hash32(std::string_view bytes, uint32_t seed = 0);
// Hash of a long as its 8 little-endian bytes (ints hash as longs, so promotion keeps buckets).
int32_t Murmur3HashLong(int64_t value);

}  // namespace floe::iceberg
