// Parsing what clients send the registry: request bodies (a schema with its type and
// references, a compatibility level, a mode), version path segments, and the schema text
// itself (checked and put in canonical form, so the same schema sent twice gets the same id).
// Everything here comes from outside, so each input is bounded before it is parsed: the body's
// JSON nesting, the schema's size, its own nesting and its reference count. Stateless; any thread.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "formats/avro/avro_schema.h"
#include "formats/protobuf/proto_schema.h"
#include "registry/compatibility.h"
#include "registry/registry_error.h"
#include "registry/subject_store.h"

namespace floe::registry {

inline constexpr size_t kMaxSchemaBytes = 1 << 20;
inline constexpr size_t kMaxReferences = 256;
// Request bodies beyond this are refused by the HTTP server (413) before they are buffered.
inline constexpr uint64_t kMaxRequestBodyBytes = 4 << 20;

// {"schema": "...", "schemaType"?: "AVRO"|"JSON"|"PROTOBUF", "references"?: [...]}: malformed
// JSON or a body of the wrong shape is 400 (kBadRequest) as for any request; an unknown type
// or a missing or oversized schema is 42201 (kInvalidSchema).
RegistryResult<SchemaContent> ParseSchemaRequest(std::string_view body);

// {"compatibility": "BACKWARD"} (42203 for an unknown level).
RegistryResult<CompatibilityLevel> ParseConfigRequest(std::string_view body);
// {"mode": "READWRITE"|"READONLY"|"IMPORT"} (42204 for another).
RegistryResult<std::string> ParseModeRequest(std::string_view body);

// A version segment: a positive number, or "latest" / -1 (returned as kLatestVersion); 42202
// for anything else.
inline constexpr int kLatestVersion = -1;
RegistryResult<int> ParseVersion(std::string_view text);

// `content` checked for its type and its schema put in canonical form: Avro parsed (and
// written back by floe's Avro parser), JSON parsed and re-serialized, Protobuf kept as sent.
// An Avro schema that refers to named types of its references cannot be parsed alone; it is
// kept as JSON here, and SchemaRegistry parses it with its references' types (which needs the
// store). 42201 when it does not parse.
struct CheckedSchema {
  SchemaContent content;
  std::optional<avro::AvroSchema> avro;  // For the compatibility check.
  std::optional<protobuf::ProtoSchema> protobuf;  // PROTOBUF without references, when floe parses it.
};
RegistryResult<CheckedSchema> CheckSchema(SchemaContent content);

}  // namespace floe::registry
