// Test helper: hand-built Protobuf wire bytes (tags, varints, fixed values, length-delimited
// values), so tests can write exactly the bytes a case needs, including wrong ones.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "base/varint.h"

namespace floe::protobuf::testing {

class Wire {
 public:
  Wire& Varint(int32_t number, uint64_t v) {
    Tag(number, 0);
    varint::AppendUnsigned(&out_, v);
    return *this;
  }
  Wire& Signed(int32_t number, int64_t v) { return Varint(number, varint::ZigZagEncode(v)); }
  Wire& Fixed32(int32_t number, uint32_t v) {
    Tag(number, 5);
    out_.append(reinterpret_cast<const char*>(&v), 4);
    return *this;
  }
  Wire& Fixed64(int32_t number, uint64_t v) {
    Tag(number, 1);
    out_.append(reinterpret_cast<const char*>(&v), 8);
    return *this;
  }
  Wire& Float(int32_t number, float f) {
    uint32_t v;
    std::memcpy(&v, &f, 4);
    return Fixed32(number, v);
  }
  Wire& Double(int32_t number, double d) {
    uint64_t v;
    std::memcpy(&v, &d, 8);
    return Fixed64(number, v);
  }
  Wire& Bytes(int32_t number, std::string_view b) {
    Tag(number, 2);
    varint::AppendUnsigned(&out_, b.size());
    out_.append(b);
    return *this;
  }
  Wire& Message(int32_t number, const Wire& m) { return Bytes(number, m.str()); }
  Wire& Raw(std::string_view b) {
    out_.append(b);
    return *this;
  }
  Wire& Tag(int32_t number, int wire) {
    varint::AppendUnsigned(&out_, (static_cast<uint64_t>(number) << 3) | static_cast<uint64_t>(wire));
    return *this;
  }
  const std::string& str() const { return out_; }

 private:
  std::string out_;
};

}  // namespace floe::protobuf::testing
