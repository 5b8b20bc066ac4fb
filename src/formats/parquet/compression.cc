#include "formats/parquet/compression.h"

#include <brotli/decode.h>
#include <brotli/encode.h>
#include <lz4.h>
#include <lz4frame.h>
#include <snappy.h>
#include <zlib.h>
#include <zstd.h>

#include <cstring>
#include <memory>

#include "base/append_uninitialized.h"

namespace floe::parquet {

struct Compressor::State {
  ZSTD_CCtx* zstd = nullptr;
  ~State() {
    if (zstd) ZSTD_freeCCtx(zstd);
  }
};

Compressor::Compressor(Codec codec, int level) : codec_(codec), level_(level), state_(std::make_unique<State>()) {}
Compressor::~Compressor() = default;

namespace {

// Appends up to `bound` bytes that `fill` writes at the given address (it returns how many it
// wrote, or an error); on an error nothing is appended.
template <typename Fill>
Status AppendCompressed(std::string* out, size_t bound, Fill fill) {
  Status status = OkStatus();
  AppendUninitialized(out, bound, [&](char* to) -> size_t {
    Result<size_t> written = fill(to);
    if (!written) {
      status = std::unexpected(written.error());
      return 0;
    }
    return *written;
  });
  return status;
}

}  // namespace

Status Compressor::Compress(std::string_view input, std::string* out) {
  switch (codec_) {
    case Codec::kUncompressed:
      out->append(input);
      return OkStatus();
    case Codec::kSnappy:
      return AppendCompressed(out, snappy::MaxCompressedLength(input.size()), [&](char* to) -> Result<size_t> {
        size_t n = 0;
        snappy::RawCompress(input.data(), input.size(), to, &n);
        return n;
      });
    case Codec::kZstd: {
      if (!state_->zstd) state_->zstd = ZSTD_createCCtx();
      if (!state_->zstd) return ResourceExhausted("zstd: cannot create a context");
      const size_t bound = ZSTD_compressBound(input.size());
      return AppendCompressed(out, bound, [&](char* to) -> Result<size_t> {
        size_t n = ZSTD_compressCCtx(state_->zstd, to, bound, input.data(), input.size(), level_);
        if (ZSTD_isError(n)) return Internal("zstd: {}", ZSTD_getErrorName(n));
        return n;
      });
    }
    case Codec::kGzip: {
      z_stream z{};
      if (deflateInit2(&z, level_ < 0 || level_ > 9 ? 6 : level_, Z_DEFLATED, 31, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
        return Internal("gzip: deflateInit2 failed");
      }
      const size_t bound = deflateBound(&z, input.size()) + 32;
      Status status = AppendCompressed(out, bound, [&](char* to) -> Result<size_t> {
        z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(input.data()));
        z.avail_in = static_cast<uInt>(input.size());
        z.next_out = reinterpret_cast<Bytef*>(to);
        z.avail_out = static_cast<uInt>(bound);
        if (deflate(&z, Z_FINISH) != Z_STREAM_END) return Internal("gzip: deflate failed");
        return static_cast<size_t>(z.total_out);
      });
      deflateEnd(&z);
      return status;
    }
    case Codec::kLz4Raw: {
      if (input.size() > static_cast<size_t>(LZ4_MAX_INPUT_SIZE)) return InvalidArgument("lz4: page too large");
      const int bound = LZ4_compressBound(static_cast<int>(input.size()));
      return AppendCompressed(out, static_cast<size_t>(bound), [&](char* to) -> Result<size_t> {
        int n = LZ4_compress_default(input.data(), to, static_cast<int>(input.size()), bound);
        if (n <= 0) return Internal("lz4: compression failed");
        return static_cast<size_t>(n);
      });
    }
    case Codec::kBrotli: {
      const size_t bound = BrotliEncoderMaxCompressedSize(input.size());
      return AppendCompressed(out, bound, [&](char* to) -> Result<size_t> {
        size_t n = bound;
        if (!BrotliEncoderCompress(level_ < 0 || level_ > 11 ? 1 : level_, BROTLI_DEFAULT_WINDOW, BROTLI_MODE_GENERIC,
                                   input.size(), reinterpret_cast<const uint8_t*>(input.data()), &n,
                                   reinterpret_cast<uint8_t*>(to))) {
          return Internal("brotli: compression failed");
        }
        return n;
      });
    }
    case Codec::kLz4:
    case Codec::kLzo:
      break;
  }
  return NotImplemented("writing codec {}", CodecName(codec_));
}

namespace {

Status Gunzip(std::string_view input, uint8_t* out, size_t out_size) {
  // zlib refuses a null output pointer even when nothing is to be written (an empty page).
  uint8_t empty_output;
  if (out == nullptr) out = &empty_output;
  size_t produced = 0;
  size_t consumed = 0;
  // Concatenated gzip members decode one after another into the same output.
  uint8_t spare[1];
  while (consumed < input.size()) {
    z_stream z{};
    if (inflateInit2(&z, 15 + 32) != Z_OK) return Internal("gzip: inflateInit2 failed");
    if (produced == out_size) {
      // No room left: inflate into a spare byte so an empty member still reaches its end.
      z.next_out = spare;
      z.avail_out = 1;
    }
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(input.data() + consumed));
    z.avail_in = static_cast<uInt>(input.size() - consumed);
    if (produced < out_size) {
      z.next_out = out + produced;
      z.avail_out = static_cast<uInt>(out_size - produced);
    }
    int rc = inflate(&z, Z_FINISH);
    size_t in_used = z.total_in, out_used = z.total_out;
    inflateEnd(&z);
    if (rc != Z_STREAM_END) {
      if (rc == Z_BUF_ERROR && z.avail_out == 0) return Corruption("gzip: data larger than the declared size");
      return Corruption("gzip: bad or truncated data");
    }
    consumed += in_used;
    produced += out_used;
    if (in_used == 0) break;
    // Trailing zero padding after the last member is tolerated.
    bool rest_zero = true;
    for (size_t i = consumed; i < input.size() && rest_zero; ++i) rest_zero = input[i] == 0;
    if (rest_zero) break;
  }
  if (produced != out_size) return Corruption("gzip: {} bytes decompressed, {} declared", produced, out_size);
  return OkStatus();
}

// Hadoop's LZ4 framing: blocks of [4-byte BE uncompressed size][4-byte BE compressed size][data].
bool TryHadoopLz4(std::string_view input, uint8_t* out, size_t out_size) {
  size_t in = 0, produced = 0;
  auto be32 = [&](size_t at) {
    const auto* p = reinterpret_cast<const uint8_t*>(input.data()) + at;
    return (uint32_t{p[0]} << 24) | (uint32_t{p[1]} << 16) | (uint32_t{p[2]} << 8) | p[3];
  };
  while (in < input.size()) {
    if (input.size() - in < 8) return false;
    uint32_t raw = be32(in), compressed = be32(in + 4);
    in += 8;
    if (raw > out_size - produced || compressed > input.size() - in) return false;
    int n = LZ4_decompress_safe(input.data() + in, reinterpret_cast<char*>(out + produced), static_cast<int>(compressed),
                                static_cast<int>(raw));
    if (n < 0 || static_cast<uint32_t>(n) != raw) return false;
    in += compressed;
    produced += raw;
  }
  return produced == out_size;
}

bool TryLz4Frame(std::string_view input, uint8_t* out, size_t out_size) {
  LZ4F_dctx* ctx = nullptr;
  if (LZ4F_isError(LZ4F_createDecompressionContext(&ctx, LZ4F_VERSION))) return false;
  size_t produced = 0, consumed = 0;
  bool ok = true;
  while (consumed < input.size()) {
    size_t dst = out_size - produced, src = input.size() - consumed;
    size_t rc = LZ4F_decompress(ctx, out + produced, &dst, input.data() + consumed, &src, nullptr);
    if (LZ4F_isError(rc)) {
      ok = false;
      break;
    }
    produced += dst;
    consumed += src;
    if (rc == 0) break;
    if (src == 0 && dst == 0) {
      ok = false;
      break;
    }
  }
  LZ4F_freeDecompressionContext(ctx);
  return ok && produced == out_size;
}

}  // namespace

Status Decompress(Codec codec, std::string_view input, uint8_t* out, size_t out_size) {
  // An empty page (all nulls) may come with no output buffer; codecs still want one.
  uint8_t empty[1];
  if (out == nullptr) out = empty;
  switch (codec) {
    case Codec::kUncompressed:
      if (input.size() != out_size) return Corruption("uncompressed page of {} bytes declares {}", input.size(), out_size);
      std::memcpy(out, input.data(), out_size);
      return OkStatus();
    case Codec::kSnappy: {
      size_t n = 0;
      if (!snappy::GetUncompressedLength(input.data(), input.size(), &n) || n != out_size) {
        return Corruption("snappy: bad header or size (declared {})", out_size);
      }
      if (!snappy::RawUncompress(input.data(), input.size(), reinterpret_cast<char*>(out))) {
        return Corruption("snappy: bad data");
      }
      return OkStatus();
    }
    case Codec::kZstd: {
      // One context per thread, reused: creating one per page costs an allocation and its setup.
      static thread_local std::unique_ptr<ZSTD_DCtx, size_t (*)(ZSTD_DCtx*)> context(ZSTD_createDCtx(), ZSTD_freeDCtx);
      if (context == nullptr) return ResourceExhausted("zstd: no memory for a decompression context");
      size_t n = ZSTD_decompressDCtx(context.get(), out, out_size, input.data(), input.size());
      if (ZSTD_isError(n)) return Corruption("zstd: {}", ZSTD_getErrorName(n));
      if (n != out_size) return Corruption("zstd: {} bytes decompressed, {} declared", n, out_size);
      return OkStatus();
    }
    case Codec::kGzip:
      return Gunzip(input, out, out_size);
    case Codec::kLz4Raw: {
      if (input.size() > static_cast<size_t>(INT32_MAX) || out_size > static_cast<size_t>(INT32_MAX)) {
        return Corruption("lz4: page too large");
      }
      int n = LZ4_decompress_safe(input.data(), reinterpret_cast<char*>(out), static_cast<int>(input.size()),
                                  static_cast<int>(out_size));
      if (n < 0 || static_cast<size_t>(n) != out_size) return Corruption("lz4_raw: bad data or size");
      return OkStatus();
    }
    case Codec::kLz4: {
      if (TryHadoopLz4(input, out, out_size) || TryLz4Frame(input, out, out_size)) return OkStatus();
      if (input.size() <= static_cast<size_t>(INT32_MAX) && out_size <= static_cast<size_t>(INT32_MAX)) {
        int n = LZ4_decompress_safe(input.data(), reinterpret_cast<char*>(out), static_cast<int>(input.size()),
                                    static_cast<int>(out_size));
        if (n >= 0 && static_cast<size_t>(n) == out_size) return OkStatus();
      }
      return Corruption("lz4: data is neither Hadoop-framed, an LZ4 frame nor a raw block");
    }
    case Codec::kBrotli: {
      size_t n = out_size;
      if (BrotliDecoderDecompress(input.size(), reinterpret_cast<const uint8_t*>(input.data()), &n, out) !=
              BROTLI_DECODER_RESULT_SUCCESS ||
          n != out_size) {
        return Corruption("brotli: bad data or size");
      }
      return OkStatus();
    }
    case Codec::kLzo:
      return NotImplemented("the LZO codec is not supported");
  }
  return Corruption("unknown codec {}", static_cast<int>(codec));
}

Result<Codec> ParseCodec(std::string_view name) {
  if (name == "none" || name == "uncompressed") return Codec::kUncompressed;
  if (name == "snappy") return Codec::kSnappy;
  if (name == "gzip") return Codec::kGzip;
  if (name == "zstd") return Codec::kZstd;
  if (name == "lz4_raw" || name == "lz4raw") return Codec::kLz4Raw;
  if (name == "brotli") return Codec::kBrotli;
  return InvalidArgument("unknown compression '{}' (none, snappy, gzip, zstd, lz4_raw, brotli)", name);
}

}  // namespace floe::parquet
