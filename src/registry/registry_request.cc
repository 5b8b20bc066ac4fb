#include "registry/registry_request.h"

#include <charconv>

#include <nlohmann/json.hpp>

#include "base/json_depth.h"

namespace floe::registry {
namespace {

using Json = nlohmann::json;

RegistryResult<Json> ParseBodyObject(std::string_view body) {
  if (auto depth = CheckJsonDepth(body); !depth) {
    return Fail(RegistryErrorCode::kBadRequest, "request body: {}", depth.error().message());
  }
  Json json = Json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (json.is_discarded()) return Fail(RegistryErrorCode::kBadRequest, "request body: malformed JSON");
  if (!json.is_object()) return Fail(RegistryErrorCode::kBadRequest, "request body: expected a JSON object");
  return json;
}

}  // namespace

RegistryResult<SchemaContent> ParseSchemaRequest(std::string_view body) {
  auto json = ParseBodyObject(body);
  if (!json) return std::unexpected(json.error());
  SchemaContent content;
  auto schema = json->find("schema");
  if (schema == json->end() || !schema->is_string()) {
    return Fail(RegistryErrorCode::kInvalidSchema, "the request needs a 'schema' string");
  }
  content.schema = schema->get<std::string>();
  if (content.schema.size() > kMaxSchemaBytes) {
    return Fail(RegistryErrorCode::kInvalidSchema, "schema of {} bytes exceeds the limit of {}", content.schema.size(),
                kMaxSchemaBytes);
  }
  if (auto type = json->find("schemaType"); type != json->end() && !type->is_null()) {
    if (!type->is_string()) return Fail(RegistryErrorCode::kInvalidSchema, "'schemaType' must be a string");
    content.schema_type = type->get<std::string>();
    if (content.schema_type != "AVRO" && content.schema_type != "JSON" && content.schema_type != "PROTOBUF") {
      return Fail(RegistryErrorCode::kInvalidSchema, "unknown schema type '{}'", content.schema_type);
    }
  }
  if (auto references = json->find("references"); references != json->end() && !references->is_null()) {
    if (!references->is_array()) return Fail(RegistryErrorCode::kBadRequest, "'references' must be an array");
    if (references->size() > kMaxReferences) {
      return Fail(RegistryErrorCode::kInvalidSchema, "{} references exceed the limit of {}", references->size(),
                  kMaxReferences);
    }
    for (const Json& reference : *references) {
      if (!reference.is_object() || !reference.contains("name") || !reference["name"].is_string() ||
          !reference.contains("subject") || !reference["subject"].is_string() || !reference.contains("version") ||
          !reference["version"].is_number_integer()) {
        return Fail(RegistryErrorCode::kBadRequest, "each reference needs 'name', 'subject' and 'version'");
      }
      content.references.push_back({reference["name"].get<std::string>(), reference["subject"].get<std::string>(),
                                    reference["version"].get<int>()});
    }
  }
  return content;
}

RegistryResult<CompatibilityLevel> ParseConfigRequest(std::string_view body) {
  auto json = ParseBodyObject(body);
  if (!json) return std::unexpected(json.error());
  auto level = json->find("compatibility");
  if (level == json->end()) level = json->find("compatibilityLevel");
  if (level == json->end() || !level->is_string()) {
    return Fail(RegistryErrorCode::kInvalidCompatibilityLevel, "the request needs a 'compatibility' string");
  }
  auto parsed = ParseCompatibilityLevel(level->get<std::string>());
  if (!parsed) {
    return Fail(RegistryErrorCode::kInvalidCompatibilityLevel, "Invalid compatibility level '{}'",
                level->get<std::string>());
  }
  return *parsed;
}

RegistryResult<std::string> ParseModeRequest(std::string_view body) {
  auto json = ParseBodyObject(body);
  if (!json) return std::unexpected(json.error());
  auto mode = json->find("mode");
  if (mode == json->end() || !mode->is_string()) {
    return Fail(RegistryErrorCode::kInvalidMode, "the request needs a 'mode' string");
  }
  std::string text = mode->get<std::string>();
  if (text != "READWRITE" && text != "READONLY" && text != "IMPORT") {
    return Fail(RegistryErrorCode::kInvalidMode, "Invalid mode '{}'", text);
  }
  return text;
}

RegistryResult<int> ParseVersion(std::string_view text) {
  if (text == "latest" || text == "-1") return kLatestVersion;
  int version = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), version);
  if (error != std::errc() || end != text.data() + text.size() || version < 1) {
    return Fail(RegistryErrorCode::kInvalidVersion,
                "The specified version '{}' is not a valid version id. Allowed values are between [1, 2^31-1] and the "
                "string \"latest\"",
                text);
  }
  return version;
}

RegistryResult<CheckedSchema> CheckSchema(SchemaContent content) {
  CheckedSchema checked;
  if (content.schema_type == "PROTOBUF") {
    if (content.schema.find_first_not_of(" \t\r\n") == std::string::npos) {
      return Fail(RegistryErrorCode::kInvalidSchema, "empty Protobuf schema");
    }
    // Parsed when it stands alone: a schema that does not parse is refused; one floe cannot
    // read (imports of other files, editions, groups) is kept as sent and not checked.
    if (content.references.empty()) {
      auto parsed = protobuf::ProtoSchema::Parse(content.schema);
      if (parsed) {
        checked.protobuf = std::move(*parsed);
      } else if (parsed.error().kind() != ErrorKind::kNotImplemented) {
        return Fail(RegistryErrorCode::kInvalidSchema, "Invalid schema: {}", parsed.error().message());
      }
    }
    checked.content = std::move(content);
    return checked;
  }
  // Avro and JSON Schema are JSON texts: bound their nesting before any parser recurses.
  if (auto depth = CheckJsonDepth(content.schema); !depth) {
    return Fail(RegistryErrorCode::kInvalidSchema, "Invalid schema: {}", depth.error().message());
  }
  Json json = Json::parse(content.schema, nullptr, /*allow_exceptions=*/false);
  if (json.is_discarded()) return Fail(RegistryErrorCode::kInvalidSchema, "Invalid schema: malformed JSON");
  if (content.schema_type == "AVRO" && content.references.empty()) {
    auto parsed = avro::AvroSchema::FromJson(json);
    if (!parsed) return Fail(RegistryErrorCode::kInvalidSchema, "Invalid schema: {}", parsed.error().message());
    content.schema = parsed->ToJson();
    checked.avro = std::move(*parsed);
  } else {
    if (content.schema_type == "JSON" && !json.is_object() && !json.is_boolean()) {
      return Fail(RegistryErrorCode::kInvalidSchema, "Invalid schema: a JSON Schema is an object or a boolean");
    }
    content.schema = json.dump();
  }
  checked.content = std::move(content);
  return checked;
}

}  // namespace floe::registry
