// Fuzz target: bytes as a Protobuf schema as a Schema Registry holds it (.proto text, or base64
// of a serialized FileDescriptorProto), through ProtoSchema::Parse as the registry and the stream
// job parse it; the same bytes as a serialized descriptor; and as a file a schema imports through
// a schema reference (ParseWithImports), and as a schema importing a known file. A bad schema
// must be an error, never a crash; a schema that parses must resolve every message index path
// it names.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "formats/protobuf/proto_schema.h"

namespace {

// Walks every message reachable from the top, as message indexes would name them.
void Walk(const floe::protobuf::ProtoSchema& schema, const floe::protobuf::ProtoMessage& message,
          std::vector<int32_t>& path) {
  auto found = schema.MessageAt(path);
  if (!found || *found != &message) std::abort();
  for (const auto& field : message.fields) {
    if (field.type == floe::protobuf::ProtoType::kMessage && field.message == nullptr) std::abort();
    if (field.type == floe::protobuf::ProtoType::kEnum && field.enumeration == nullptr) std::abort();
  }
  for (size_t i = 0; i < message.nested.size(); ++i) {
    path.push_back(static_cast<int32_t>(i));
    Walk(schema, *message.nested[i], path);
    path.pop_back();
  }
}

void Check(const floe::Result<floe::protobuf::ProtoSchema>& schema) {
  if (!schema) {
    if (schema.error().message().empty()) std::abort();
    return;
  }
  std::vector<int32_t> path;
  for (size_t i = 0; i < schema->messages().size(); ++i) {
    path = {static_cast<int32_t>(i)};
    Walk(*schema, *schema->messages()[i], path);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  Check(floe::protobuf::ProtoSchema::Parse(bytes));
  Check(floe::protobuf::ProtoSchema::ParseDescriptor(bytes));
  const std::vector<floe::protobuf::ProtoImport> as_import = {{"dep.proto", std::string(bytes)}};
  Check(floe::protobuf::ProtoSchema::ParseWithImports(
      "syntax = \"proto3\"; import \"dep.proto\"; message Top { int32 a = 1; }", as_import));
  const std::vector<floe::protobuf::ProtoImport> known = {
      {"dep.proto", "syntax = \"proto3\"; package dep; message M { int64 v = 1; } enum E { Z = 0; }"}};
  Check(floe::protobuf::ProtoSchema::ParseWithImports(bytes, known));
  return 0;
}
