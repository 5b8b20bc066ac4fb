// Confluent's wire format for registry-encoded records: magic byte 0, the writer schema's
// registry id as 4 bytes big-endian, then the payload (for Avro, one datum in the binary
// encoding; for JSON Schema, the JSON text). Protobuf payloads start with the message indexes
// that pick the message type in the schema file: a count, then that many indexes, each a
// zigzag varint; the count 0 alone (one byte 0) stands for [0], the file's first message.
// Schema Registry documentation, "Wire format". Stateless; any thread.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "base/result.h"

namespace floe::stream {

inline constexpr uint8_t kConfluentMagicByte = 0;
inline constexpr size_t kConfluentHeaderSize = 5;

struct ConfluentFrame {
  int32_t schema_id = 0;
  std::string_view payload;  // Borrowed from the record's value.
};

// Whether `value` starts the way a framed record does (magic byte 0 and room for the id): how
// `--format auto` tells registry-encoded records from JSON, which never starts with a 0 byte.
inline bool LooksConfluentFramed(std::string_view value) {
  return value.size() >= kConfluentHeaderSize && static_cast<uint8_t>(value[0]) == kConfluentMagicByte;
}

// Corruption when the value is shorter than the header or its magic byte is not 0.
Result<ConfluentFrame> ParseConfluentFrame(std::string_view value);

// More indexes than this (messages nested deeper than a schema can hold) are refused.
inline constexpr size_t kMaxMessageIndexes = 64;

struct MessageIndexes {
  std::vector<int32_t> indexes;  // [0] for the single 0 byte.
  size_t size = 0;               // Bytes they took at the start of the payload.
};

// The message indexes at the start of a Protobuf payload. Corruption (naming the byte) when they
// are truncated, negative, over kMaxMessageIndexes or out of the int32 range.
Result<MessageIndexes> ParseMessageIndexes(std::string_view payload);

}  // namespace floe::stream
