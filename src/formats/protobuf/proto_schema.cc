#include "formats/protobuf/proto_schema.h"

#include <fmt/format.h>

#include <set>
#include <type_traits>

#include "base/base64.h"
#include "formats/protobuf/proto_schema_file.h"

namespace floe::protobuf {

std::string_view ProtoTypeName(ProtoType type) {
  switch (type) {
    case ProtoType::kDouble: return "double";
    case ProtoType::kFloat: return "float";
    case ProtoType::kInt64: return "int64";
    case ProtoType::kUint64: return "uint64";
    case ProtoType::kInt32: return "int32";
    case ProtoType::kFixed64: return "fixed64";
    case ProtoType::kFixed32: return "fixed32";
    case ProtoType::kBool: return "bool";
    case ProtoType::kString: return "string";
    case ProtoType::kGroup: return "group";
    case ProtoType::kMessage: return "message";
    case ProtoType::kBytes: return "bytes";
    case ProtoType::kUint32: return "uint32";
    case ProtoType::kEnum: return "enum";
    case ProtoType::kSfixed32: return "sfixed32";
    case ProtoType::kSfixed64: return "sfixed64";
    case ProtoType::kSint32: return "sint32";
    case ProtoType::kSint64: return "sint64";
  }
  return "unknown";
}

const ProtoEnumValue* ProtoEnum::Find(int32_t number) const {
  for (const ProtoEnumValue& v : values) {
    if (v.number == number) return &v;
  }
  return nullptr;
}

const ProtoField* ProtoMessage::FieldByNumber(int32_t number) const {
  for (const ProtoField& f : fields) {
    if (f.number == number) return &f;
  }
  return nullptr;
}

const ProtoField* ProtoMessage::FieldByName(std::string_view name) const {
  for (const ProtoField& f : fields) {
    if (f.name == name) return &f;
  }
  return nullptr;
}

std::string MapEntryName(std::string_view field_name) {
  std::string out;
  bool upper = true;
  for (char c : field_name) {
    if (c == '_') {
      upper = true;
      continue;
    }
    out += upper && c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c;
    upper = false;
  }
  return out + "Entry";
}

namespace {

using File = ProtoSchema::File;

std::unique_ptr<ProtoMessage> WellKnownMessage(std::string name, WellKnown kind,
                                               std::vector<std::pair<std::string, ProtoType>> fields) {
  auto message = std::make_unique<ProtoMessage>();
  message->name = name;
  message->full_name = "google.protobuf." + name;
  message->well_known = kind;
  int32_t number = 1;
  for (auto& [field_name, type] : fields) {
    ProtoField f;
    f.name = field_name;
    f.number = number++;
    f.type = type;
    message->fields.push_back(std::move(f));
  }
  return message;
}

// The well-known files' types are built in; other imports come from `imports`, when given.
Status AddImports(File& file, const ImportedFiles* imports) {
  for (const std::string& import : file.imports) {
    if (import == "google/protobuf/timestamp.proto") {
      file.well_known.push_back(WellKnownMessage(
          "Timestamp", WellKnown::kTimestamp, {{"seconds", ProtoType::kInt64}, {"nanos", ProtoType::kInt32}}));
    } else if (import == "google/protobuf/wrappers.proto") {
      const std::pair<const char*, ProtoType> wrappers[] = {
          {"DoubleValue", ProtoType::kDouble}, {"FloatValue", ProtoType::kFloat},   {"Int64Value", ProtoType::kInt64},
          {"UInt64Value", ProtoType::kUint64}, {"Int32Value", ProtoType::kInt32},   {"UInt32Value", ProtoType::kUint32},
          {"BoolValue", ProtoType::kBool},     {"StringValue", ProtoType::kString}, {"BytesValue", ProtoType::kBytes}};
      for (const auto& [name, type] : wrappers) {
        file.well_known.push_back(WellKnownMessage(name, WellKnown::kWrapper, {{"value", type}}));
      }
    } else if (imports != nullptr) {
      auto it = imports->find(import);
      // Other well-known files are not registered as references (Confluent's serializers skip
      // google/protobuf/ imports): valid Protobuf floe does not read.
      if (it == imports->end() && import.starts_with("google/protobuf/")) {
        return NotImplemented(
            "import \"{}\": of the well-known files only timestamp.proto and wrappers.proto are known", import);
      }
      if (it == imports->end()) {
        return InvalidArgument("import \"{}\": no schema reference (or file imported before it) has that name", import);
      }
      file.dependencies.push_back(it->second);
    } else {
      return NotImplemented(
          "import \"{}\": only google/protobuf/timestamp.proto and google/protobuf/wrappers.proto are known without "
          "schema references",
          import);
    }
  }
  return OkStatus();
}

// Makes an imported file's definition `name` visible in `file`. The same definition reached
// along two import paths, or a well-known type both files import, is one type; anything else
// defined twice is an error.
template <typename T>
Status AddVisible(File& file, std::map<std::string, const T*, std::less<>>& names, const std::string& name,
                  const T* definition) {
  const bool other_kind =
      std::is_same_v<T, ProtoEnum> ? file.message_by_name.contains(name) : file.enum_by_name.contains(name);
  auto it = names.find(name);
  if (!other_kind && it == names.end()) {
    names.emplace(name, definition);
    return OkStatus();
  }
  if (!other_kind && it->second == definition) return OkStatus();
  if constexpr (std::is_same_v<T, ProtoMessage>) {
    if (!other_kind && it->second->well_known != WellKnown::kNone && it->second->well_known == definition->well_known) {
      return OkStatus();
    }
  }
  return InvalidArgument("\"{}\" is defined twice (also by an imported file)", name);
}

Status Register(File& file, ProtoMessage& message, const std::string& scope, int depth) {
  if (depth > ProtoSchema::kMaxNesting) {
    return InvalidArgument("message {}: nested deeper than {}", message.name, ProtoSchema::kMaxNesting);
  }
  message.full_name = scope.empty() ? message.name : scope + "." + message.name;
  if (!file.message_by_name.emplace(message.full_name, &message).second || file.enum_by_name.contains(message.full_name)) {
    return InvalidArgument("\"{}\" is defined twice", message.full_name);
  }
  for (auto& e : message.enums) {
    e->full_name = message.full_name + "." + e->name;
    if (!file.enum_by_name.emplace(e->full_name, e.get()).second || file.message_by_name.contains(e->full_name)) {
      return InvalidArgument("\"{}\" is defined twice", e->full_name);
    }
  }
  for (auto& nested : message.nested) FLOE_RETURN_IF_ERROR(Register(file, *nested, message.full_name, depth + 1));
  return OkStatus();
}

// Protobuf's scoping: a relative name is looked for in the innermost scope first, then outwards.
// The text parser cannot tell a message type from an enum type by its name and says kMessage;
// the name decides.
Status ResolveField(const File& file, const ProtoMessage& scope, ProtoField& field) {
  if (field.type_name.empty()) {
    if (field.type == ProtoType::kMessage || field.type == ProtoType::kEnum || field.type == ProtoType::kGroup) {
      return InvalidArgument("field {}.{} has no type name", scope.full_name, field.name);
    }
    return OkStatus();
  }
  std::vector<std::string> candidates;
  if (field.type_name.starts_with('.')) {
    candidates.push_back(field.type_name.substr(1));
  } else {
    std::string prefix = scope.full_name;
    while (true) {
      candidates.push_back(prefix.empty() ? field.type_name : prefix + "." + field.type_name);
      if (prefix.empty()) break;
      const size_t dot = prefix.rfind('.');
      prefix = dot == std::string::npos ? "" : prefix.substr(0, dot);
    }
  }
  for (const std::string& name : candidates) {
    if (auto it = file.message_by_name.find(name); it != file.message_by_name.end()) {
      if (field.type == ProtoType::kEnum) {
        return InvalidArgument("field {}.{}: {} is a message, not an enum", scope.full_name, field.name, name);
      }
      if (field.type == ProtoType::kGroup) {
        return NotImplemented("field {}.{}: groups are not supported", scope.full_name, field.name);
      }
      field.type = ProtoType::kMessage;
      field.message = it->second;
      return OkStatus();
    }
    if (auto it = file.enum_by_name.find(name); it != file.enum_by_name.end()) {
      field.type = ProtoType::kEnum;
      field.enumeration = it->second;
      return OkStatus();
    }
  }
  return InvalidArgument("field {}.{}: type \"{}\" is not defined", scope.full_name, field.name, field.type_name);
}

bool IsValidMapKey(ProtoType type) {
  switch (type) {
    case ProtoType::kDouble:
    case ProtoType::kFloat:
    case ProtoType::kBytes:
    case ProtoType::kMessage:
    case ProtoType::kGroup:
    case ProtoType::kEnum: return false;
    default: return true;
  }
}

Status ResolveMessage(const File& file, ProtoMessage& message) {
  std::set<int32_t> numbers;
  std::set<std::string_view> names;
  for (ProtoField& field : message.fields) {
    if (field.number < 1 || field.number > (1 << 29) - 1) {
      return InvalidArgument("field {}.{}: number {} out of range [1, 536870911]", message.full_name, field.name,
                             field.number);
    }
    if (!numbers.insert(field.number).second) {
      return InvalidArgument("message {}: field number {} is used twice", message.full_name, field.number);
    }
    if (!names.insert(field.name).second) {
      return InvalidArgument("message {}: field \"{}\" is defined twice", message.full_name, field.name);
    }
    if (field.oneof >= static_cast<int32_t>(message.oneofs.size())) {
      return InvalidArgument("field {}.{}: oneof index {} out of range", message.full_name, field.name, field.oneof);
    }
    FLOE_RETURN_IF_ERROR(ResolveField(file, message, field));
  }
  if (message.map_entry) {
    const ProtoField* key = message.FieldByNumber(1);
    const ProtoField* value = message.FieldByNumber(2);
    if (key == nullptr || value == nullptr || message.fields.size() != 2 || key->IsRepeated() || value->IsRepeated()) {
      return InvalidArgument("map entry {} must have exactly a key (1) and a value (2)", message.full_name);
    }
    if (!IsValidMapKey(key->type)) {
      return InvalidArgument("map entry {}: a map key cannot be {}", message.full_name, ProtoTypeName(key->type));
    }
  }
  for (auto& nested : message.nested) FLOE_RETURN_IF_ERROR(ResolveMessage(file, *nested));
  return OkStatus();
}

}  // namespace

Status ResolveFile(File& file, const ImportedFiles* imports) {
  if (file.syntax != "proto2" && file.syntax != "proto3") {
    return NotImplemented("syntax \"{}\": only proto2 and proto3 are supported", file.syntax);
  }
  FLOE_RETURN_IF_ERROR(AddImports(file, imports));
  for (auto& m : file.well_known) file.message_by_name.emplace(m->full_name, m.get());
  for (auto& e : file.enums) {
    e->full_name = file.package.empty() ? e->name : file.package + "." + e->name;
    if (!file.enum_by_name.emplace(e->full_name, e.get()).second) {
      return InvalidArgument("\"{}\" is defined twice", e->full_name);
    }
  }
  for (auto& m : file.messages) FLOE_RETURN_IF_ERROR(Register(file, *m, file.package, 1));
  for (auto& e : file.enum_by_name) {
    if (e.second->values.empty()) return InvalidArgument("enum {} has no values", e.first);
  }
  // An imported file's maps hold its own definitions and those it sees: all are visible here.
  for (const auto& dependency : file.dependencies) {
    for (const auto& [name, message] : dependency->message_by_name) {
      FLOE_RETURN_IF_ERROR(AddVisible(file, file.message_by_name, name, message));
    }
    for (const auto& [name, e] : dependency->enum_by_name) {
      FLOE_RETURN_IF_ERROR(AddVisible(file, file.enum_by_name, name, e));
    }
  }
  for (auto& m : file.messages) FLOE_RETURN_IF_ERROR(ResolveMessage(file, *m));
  return OkStatus();
}

ProtoSchema::ProtoSchema(std::unique_ptr<File> file) : file_(std::move(file)) {}
ProtoSchema::ProtoSchema(ProtoSchema&&) noexcept = default;
ProtoSchema& ProtoSchema::operator=(ProtoSchema&&) noexcept = default;
ProtoSchema::~ProtoSchema() = default;

std::string_view ProtoSchema::syntax() const { return file_->syntax; }
std::string_view ProtoSchema::package() const { return file_->package; }
const std::vector<std::unique_ptr<ProtoMessage>>& ProtoSchema::messages() const { return file_->messages; }
const std::vector<std::unique_ptr<ProtoEnum>>& ProtoSchema::enums() const { return file_->enums; }
const std::vector<std::string>& ProtoSchema::imports() const { return file_->imports; }

const ProtoMessage* ProtoSchema::FindMessage(std::string_view full_name) const {
  auto it = file_->message_by_name.find(full_name);
  return it == file_->message_by_name.end() ? nullptr : it->second;
}

Result<const ProtoMessage*> ProtoSchema::MessageAt(std::span<const int32_t> indexes) const {
  if (indexes.empty()) return Corruption("empty message indexes");
  const std::vector<std::unique_ptr<ProtoMessage>>* level = &file_->messages;
  const ProtoMessage* message = nullptr;
  std::string path;
  for (int32_t index : indexes) {
    if (!path.empty()) path += ',';
    path += std::to_string(index);
    if (index < 0 || static_cast<size_t>(index) >= level->size()) {
      return Corruption("message indexes [{}]: index {} of {} message{} at that level", path, index, level->size(),
                        level->size() == 1 ? "" : "s");
    }
    message = (*level)[static_cast<size_t>(index)].get();
    level = &message->nested;
  }
  return message;
}

Result<std::unique_ptr<ProtoSchema::File>> ReadEitherFile(std::string_view schema) {
  if (schema.size() > ProtoSchema::kMaxSchemaBytes) {
    return InvalidArgument("Protobuf schema of {} bytes: more than {}", schema.size(), ProtoSchema::kMaxSchemaBytes);
  }
  size_t begin = schema.find_first_not_of(" \t\r\n");
  if (begin == std::string_view::npos) return InvalidArgument("empty Protobuf schema");
  size_t end = schema.find_last_not_of(" \t\r\n");
  std::string_view trimmed = schema.substr(begin, end - begin + 1);
  bool base64 = true;
  for (char c : trimmed) {
    const bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+' ||
                    c == '/' || c == '=';
    if (!ok) {
      base64 = false;
      break;
    }
  }
  if (!base64) return ReadTextFile(schema);
  auto serialized = Base64Decode(trimmed);
  if (!serialized) {
    return InvalidArgument("Protobuf schema: neither .proto text nor base64 of a FileDescriptorProto: {}",
                           serialized.error().message());
  }
  return ReadDescriptorFile(*serialized);
}

Result<ProtoSchema> ProtoSchema::Parse(std::string_view schema) {
  FLOE_ASSIGN_OR_RETURN(std::unique_ptr<File> file, ReadEitherFile(schema));
  FLOE_RETURN_IF_ERROR(ResolveFile(*file));
  return ProtoSchema(std::move(file));
}

Result<ProtoSchema> ProtoSchema::ParseWithImports(std::string_view schema, std::span<const ProtoImport> imports) {
  if (imports.size() > kMaxImports) {
    return InvalidArgument("Protobuf schema with {} imported files: more than {}", imports.size(), kMaxImports);
  }
  // Each file resolved with those before it: what it imports must already be there.
  ImportedFiles resolved;
  for (const ProtoImport& import : imports) {
    auto fail = [&](const Error& e) {
      return std::unexpected(Error(e).WithContext(fmt::format("imported file \"{}\"", import.name)));
    };
    if (resolved.contains(import.name)) return InvalidArgument("two imported files are named \"{}\"", import.name);
    auto file = ReadEitherFile(import.schema);
    if (!file) return fail(file.error());
    if (Status ok = ResolveFile(**file, &resolved); !ok) return fail(ok.error());
    resolved.emplace(import.name, std::shared_ptr<const File>(std::move(*file)));
  }
  FLOE_ASSIGN_OR_RETURN(std::unique_ptr<File> file, ReadEitherFile(schema));
  FLOE_RETURN_IF_ERROR(ResolveFile(*file, &resolved));
  return ProtoSchema(std::move(file));
}

}  // namespace floe::protobuf
