#include "broker/protocol/wire.h"

#include <limits>

namespace floe::broker {

Result<bool> WireReader::Bool(std::string_view what) {
  FLOE_ASSIGN_OR_RETURN(int8_t v, reader_.ReadBig<int8_t>(what));
  return v != 0;
}

Result<std::optional<std::string_view>> WireReader::ReadLengthPrefixed(std::string_view what, bool int32_length) {
  int64_t length;
  if (flexible_) {
    FLOE_ASSIGN_OR_RETURN(uint64_t n, reader_.ReadUnsignedVarint(what));
    if (n > std::numeric_limits<uint32_t>::max()) return Corruption("{}: compact length {} too large", what, n);
    length = static_cast<int64_t>(n) - 1;
  } else if (int32_length) {
    FLOE_ASSIGN_OR_RETURN(int32_t n, reader_.ReadBig<int32_t>(what));
    length = n;
  } else {
    FLOE_ASSIGN_OR_RETURN(int16_t n, reader_.ReadBig<int16_t>(what));
    length = n;
  }
  if (length == -1) return std::optional<std::string_view>();
  if (length < -1) return Corruption("{} at byte {}: negative length {}", what, reader_.position(), length);
  FLOE_ASSIGN_OR_RETURN(std::string_view bytes, reader_.ReadBytes(static_cast<size_t>(length), what));
  return std::optional<std::string_view>(bytes);
}

Result<std::string_view> WireReader::String(std::string_view what) {
  FLOE_ASSIGN_OR_RETURN(auto s, ReadLengthPrefixed(what, false));
  if (!s) return Corruption("{} at byte {}: null where a string is required", what, reader_.position());
  return *s;
}

Result<std::optional<std::string_view>> WireReader::NullableString(std::string_view what) {
  return ReadLengthPrefixed(what, false);
}

Result<std::string_view> WireReader::Bytes(std::string_view what) {
  FLOE_ASSIGN_OR_RETURN(auto s, ReadLengthPrefixed(what, true));
  if (!s) return Corruption("{} at byte {}: null where bytes are required", what, reader_.position());
  return *s;
}

Result<std::optional<std::string_view>> WireReader::NullableBytes(std::string_view what) {
  return ReadLengthPrefixed(what, true);
}

Result<int32_t> WireReader::ArrayLength(std::string_view what, size_t min_element_size) {
  int64_t count;
  if (flexible_) {
    FLOE_ASSIGN_OR_RETURN(uint64_t n, reader_.ReadUnsignedVarint(what));
    if (n > std::numeric_limits<int32_t>::max()) return Corruption("{}: array length {} too large", what, n);
    count = static_cast<int64_t>(n) - 1;
  } else {
    FLOE_ASSIGN_OR_RETURN(int32_t n, reader_.ReadBig<int32_t>(what));
    count = n;
  }
  if (count < -1) return Corruption("{} at byte {}: negative array length {}", what, reader_.position(), count);
  if (count > 0 && static_cast<uint64_t>(count) * min_element_size > reader_.remaining()) {
    return Corruption("{} at byte {}: array of {} elements cannot fit in {} remaining bytes", what,
                      reader_.position(), count, reader_.remaining());
  }
  return static_cast<int32_t>(count);
}

Status WireReader::SkipTaggedFields(std::string_view what) {
  if (!flexible_) return OkStatus();
  FLOE_ASSIGN_OR_RETURN(uint64_t count, reader_.ReadUnsignedVarint(what));
  if (count > reader_.remaining()) return Corruption("{}: {} tagged fields cannot fit", what, count);
  for (uint64_t i = 0; i < count; ++i) {
    FLOE_RETURN_IF_ERROR(reader_.ReadUnsignedVarint(what));
    FLOE_ASSIGN_OR_RETURN(uint64_t size, reader_.ReadUnsignedVarint(what));
    FLOE_RETURN_IF_ERROR(reader_.Skip(size, what));
  }
  return OkStatus();
}

void WireWriter::String(std::string_view s) {
  if (flexible_) {
    writer_.AppendUnsignedVarint(s.size() + 1);
  } else {
    writer_.AppendBig<int16_t>(static_cast<int16_t>(s.size()));
  }
  writer_.AppendBytes(s);
}

void WireWriter::NullableString(std::optional<std::string_view> s) {
  if (s) return String(*s);
  if (flexible_) {
    writer_.AppendUnsignedVarint(0);
  } else {
    writer_.AppendBig<int16_t>(-1);
  }
}

void WireWriter::Bytes(std::string_view b) {
  if (flexible_) {
    writer_.AppendUnsignedVarint(b.size() + 1);
  } else {
    writer_.AppendBig<int32_t>(static_cast<int32_t>(b.size()));
  }
  writer_.AppendBytes(b);
}

void WireWriter::NullableBytes(std::optional<std::string_view> b) {
  if (b) return Bytes(*b);
  if (flexible_) {
    writer_.AppendUnsignedVarint(0);
  } else {
    writer_.AppendBig<int32_t>(-1);
  }
}

void WireWriter::ArrayLength(size_t n) {
  if (flexible_) {
    writer_.AppendUnsignedVarint(n + 1);
  } else {
    writer_.AppendBig<int32_t>(static_cast<int32_t>(n));
  }
}

void WireWriter::NullArray() {
  if (flexible_) {
    writer_.AppendUnsignedVarint(0);
  } else {
    writer_.AppendBig<int32_t>(-1);
  }
}

}  // namespace floe::broker
