// ProtoSchema::ParseDescriptor: a serialized google.protobuf.FileDescriptorProto (descriptor.proto)
// into the definitions of proto_schema_file.h, read with the wire reader: only the fields a
// decoder needs (names, numbers, labels, types, type names, oneofs, map entries, enum values);
// options, source info, services and extensions are skipped. Nested messages recurse at most
// kMaxNesting deep.
#include <algorithm>

#include <fmt/format.h>

#include "formats/protobuf/proto_schema.h"
#include "formats/protobuf/proto_schema_file.h"
#include "formats/protobuf/wire_reader.h"

namespace floe::protobuf {
namespace {

// A field of descriptor.proto whose value is read: checks its wire type.
Status ExpectWire(WireType got, WireType want, std::string_view what, size_t at) {
  if (got == want) return OkStatus();
  return Corruption("{} at byte {}: wire type {}, expected {}", what, at, WireTypeName(got), WireTypeName(want));
}

Result<std::string> ReadString(WireReader& r, WireType wire, std::string_view what) {
  FLOE_RETURN_IF_ERROR(ExpectWire(wire, WireType::kLen, what, r.position()));
  FLOE_ASSIGN_OR_RETURN(std::string_view s, r.LengthDelimited());
  return std::string(s);
}

Result<int32_t> ReadInt32(WireReader& r, WireType wire, std::string_view what) {
  FLOE_RETURN_IF_ERROR(ExpectWire(wire, WireType::kVarint, what, r.position()));
  FLOE_ASSIGN_OR_RETURN(uint64_t v, r.Varint());
  return static_cast<int32_t>(v);  // int32 on the wire: negatives are sign-extended to 64 bits.
}

Result<std::string_view> ReadNested(WireReader& r, WireType wire, std::string_view what) {
  FLOE_RETURN_IF_ERROR(ExpectWire(wire, WireType::kLen, what, r.position()));
  return r.LengthDelimited();
}

// EnumDescriptorProto: name = 1, value = 2 (EnumValueDescriptorProto: name = 1, number = 2).
Result<std::unique_ptr<ProtoEnum>> ReadEnum(std::string_view bytes, size_t base) {
  auto e = std::make_unique<ProtoEnum>();
  WireReader r(bytes, base);
  while (!r.done()) {
    FLOE_ASSIGN_OR_RETURN(auto tag, r.Tag());
    if (tag.first == 1) {
      FLOE_ASSIGN_OR_RETURN(e->name, ReadString(r, tag.second, "enum name"));
    } else if (tag.first == 2) {
      FLOE_ASSIGN_OR_RETURN(std::string_view value_bytes, ReadNested(r, tag.second, "enum value"));
      ProtoEnumValue value;
      WireReader v(value_bytes, r.position() - value_bytes.size());
      while (!v.done()) {
        FLOE_ASSIGN_OR_RETURN(auto vt, v.Tag());
        if (vt.first == 1) {
          FLOE_ASSIGN_OR_RETURN(value.name, ReadString(v, vt.second, "enum value name"));
        } else if (vt.first == 2) {
          FLOE_ASSIGN_OR_RETURN(value.number, ReadInt32(v, vt.second, "enum value number"));
        } else {
          FLOE_RETURN_IF_ERROR(v.Skip(vt.second, vt.first));
        }
      }
      e->values.push_back(std::move(value));
    } else {
      FLOE_RETURN_IF_ERROR(r.Skip(tag.second, tag.first));
    }
  }
  if (e->name.empty()) return Corruption("enum at byte {} has no name", base);
  return e;
}

// FieldDescriptorProto: name = 1, number = 3, label = 4, type = 5, type_name = 6,
// oneof_index = 9, proto3_optional = 17.
Result<ProtoField> ReadField(std::string_view bytes, size_t base, bool proto3) {
  ProtoField field;
  int32_t label = 1, type = 0;
  bool proto3_optional = false;
  WireReader r(bytes, base);
  while (!r.done()) {
    FLOE_ASSIGN_OR_RETURN(auto tag, r.Tag());
    switch (tag.first) {
      case 1: {
        FLOE_ASSIGN_OR_RETURN(field.name, ReadString(r, tag.second, "field name"));
        break;
      }
      case 3: {
        FLOE_ASSIGN_OR_RETURN(field.number, ReadInt32(r, tag.second, "field number"));
        break;
      }
      case 4: {
        FLOE_ASSIGN_OR_RETURN(label, ReadInt32(r, tag.second, "field label"));
        break;
      }
      case 5: {
        FLOE_ASSIGN_OR_RETURN(type, ReadInt32(r, tag.second, "field type"));
        break;
      }
      case 6: {
        FLOE_ASSIGN_OR_RETURN(field.type_name, ReadString(r, tag.second, "field type name"));
        break;
      }
      case 9: {
        FLOE_ASSIGN_OR_RETURN(field.oneof, ReadInt32(r, tag.second, "field oneof index"));
        break;
      }
      case 17: {
        FLOE_ASSIGN_OR_RETURN(int32_t v, ReadInt32(r, tag.second, "field proto3_optional"));
        proto3_optional = v != 0;
        break;
      }
      default: FLOE_RETURN_IF_ERROR(r.Skip(tag.second, tag.first));
    }
  }
  if (field.name.empty()) return Corruption("field at byte {} has no name", base);
  if (type == 0 && !field.type_name.empty()) type = static_cast<int32_t>(ProtoType::kMessage);  // Resolution decides.
  if (type < 1 || type > 18) return Corruption("field {} at byte {}: type {} does not exist", field.name, base, type);
  field.type = static_cast<ProtoType>(type);
  if (field.type == ProtoType::kGroup) return NotImplemented("field {}: groups are not supported", field.name);
  switch (label) {
    case 1:
      if (proto3_optional) {
        field.label = ProtoLabel::kOptional;
        field.oneof = -1;  // Its synthetic oneof: presence without a choice.
      } else {
        field.label = proto3 ? ProtoLabel::kImplicit : ProtoLabel::kOptional;
      }
      break;
    case 2: field.label = ProtoLabel::kRequired; break;
    case 3: field.label = ProtoLabel::kRepeated; break;
    default: return Corruption("field {} at byte {}: label {} does not exist", field.name, base, label);
  }
  return field;
}

// DescriptorProto: name = 1, field = 2, nested_type = 3, enum_type = 4, options = 7
// (MessageOptions.map_entry = 7), oneof_decl = 8 (OneofDescriptorProto.name = 1).
Result<std::unique_ptr<ProtoMessage>> ReadMessage(std::string_view bytes, size_t base, bool proto3, int depth) {
  if (depth > ProtoSchema::kMaxNesting) {
    return Corruption("message at byte {}: nested deeper than {}", base, ProtoSchema::kMaxNesting);
  }
  auto message = std::make_unique<ProtoMessage>();
  std::vector<int32_t> synthetic_oneofs;
  WireReader r(bytes, base);
  while (!r.done()) {
    FLOE_ASSIGN_OR_RETURN(auto tag, r.Tag());
    switch (tag.first) {
      case 1: {
        FLOE_ASSIGN_OR_RETURN(message->name, ReadString(r, tag.second, "message name"));
        break;
      }
      case 2: {
        FLOE_ASSIGN_OR_RETURN(std::string_view b, ReadNested(r, tag.second, "field"));
        FLOE_ASSIGN_OR_RETURN(ProtoField f, ReadField(b, r.position() - b.size(), proto3));
        message->fields.push_back(std::move(f));
        break;
      }
      case 3: {
        FLOE_ASSIGN_OR_RETURN(std::string_view b, ReadNested(r, tag.second, "nested message"));
        FLOE_ASSIGN_OR_RETURN(auto nested, ReadMessage(b, r.position() - b.size(), proto3, depth + 1));
        message->nested.push_back(std::move(nested));
        break;
      }
      case 4: {
        FLOE_ASSIGN_OR_RETURN(std::string_view b, ReadNested(r, tag.second, "enum"));
        FLOE_ASSIGN_OR_RETURN(auto e, ReadEnum(b, r.position() - b.size()));
        message->enums.push_back(std::move(e));
        break;
      }
      case 7: {
        FLOE_ASSIGN_OR_RETURN(std::string_view b, ReadNested(r, tag.second, "message options"));
        WireReader o(b, r.position() - b.size());
        while (!o.done()) {
          FLOE_ASSIGN_OR_RETURN(auto ot, o.Tag());
          if (ot.first == 7 && ot.second == WireType::kVarint) {
            FLOE_ASSIGN_OR_RETURN(uint64_t v, o.Varint());
            message->map_entry = v != 0;
          } else {
            FLOE_RETURN_IF_ERROR(o.Skip(ot.second, ot.first));
          }
        }
        break;
      }
      case 8: {
        FLOE_ASSIGN_OR_RETURN(std::string_view b, ReadNested(r, tag.second, "oneof"));
        std::string name;
        WireReader o(b, r.position() - b.size());
        while (!o.done()) {
          FLOE_ASSIGN_OR_RETURN(auto ot, o.Tag());
          if (ot.first == 1) {
            FLOE_ASSIGN_OR_RETURN(name, ReadString(o, ot.second, "oneof name"));
          } else {
            FLOE_RETURN_IF_ERROR(o.Skip(ot.second, ot.first));
          }
        }
        message->oneofs.push_back(std::move(name));
        break;
      }
      default: FLOE_RETURN_IF_ERROR(r.Skip(tag.second, tag.first));
    }
  }
  if (message->name.empty()) return Corruption("message at byte {} has no name", base);
  // proto3 `optional` fields' synthetic oneofs come after the real ones: only those are kept.
  int32_t real_oneofs = 0;
  for (const ProtoField& f : message->fields) real_oneofs = std::max(real_oneofs, f.oneof + 1);
  if (static_cast<size_t>(real_oneofs) < message->oneofs.size()) message->oneofs.resize(static_cast<size_t>(real_oneofs));
  return message;
}

}  // namespace

// FileDescriptorProto: name = 1, package = 2, dependency = 3, message_type = 4, enum_type = 5,
// syntax = 12, edition = 14.
Result<std::unique_ptr<ProtoSchema::File>> ReadDescriptorFile(std::string_view serialized) {
  if (serialized.size() > ProtoSchema::kMaxSchemaBytes) {
    return InvalidArgument("Protobuf descriptor of {} bytes: more than {}", serialized.size(),
                           ProtoSchema::kMaxSchemaBytes);
  }
  auto file = std::make_unique<ProtoSchema::File>();
  // The syntax may come after the messages: keep their bytes until it is known.
  std::vector<std::pair<std::string_view, size_t>> message_bytes;
  WireReader r(serialized);
  auto fail = [](const Error& e) { return std::unexpected(Error(e).WithContext("FileDescriptorProto")); };
  while (!r.done()) {
    auto tag = r.Tag();
    if (!tag) return fail(tag.error());
    Status status = OkStatus();
    switch (tag->first) {
      case 2: {
        auto package = ReadString(r, tag->second, "package");
        if (!package) return fail(package.error());
        file->package = std::move(*package);
        break;
      }
      case 3: {
        auto dependency = ReadString(r, tag->second, "dependency");
        if (!dependency) return fail(dependency.error());
        file->imports.push_back(std::move(*dependency));
        break;
      }
      case 4: {
        auto b = ReadNested(r, tag->second, "message");
        if (!b) return fail(b.error());
        message_bytes.emplace_back(*b, r.position() - b->size());
        break;
      }
      case 5: {
        auto b = ReadNested(r, tag->second, "enum");
        if (!b) return fail(b.error());
        auto e = ReadEnum(*b, r.position() - b->size());
        if (!e) return fail(e.error());
        file->enums.push_back(std::move(*e));
        break;
      }
      case 12: {
        auto syntax = ReadString(r, tag->second, "syntax");
        if (!syntax) return fail(syntax.error());
        file->syntax = syntax->empty() ? "proto2" : std::move(*syntax);
        break;
      }
      case 14: return NotImplemented("FileDescriptorProto: editions are not supported (proto2 and proto3 are)");
      default: status = r.Skip(tag->second, tag->first);
    }
    if (!status) return fail(status.error());
  }
  for (const auto& [bytes, at] : message_bytes) {
    auto message = ReadMessage(bytes, at, file->syntax == "proto3", 1);
    if (!message) return fail(message.error());
    file->messages.push_back(std::move(*message));
  }
  return file;
}

Result<ProtoSchema> ProtoSchema::ParseDescriptor(std::string_view serialized) {
  FLOE_ASSIGN_OR_RETURN(std::unique_ptr<File> file, ReadDescriptorFile(serialized));
  FLOE_RETURN_IF_ERROR(ResolveFile(*file));
  return ProtoSchema(std::move(file));
}

}  // namespace floe::protobuf
