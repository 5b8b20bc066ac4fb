#include "formats/protobuf/proto_descriptor_writer.h"

#include "base/varint.h"

namespace floe::protobuf {
namespace {

void Tag(std::string* out, int number, int wire) {
  varint::AppendUnsigned(out, static_cast<uint64_t>(number) << 3 | static_cast<uint64_t>(wire));
}
void Bytes(std::string* out, int number, std::string_view bytes) {
  Tag(out, number, 2);
  varint::AppendUnsigned(out, bytes.size());
  out->append(bytes);
}
void Int(std::string* out, int number, int64_t value) {
  Tag(out, number, 0);
  varint::AppendUnsigned(out, static_cast<uint64_t>(value));  // int32 negatives: ten bytes, as protoc writes.
}

// protoc's json_name: underscores dropped, the letter after one upper-cased.
std::string JsonName(std::string_view name) {
  std::string out;
  bool upper = false;
  for (char c : name) {
    if (c == '_') {
      upper = true;
      continue;
    }
    out += upper && c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c;
    upper = false;
  }
  return out;
}

std::string Enum(const ProtoEnum& e) {
  std::string out;
  Bytes(&out, 1, e.name);
  for (const ProtoEnumValue& v : e.values) {
    std::string value;
    Bytes(&value, 1, v.name);
    Int(&value, 2, v.number);
    Bytes(&out, 2, value);
  }
  return out;
}

std::string Message(const ProtoMessage& m, bool proto3) {
  std::string out;
  Bytes(&out, 1, m.name);
  int32_t synthetic = static_cast<int32_t>(m.oneofs.size());
  std::vector<std::string> synthetic_names;
  for (const ProtoField& f : m.fields) {
    std::string field;
    Bytes(&field, 1, f.name);
    Int(&field, 3, f.number);
    Int(&field, 4, f.label == ProtoLabel::kRequired ? 2 : f.label == ProtoLabel::kRepeated ? 3 : 1);
    Int(&field, 5, static_cast<int>(f.type));
    if (f.message != nullptr) Bytes(&field, 6, "." + f.message->full_name);
    if (f.enumeration != nullptr) Bytes(&field, 6, "." + f.enumeration->full_name);
    if (f.oneof >= 0) {
      Int(&field, 9, f.oneof);
    } else if (proto3 && f.label == ProtoLabel::kOptional) {
      Int(&field, 9, synthetic++);
      synthetic_names.push_back("_" + f.name);
    }
    Bytes(&field, 10, JsonName(f.name));
    if (proto3 && f.label == ProtoLabel::kOptional && f.oneof < 0) Int(&field, 17, 1);
    Bytes(&out, 2, field);
  }
  for (const auto& nested : m.nested) Bytes(&out, 3, Message(*nested, proto3));
  for (const auto& e : m.enums) Bytes(&out, 4, Enum(*e));
  if (m.map_entry) {
    std::string options;
    Int(&options, 7, 1);
    Bytes(&out, 7, options);
  }
  for (const std::string& name : m.oneofs) {
    std::string oneof;
    Bytes(&oneof, 1, name);
    Bytes(&out, 8, oneof);
  }
  for (const std::string& name : synthetic_names) {
    std::string oneof;
    Bytes(&oneof, 1, name);
    Bytes(&out, 8, oneof);
  }
  return out;
}

}  // namespace

std::string SerializeDescriptor(const ProtoSchema& schema, std::string_view file_name) {
  std::string out;
  Bytes(&out, 1, file_name);
  if (!schema.package().empty()) Bytes(&out, 2, schema.package());
  for (const std::string& import : schema.imports()) Bytes(&out, 3, import);
  const bool proto3 = schema.syntax() == "proto3";
  for (const auto& m : schema.messages()) Bytes(&out, 4, Message(*m, proto3));
  for (const auto& e : schema.enums()) Bytes(&out, 5, Enum(*e));
  Bytes(&out, 12, schema.syntax());
  return out;
}

}  // namespace floe::protobuf
