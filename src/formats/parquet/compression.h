// Page compression codecs: none, snappy, gzip, zstd, lz4_raw, brotli, and the deprecated LZ4
// codec (Hadoop's framing, or an LZ4 frame as some writers produce).
//
// A Compressor keeps one codec's reusable state (a zstd context) and belongs to one column
// writer on one thread. Decompress is a free function: it fills exactly the size the page
// header declares and fails with Corruption on any other outcome.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "base/result.h"
#include "formats/parquet/metadata.h"

namespace floe::parquet {

class Compressor {
 public:
  Compressor(Codec codec, int level);
  ~Compressor();
  Compressor(const Compressor&) = delete;
  Compressor& operator=(const Compressor&) = delete;

  Codec codec() const { return codec_; }
  // Appends the compressed form of `input` to `out`.
  Status Compress(std::string_view input, std::string* out);

 private:
  Codec codec_;
  int level_;
  struct State;
  std::unique_ptr<State> state_;
};

// Decompresses `input` into exactly `out_size` bytes at `out`.
Status Decompress(Codec codec, std::string_view input, uint8_t* out, size_t out_size);

// Parses a codec name (none, uncompressed, snappy, gzip, zstd, lz4_raw, lz4, brotli).
Result<Codec> ParseCodec(std::string_view name);

}  // namespace floe::parquet
