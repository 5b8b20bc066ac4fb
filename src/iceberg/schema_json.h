// The JSON form of types and schemas (format/spec.md, Appendix C "Schemas"): what
// metadata.json, REST catalog bodies and `floe table create --schema` carry.
//
// Stateless functions; any thread.
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

#include "iceberg/schema.h"

namespace floe::iceberg {

// Parses a schema document: {"type":"struct","schema-id":0,"fields":[...],
// "identifier-field-ids":[...]}. A missing schema-id reads as 0 (v1). The result is validated
// (unique ids, identifier fields). Errors are InvalidArgument and name the offending field.
Result<Schema> SchemaFromJson(std::string_view text);
Result<Schema> SchemaFromJsonValue(const nlohmann::json& value);

// Writes the canonical form: compact JSON text, or a JSON value to embed in a larger document.
std::string SchemaToJson(const Schema& schema);
nlohmann::json SchemaToJsonValue(const Schema& schema);

// A type alone: a primitive name string, or a struct/list/map object.
Result<TypePtr> TypeFromJsonValue(const nlohmann::json& value);
nlohmann::json TypeToJsonValue(const Type& type);

}  // namespace floe::iceberg
