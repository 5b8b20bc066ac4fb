// Fuzz target: bytes as a JSON Schema as a Schema Registry holds it, through JsonSchema::Parse as
// the registry parses it (the same bytes also as a referenced document named "r.json"), then a
// parsed schema compared for compatibility with itself and with `true` and `false` both ways,
// as registration compares versions. A bad schema must be an error with a message, never a
// crash; every compatibility problem must name the JSON pointer it is about.
#include <cstdint>
#include <cstdlib>
#include <string_view>
#include <vector>

#include "formats/json_schema/json_schema.h"
#include "formats/json_schema/json_schema_compatibility.h"

namespace {

using floe::json_schema::JsonSchema;
using floe::json_schema::JsonSchemaReadProblems;

void Compare(const JsonSchema& reader, const JsonSchema& writer) {
  for (const std::string& problem : JsonSchemaReadProblems(reader, writer)) {
    if (!problem.starts_with('#')) std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  auto schema = JsonSchema::Parse(bytes, {});
  const std::vector<floe::json_schema::JsonSchemaDocument> references = {{"r.json", bytes}};
  auto referencing = JsonSchema::Parse(R"({"properties":{"a":{"$ref":"r.json"}}})", references);
  if (!schema) {
    if (schema.error().message().empty()) std::abort();
  } else {
    auto anything = JsonSchema::Parse("true", {});
    auto nothing = JsonSchema::Parse("false", {});
    if (!anything || !nothing) std::abort();
    Compare(*schema, *schema);
    Compare(*schema, *anything);
    Compare(*anything, *schema);
    Compare(*schema, *nothing);
    Compare(*nothing, *schema);
  }
  // A document that parses alone parses as a reference too (as one, a `$ref` to "r.json" in it
  // also resolves, so the converse does not hold).
  if (schema && !referencing) std::abort();
  if (referencing) Compare(*referencing, *referencing);
  return 0;
}
