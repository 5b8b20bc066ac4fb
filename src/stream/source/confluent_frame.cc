#include "stream/source/confluent_frame.h"

#include "base/varint.h"

namespace floe::stream {

Result<ConfluentFrame> ParseConfluentFrame(std::string_view value) {
  if (value.empty()) return Corruption("empty value: no Confluent header (magic byte 0 and a 4-byte schema id)");
  const auto magic = static_cast<uint8_t>(value[0]);
  if (magic != kConfluentMagicByte) {
    return Corruption("magic byte {} at byte 0: Confluent's wire format starts with 0", magic);
  }
  if (value.size() < kConfluentHeaderSize) {
    return Corruption("truncated Confluent header: {} bytes, the magic byte and schema id need {}", value.size(),
                      kConfluentHeaderSize);
  }
  ConfluentFrame frame;
  uint32_t id = 0;
  for (size_t i = 1; i < kConfluentHeaderSize; ++i) id = (id << 8) | static_cast<uint8_t>(value[i]);
  frame.schema_id = static_cast<int32_t>(id);
  frame.payload = value.substr(kConfluentHeaderSize);
  return frame;
}

Result<MessageIndexes> ParseMessageIndexes(std::string_view payload) {
  const auto* begin = reinterpret_cast<const uint8_t*>(payload.data());
  const uint8_t* p = begin;
  const uint8_t* end = begin + payload.size();
  auto next = [&](const char* what) -> Result<int64_t> {
    const size_t at = static_cast<size_t>(p - begin);
    auto v = varint::DecodeUnsigned(&p, end);
    if (!v) return Corruption("message indexes: truncated {} at byte {} of the payload", what, at);
    const int64_t value = varint::ZigZagDecode(*v);
    if (value < 0 || value > INT32_MAX) return Corruption("message indexes: {} {} at byte {} of the payload", what, value, at);
    return value;
  };
  FLOE_ASSIGN_OR_RETURN(int64_t count, next("count"));
  MessageIndexes out;
  if (count == 0) {
    out.indexes = {0};
  } else {
    if (static_cast<size_t>(count) > kMaxMessageIndexes) {
      return Corruption("message indexes: a count of {}, more than {}", count, kMaxMessageIndexes);
    }
    for (int64_t i = 0; i < count; ++i) {
      FLOE_ASSIGN_OR_RETURN(int64_t index, next("index"));
      out.indexes.push_back(static_cast<int32_t>(index));
    }
  }
  out.size = static_cast<size_t>(p - begin);
  return out;
}

}  // namespace floe::stream
