#include "broker/protocol/record_compression.h"

#include <lz4frame.h>
#include <snappy.h>
#include <zlib.h>
#include <zstd.h>

#include <cstring>
#include <memory>

#include "base/bytes.h"

namespace floe::broker {
namespace {

constexpr int kGzip = 1, kSnappy = 2, kLz4 = 3, kZstd = 4;
constexpr char kXerialMagic[8] = {'\x82', 'S', 'N', 'A', 'P', 'P', 'Y', '\0'};
constexpr size_t kXerialHeaderSize = 16;  // magic, int32 version, int32 compatible version
constexpr size_t kXerialBlock = 32 * 1024;
constexpr size_t kStep = 64 * 1024;

Status Grow(std::string* out, size_t max_bytes, std::string_view codec) {
  if (out->size() >= max_bytes) return ResourceExhausted("{} batch expands past {} bytes", codec, max_bytes);
  out->resize(std::min(max_bytes, out->size() + std::max(kStep, out->size())));
  return OkStatus();
}

Result<std::string> Gunzip(std::string_view in, size_t max_bytes) {
  z_stream z{};
  if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK) return Internal("gzip: inflateInit2 failed");
  std::unique_ptr<z_stream, void (*)(z_stream*)> guard(&z, [](z_stream* s) { inflateEnd(s); });
  std::string out;
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  z.avail_in = static_cast<uInt>(in.size());
  size_t produced = 0;
  for (;;) {
    if (produced == out.size()) FLOE_RETURN_IF_ERROR(Grow(&out, max_bytes, "gzip"));
    z.next_out = reinterpret_cast<Bytef*>(out.data() + produced);
    z.avail_out = static_cast<uInt>(out.size() - produced);
    int rc = inflate(&z, Z_NO_FLUSH);
    produced = out.size() - z.avail_out;
    if (rc == Z_STREAM_END) break;
    if (rc == Z_BUF_ERROR && z.avail_in == 0) return Corruption("gzip: the stream is truncated");
    if (rc != Z_OK && rc != Z_BUF_ERROR) return Corruption("gzip: {}", z.msg ? z.msg : "bad stream");
  }
  out.resize(produced);
  return out;
}

Result<std::string> Gzip(std::string_view in) {
  z_stream z{};
  if (deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
    return Internal("gzip: deflateInit2 failed");
  }
  std::unique_ptr<z_stream, void (*)(z_stream*)> guard(&z, [](z_stream* s) { deflateEnd(s); });
  std::string out(deflateBound(&z, static_cast<uLong>(in.size())), '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  z.avail_in = static_cast<uInt>(in.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  if (deflate(&z, Z_FINISH) != Z_STREAM_END) return Internal("gzip: deflate did not finish");
  out.resize(out.size() - z.avail_out);
  return out;
}

Result<std::string> SnappyRaw(std::string_view in, size_t max_bytes) {
  size_t length = 0;
  if (!snappy::GetUncompressedLength(in.data(), in.size(), &length)) return Corruption("snappy: bad length header");
  if (length > max_bytes) return ResourceExhausted("snappy batch expands to {} bytes (limit {})", length, max_bytes);
  std::string out;
  if (!snappy::Uncompress(in.data(), in.size(), &out)) return Corruption("snappy: undecodable block");
  return out;
}

Result<std::string> Unsnappy(std::string_view in, size_t max_bytes) {
  if (in.size() < kXerialHeaderSize || std::memcmp(in.data(), kXerialMagic, sizeof(kXerialMagic)) != 0) {
    return SnappyRaw(in, max_bytes);
  }
  ByteReader r(in.substr(kXerialHeaderSize));
  std::string out;
  while (!r.empty()) {
    FLOE_ASSIGN_OR_RETURN(uint32_t length, r.ReadBig<uint32_t>("snappy (xerial) block length"));
    FLOE_ASSIGN_OR_RETURN(std::string_view block, r.ReadBytes(length, "snappy (xerial) block"));
    FLOE_ASSIGN_OR_RETURN(std::string part, SnappyRaw(block, max_bytes - out.size()));
    out += part;
  }
  return out;
}

Result<std::string> Snappy(std::string_view in) {
  std::string out(kXerialMagic, sizeof(kXerialMagic));
  ByteWriter w(&out);
  w.AppendBig<int32_t>(1);
  w.AppendBig<int32_t>(1);
  for (size_t at = 0; at < in.size(); at += kXerialBlock) {
    std::string block;
    snappy::Compress(in.data() + at, std::min(kXerialBlock, in.size() - at), &block);
    w.AppendBig<uint32_t>(static_cast<uint32_t>(block.size()));
    out += block;
  }
  return out;
}

Result<std::string> Unlz4(std::string_view in, size_t max_bytes) {
  LZ4F_dctx* dctx = nullptr;
  if (LZ4F_isError(LZ4F_createDecompressionContext(&dctx, LZ4F_VERSION))) return Internal("lz4: no context");
  std::unique_ptr<LZ4F_dctx, LZ4F_errorCode_t (*)(LZ4F_dctx*)> guard(dctx, LZ4F_freeDecompressionContext);
  std::string out;
  size_t produced = 0, consumed = 0;
  for (;;) {
    if (produced == out.size()) FLOE_RETURN_IF_ERROR(Grow(&out, max_bytes, "lz4"));
    size_t dst = out.size() - produced, src = in.size() - consumed;
    size_t hint = LZ4F_decompress(dctx, out.data() + produced, &dst, in.data() + consumed, &src, nullptr);
    if (LZ4F_isError(hint)) return Corruption("lz4: {}", LZ4F_getErrorName(hint));
    produced += dst;
    consumed += src;
    if (hint == 0) break;  // The frame is complete.
    if (consumed == in.size() && dst == 0) return Corruption("lz4: the frame is truncated");
  }
  out.resize(produced);
  return out;
}

Result<std::string> Lz4(std::string_view in) {
  LZ4F_preferences_t preferences{};
  std::string out(LZ4F_compressFrameBound(in.size(), &preferences), '\0');
  size_t n = LZ4F_compressFrame(out.data(), out.size(), in.data(), in.size(), &preferences);
  if (LZ4F_isError(n)) return Internal("lz4: {}", LZ4F_getErrorName(n));
  out.resize(n);
  return out;
}

Result<std::string> Unzstd(std::string_view in, size_t max_bytes) {
  ZSTD_DStream* stream = ZSTD_createDStream();
  if (!stream) return Internal("zstd: no context");
  std::unique_ptr<ZSTD_DStream, size_t (*)(ZSTD_DStream*)> guard(stream, ZSTD_freeDStream);
  ZSTD_initDStream(stream);
  std::string out;
  ZSTD_inBuffer input{in.data(), in.size(), 0};
  size_t produced = 0;
  for (;;) {
    if (produced == out.size()) FLOE_RETURN_IF_ERROR(Grow(&out, max_bytes, "zstd"));
    ZSTD_outBuffer output{out.data(), out.size(), produced};
    size_t rc = ZSTD_decompressStream(stream, &output, &input);
    if (ZSTD_isError(rc)) return Corruption("zstd: {}", ZSTD_getErrorName(rc));
    const bool progressed = output.pos != produced;
    produced = output.pos;
    if (rc == 0 && input.pos == input.size) break;
    if (input.pos == input.size && !progressed && produced < out.size())
      return Corruption("zstd: the frame is truncated");
  }
  out.resize(produced);
  return out;
}

Result<std::string> Zstd(std::string_view in) {
  std::string out(ZSTD_compressBound(in.size()), '\0');
  size_t n = ZSTD_compress(out.data(), out.size(), in.data(), in.size(), 3);
  if (ZSTD_isError(n)) return Internal("zstd: {}", ZSTD_getErrorName(n));
  out.resize(n);
  return out;
}

}  // namespace

Result<std::string> DecompressRecords(int codec, std::string_view compressed, size_t max_bytes) {
  switch (codec) {
    case kGzip:
      return Gunzip(compressed, max_bytes);
    case kSnappy:
      return Unsnappy(compressed, max_bytes);
    case kLz4:
      return Unlz4(compressed, max_bytes);
    case kZstd:
      return Unzstd(compressed, max_bytes);
  }
  return Corruption("compression codec {} (1 gzip, 2 snappy, 3 lz4, 4 zstd)", codec);
}

Result<std::string> CompressRecords(int codec, std::string_view records) {
  switch (codec) {
    case kGzip:
      return Gzip(records);
    case kSnappy:
      return Snappy(records);
    case kLz4:
      return Lz4(records);
    case kZstd:
      return Zstd(records);
  }
  return InvalidArgument("compression codec {} (1 gzip, 2 snappy, 3 lz4, 4 zstd)", codec);
}

}  // namespace floe::broker
