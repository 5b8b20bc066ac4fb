// The compression codecs of RecordBatch v2 (attributes bits 0-2: 1 gzip, 2 snappy, 3 lz4,
// 4 zstd), for the log cleaner, which must read the keys of compressed batches and write the
// records it keeps back with the batch's codec. The broker otherwise stores and serves
// batches without decompressing them.
//
// Formats as Kafka's clients write them: gzip streams (RFC 1952); snappy raw or in the xerial
// framing Java producers use (read both, write xerial, which every client reads); LZ4 frames;
// zstd frames. Stateless; any thread.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "base/result.h"

namespace floe::broker {

// The records area of a batch compressed with `codec`, decompressed. More than `max_bytes`
// is a ResourceExhausted error (a batch that expands without bound); undecodable input a
// Corruption error naming the codec.
Result<std::string> DecompressRecords(int codec, std::string_view compressed, size_t max_bytes);

// `records` compressed with `codec` (1-4).
Result<std::string> CompressRecords(int codec, std::string_view records);

}  // namespace floe::broker
