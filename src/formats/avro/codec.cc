#include "formats/avro/codec.h"

#include <snappy.h>
#include <zlib.h>
#include <zstd.h>

#include "base/bytes.h"

namespace floe::avro {

std::string_view CodecName(Codec codec) {
  switch (codec) {
    case Codec::kNull: return "null";
    case Codec::kDeflate: return "deflate";
    case Codec::kSnappy: return "snappy";
    case Codec::kZstd: return "zstandard";
  }
  return "null";
}

Result<Codec> ParseCodec(std::string_view name) {
  if (name.empty() || name == "null") return Codec::kNull;
  if (name == "deflate") return Codec::kDeflate;
  if (name == "snappy") return Codec::kSnappy;
  if (name == "zstandard" || name == "zstd") return Codec::kZstd;
  if (name == "bzip2" || name == "xz") return NotImplemented("avro codec '{}' is not supported", name);
  return Corruption("unknown avro codec '{}'", name);
}

namespace {

uint32_t Crc32(std::string_view data) {
  return static_cast<uint32_t>(crc32(0L, reinterpret_cast<const Bytef*>(data.data()), static_cast<uInt>(data.size())));
}

Result<std::string> Deflate(std::string_view data) {
  z_stream zs{};
  // Negative window bits: raw deflate, as Avro requires.
  if (deflateInit2(&zs, Z_DEFAULT_COMPRESSION, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
    return Internal("deflateInit2 failed");
  }
  std::string out(deflateBound(&zs, data.size()), '\0');
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  zs.avail_in = static_cast<uInt>(data.size());
  zs.next_out = reinterpret_cast<Bytef*>(out.data());
  zs.avail_out = static_cast<uInt>(out.size());
  int rc = deflate(&zs, Z_FINISH);
  size_t produced = zs.total_out;
  deflateEnd(&zs);
  if (rc != Z_STREAM_END) return Internal("deflate failed ({})", rc);
  out.resize(produced);
  return out;
}

Result<std::string> Inflate(std::string_view data, size_t max_output) {
  z_stream zs{};
  if (inflateInit2(&zs, -15) != Z_OK) return Internal("inflateInit2 failed");
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  zs.avail_in = static_cast<uInt>(data.size());
  std::string out;
  char chunk[65536];
  int rc = Z_OK;
  while (rc != Z_STREAM_END) {
    zs.next_out = reinterpret_cast<Bytef*>(chunk);
    zs.avail_out = sizeof(chunk);
    rc = inflate(&zs, Z_NO_FLUSH);
    if (rc != Z_OK && rc != Z_STREAM_END) {
      inflateEnd(&zs);
      return Corruption("avro deflate block: invalid data ({})", zs.msg ? zs.msg : "inflate error");
    }
    size_t produced = sizeof(chunk) - zs.avail_out;
    if (out.size() + produced > max_output) {
      inflateEnd(&zs);
      return Corruption("avro deflate block inflates past {} bytes", max_output);
    }
    out.append(chunk, produced);
    if (rc == Z_OK && produced == 0 && zs.avail_in == 0) {
      inflateEnd(&zs);
      return Corruption("avro deflate block: truncated");
    }
  }
  inflateEnd(&zs);
  return out;
}

}  // namespace

Result<std::string> Compress(Codec codec, std::string_view data) {
  switch (codec) {
    case Codec::kNull:
      return std::string(data);
    case Codec::kDeflate:
      return Deflate(data);
    case Codec::kSnappy: {
      std::string out;
      snappy::Compress(data.data(), data.size(), &out);
      ByteWriter(&out).AppendBig<uint32_t>(Crc32(data));
      return out;
    }
    case Codec::kZstd: {
      std::string out(ZSTD_compressBound(data.size()), '\0');
      size_t n = ZSTD_compress(out.data(), out.size(), data.data(), data.size(), 3);
      if (ZSTD_isError(n)) return Internal("zstd compression failed: {}", ZSTD_getErrorName(n));
      out.resize(n);
      return out;
    }
  }
  return Internal("unknown codec");
}

Result<std::string> Decompress(Codec codec, std::string_view data, size_t max_output) {
  switch (codec) {
    case Codec::kNull:
      return std::string(data);
    case Codec::kDeflate:
      return Inflate(data, max_output);
    case Codec::kSnappy: {
      if (data.size() < 4) return Corruption("avro snappy block: {} bytes, too short for its CRC", data.size());
      std::string_view body = data.substr(0, data.size() - 4);
      ByteReader crc_reader(data.substr(data.size() - 4));
      FLOE_ASSIGN_OR_RETURN(uint32_t expected, crc_reader.ReadBig<uint32_t>("snappy crc"));
      size_t length = 0;
      if (!snappy::GetUncompressedLength(body.data(), body.size(), &length)) {
        return Corruption("avro snappy block: invalid length header");
      }
      if (length > max_output) return Corruption("avro snappy block claims {} bytes (limit {})", length, max_output);
      std::string out;
      if (!snappy::Uncompress(body.data(), body.size(), &out)) return Corruption("avro snappy block: invalid data");
      if (Crc32(out) != expected) return Corruption("avro snappy block: CRC mismatch");
      return out;
    }
    case Codec::kZstd: {
      ZSTD_DCtx* ctx = ZSTD_createDCtx();
      if (!ctx) return Internal("ZSTD_createDCtx failed");
      ZSTD_inBuffer in{data.data(), data.size(), 0};
      std::string out;
      char chunk[65536];
      size_t rc = 1;
      while (in.pos < in.size || rc != 0) {
        ZSTD_outBuffer ob{chunk, sizeof(chunk), 0};
        size_t before = in.pos;
        rc = ZSTD_decompressStream(ctx, &ob, &in);
        if (ZSTD_isError(rc)) {
          ZSTD_freeDCtx(ctx);
          return Corruption("avro zstandard block: {}", ZSTD_getErrorName(rc));
        }
        if (out.size() + ob.pos > max_output) {
          ZSTD_freeDCtx(ctx);
          return Corruption("avro zstandard block decompresses past {} bytes", max_output);
        }
        out.append(chunk, ob.pos);
        if (rc != 0 && ob.pos == 0 && in.pos == before) {
          ZSTD_freeDCtx(ctx);
          return Corruption("avro zstandard block: truncated");
        }
      }
      ZSTD_freeDCtx(ctx);
      return out;
    }
  }
  return Internal("unknown codec");
}

}  // namespace floe::avro
