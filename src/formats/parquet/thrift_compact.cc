#include "formats/parquet/thrift_compact.h"

#include <cstring>

#include "base/varint.h"

namespace floe::parquet::thrift {

std::unexpected<Error> CompactReader::Fail(std::string_view what) const {
  return Corruption("thrift: {} at byte {}", what, position());
}

Result<uint64_t> CompactReader::ReadVarint() {
  auto v = varint::DecodeUnsigned(&p_, end_);
  if (!v) return Fail("truncated or over-long varint");
  return *v;
}

Status CompactReader::BeginStruct() {
  if (++depth_ > kMaxDepth) return Fail("structures nested too deeply");
  last_field_id_.push_back(0);
  return OkStatus();
}

void CompactReader::EndStruct() {
  --depth_;
  if (!last_field_id_.empty()) last_field_id_.pop_back();
}

Result<FieldHeader> CompactReader::ReadFieldHeader() {
  if (p_ == end_) return Fail("truncated struct (no stop byte)");
  uint8_t byte = *p_++;
  FieldHeader header;
  uint8_t type = byte & 0x0F;
  if (type > static_cast<uint8_t>(Type::kStruct)) return Fail("unknown field type");
  header.type = static_cast<Type>(type);
  if (header.type == Type::kStop) return header;
  uint8_t delta = byte >> 4;
  if (delta != 0) {
    header.id = static_cast<int16_t>(last_field_id_.back() + delta);
  } else {
    FLOE_ASSIGN_OR_RETURN(uint64_t zz, ReadVarint());
    int64_t id = varint::ZigZagDecode(zz);
    if (id < INT16_MIN || id > INT16_MAX) return Fail("field id out of range");
    header.id = static_cast<int16_t>(id);
  }
  last_field_id_.back() = header.id;
  if (header.type == Type::kBoolTrue || header.type == Type::kBoolFalse) {
    header.bool_value = header.type == Type::kBoolTrue;
  }
  return header;
}

Result<bool> CompactReader::ReadBool(const FieldHeader& header) {
  if (header.type != Type::kBoolTrue && header.type != Type::kBoolFalse) return Fail("expected a bool field");
  return header.bool_value;
}

Result<bool> CompactReader::ReadBoolElement() {
  if (p_ == end_) return Fail("truncated bool");
  uint8_t b = *p_++;
  if (b > 2) return Fail("bad bool element");
  return b == 1;
}

Result<int8_t> CompactReader::ReadByte() {
  if (p_ == end_) return Fail("truncated byte");
  return static_cast<int8_t>(*p_++);
}

Result<int16_t> CompactReader::ReadI16() {
  FLOE_ASSIGN_OR_RETURN(uint64_t zz, ReadVarint());
  int64_t v = varint::ZigZagDecode(zz);
  if (v < INT16_MIN || v > INT16_MAX) return Fail("i16 out of range");
  return static_cast<int16_t>(v);
}

Result<int32_t> CompactReader::ReadI32() {
  FLOE_ASSIGN_OR_RETURN(uint64_t zz, ReadVarint());
  int64_t v = varint::ZigZagDecode(zz);
  if (v < INT32_MIN || v > INT32_MAX) return Fail("i32 out of range");
  return static_cast<int32_t>(v);
}

Result<int64_t> CompactReader::ReadI64() {
  FLOE_ASSIGN_OR_RETURN(uint64_t zz, ReadVarint());
  return varint::ZigZagDecode(zz);
}

Result<double> CompactReader::ReadDouble() {
  if (remaining() < 8) return Fail("truncated double");
  double v;
  std::memcpy(&v, p_, 8);
  p_ += 8;
  return v;
}

Result<std::string_view> CompactReader::ReadBinary() {
  FLOE_ASSIGN_OR_RETURN(uint64_t n, ReadVarint());
  if (n > remaining()) return Fail("binary length past the end");
  std::string_view out(reinterpret_cast<const char*>(p_), n);
  p_ += n;
  return out;
}

Result<ListHeader> CompactReader::ReadListHeader() {
  if (p_ == end_) return Fail("truncated list header");
  uint8_t byte = *p_++;
  ListHeader header;
  uint8_t type = byte & 0x0F;
  // Inside containers booleans are typed as 1 (some writers use 2); both mean "bool".
  if (type == 0 || type > static_cast<uint8_t>(Type::kStruct)) return Fail("bad list element type");
  header.element_type = static_cast<Type>(type == 2 ? 1 : type);
  uint32_t size = byte >> 4;
  if (size == 15) {
    FLOE_ASSIGN_OR_RETURN(uint64_t n, ReadVarint());
    if (n > UINT32_MAX) return Fail("list too long");
    size = static_cast<uint32_t>(n);
  }
  if (size > remaining()) return Fail("list size larger than the remaining bytes");
  header.size = size;
  return header;
}

Status CompactReader::Skip(Type type) {
  switch (type) {
    case Type::kBoolTrue:
    case Type::kBoolFalse:
      return OkStatus();  // Field bools live in the header; list bools are handled below.
    case Type::kByte:
      FLOE_RETURN_IF_ERROR(ReadByte());
      return OkStatus();
    case Type::kI16:
    case Type::kI32:
    case Type::kI64:
      FLOE_RETURN_IF_ERROR(ReadVarint());
      return OkStatus();
    case Type::kDouble:
      FLOE_RETURN_IF_ERROR(ReadDouble());
      return OkStatus();
    case Type::kBinary:
      FLOE_RETURN_IF_ERROR(ReadBinary());
      return OkStatus();
    case Type::kList:
    case Type::kSet: {
      if (++depth_ > kMaxDepth) return Fail("containers nested too deeply");
      FLOE_ASSIGN_OR_RETURN(ListHeader header, ReadListHeader());
      for (uint32_t i = 0; i < header.size; ++i) {
        if (header.element_type == Type::kBoolTrue) {
          FLOE_RETURN_IF_ERROR(ReadBoolElement());
        } else {
          FLOE_RETURN_IF_ERROR(Skip(header.element_type));
        }
      }
      --depth_;
      return OkStatus();
    }
    case Type::kMap: {
      if (++depth_ > kMaxDepth) return Fail("containers nested too deeply");
      FLOE_ASSIGN_OR_RETURN(uint64_t n, ReadVarint());
      if (n > remaining()) return Fail("map size larger than the remaining bytes");
      if (n > 0) {
        if (p_ == end_) return Fail("truncated map header");
        uint8_t kv = *p_++;
        auto key = static_cast<Type>(kv >> 4);
        auto value = static_cast<Type>(kv & 0x0F);
        if ((kv >> 4) > 12 || (kv & 0x0F) > 12) return Fail("bad map types");
        for (uint64_t i = 0; i < n; ++i) {
          if (key == Type::kBoolTrue || key == Type::kBoolFalse) {
            FLOE_RETURN_IF_ERROR(ReadBoolElement());
          } else {
            FLOE_RETURN_IF_ERROR(Skip(key));
          }
          if (value == Type::kBoolTrue || value == Type::kBoolFalse) {
            FLOE_RETURN_IF_ERROR(ReadBoolElement());
          } else {
            FLOE_RETURN_IF_ERROR(Skip(value));
          }
        }
      }
      --depth_;
      return OkStatus();
    }
    case Type::kStruct: {
      FLOE_RETURN_IF_ERROR(BeginStruct());
      while (true) {
        FLOE_ASSIGN_OR_RETURN(FieldHeader header, ReadFieldHeader());
        if (header.type == Type::kStop) break;
        FLOE_RETURN_IF_ERROR(Skip(header.type));
      }
      EndStruct();
      return OkStatus();
    }
    case Type::kStop:
      break;
  }
  return Fail("cannot skip a value of this type");
}

void CompactWriter::Varint(uint64_t v) { varint::AppendUnsigned(out_, v); }

void CompactWriter::FieldHeader(int16_t id, Type type) {
  int16_t& last = last_field_id_.back();
  int delta = id - last;
  if (delta > 0 && delta <= 15) {
    out_->push_back(static_cast<char>((delta << 4) | static_cast<uint8_t>(type)));
  } else {
    out_->push_back(static_cast<char>(type));
    Varint(ZigZag(id));
  }
  last = id;
}

void CompactWriter::ListHeaderValue(Type element_type, size_t size) {
  if (size < 15) {
    out_->push_back(static_cast<char>((size << 4) | static_cast<uint8_t>(element_type)));
  } else {
    out_->push_back(static_cast<char>(0xF0 | static_cast<uint8_t>(element_type)));
    Varint(size);
  }
}

}  // namespace floe::parquet::thrift
