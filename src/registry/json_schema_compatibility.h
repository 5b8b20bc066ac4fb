// JSON Schema compatibility under the registry's levels (compatibility.h): the candidate and
// each existing version compared by formats/json_schema's rules (json_schema_compatibility.h:
// content models, required, types, enums, bounds, items, oneOf/anyOf/allOf, `$ref`s followed
// into the referenced documents). Stateless; any thread.
#pragma once

#include <string>
#include <vector>

#include "formats/json_schema/json_schema.h"
#include "registry/compatibility.h"

namespace floe::registry {

// As AvroCompatibilityProblems: the candidate against the existing versions (oldest first).
std::vector<std::string> JsonSchemaCompatibilityProblems(CompatibilityLevel level,
                                                         const json_schema::JsonSchema& candidate,
                                                         const std::vector<const json_schema::JsonSchema*>& existing);

}  // namespace floe::registry
