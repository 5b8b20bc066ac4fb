// Typed, error-returning reads of members of a JSON object (nlohmann::json), shared by every
// parser of Iceberg's JSON documents (schemas, specs, sort orders, table metadata). A missing
// or mistyped member is an InvalidArgument naming the member and where it was expected, rather
// than the exception nlohmann would throw. Stateless; any thread.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/result.h"

namespace floe::iceberg::json {

using Json = nlohmann::json;

// Parses JSON text; a syntax error names its byte offset. `what` names the document.
Result<Json> Parse(std::string_view text, std::string_view what);

Result<const Json*> Member(const Json& object, std::string_view key, std::string_view where);
const Json* OptionalMember(const Json& object, std::string_view key);

Result<int64_t> RequiredLong(const Json& object, std::string_view key, std::string_view where);
Result<int32_t> RequiredInt(const Json& object, std::string_view key, std::string_view where);
Result<std::string> RequiredString(const Json& object, std::string_view key, std::string_view where);
Result<bool> RequiredBool(const Json& object, std::string_view key, std::string_view where);

// Absent or null -> nullopt; present with the wrong type -> error.
Result<std::optional<int64_t>> OptionalLong(const Json& object, std::string_view key, std::string_view where);
Result<std::optional<int32_t>> OptionalInt(const Json& object, std::string_view key, std::string_view where);
Result<std::optional<std::string>> OptionalString(const Json& object, std::string_view key, std::string_view where);
Result<std::optional<bool>> OptionalBool(const Json& object, std::string_view key, std::string_view where);
Result<std::vector<int32_t>> OptionalIntList(const Json& object, std::string_view key, std::string_view where);
// A JSON object of string values (properties, snapshot summaries).
Result<std::map<std::string, std::string>> OptionalStringMap(const Json& object, std::string_view key,
                                                             std::string_view where);

Status ExpectObject(const Json& value, std::string_view where);

}  // namespace floe::iceberg::json
