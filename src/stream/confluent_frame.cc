#include "stream/confluent_frame.h"

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

}  // namespace floe::stream
