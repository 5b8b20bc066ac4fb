#include "formats/avro/binary_encoding.h"

#include <bit>
#include <cstring>

namespace floe::avro {
namespace {

using Json = nlohmann::json;
using OJson = nlohmann::ordered_json;
using Kind = AvroValue::Kind;

constexpr int kMaxDatumDepth = 128;

}  // namespace

size_t MinEncodedSize(const AvroNode& node, int depth) {
  if (depth > 8) return 1;  // Recursive types: at least a union index somewhere below.
  switch (node.type) {
    case AvroType::kNull: return 0;
    case AvroType::kFloat: return 4;
    case AvroType::kDouble: return 8;
    case AvroType::kFixed: return static_cast<size_t>(node.size);
    case AvroType::kRecord: {
      size_t total = 0;
      for (const AvroField& f : node.fields) total += MinEncodedSize(*f.type, depth + 1);
      return total;
    }
    default: return 1;
  }
}

namespace {

class Decoder {
 public:
  explicit Decoder(ByteReader& reader) : reader_(reader) {}

  Result<AvroValue> Decode(const AvroNode& node, int depth) {
    if (depth > kMaxDatumDepth) return Corruption("avro datum nested deeper than {}", kMaxDatumDepth);
    switch (node.type) {
      case AvroType::kNull:
        return AvroValue::Null();
      case AvroType::kBoolean: {
        FLOE_ASSIGN_OR_RETURN(uint8_t b, reader_.ReadLittle<uint8_t>("avro boolean"));
        if (b > 1) return Corruption("avro boolean at byte {}: value {}", reader_.position() - 1, b);
        return AvroValue::Boolean(b == 1);
      }
      case AvroType::kInt: {
        FLOE_ASSIGN_OR_RETURN(int64_t v, reader_.ReadSignedVarint("avro int"));
        if (v < INT32_MIN || v > INT32_MAX) return Corruption("avro int at byte {}: out of range", reader_.position());
        return AvroValue::Int(static_cast<int32_t>(v));
      }
      case AvroType::kLong: {
        FLOE_ASSIGN_OR_RETURN(int64_t v, reader_.ReadSignedVarint("avro long"));
        return AvroValue::Long(v);
      }
      case AvroType::kFloat: {
        FLOE_ASSIGN_OR_RETURN(float v, reader_.ReadLittle<float>("avro float"));
        return AvroValue::Float(v);
      }
      case AvroType::kDouble: {
        FLOE_ASSIGN_OR_RETURN(double v, reader_.ReadLittle<double>("avro double"));
        return AvroValue::Double(v);
      }
      case AvroType::kBytes: {
        FLOE_ASSIGN_OR_RETURN(std::string_view b, ReadLengthPrefixed("avro bytes"));
        return AvroValue::Bytes(std::string(b));
      }
      case AvroType::kString: {
        FLOE_ASSIGN_OR_RETURN(std::string_view b, ReadLengthPrefixed("avro string"));
        return AvroValue::String(std::string(b));
      }
      case AvroType::kFixed: {
        FLOE_ASSIGN_OR_RETURN(std::string_view b, reader_.ReadBytes(static_cast<size_t>(node.size), "avro fixed"));
        return AvroValue::Fixed(std::string(b));
      }
      case AvroType::kEnum: {
        FLOE_ASSIGN_OR_RETURN(int64_t index, reader_.ReadSignedVarint("avro enum"));
        if (index < 0 || static_cast<uint64_t>(index) >= node.symbols.size()) {
          return Corruption("avro enum '{}': ordinal {} out of range", node.name, index);
        }
        return AvroValue::Enum(static_cast<int32_t>(index), node.symbols[index]);
      }
      case AvroType::kUnion: {
        FLOE_ASSIGN_OR_RETURN(int64_t index, reader_.ReadSignedVarint("avro union index"));
        if (index < 0 || static_cast<uint64_t>(index) >= node.branches.size()) {
          return Corruption("avro union at byte {}: branch {} of {}", reader_.position(), index, node.branches.size());
        }
        return Decode(*node.branches[index], depth + 1);
      }
      case AvroType::kRecord: {
        std::vector<AvroValue> fields;
        fields.reserve(node.fields.size());
        for (const AvroField& f : node.fields) {
          auto v = Decode(*f.type, depth + 1);
          if (!v) return std::unexpected(std::move(v).error().WithContext(fmt::format("field '{}'", f.name)));
          fields.push_back(std::move(*v));
        }
        return AvroValue::Record(std::move(fields));
      }
      case AvroType::kArray:
      case AvroType::kMap: {
        bool is_map = node.type == AvroType::kMap;
        std::vector<AvroValue> items;
        std::vector<std::string> keys;
        size_t item_min = MinEncodedSize(*node.items) + (is_map ? 1 : 0);
        uint64_t total = 0;
        while (true) {
          FLOE_ASSIGN_OR_RETURN(int64_t count, reader_.ReadSignedVarint("avro block count"));
          if (count == 0) break;
          if (count < 0) {
            if (count == INT64_MIN) return Corruption("avro block count at byte {}: out of range", reader_.position());
            count = -count;
            FLOE_ASSIGN_OR_RETURN(int64_t block_bytes, reader_.ReadSignedVarint("avro block size"));
            if (block_bytes < 0 || static_cast<uint64_t>(block_bytes) > reader_.remaining()) {
              return Corruption("avro block size {} at byte {}: exceeds the {} bytes left", block_bytes,
                                reader_.position(), reader_.remaining());
            }
          }
          uint64_t n = static_cast<uint64_t>(count);
          total += n;
          if (item_min > 0 ? n > reader_.remaining() / item_min : total > kMaxZeroSizeItems) {
            return Corruption("avro {} block at byte {}: {} items cannot fit in the {} bytes left",
                              AvroTypeName(node.type), reader_.position(), n, reader_.remaining());
          }
          items.reserve(items.size() + n);
          for (uint64_t k = 0; k < n; ++k) {
            if (is_map) {
              FLOE_ASSIGN_OR_RETURN(std::string_view key, ReadLengthPrefixed("avro map key"));
              keys.emplace_back(key);
            }
            FLOE_ASSIGN_OR_RETURN(AvroValue v, Decode(*node.items, depth + 1));
            items.push_back(std::move(v));
          }
        }
        return is_map ? AvroValue::Map(std::move(keys), std::move(items)) : AvroValue::Array(std::move(items));
      }
    }
    return Internal("avro: unhandled schema type");
  }

 private:
  Result<std::string_view> ReadLengthPrefixed(std::string_view what) {
    FLOE_ASSIGN_OR_RETURN(int64_t len, reader_.ReadSignedVarint(what));
    if (len < 0 || static_cast<uint64_t>(len) > reader_.remaining()) {
      return Corruption("{} at byte {}: length {} with {} bytes left", what, reader_.position(), len,
                        reader_.remaining());
    }
    return reader_.ReadBytes(static_cast<size_t>(len), what);
  }

  ByteReader& reader_;
};

bool BranchFits(const AvroNode& branch, const AvroValue& v) {
  switch (v.kind) {
    case Kind::kNull: return branch.type == AvroType::kNull;
    case Kind::kBoolean: return branch.type == AvroType::kBoolean;
    case Kind::kInt: return branch.type == AvroType::kInt || branch.type == AvroType::kLong;
    case Kind::kLong: return branch.type == AvroType::kLong;
    case Kind::kFloat: return branch.type == AvroType::kFloat || branch.type == AvroType::kDouble;
    case Kind::kDouble: return branch.type == AvroType::kDouble;
    case Kind::kBytes: return branch.type == AvroType::kBytes;
    case Kind::kString: return branch.type == AvroType::kString;
    case Kind::kFixed: return branch.type == AvroType::kFixed && static_cast<size_t>(branch.size) == v.s.size();
    case Kind::kEnum: return branch.type == AvroType::kEnum;
    case Kind::kRecord: return branch.type == AvroType::kRecord && branch.fields.size() == v.items.size();
    case Kind::kArray: return branch.type == AvroType::kArray;
    case Kind::kMap: return branch.type == AvroType::kMap;
  }
  return false;
}

void AppendLength(std::string* out, size_t n) { varint::AppendSigned(out, static_cast<int64_t>(n)); }

}  // namespace

Result<AvroValue> DecodeDatum(const AvroNode& schema, ByteReader& reader) {
  Decoder decoder(reader);
  return decoder.Decode(schema, 0);
}

Status EncodeDatum(const AvroNode& node, const AvroValue& v, std::string* out) {
  auto mismatch = [&]() {
    return InvalidArgument("avro: a value of kind {} does not fit schema type {}{}", static_cast<int>(v.kind),
                           AvroTypeName(node.type), node.name.empty() ? "" : " '" + node.name + "'");
  };
  switch (node.type) {
    case AvroType::kNull:
      if (!v.is_null()) return mismatch();
      return OkStatus();
    case AvroType::kBoolean:
      if (v.kind != Kind::kBoolean) return mismatch();
      out->push_back(v.i ? 1 : 0);
      return OkStatus();
    case AvroType::kInt:
    case AvroType::kLong:
      if (v.kind != Kind::kInt && !(v.kind == Kind::kLong && node.type == AvroType::kLong)) return mismatch();
      varint::AppendSigned(out, v.i);
      return OkStatus();
    case AvroType::kFloat: {
      if (v.kind != Kind::kFloat) return mismatch();
      ByteWriter(out).AppendLittle<float>(static_cast<float>(v.d));
      return OkStatus();
    }
    case AvroType::kDouble:
      if (v.kind != Kind::kFloat && v.kind != Kind::kDouble) return mismatch();
      ByteWriter(out).AppendLittle<double>(v.d);
      return OkStatus();
    case AvroType::kBytes:
    case AvroType::kString:
      if (v.kind != Kind::kBytes && v.kind != Kind::kString && v.kind != Kind::kFixed) return mismatch();
      AppendLength(out, v.s.size());
      out->append(v.s);
      return OkStatus();
    case AvroType::kFixed:
      if ((v.kind != Kind::kFixed && v.kind != Kind::kBytes) || v.s.size() != static_cast<size_t>(node.size)) {
        return InvalidArgument("avro fixed '{}': needs {} bytes, got {}", node.name, node.size, v.s.size());
      }
      out->append(v.s);
      return OkStatus();
    case AvroType::kEnum: {
      if (v.kind != Kind::kEnum && v.kind != Kind::kString) return mismatch();
      int64_t index = v.kind == Kind::kEnum ? v.i : -1;
      if (v.kind == Kind::kString) {
        for (size_t k = 0; k < node.symbols.size(); ++k) {
          if (node.symbols[k] == v.s) index = static_cast<int64_t>(k);
        }
      }
      if (index < 0 || static_cast<size_t>(index) >= node.symbols.size()) {
        return InvalidArgument("avro enum '{}': no symbol '{}'", node.name, v.s);
      }
      varint::AppendSigned(out, index);
      return OkStatus();
    }
    case AvroType::kUnion: {
      for (size_t k = 0; k < node.branches.size(); ++k) {
        if (BranchFits(*node.branches[k], v)) {
          varint::AppendSigned(out, static_cast<int64_t>(k));
          return EncodeDatum(*node.branches[k], v, out);
        }
      }
      return mismatch();
    }
    case AvroType::kRecord: {
      if (v.kind != Kind::kRecord || v.items.size() != node.fields.size()) {
        return InvalidArgument("avro record '{}': needs {} fields, got {}", node.name, node.fields.size(),
                               v.kind == Kind::kRecord ? v.items.size() : 0);
      }
      for (size_t k = 0; k < node.fields.size(); ++k) {
        FLOE_RETURN_IF_ERROR_CTX(EncodeDatum(*node.fields[k].type, v.items[k], out),
                                 fmt::format("field '{}'", node.fields[k].name));
      }
      return OkStatus();
    }
    case AvroType::kArray:
    case AvroType::kMap: {
      bool is_map = node.type == AvroType::kMap;
      if (v.kind != (is_map ? Kind::kMap : Kind::kArray)) return mismatch();
      if (!v.items.empty()) {
        varint::AppendSigned(out, static_cast<int64_t>(v.items.size()));
        for (size_t k = 0; k < v.items.size(); ++k) {
          if (is_map) {
            AppendLength(out, v.keys[k].size());
            out->append(v.keys[k]);
          }
          FLOE_RETURN_IF_ERROR(EncodeDatum(*node.items, v.items[k], out));
        }
      }
      out->push_back(0);
      return OkStatus();
    }
  }
  return Internal("avro: unhandled schema type");
}

OJson DatumToJson(const AvroNode& node, const AvroValue& v) {
  if (node.type == AvroType::kUnion) {
    for (const AvroNode* b : node.branches) {
      if (BranchFits(*b, v)) return DatumToJson(*b, v);
    }
    return nullptr;
  }
  switch (v.kind) {
    case Kind::kNull: return nullptr;
    case Kind::kBoolean: return v.i != 0;
    case Kind::kInt:
    case Kind::kLong: return v.i;
    case Kind::kFloat:
    case Kind::kDouble: return v.d;
    case Kind::kString: {
      // Strings should be UTF-8; fall through to the byte form when they are not.
      OJson s = v.s;
      try {
        (void)s.dump();
        return s;
      } catch (const OJson::type_error&) {
      }
      [[fallthrough]];
    }
    case Kind::kBytes:
    case Kind::kFixed: {
      std::string text;
      for (unsigned char c : v.s) {
        if (c < 0x80) {
          text.push_back(static_cast<char>(c));
        } else {
          text.push_back(static_cast<char>(0xC0 | (c >> 6)));
          text.push_back(static_cast<char>(0x80 | (c & 0x3F)));
        }
      }
      return text;
    }
    case Kind::kEnum: return v.s;
    case Kind::kRecord: {
      OJson out = OJson::object();
      for (size_t k = 0; k < node.fields.size() && k < v.items.size(); ++k) {
        out[node.fields[k].name] = DatumToJson(*node.fields[k].type, v.items[k]);
      }
      return out;
    }
    case Kind::kArray: {
      OJson out = OJson::array();
      for (const AvroValue& item : v.items) out.push_back(node.items ? DatumToJson(*node.items, item) : OJson());
      return out;
    }
    case Kind::kMap: {
      OJson out = OJson::object();
      for (size_t k = 0; k < v.items.size(); ++k) out[v.keys[k]] = DatumToJson(*node.items, v.items[k]);
      return out;
    }
  }
  return nullptr;
}

}  // namespace floe::avro
