// The definitions a ProtoSchema owns, shared by its two parsers (proto_text_parser.cc,
// proto_descriptor_parser.cc) and the resolution both end with (proto_schema.cc). Internal to
// formats/protobuf.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "formats/protobuf/proto_schema.h"

namespace floe::protobuf {

struct ProtoSchema::File {
  std::string syntax = "proto2";  // A file without a syntax statement is proto2.
  std::string package;
  std::vector<std::string> imports;
  std::vector<std::unique_ptr<ProtoMessage>> messages;
  std::vector<std::unique_ptr<ProtoEnum>> enums;
  std::vector<std::unique_ptr<ProtoMessage>> well_known;  // Built-in types of the imports.
  std::map<std::string, const ProtoMessage*, std::less<>> message_by_name;
  std::map<std::string, const ProtoEnum*, std::less<>> enum_by_name;
  // Files imported through schema references (ParseWithImports): owned here too, since fields'
  // types point into them; a file imported along two paths is shared.
  std::vector<std::shared_ptr<const File>> dependencies;
};

// Resolved files available to imports, by import path.
using ImportedFiles = std::map<std::string, std::shared_ptr<const ProtoSchema::File>, std::less<>>;

// The parsers' definitions before resolution: .proto text, a serialized FileDescriptorProto,
// or either told apart as ProtoSchema::Parse does.
Result<std::unique_ptr<ProtoSchema::File>> ReadTextFile(std::string_view text);
Result<std::unique_ptr<ProtoSchema::File>> ReadDescriptorFile(std::string_view serialized);
Result<std::unique_ptr<ProtoSchema::File>> ReadEitherFile(std::string_view schema);

// Completes a parsed file: full names, the well-known types its imports name, every field's
// type resolved by Protobuf's scoping rules, and the checks both spellings share (duplicate
// field numbers and names, map key types). With `imports`, an import that is not well-known
// must be one of them and its definitions become visible; without, such an import is
// NotImplemented.
Status ResolveFile(ProtoSchema::File& file, const ImportedFiles* imports = nullptr);

// The name of the entry message protoc makes for a map field: "tag_counts" -> "TagCountsEntry".
std::string MapEntryName(std::string_view field_name);

}  // namespace floe::protobuf
