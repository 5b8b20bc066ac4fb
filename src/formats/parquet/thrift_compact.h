// The Thrift compact protocol, as Parquet uses it for its footer, page headers and indexes.
//
// CompactReader decodes untrusted bytes: every read is bounds-checked, nesting depth is
// limited, and container sizes are checked against the bytes that remain before anything is
// allocated, so a hostile footer cannot make the decoder read past its input, recurse without
// bound or reserve memory the input does not back. CompactWriter appends to a std::string.
// Neither is thread-safe; each is used by one thread for one message.
// See docs/parquet.md ("Thrift compact protocol").
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"

namespace floe::parquet::thrift {

// Compact protocol type codes (the low nibble of a field header).
enum class Type : uint8_t {
  kStop = 0,
  kBoolTrue = 1,
  kBoolFalse = 2,
  kByte = 3,
  kI16 = 4,
  kI32 = 5,
  kI64 = 6,
  kDouble = 7,
  kBinary = 8,
  kList = 9,
  kSet = 10,
  kMap = 11,
  kStruct = 12,
};

struct FieldHeader {
  int16_t id = 0;
  Type type = Type::kStop;
  bool bool_value = false;  // For kBoolTrue/kBoolFalse fields the value lives in the header.
};

struct ListHeader {
  Type element_type = Type::kStop;
  uint32_t size = 0;
};

class CompactReader {
 public:
  static constexpr int kMaxDepth = 64;

  CompactReader(const void* data, size_t size) : p_(static_cast<const uint8_t*>(data)), begin_(p_), end_(p_ + size) {}
  explicit CompactReader(std::string_view bytes) : CompactReader(bytes.data(), bytes.size()) {}

  size_t position() const { return static_cast<size_t>(p_ - begin_); }
  size_t remaining() const { return static_cast<size_t>(end_ - p_); }

  // Struct framing: BeginStruct before the first field, EndStruct after kStop was read.
  Status BeginStruct();
  void EndStruct();
  Result<FieldHeader> ReadFieldHeader();

  Result<bool> ReadBool(const FieldHeader& header);  // A bool field (value in the header).
  Result<bool> ReadBoolElement();                    // A bool inside a list (one byte each).
  Result<int8_t> ReadByte();
  Result<int16_t> ReadI16();
  Result<int32_t> ReadI32();
  Result<int64_t> ReadI64();
  Result<double> ReadDouble();
  // Borrows the bytes; valid while the input is.
  Result<std::string_view> ReadBinary();
  // Checks `size` against the remaining bytes (every element takes at least one).
  Result<ListHeader> ReadListHeader();

  // Skips a value of `type` (recursing into containers, bounded by kMaxDepth).
  Status Skip(Type type);

 private:
  Result<uint64_t> ReadVarint();
  std::unexpected<Error> Fail(std::string_view what) const;

  const uint8_t* p_;
  const uint8_t* begin_;
  const uint8_t* end_;
  int depth_ = 0;
  std::vector<int16_t> last_field_id_;
};

class CompactWriter {
 public:
  explicit CompactWriter(std::string* out) : out_(out) {}

  void BeginStruct() { last_field_id_.push_back(0); }
  void EndStruct() {
    out_->push_back(0);
    last_field_id_.pop_back();
  }
  void FieldHeader(int16_t id, Type type);

  void Bool(int16_t id, bool v) { FieldHeader(id, v ? Type::kBoolTrue : Type::kBoolFalse); }
  void I32(int16_t id, int32_t v) {
    FieldHeader(id, Type::kI32);
    Varint(ZigZag(v));
  }
  void I64(int16_t id, int64_t v) {
    FieldHeader(id, Type::kI64);
    Varint(ZigZag(v));
  }
  void Byte(int16_t id, int8_t v) {
    FieldHeader(id, Type::kByte);
    out_->push_back(static_cast<char>(v));
  }
  void I16(int16_t id, int16_t v) {
    FieldHeader(id, Type::kI16);
    Varint(ZigZag(v));
  }
  void Binary(int16_t id, std::string_view v) {
    FieldHeader(id, Type::kBinary);
    BinaryValue(v);
  }
  void ListHeader(int16_t id, Type element_type, size_t size) {
    FieldHeader(id, Type::kList);
    ListHeaderValue(element_type, size);
  }
  // Opens a nested struct field; close it with EndStruct.
  void StructField(int16_t id) {
    FieldHeader(id, Type::kStruct);
    BeginStruct();
  }

  // Element writers for list contents.
  void ListHeaderValue(Type element_type, size_t size);
  void BinaryValue(std::string_view v) {
    Varint(v.size());
    out_->append(v);
  }
  void I32Value(int32_t v) { Varint(ZigZag(v)); }
  void I64Value(int64_t v) { Varint(ZigZag(v)); }
  void BoolValue(bool v) { out_->push_back(v ? 1 : 2); }

 private:
  static uint64_t ZigZag(int64_t v) { return (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63); }
  void Varint(uint64_t v);

  std::string* out_;
  std::vector<int16_t> last_field_id_;
};

}  // namespace floe::parquet::thrift
