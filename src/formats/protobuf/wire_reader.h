// WireReader: the Protobuf binary wire format read from a byte range (protobuf.dev,
// "Encoding"): tags (field number and wire type), varints, fixed 32- and 64-bit values and
// length-delimited ranges, and skipping of fields nobody asked for (groups included, nested at
// most kMaxGroupDepth deep). Every read is bounded by the range; an error is a Corruption naming
// the byte offset, counted from `base` (so nested messages report offsets in the whole payload).
// Holds a view, owns nothing; one thread.
#pragma once

#include <cstdint>
#include <cstring>
#include <string_view>
#include <utility>

#include "base/result.h"

namespace floe::protobuf {

enum class WireType : uint8_t { kVarint = 0, kFixed64 = 1, kLen = 2, kStartGroup = 3, kEndGroup = 4, kFixed32 = 5 };

std::string_view WireTypeName(WireType type);

class WireReader {
 public:
  static constexpr int kMaxGroupDepth = 32;
  static constexpr int32_t kMaxFieldNumber = (1 << 29) - 1;

  explicit WireReader(std::string_view bytes, size_t base = 0)
      : begin_(reinterpret_cast<const uint8_t*>(bytes.data())), p_(begin_), end_(begin_ + bytes.size()), base_(base) {}

  bool done() const { return p_ == end_; }
  size_t position() const { return base_ + static_cast<size_t>(p_ - begin_); }
  size_t left() const { return static_cast<size_t>(end_ - p_); }

  Result<uint64_t> Varint() {
    if (p_ != end_ && *p_ < 0x80) return *p_++;  // One byte: most tags, lengths and small values.
    uint64_t result = 0;
    const uint8_t* q = p_;
    for (int i = 0; i < 10; ++i) {
      if (q == end_) return VarintError(false);
      const uint8_t byte = *q++;
      if (i == 9 && byte > 1) return VarintError(true);
      result |= static_cast<uint64_t>(byte & 0x7f) << (7 * i);
      if ((byte & 0x80) == 0) {
        p_ = q;
        return result;
      }
    }
    return VarintError(true);
  }

  // The next tag: a field number in [1, 2^29) and a wire type in [0, 5].
  Result<std::pair<int32_t, WireType>> Tag() {
    const size_t at = position();
    FLOE_ASSIGN_OR_RETURN(uint64_t tag, Varint());
    const uint64_t number = tag >> 3, wire = tag & 7;
    if (number == 0 || number > static_cast<uint64_t>(kMaxFieldNumber) || wire > 5) [[unlikely]] {
      return TagError(at, tag);
    }
    return std::pair{static_cast<int32_t>(number), static_cast<WireType>(wire)};
  }

  Result<uint32_t> Fixed32() {
    if (left() < 4) return Corruption("truncated fixed32 at byte {}: {} bytes left", position(), left());
    uint32_t v;
    std::memcpy(&v, p_, 4);  // Little-endian on the wire, as on every host we build for.
    p_ += 4;
    return v;
  }

  Result<uint64_t> Fixed64() {
    if (left() < 8) return Corruption("truncated fixed64 at byte {}: {} bytes left", position(), left());
    uint64_t v;
    std::memcpy(&v, p_, 8);
    p_ += 8;
    return v;
  }

  // A length-delimited value's bytes; the length must fit in what is left.
  Result<std::string_view> LengthDelimited() {
    const size_t at = position();
    FLOE_ASSIGN_OR_RETURN(uint64_t n, Varint());
    if (n > left()) [[unlikely]] return LengthError(at, n);
    std::string_view out(reinterpret_cast<const char*>(p_), static_cast<size_t>(n));
    p_ += n;
    return out;
  }

  // Skips the value of a field whose tag was just read; for a start group, up to and with the
  // matching end group.
  Status Skip(WireType type, int32_t number, int depth = 0);

 private:
  // Out of line and cold, so that the reads above stay small enough to inline.
  [[gnu::cold, gnu::noinline]] std::unexpected<Error> VarintError(bool overflow) const;
  [[gnu::cold, gnu::noinline]] std::unexpected<Error> TagError(size_t at, uint64_t tag) const;
  [[gnu::cold, gnu::noinline]] std::unexpected<Error> LengthError(size_t at, uint64_t length) const;

  const uint8_t* begin_;
  const uint8_t* p_;
  const uint8_t* end_;
  size_t base_;
};

}  // namespace floe::protobuf
