// Bounds-checked reading and appending of fixed-width integers and byte strings.
//
// ByteReader walks a borrowed span of bytes from outside (a Kafka frame, an Avro block, a
// Parquet footer); every read checks the remaining length first and reports a Corruption
// error naming what was being read and the offset, so a hostile length can never make a
// parser read past its input or allocate what the input does not contain.
// ByteWriter appends to an owned std::string. Neither is thread-safe.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>

#include "base/result.h"
#include "base/varint.h"

namespace floe {

enum class Endian { kLittle, kBig };

class ByteReader {
 public:
  ByteReader(const void* data, size_t size) : data_(static_cast<const uint8_t*>(data)), size_(size) {}
  explicit ByteReader(std::string_view bytes) : ByteReader(bytes.data(), bytes.size()) {}
  explicit ByteReader(std::span<const uint8_t> bytes) : ByteReader(bytes.data(), bytes.size()) {}

  size_t position() const { return position_; }
  size_t remaining() const { return size_ - position_; }
  bool empty() const { return position_ == size_; }
  const uint8_t* current() const { return data_ + position_; }

  template <typename T, Endian kEndian>
  Result<T> ReadFixed(std::string_view what) {
    static_assert(std::is_integral_v<T> || std::is_floating_point_v<T>);
    if (remaining() < sizeof(T)) return Truncated(what, sizeof(T));
    T value;
    std::memcpy(&value, data_ + position_, sizeof(T));
    if constexpr (sizeof(T) > 1 && (kEndian == Endian::kBig) == (std::endian::native == std::endian::little)) {
      value = ByteSwap(value);
    }
    position_ += sizeof(T);
    return value;
  }
  template <typename T>
  Result<T> ReadBig(std::string_view what) { return ReadFixed<T, Endian::kBig>(what); }
  template <typename T>
  Result<T> ReadLittle(std::string_view what) { return ReadFixed<T, Endian::kLittle>(what); }

  // Borrows the next `n` bytes.
  Result<std::string_view> ReadBytes(size_t n, std::string_view what) {
    if (remaining() < n) return Truncated(what, n);
    std::string_view out(reinterpret_cast<const char*>(data_ + position_), n);
    position_ += n;
    return out;
  }

  Status Skip(size_t n, std::string_view what) {
    if (remaining() < n) return Truncated(what, n);
    position_ += n;
    return OkStatus();
  }

  Result<uint64_t> ReadUnsignedVarint(std::string_view what) {
    const uint8_t* p = data_ + position_;
    auto v = varint::DecodeUnsigned(&p, data_ + size_);
    if (!v) return Corruption("{} at byte {}: truncated or over-long varint", what, position_);
    position_ = static_cast<size_t>(p - data_);
    return *v;
  }
  Result<int64_t> ReadSignedVarint(std::string_view what) {
    FLOE_ASSIGN_OR_RETURN(uint64_t v, ReadUnsignedVarint(what));
    return varint::ZigZagDecode(v);
  }

 private:
  template <typename T>
  static T ByteSwap(T value) {
    if constexpr (std::is_floating_point_v<T>) {
      using U = std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>;
      return std::bit_cast<T>(ByteSwap(std::bit_cast<U>(value)));
    } else {
      using U = std::make_unsigned_t<T>;
      U u = static_cast<U>(value);
      if constexpr (sizeof(T) == 2) u = __builtin_bswap16(u);
      if constexpr (sizeof(T) == 4) u = __builtin_bswap32(u);
      if constexpr (sizeof(T) == 8) u = __builtin_bswap64(u);
      return static_cast<T>(u);
    }
  }

  std::unexpected<Error> Truncated(std::string_view what, size_t wanted) const {
    return Corruption("{} at byte {}: needs {} bytes, {} remain", what, position_, wanted, remaining());
  }

  const uint8_t* data_;
  size_t size_;
  size_t position_ = 0;
};

class ByteWriter {
 public:
  ByteWriter() = default;
  explicit ByteWriter(std::string* out) : out_(out) {}

  template <typename T, Endian kEndian>
  void AppendFixed(T value) {
    static_assert(std::is_integral_v<T> || std::is_floating_point_v<T>);
    char buf[sizeof(T)];
    std::memcpy(buf, &value, sizeof(T));
    if constexpr (sizeof(T) > 1 && (kEndian == Endian::kBig) == (std::endian::native == std::endian::little)) {
      for (size_t i = 0; i < sizeof(T) / 2; ++i) std::swap(buf[i], buf[sizeof(T) - 1 - i]);
    }
    out_->append(buf, sizeof(T));
  }
  template <typename T>
  void AppendBig(T value) { AppendFixed<T, Endian::kBig>(value); }
  template <typename T>
  void AppendLittle(T value) { AppendFixed<T, Endian::kLittle>(value); }

  void AppendBytes(std::string_view bytes) { out_->append(bytes); }
  void AppendUnsignedVarint(uint64_t v) { varint::AppendUnsigned(out_, v); }
  void AppendSignedVarint(int64_t v) { varint::AppendSigned(out_, v); }

  size_t size() const { return out_->size(); }
  std::string& buffer() { return *out_; }

  // Overwrites bytes already appended (length prefixes patched after the body is written).
  template <typename T>
  void PatchBig(size_t offset, T value) {
    for (size_t i = 0; i < sizeof(T); ++i) {
      (*out_)[offset + i] = static_cast<char>(static_cast<std::make_unsigned_t<T>>(value) >> (8 * (sizeof(T) - 1 - i)));
    }
  }

 private:
  std::string owned_;
  std::string* out_ = &owned_;
};

}  // namespace floe
