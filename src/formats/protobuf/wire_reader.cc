#include "formats/protobuf/wire_reader.h"

namespace floe::protobuf {

std::string_view WireTypeName(WireType type) {
  switch (type) {
    case WireType::kVarint: return "varint";
    case WireType::kFixed64: return "fixed64 (I64)";
    case WireType::kLen: return "length-delimited (LEN)";
    case WireType::kStartGroup: return "start group (SGROUP)";
    case WireType::kEndGroup: return "end group (EGROUP)";
    case WireType::kFixed32: return "fixed32 (I32)";
  }
  return "unknown";
}

std::unexpected<Error> WireReader::VarintError(bool overflow) const {
  if (overflow) return Corruption("varint at byte {} overflows 64 bits", position());
  return Corruption("truncated varint at byte {}", position());
}

std::unexpected<Error> WireReader::TagError(size_t at, uint64_t tag) const {
  const uint64_t number = tag >> 3, wire = tag & 7;
  if (number == 0 || number > static_cast<uint64_t>(kMaxFieldNumber)) {
    return Corruption("tag at byte {}: field number {} out of range", at, number);
  }
  return Corruption("tag at byte {}: wire type {} does not exist", at, wire);
}

std::unexpected<Error> WireReader::LengthError(size_t at, uint64_t length) const {
  return Corruption("length {} at byte {} with {} bytes left", length, at, left());
}

Status WireReader::Skip(WireType type, int32_t number, int depth) {
  switch (type) {
    case WireType::kVarint: {
      FLOE_RETURN_IF_ERROR(Varint());
      return OkStatus();
    }
    case WireType::kFixed64: {
      FLOE_RETURN_IF_ERROR(Fixed64());
      return OkStatus();
    }
    case WireType::kFixed32: {
      FLOE_RETURN_IF_ERROR(Fixed32());
      return OkStatus();
    }
    case WireType::kLen: {
      FLOE_RETURN_IF_ERROR(LengthDelimited());
      return OkStatus();
    }
    case WireType::kEndGroup:
      return Corruption("end group of field {} at byte {} without its start", number, position());
    case WireType::kStartGroup: {
      if (depth >= kMaxGroupDepth) return Corruption("groups nested deeper than {} at byte {}", kMaxGroupDepth, position());
      while (true) {
        if (done()) return Corruption("group of field {} not closed before byte {}", number, position());
        FLOE_ASSIGN_OR_RETURN(auto tag, Tag());
        if (tag.second == WireType::kEndGroup) {
          if (tag.first != number) {
            return Corruption("end group of field {} closes the group of field {} at byte {}", tag.first, number, position());
          }
          return OkStatus();
        }
        FLOE_RETURN_IF_ERROR(Skip(tag.second, tag.first, depth + 1));
      }
    }
  }
  return Corruption("wire type {} at byte {}", static_cast<int>(type), position());
}

}  // namespace floe::protobuf
