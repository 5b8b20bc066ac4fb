// The Kafka protocol's primitive types (protocol guide, "Protocol Primitive Types"), decoded
// and encoded for one request or response at a time.
//
// WireReader borrows the bytes of one received frame. `flexible` selects the compact forms
// (uvarint length + 1) of strings, bytes and arrays and enables tagged-field blocks, which is
// how Kafka's "flexible versions" differ from the classic ones. Every read is bounds-checked;
// array counts larger than the bytes left are rejected before anything is allocated, so a
// hostile length prefix cannot make the broker allocate or read what the frame does not hold.
// WireWriter appends to a caller-owned std::string. Neither is thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "base/bytes.h"
#include "base/result.h"

namespace floe::broker {

class WireReader {
 public:
  WireReader(std::string_view bytes, bool flexible) : reader_(bytes), flexible_(flexible) {}

  bool flexible() const { return flexible_; }
  void set_flexible(bool flexible) { flexible_ = flexible; }
  size_t remaining() const { return reader_.remaining(); }
  size_t position() const { return reader_.position(); }

  Result<int8_t> Int8(std::string_view what) { return reader_.ReadBig<int8_t>(what); }
  Result<int16_t> Int16(std::string_view what) { return reader_.ReadBig<int16_t>(what); }
  Result<int32_t> Int32(std::string_view what) { return reader_.ReadBig<int32_t>(what); }
  Result<int64_t> Int64(std::string_view what) { return reader_.ReadBig<int64_t>(what); }
  Result<bool> Bool(std::string_view what);
  Result<uint64_t> UnsignedVarint(std::string_view what) { return reader_.ReadUnsignedVarint(what); }

  // A string that must not be null.
  Result<std::string_view> String(std::string_view what);
  Result<std::optional<std::string_view>> NullableString(std::string_view what);
  Result<std::string_view> Bytes(std::string_view what);
  Result<std::optional<std::string_view>> NullableBytes(std::string_view what);
  // An array's element count; -1 for a null array. Rejects counts that cannot fit in the
  // remaining bytes (every element takes at least `min_element_size` bytes).
  Result<int32_t> ArrayLength(std::string_view what, size_t min_element_size = 1);
  // Skips a tagged-field block (flexible versions only; a no-op otherwise).
  Status SkipTaggedFields(std::string_view what);

 private:
  Result<std::optional<std::string_view>> ReadLengthPrefixed(std::string_view what, bool int32_length);

  ByteReader reader_;
  bool flexible_;
};

class WireWriter {
 public:
  WireWriter(std::string* out, bool flexible) : writer_(out), flexible_(flexible) {}

  bool flexible() const { return flexible_; }
  size_t size() const { return writer_.size(); }
  std::string& buffer() { return writer_.buffer(); }

  void Int8(int8_t v) { writer_.AppendBig(v); }
  void Int16(int16_t v) { writer_.AppendBig(v); }
  void Int32(int32_t v) { writer_.AppendBig(v); }
  void Int64(int64_t v) { writer_.AppendBig(v); }
  void Bool(bool v) { writer_.AppendBig<int8_t>(v ? 1 : 0); }
  void UnsignedVarint(uint64_t v) { writer_.AppendUnsignedVarint(v); }

  void String(std::string_view s);
  void NullableString(std::optional<std::string_view> s);
  void Bytes(std::string_view b);
  void NullableBytes(std::optional<std::string_view> b);
  void ArrayLength(size_t n);
  void NullArray();
  // An empty tagged-field block (flexible versions only).
  void TaggedFields() {
    if (flexible_) writer_.AppendUnsignedVarint(0);
  }
  void Raw(std::string_view bytes) { writer_.AppendBytes(bytes); }
  template <typename T>
  void PatchBig(size_t offset, T value) { writer_.PatchBig(offset, value); }

 private:
  ByteWriter writer_;
  bool flexible_;
};

}  // namespace floe::broker
