// Block compression codecs of Avro object container files (Avro specification, "Required
// Codecs" and "Optional Codecs"): null, deflate (raw RFC 1951 data, no zlib header), snappy
// (a snappy block followed by the big-endian CRC-32 of the uncompressed bytes) and zstandard.
//
// Stateless functions; any thread. Decompression refuses output larger than `max_output` so a
// hostile block cannot make a reader allocate without bound.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "base/result.h"

namespace floe::avro {

enum class Codec { kNull, kDeflate, kSnappy, kZstd };

// The name written under "avro.codec": "null", "deflate", "snappy", "zstandard".
std::string_view CodecName(Codec codec);
// Parses a codec name (also accepts "zstd"); NotImplemented for known-but-unsupported codecs.
Result<Codec> ParseCodec(std::string_view name);

Result<std::string> Compress(Codec codec, std::string_view data);
Result<std::string> Decompress(Codec codec, std::string_view data, size_t max_output);

}  // namespace floe::avro
